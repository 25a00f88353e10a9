//! The README and the book hold together: every page `docs/src/SUMMARY.md` lists exists, every
//! book page is listed, every relative link in the README and the book resolves to a file, and
//! the README stays a front door (at most 12 KB).

mod common;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The targets of the Markdown links `[text](target)` outside code blocks and code spans.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `](x)` inside backticks is not a link.
        let text: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].trim().to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// The file a relative link from `page` names, or `None` for an external link or an anchor.
fn local_file(page: &Path, target: &str) -> Option<PathBuf> {
    if target.contains("://") || target.starts_with("mailto:") || target.starts_with('#') {
        return None;
    }
    let path = target.split('#').next().unwrap_or("");
    Some(page.parent().unwrap().join(path))
}

fn book_pages() -> Vec<PathBuf> {
    let mut pages = common::files_under(&root().join("docs/src"));
    pages.retain(|p| p.extension().is_some_and(|e| e == "md"));
    pages
}

#[test]
fn every_summary_page_exists_and_every_page_is_listed() {
    let summary_path = root().join("docs/src/SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let listed: Vec<PathBuf> =
        link_targets(&summary).iter().filter_map(|t| local_file(&summary_path, t)).collect();
    assert!(listed.len() >= 20, "SUMMARY.md lists only {} pages", listed.len());
    for page in &listed {
        assert!(page.is_file(), "SUMMARY.md lists {}, which does not exist", page.display());
    }
    for page in book_pages() {
        if page != summary_path {
            assert!(listed.contains(&page), "{} is not listed in SUMMARY.md", page.display());
        }
    }
}

#[test]
fn every_relative_link_resolves() {
    let mut pages = book_pages();
    pages.push(root().join("README.md"));
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in link_targets(&text) {
            if let Some(file) = local_file(page, &target) {
                if !file.exists() {
                    broken.push(format!("{}: ({target})", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn link_targets_skip_code() {
    let md = "see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d](d.md#x)";
    assert_eq!(link_targets(md), ["a.md", "d.md#x"]);
}

#[test]
fn readme_is_a_front_door() {
    let size = std::fs::metadata(root().join("README.md")).unwrap().len();
    assert!(size <= 12 * 1024, "README.md is {size} bytes; the limit is 12 KB");
}

/// The book's block table names every module the registry exports, for every preset.
#[test]
fn the_block_table_names_every_registered_module() {
    use simt_rtl::preset_blocks::{CuBlocks, PresetBlocks, SeedBlocks, TinyBlocks};
    fn modules<B: PresetBlocks>() -> Vec<&'static str> {
        simt_rtl::registry::entries::<B>().iter().map(|e| e.module).collect()
    }
    let table = std::fs::read_to_string(root().join("docs/src/blocks.md")).unwrap();
    let mut all = modules::<CuBlocks>();
    all.extend(modules::<SeedBlocks>());
    all.extend(modules::<TinyBlocks>());
    for module in all {
        assert!(
            table.contains(&format!("`{module}`")),
            "docs/src/blocks.md does not name the registered module `{module}`"
        );
    }
}

/// The test command's measured time (`results/test-time.md`, written by `scripts/test-time.sh`)
/// is kept fresh: at most 20 commits that touch `src/`, `tests/` or `scripts/` since the commit
/// it names.
#[test]
fn the_test_time_table_is_recent() {
    let page = std::fs::read_to_string(root().join("docs/src/results/test-time.md")).unwrap();
    let stamp = page
        .split("on commit `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("test-time.md names no commit (`on commit `...``)");
    let out = std::process::Command::new("git")
        .args(["rev-list", "--count", &format!("{stamp}..HEAD"), "--", "src", "tests", "scripts"])
        .current_dir(root())
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "test-time.md's commit {stamp} is not in this checkout's git history, so its age cannot be counted"
    );
    let since: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert!(
        since <= 20,
        "test-time.md is {since} commits behind in src/, tests/ or scripts/ (at most 20): run `bash scripts/test-time.sh`"
    );
}
