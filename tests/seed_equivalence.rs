//! Seed equivalence: each registry reference, Verilog that an exported block equals but the crate
//! does not write (the seed's own `WarpScheduler`, sim/seed/seed_warp_scheduler.v, beside our
//! seed-compatible rtl_out/seed/WarpScheduler.v, same ports), is driven with its block by the
//! same generated testbench, unchanged, with the same random stimulus in iverilog, and every
//! output is compared on every cycle.
//!
//! How the comparison treats the differences that are not behaviour:
//! - x: a bit the seed leaves undefined (x or z: stack slots never written, so a pop of a stack
//!   that was never pushed restores an x pc and mask) is not compared; every other bit is, and
//!   our module must never produce x.
//! - reset: the seed resets asynchronously, ours at the rising edge, so outputs are not compared
//!   in a cycle whose `reset` input is 1 (both are in the reset state from the next cycle on).
//! - stack overflow: the seed's stack has no full check (a push on a full stack writes past the
//!   array and reads back x), so the stimulus never pushes onto a full stack here; our module's
//!   behaviour there (drop and flag) is covered by the differential tests.
//!
//! Cycles: `SIMT_SEED_CYCLES` (default 100,000).

use std::path::Path;

use simt_rtl::registry::{entries, Reference, SeedBlocks};
use simt_rtl::sim::verilog_sim::{simulate_verilog, Simulator};

fn cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_SEED_CYCLES", 100_000).unwrap()
}

#[test]
fn seed_verilog_and_exported_module_agree() {
    let with_references: Vec<_> = entries::<SeedBlocks>()
        .into_iter()
        .filter_map(|e| Some((e.export().unwrap(), e.reference?)))
        .collect();
    assert!(!with_references.is_empty(), "no reference in the registry's seed entries");
    for (block, reference) in with_references {
        agree(&block, &reference);
    }
}

/// `block`'s committed Verilog and `reference` agree on every output bit the reference defines,
/// on every cycle out of reset.
fn agree(block: &simt_rtl::export::ExportedBlock, reference: &Reference) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The stimulus, the model's outputs checked on the way against the rust-hdl block (its first
    // 20,000 cycles) and the exported Verilog under Verilator (all of them).
    let rec = (reference.run)(0x5EED_0003, cycles()).unwrap();
    let resets = rec.input("reset").unwrap();
    let ours_dut = block.verilog_dut(&root.join("rtl_out"), "seed");
    let mut seed_dut = ours_dut.clone();
    seed_dut.sources = vec![root.join(reference.source)];
    let work = root.join("target/verilog-sim/seed-equivalence").join(&block.module);
    let ours =
        simulate_verilog(Simulator::Iverilog, &ours_dut, &rec.inputs, &work.join("exported"))
            .unwrap();
    let seed =
        simulate_verilog(Simulator::Iverilog, &seed_dut, &rec.inputs, &work.join("seed")).unwrap();

    let (mut compared_bits, mut x_bits, mut reset_cycles) = (0u64, 0u64, 0usize);
    for (cycle, ((reset, o), s)) in resets.iter().zip(&ours).zip(&seed).enumerate() {
        if *reset == 1 {
            reset_cycles += 1;
            continue;
        }
        for ((port, o), s) in block.outputs.iter().zip(o).zip(s) {
            assert_eq!(
                o.unknown, 0,
                "cycle {cycle}: our {} has x/z bits {:#x}",
                port.name, o.unknown
            );
            let known = !s.unknown & simt_rtl::sim::rng::mask(port.width);
            assert!(
                (o.value ^ s.value) & known == 0,
                "cycle {cycle}: {} differs: seed {:#x} (x bits {:#x}), ours {:#x}",
                port.name,
                s.value,
                s.unknown,
                o.value
            );
            compared_bits += known.count_ones() as u64;
            x_bits += s.unknown.count_ones() as u64;
        }
    }
    // The recording (the rust-hdl block's outputs, then the model's) agrees with both too.
    for (cycle, (r, o)) in rec.outputs.iter().zip(&ours).enumerate() {
        let vals: Vec<u64> = o.iter().map(|s| s.value).collect();
        assert_eq!(
            &vals, r,
            "cycle {cycle}: exported Verilog differs from the recording ({:?})",
            rec.ports.outputs
        );
    }
    let total_bits: u64 = block.outputs.iter().map(|p| p.width as u64).sum::<u64>()
        * (rec.inputs.len() - reset_cycles) as u64;
    eprintln!(
        "seed equivalence: {} cycles ({} in reset, not compared), {} output bits compared, {} seed x bits skipped ({:.3}%)",
        rec.inputs.len(), reset_cycles, compared_bits, x_bits, 100.0 * x_bits as f64 / total_bits as f64
    );
    assert!(
        x_bits * 10 < total_bits,
        "the seed's outputs were mostly x: the comparison proves little"
    );
    let what = format!("{} against {}", block.module, reference.name);
    simt_rtl::sim::log_cycles(&what, "iverilog", rec.inputs.len());
}
