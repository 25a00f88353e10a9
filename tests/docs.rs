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

/// What `git args`, run at the crate's root, prints (trimmed) when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    std::process::Command::new("git")
        .args(args)
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
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
    use simt_rtl::registry::{CuBlocks, PresetBlocks, SeedBlocks, TinyBlocks};
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
/// it names. Skipped inside `scripts/test-time.sh` (`SIMT_REWRITING_TEST_TIME`), which measures
/// the test command in order to rewrite the table.
#[test]
fn the_test_time_table_is_recent() {
    // `scripts/test-time.sh` runs the test command to rewrite this table: its own age is moot then.
    if std::env::var_os("SIMT_REWRITING_TEST_TIME").is_some() {
        return;
    }
    let page = std::fs::read_to_string(root().join("docs/src/results/test-time.md")).unwrap();
    let stamp = page
        .split("on commit `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("test-time.md names no commit (`on commit `...``)");
    let range = format!("{stamp}..HEAD");
    let out = git(&["rev-list", "--count", &range, "--", "src", "tests", "scripts"]);
    let Some(out) = out else {
        panic!("test-time.md's commit {stamp} is not in this checkout's git history, so its age cannot be counted")
    };
    let since: usize = out.parse().unwrap();
    assert!(
        since <= 20,
        "test-time.md is {since} commits behind in src/, tests/ or scripts/ (at most 20): run `bash scripts/test-time.sh`"
    );
}

/// Every generated table under `docs/src/results/` names the committed files it measured on an
/// `Inputs: PATH HASH, ...` line (`simt_rtl::flow::results::inputs_line`), and none of them has
/// changed since, or each was proven equal to what it is now (`scripts/equiv.sh --record`, in
/// `docs/src/results/proven-equal.txt`); or the table says `Stale: why` on a line above its stamp, and then every line
/// of the README and the book that links to it says "stale" too. The test command's own tables
/// (`test-time.md` and `ci-cycles.md`, written together by `scripts/test-time.sh`) are kept
/// fresh by [`the_test_time_table_is_recent`] instead.
#[test]
fn generated_tables_match_their_inputs_or_say_stale() {
    assert!(git(&["--version"]).is_some(), "git is needed to hash the tables' inputs");
    let mut problems = Vec::new();
    let proofs = std::fs::read_to_string(root().join("docs/src/results/proven-equal.txt"))
        .unwrap_or_default();
    let mut tables = common::files_under(&root().join("docs/src/results"));
    tables.retain(|p| p.extension().is_some_and(|e| e == "md"));
    for table in tables {
        let name = table.file_name().unwrap().to_string_lossy().to_string();
        if name == "test-time.md" || name == "ci-cycles.md" {
            continue;
        }
        let text = std::fs::read_to_string(&table).unwrap();
        let head: Vec<&str> = text.lines().take_while(|l| !l.starts_with("Generated by")).collect();
        if head.iter().any(|l| l.starts_with("Stale:")) {
            problems.extend(links_not_saying_stale(&table));
            continue;
        }
        let Some(line) = text.lines().find(|l| l.starts_with("Inputs: ")) else {
            problems.push(format!("{name} has no `Inputs:` line: run the command in its stamp again, or add a `Stale:` line at its top"));
            continue;
        };
        let listed = line.trim_start_matches("Inputs: ");
        for entry in listed.split(", ").filter(|e| *e != "none") {
            let (path, hash) = entry.rsplit_once(' ').unwrap_or((entry, ""));
            let now = git(&["hash-object", "--", path]).filter(|_| root().join(path).is_file());
            match now {
                Some(h) if hash.len() >= 7 && proven_chain(path, hash, &h, &proofs) => {}
                Some(_) => problems.push(format!("{name}: {path} has changed since it was measured: run the command in its stamp again, or add a `Stale:` line at its top")),
                None => problems.push(format!("{name}: its input {path} is not a file of this repository")),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `path` at blob `hash` (a prefix) is the blob `now`, or was proven equal to it through a chain
/// of `scripts/equiv.sh --record` proofs (`proofs`: lines `PATH OLD NEW REV`).
fn proven_chain(path: &str, hash: &str, now: &str, proofs: &str) -> bool {
    let mut at = hash.to_string();
    for _ in 0..=proofs.lines().count() {
        if now.starts_with(&at) {
            return true;
        }
        let next = proofs.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 4 && f[0] == path && f[1].starts_with(&at)).then(|| f[2].to_string())
        });
        match next {
            Some(n) => at = n,
            None => return false,
        }
    }
    false
}

/// The lines of the README and the book that link to `table` without saying it is stale.
fn links_not_saying_stale(table: &Path) -> Vec<String> {
    let mut pages = book_pages();
    pages.push(root().join("README.md"));
    let table_file = table.canonicalize().ok();
    let mut found = Vec::new();
    for page in pages.iter().filter(|p| *p != table) {
        let text = std::fs::read_to_string(page).unwrap();
        for (number, line) in text.lines().enumerate() {
            let links_here = link_targets(line)
                .iter()
                .filter_map(|t| local_file(page, t))
                .any(|f| f.canonicalize().ok() == table_file);
            if links_here && !line.to_lowercase().contains("stale") {
                found.push(format!(
                    "{}:{}: links to the stale table {} without saying it is stale",
                    page.display(),
                    number + 1,
                    table.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    found
}
