//! The exported Verilog in rtl_out/: fresh (byte-identical to what `simt-rtl gen` writes now),
//! accepted by rust-hdl's yosys_validate, synthesized by yosys synth_ice40 without latches, and
//! clean under `verilator --lint-only -Wall` with the waivers in sim/verilator_waivers.vlt.

mod common;

use std::path::{Path, PathBuf};

use common::files_under;

use rust_hdl::prelude::*;
use simt_rtl::export::entry::TestSynthesis;
use simt_rtl::flow::gen::generate;
use simt_rtl::flow::{synth_ice40, verilator_lint};

fn rtl_out() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out")
}

#[test]
fn rtl_out_is_fresh() {
    let tmp = std::env::temp_dir().join(format!("simt-rtl-fresh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    generate(&["cu", "seed"], &tmp).unwrap();
    let fresh: Vec<PathBuf> =
        files_under(&tmp).iter().map(|p| p.strip_prefix(&tmp).unwrap().to_path_buf()).collect();
    let committed: Vec<PathBuf> = files_under(&rtl_out())
        .iter()
        .map(|p| p.strip_prefix(rtl_out()).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        fresh, committed,
        "rtl_out/ has other files than `cargo run -- gen` writes: regenerate it"
    );
    for f in &fresh {
        let a = std::fs::read(tmp.join(f)).unwrap();
        let b = std::fs::read(rtl_out().join(f)).unwrap();
        assert!(
            a == b,
            "rtl_out/{} is stale: run `cargo run -- gen` and commit rtl_out/",
            f.display()
        );
    }
    // Deterministic: a second run writes the same bytes.
    let tmp2 = tmp.with_extension("again");
    generate(&["cu", "seed"], &tmp2).unwrap();
    for f in &fresh {
        assert_eq!(
            std::fs::read(tmp.join(f)).unwrap(),
            std::fs::read(tmp2.join(f)).unwrap(),
            "{} differs between runs",
            f.display()
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let _ = std::fs::remove_dir_all(&tmp2);
}

/// Every exported module of presets cu and seed, as `(preset, module)`: what `gen` wrote for
/// them (`rtl_out/manifest.json`: the registry's blocks and the board top).
fn exported() -> Vec<(String, String)> {
    let mut v = vec![];
    for preset in [simt_rtl::params::CU, simt_rtl::params::SEED] {
        let designs = simt_rtl::flow::report::designs(&preset, &rtl_out()).unwrap();
        let modules = designs.into_iter().filter(|d| d.built_in.is_none()).map(|d| d.name);
        v.extend(modules.map(|m| (preset.name.to_string(), m)));
    }
    v
}

/// rust-hdl's own check of its Verilog (`yosys_validate`: read as Verilog-95, every module
/// present, no implicit wire, no latch, no undriven wire) on every exported file, its module
/// named `top` as that check expects.
#[test]
fn rust_hdl_yosys_validate() {
    for (preset, module) in exported() {
        let text =
            std::fs::read_to_string(rtl_out().join(&preset).join(format!("{module}.v"))).unwrap();
        let top = text.replacen(&format!("module {module}("), "module top(", 1);
        let name = format!("simt_rtl_validate_{preset}_{module}_{}", std::process::id());
        yosys_validate(&name, &top).unwrap_or_else(|e| panic!("{preset}/{module}: {e:?}"));
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join(&name));
    }
}

/// How the registry has the synthesis check treat each module of `preset` (its
/// `synthesis_in_tests`). Not mapped here: the seed-sized operand collector and its bank arbiter
/// (`StructureOnly`: not board targets, and their full synth_ice40 takes minutes on the CI
/// machine, over two for the arbiter alone; `SIMT_SYNTH_ALL=1` maps them too, and the arbiter's
/// `synth_ecp5` mapping is a table of its own, docs/src/results/synth-seed-bank-arbiter-ecp5.md,
/// by scripts/results.sh), and the board tops (`MappedByBoardBuild`: tests/board_build.rs
/// maps them to iCE40 cells on the way to their bitstreams, with the same latch check, and
/// checks that it did). Both get the latch and structural checks without the mapping here.
fn synthesis_in_tests(preset: &str) -> Vec<(&'static str, TestSynthesis)> {
    let list = || -> anyhow::Result<Vec<(&'static str, TestSynthesis)>> {
        simt_rtl::with_preset!(preset, B => Ok(simt_rtl::registry::entries::<B>()
            .into_iter()
            .map(|e| (e.module, e.synthesis_in_tests))
            .collect()))
    };
    list().unwrap()
}

fn synthesizes_without_latches(preset: &str) {
    let all = simt_rtl::sim::flag_from_env("SIMT_SYNTH_ALL").unwrap();
    let how = synthesis_in_tests(preset);
    for (preset, module) in exported().into_iter().filter(|(p, _)| p == preset) {
        let file = rtl_out().join(&preset).join(format!("{module}.v"));
        let found = how.iter().find(|(m, _)| *m == module).map(|(_, s)| *s);
        let synthesis = found.unwrap_or(TestSynthesis::Mapped);
        if !all && synthesis != TestSynthesis::Mapped {
            simt_rtl::flow::check_structure(&file, &module)
                .unwrap_or_else(|e| panic!("{preset}/{module}: {e:#}"));
            eprintln!(
                "{preset}/{module}: no latches, check -assert clean (not mapped: {synthesis:?})"
            );
            continue;
        }
        let stats =
            synth_ice40(&file, &module).unwrap_or_else(|e| panic!("{preset}/{module}: {e:#}"));
        eprintln!("{preset}/{module}: {stats:?}");
        assert!(stats.luts > 0, "{preset}/{module}: synthesized to nothing");
    }
}

#[test]
fn yosys_synth_ice40_without_latches_cu() {
    synthesizes_without_latches("cu");
}

#[test]
fn yosys_synth_ice40_without_latches_seed() {
    synthesizes_without_latches("seed");
}

#[test]
fn verilator_lint_wall() {
    for (preset, module) in exported() {
        let file = rtl_out().join(&preset).join(format!("{module}.v"));
        verilator_lint(&file, &module).unwrap_or_else(|e| panic!("{preset}/{module}: {e:#}"));
    }
}

/// Every exported file is named after the module it exports: `rtl_out/<preset>/<name>.v`
/// declares `module <name>` first (its children follow, named `<name>__...`), and no file
/// declares a module named after another file.
#[test]
fn every_exported_module_is_named_after_its_file() {
    for file in files_under(&rtl_out()).iter().filter(|f| f.extension().is_some_and(|e| e == "v")) {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let modules: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("module "))
            .map(|rest| rest.split(['(', ' ', '#']).next().unwrap_or(""))
            .collect();
        assert_eq!(modules.first().copied(), Some(stem.as_str()), "{}", file.display());
        for m in &modules[1..] {
            assert!(
                m.starts_with(&format!("{stem}__")),
                "{} declares module `{m}`, not named after the file",
                file.display()
            );
        }
    }
}
