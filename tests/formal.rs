//! The formal properties (`src/blocks/*.sv`) hold on the committed `rtl_out/`, and have teeth:
//! each deliberately broken variant of the exported Verilog is caught.

use std::path::{Path, PathBuf};

use simt_rtl::flow::prove::{prove, Outcome, FORMAL_BLOCKS};
use simt_rtl::params::CU;

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn block(module: &str) -> &'static simt_rtl::flow::prove::FormalBlock {
    FORMAL_BLOCKS.iter().find(|b| b.module == module).expect("block with properties")
}

#[test]
fn simt_stack_properties_hold_from_reset_to_depth_20() {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/simt_stack.v");
    let results = prove(block("simt_stack"), &CU, &rtl, 20, &work_dir("simt_stack")).unwrap();
    assert!(results.len() >= 8, "{results:?}");
    for (name, outcome) in &results {
        println!("simt_stack: {name}: {outcome}");
        assert!(matches!(outcome, Outcome::Proven { .. } | Outcome::Bounded { depth: 20 }), "{name}: {outcome}");
    }
    // Occupancy within depth closes by induction: it holds in every reachable state.
    assert!(results.iter().any(|(n, o)| n == "occupancy_within_depth" && matches!(o, Outcome::Proven { .. })), "{results:?}");
}

/// Breaks `rtl_out/cu/simt_stack.v` by replacing `from` with `to` and expects `property` to fail.
fn mutant_is_caught(tag: &str, from: &str, to: &str, property: &str) {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/simt_stack.v");
    let text = std::fs::read_to_string(&rtl).unwrap();
    assert!(text.contains(from), "the mutation's text is not in {}: the mutant would be the original", rtl.display());
    let dir = work_dir(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let mutant = dir.join("simt_stack.v");
    std::fs::write(&mutant, text.replacen(from, to, 1)).unwrap();
    // A relative working directory on purpose (as `--out build/prove` is): the tools run inside
    // it, and the counterexample must still land there.
    let prove_dir = PathBuf::from("target/formal-relative").join(tag);
    let _ = std::fs::remove_dir_all(&prove_dir);
    let results = prove(block("simt_stack"), &CU, &mutant, 20, &prove_dir).unwrap();
    let failed: Vec<&String> = results.iter().filter(|(_, o)| matches!(o, Outcome::Failed { .. })).map(|(n, _)| n).collect();
    assert!(failed.iter().any(|n| *n == property), "mutant `{tag}` should fail `{property}`, failed: {failed:?}");
    let vcd = results.iter().find_map(|(_, o)| if let Outcome::Failed { vcd, .. } = o { Some(vcd.clone()) } else { None }).unwrap();
    assert!(vcd.is_file(), "no counterexample trace at {}", vcd.display());
}

#[test]
fn mutant_without_overflow_flag_is_caught() {
    mutant_is_caught("no_overflow_flag", "overflow_q$d = 1'b1;", "overflow_q$d = overflow_q$q;", "full_push_sets_overflow");
}

#[test]
fn mutant_without_full_check_is_caught() {
    let from = "            if (full) begin\n                overflow_q$d = 1'b1;\n            end\n            else begin\n                sp$d = sp$q + 32'h1;\n            end";
    // The first violation: the push on a full stack moves the pointer.
    mutant_is_caught("no_full_check", from, "            sp$d = sp$q + 32'h1;", "full_push_changes_no_entry");
}
