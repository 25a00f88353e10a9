//! The README and the book hold together: every page `docs/src/SUMMARY.md` lists exists, every
//! book page is listed, every relative link in the README and the book resolves to a file (and
//! its `#anchor` to one of that page's headings), and
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
            if let Some(anchor) = target.strip_prefix('#') {
                if !heading_ids(&text).contains(&anchor.to_string()) {
                    broken.push(format!("{}: ({target})", page.display()));
                }
                continue;
            }
            let Some(file) = local_file(page, &target) else { continue };
            let anchor = target.split_once('#').map(|(_, anchor)| anchor);
            let resolves = match (file.is_file(), anchor) {
                (true, Some(anchor)) if file.extension().is_some_and(|e| e == "md") => {
                    heading_ids(&std::fs::read_to_string(&file).unwrap())
                        .contains(&anchor.to_string())
                }
                (exists, _) => exists || file.is_dir(),
            };
            if !resolves {
                broken.push(format!("{}: ({target})", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The anchors mdBook gives a page's headings: the heading's text without code marks and link
/// targets, lower case, spaces as `-`, other punctuation dropped (mdBook's `normalize_id`).
fn heading_ids(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut ids = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else { continue };
        let text = heading.trim_start_matches('#').trim();
        let mut plain = String::new();
        let mut in_target = false;
        for (i, ch) in text.char_indices() {
            match ch {
                '(' if text[..i].ends_with(']') => in_target = true,
                ')' if in_target => in_target = false,
                _ if in_target => {}
                ch if ch.is_alphanumeric() || ch == '_' || ch == '-' => {
                    plain.extend(ch.to_lowercase())
                }
                ch if ch.is_whitespace() => plain.push('-'),
                _ => {}
            }
        }
        ids.push(plain);
    }
    ids
}

#[test]
fn heading_ids_are_mdbooks() {
    let md =
        "# SIMT core\n## The `cu` core's [timing](x.md)\n```\n# not a heading\n```\n### A, b: c";
    assert_eq!(heading_ids(md), ["simt-core", "the-cu-cores-timing", "a-b-c"]);
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

/// The text of `page` between the line `start` and the line `end`.
fn between<'a>(page: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let (_, rest) = page.split_once(&format!("{start}\n"))?;
    rest.split_once(end).map(|(t, _)| t)
}

/// The ISA page's table of core presets is the presets' own (`params::core_presets_markdown`),
/// between its markers: a size changed in `src/params.rs` fails here until the page says it.
/// So is its table of pseudo-instructions, the assembler's (`asm::pseudo_instructions_markdown`).
#[test]
fn the_isa_pages_tables_are_the_presets_and_the_assemblers() {
    let page = std::fs::read_to_string(root().join("docs/src/isa.md")).unwrap();
    for (start, end, fresh) in [
        (
            "<!-- core presets: simt_rtl::params::core_presets_markdown(), checked by tests/docs.rs -->",
            "<!-- end of core presets -->",
            simt_rtl::params::core_presets_markdown(),
        ),
        (
            "<!-- pseudo-instructions: simt_rtl::isa::asm::pseudo_instructions_markdown(), checked by tests/docs.rs -->",
            "<!-- end of pseudo-instructions -->",
            simt_rtl::isa::asm::pseudo_instructions_markdown(),
        ),
    ] {
        let table = between(&page, start, end)
            .unwrap_or_else(|| panic!("docs/src/isa.md has no markers `{start}` ... `{end}`"));
        assert!(
            table == fresh,
            "docs/src/isa.md's table after `{start}` is not what it shows: put this between its markers:\n{fresh}"
        );
    }
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
/// `docs/src/results/proven-equal.txt`), measured on a clean commit; or the table says `Stale: why` on a line above its stamp, and then every line
/// of the README and the book that links to it says "stale" too. The test command's own tables
/// (`test-time.md` and `ci-cycles.md`, written together by `scripts/test-time.sh`) measure no
/// file but the whole suite: [`the_test_time_table_is_recent`] and
/// [`the_test_time_tables_list_every_test_binary`] keep them fresh instead.
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
        if stamped_commit(&text).is_some_and(|c| c.contains("uncommitted")) {
            problems.push(format!("{name} was measured with uncommitted changes: run the command in its stamp again on a clean commit, or add a `Stale:` line at its top"));
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

/// The numbers written in `text` (`4,653`, `55.6`, `54.1-57.8` as two), commas dropped, each
/// with its count of decimals.
fn numbers(text: &str) -> Vec<(f64, usize)> {
    let mut found = vec![];
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (!word.is_empty() && (c == ',' || c == '.')) {
            word.push(c);
            continue;
        }
        let digits = word.trim_end_matches([',', '.']).replace(',', "");
        if let Ok(value) = digits.parse::<f64>() {
            found.push((value, digits.split_once('.').map_or(0, |(_, d)| d.len())));
        }
        word.clear();
    }
    found
}

/// Whether the README's `(value, decimals)` is one of `table`'s numbers, written as precisely
/// or rounded to the README's decimals (`61%` of a table's `60.6%`).
fn states(table: &[(f64, usize)], (value, decimals): (f64, usize)) -> bool {
    let scale = 10f64.powi(decimals as i32);
    table.iter().any(|(t, _)| ((t * scale).round() - value * scale).abs() < 0.5)
}

/// The README's headline figures are read from the generated tables their rows link to: every
/// number in a row's figure cell is one of its tables' numbers (rounded at most to the README's
/// decimals), so a README that keeps figures its tables no longer give fails.
#[test]
fn readme_headline_figures_are_their_tables() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split("## Headline results").nth(1).expect("a headline section");
    let section = section.split("\n## ").next().unwrap();
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with('|')).skip(2).collect();
    assert!(rows.len() >= 5, "{} headline rows", rows.len());
    let mut problems = vec![];
    for row in rows {
        let figure = row.trim_matches('|').split('|').nth(1).unwrap_or_default();
        let tables: Vec<PathBuf> = link_targets(figure)
            .iter()
            .filter_map(|t| local_file(&root().join("README.md"), t))
            .filter(|f| f.starts_with(root().join("docs/src/results")))
            .collect();
        if tables.is_empty() {
            problems.push(format!("`{}`: links to no generated table", figure.trim()));
            continue;
        }
        let stated: Vec<(f64, usize)> =
            tables.iter().flat_map(|t| numbers(&std::fs::read_to_string(t).unwrap())).collect();
        // The figure's own words, without its links' targets.
        let words: String = figure
            .split("](")
            .enumerate()
            .map(
                |(i, part)| {
                    if i == 0 {
                        part
                    } else {
                        part.split_once(')').map_or("", |(_, rest)| rest)
                    }
                },
            )
            .collect();
        for n in numbers(&words).into_iter().filter(|n| !states(&stated, *n)) {
            problems.push(format!(
                "README headline `{}`: {} is not in {}",
                figure.trim(),
                n.0,
                tables.iter().map(|t| t.display().to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn numbers_are_read_as_written() {
    assert_eq!(
        numbers("4,653 cells (61%), 54.1-57.8 MHz."),
        [(4653.0, 0), (61.0, 0), (54.1, 1), (57.8, 1)]
    );
    assert!(states(&[(60.6, 1)], (61.0, 0)) && !states(&[(60.6, 1)], (60.0, 0)));
    assert!(states(&[(45.0, 1)], (45.0, 0)) && !states(&[(428_445.0, 0)], (1.1, 1)));
}

/// The stamps' commit (`on commit `HASH``) of a generated table.
fn stamped_commit(text: &str) -> Option<&str> {
    text.split("on commit `").nth(1)?.split('`').next()
}

/// The test command's two tables (`test-time.md`, `ci-cycles.md`, written together by
/// `scripts/test-time.sh`) measure today's suite: test-time.md lists every test binary (each
/// `tests/*.rs` and each example run as a test) and ci-cycles.md names no binary that is gone,
/// both from one clean commit.
#[test]
fn the_test_time_tables_list_every_test_binary() {
    // `scripts/test-time.sh` runs the test command to rewrite these tables.
    if std::env::var_os("SIMT_REWRITING_TEST_TIME").is_some() {
        return;
    }
    let results = root().join("docs/src/results");
    let times = std::fs::read_to_string(results.join("test-time.md")).unwrap();
    let cycles = std::fs::read_to_string(results.join("ci-cycles.md")).unwrap();
    let commit = stamped_commit(&times).expect("test-time.md names its commit");
    assert!(!commit.contains(' '), "test-time.md was measured on `{commit}`");
    assert_eq!(
        stamped_commit(&cycles),
        Some(commit),
        "ci-cycles.md and test-time.md come from one run"
    );
    let mut binaries: Vec<String> = std::fs::read_dir(root().join("tests"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for example in manifest.split("[[example]]").skip(1) {
        let name = example.split("name = \"").nth(1).and_then(|r| r.split('"').next()).unwrap();
        if example.split("\n[").next().unwrap().contains("test = true") {
            binaries.push(format!("example/{name}"));
        }
    }
    let row_of = |text: &str, b: &str| text.lines().any(|l| l.starts_with(&format!("| {b} |")));
    let unlisted: Vec<&String> = binaries.iter().filter(|b| !row_of(&times, b)).collect();
    assert!(
        unlisted.is_empty(),
        "test-time.md does not list {unlisted:?}: run `bash scripts/test-time.sh`"
    );
    for line in cycles
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| binary") && !l.starts_with("| engine"))
    {
        let binary = line.split('|').nth(1).unwrap().trim();
        let engine_row = ["iverilog", "rust-hdl", "verilator"].contains(&binary);
        // rustdoc names every doc test's binary `rust_out`.
        let doc_test = binary == "rust_out";
        assert!(
            engine_row || doc_test || binaries.iter().any(|b| b == binary),
            "ci-cycles.md names `{binary}`, no test binary now"
        );
    }
}

/// Each record of `proven-equal.txt` (`PATH OLD NEW REV`) names a commit of this history that
/// holds `OLD` at `PATH`: the revision the proof started from can be checked out again.
#[test]
fn equivalence_records_name_their_commits() {
    let proofs = std::fs::read_to_string(root().join("docs/src/results/proven-equal.txt")).unwrap();
    let mut bad = vec![];
    for line in proofs.lines().filter(|l| !l.starts_with('#')) {
        let [path, old, _, rev] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            bad.push(format!("`{line}` is not `PATH OLD NEW REV`"));
            continue;
        };
        if git(&["rev-parse", &format!("{rev}:{path}")]).is_none_or(|blob| blob != old) {
            bad.push(format!(
                "`{line}`: {rev} is not a commit of this history with {old} at {path}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
