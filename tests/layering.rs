//! The layering stated in `src/lib.rs`'s crate documentation holds: a top-level module of
//! `src/` refers (`crate::x`) only to modules of the layers below its own.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, bottom first (the same table as `src/lib.rs`).
const LAYERS: &[&[&str]] = &[
    &["params", "protocol"],
    &["sim"],
    &["isa", "export"],
    &["hw"],
    &["link"],
    &["boards"],
    &["bench", "demo"],
    &["verify"],
    &["registry"],
    &["flow"],
    &["commands"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The crate's modules named after `crate::` in `source` (comments left out), single
/// (`crate::a::b`) or grouped (`crate::{a, b::c}`).
fn crate_references(source: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
    };
    let mut refs = BTreeSet::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                refs.extend(group.split(',').map(|item| ident(item.trim())));
            } else {
                refs.insert(ident(rest));
            }
        }
    }
    refs.retain(|r| !r.is_empty());
    refs
}

#[test]
fn every_module_imports_only_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = common::files_under(&src);
    files.retain(|f| f.extension().is_some_and(|e| e == "rs"));
    let mut broken = vec![];
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "main" || module == "lib" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            broken.push(format!("src/{first}: a top-level module missing from LAYERS"));
            continue;
        };
        for used in crate_references(&std::fs::read_to_string(file).unwrap()) {
            match layer_of(&used) {
                Some(layer) if layer < own || used == module => {}
                Some(layer) => broken.push(format!(
                    "{}: `{module}` (layer {own}) uses `{used}` (layer {layer})",
                    rel.display()
                )),
                None => {}
            }
        }
    }
    assert!(broken.is_empty(), "the layering is broken:\n{}", broken.join("\n"));
}

#[test]
fn references_are_found_in_every_form() {
    let source =
        "use crate::params::X;\nuse crate::{isa, sim::Rng};\n// crate::flow\n$crate::sim::Dut";
    let want: BTreeSet<String> = ["params", "isa", "sim"].map(String::from).into();
    assert_eq!(crate_references(source), want);
}

/// The library reads no file of its own checkout at run time (a dependency's checkout is the
/// cargo registry's): what it needs is built in with `include_str!`. Only the command line's
/// flags name paths of the repository, as their defaults.
/// The lines of `src/`'s Rust files, but the file `skip`, for which `hit` holds, each as
/// `FILE:LINE: text`.
fn source_lines(skip: &str, hit: impl Fn(&str) -> bool) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = vec![];
    for file in common::files_under(&src) {
        if file.extension().is_none_or(|e| e != "rs") || file.ends_with(skip) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate().filter(|(_, line)| hit(line)) {
            found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn the_library_reads_nothing_from_its_checkout() {
    let reads = source_lines("main.rs", |line| line.contains(concat!("CARGO_", "MANIFEST_DIR")));
    assert!(reads.is_empty(), "library code names its own checkout:\n{}", reads.join("\n"));
}

/// Every tool the crate starts is started through `sim::interrupt::Guarded`, so that an
/// interrupt that comes while a tool is being started still ends it (`spawn_guarded` and the
/// others wait, once a signal has come, instead of starting one the interrupt thread would miss).
#[test]
fn every_tool_starts_through_the_interrupt_guard() {
    let calls = [".spawn()", ".output()", ".status()"];
    let unguarded =
        source_lines("sim/interrupt.rs", |line| calls.iter().any(|call| line.contains(call)));
    assert!(unguarded.is_empty(), "tools started without the guard:\n{}", unguarded.join("\n"));
}

/// Every block folder with a reference model (`model.rs`) holds its stimulus (`stimulus.rs`)
/// beside it, as the book's block table says.
#[test]
fn every_modelled_block_has_its_stimulus_in_its_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let missing: Vec<String> = common::files_under(&src)
        .into_iter()
        .filter(|f| f.ends_with("model.rs") && !f.with_file_name("stimulus.rs").is_file())
        .map(|f| f.parent().unwrap().display().to_string())
        .collect();
    assert!(missing.is_empty(), "block folders without a stimulus.rs: {missing:?}");
}

/// A block's exported module name, as a string, appears in no Rust source outside the block's
/// folder but the registry and the subsystem's `mod.rs` (the book's block table is checked by
/// `tests/docs.rs`): no suite, flow or command keeps a list of blocks or special-cases one by
/// name, so a new block touches only those files outside its folder. Elsewhere a block's name
/// comes from the registry, or from a `MODULE` constant its folder exports.
#[test]
fn block_names_stay_in_their_folders() {
    use simt_rtl::registry::{folders, CuBlocks, SeedBlocks, TinyBlocks};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut owners: Vec<(String, &str)> = vec![];
    for (folder, modules) in folders::<CuBlocks>()
        .into_iter()
        .chain(folders::<SeedBlocks>())
        .chain(folders::<TinyBlocks>())
    {
        let dir = format!("src/{}/", folder.replace("::", "/"));
        owners.extend(modules.into_iter().map(|m| (dir.clone(), m)));
    }
    assert!(owners.len() > 20, "{} modules", owners.len());
    let mut found = vec![];
    for dir in ["src", "tests", "examples"].map(|d| root.join(d)).iter().filter(|d| d.is_dir()) {
        for file in common::files_under(dir) {
            let rel = file.strip_prefix(root).unwrap().to_string_lossy().to_string();
            if file.extension().is_none_or(|e| e != "rs") || rel == "src/registry/mod.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (dir, module) in &owners {
                let subsystem = format!("{}/mod.rs", Path::new(dir).parent().unwrap().display());
                if rel.starts_with(dir.as_str()) || rel == subsystem {
                    continue;
                }
                if text.contains(&format!("\"{module}\"")) {
                    found.push(format!("{rel} names `{module}` (its folder: {dir})"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(found.is_empty(), "block names outside their folders:\n{}", found.join("\n"));
}
