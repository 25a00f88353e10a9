//! Exported-Verilog equivalence: for every block in rtl_out/ (presets cu and seed), the stimulus
//! of its random differential run is replayed on the committed Verilog under iverilog and under
//! Verilator, and every output on every cycle must equal the rust-hdl simulation (an x or z bit
//! is a failure). This is the test that catches rust-hdl's silent Verilog mistakes.
//! Cycles per block: `SIMT_VERILOG_CYCLES` under Verilator (default 20,000), the first
//! `SIMT_IVERILOG_CYCLES` of them under iverilog (default 5,000: iverilog's four-state values and
//! event order catch an x or a zero-delay loop within the first cycles after reset, and it runs
//! the cores at about 700 cycles per second); `SIMT_VERILOG_ONLY=mod1,mod2` restricts the run to
//! those modules. A block with `replay_cycles_in_tests` (the seed-size core) gets at most that
//! many cycles, a fifth of them under iverilog.

use std::path::{Path, PathBuf};

use simt_rtl::export::ExportedBlock;
use simt_rtl::registry::*;
use simt_rtl::sim::verilog_sim::{check_against_rust, Simulator};

fn cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_VERILOG_CYCLES", 20_000).unwrap()
}

fn iverilog_cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_IVERILOG_CYCLES", 5_000).unwrap()
}

const SEED: u64 = 0x0E1A_2026;

/// The modules `SIMT_VERILOG_ONLY` names, each an exported module of the cu or seed preset.
fn only() -> Option<Vec<String>> {
    // The registry's names, without exporting every block.
    let mut known: Vec<String> =
        entries::<CuBlocks>().iter().map(|e| e.module.to_string()).collect();
    known.extend(entries::<SeedBlocks>().iter().map(|e| e.module.to_string()));
    known.sort();
    known.dedup();
    let value = simt_rtl::sim::env_value("SIMT_VERILOG_ONLY").unwrap();
    simt_rtl::sim::parse_names("SIMT_VERILOG_ONLY", value.as_deref(), &known).unwrap()
}

fn workdir(preset: &str, module: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("verilog-sim")
        .join(preset)
        .join(module)
}

/// Each block's rust-hdl recording is computed once and replayed under both simulators.
fn check<B: PresetBlocks>() {
    let preset = B::PRESET.name;
    let rtl_out = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out");
    let only = only();
    let entries = entries::<B>();
    for e in
        entries.iter().filter(|e| only.as_ref().is_none_or(|o| o.iter().any(|m| m == e.module)))
    {
        let start = std::time::Instant::now();
        let b: ExportedBlock = e.export().unwrap();
        let cycles = e.replay_cycles_in_tests.map_or(cycles(), |c| c.min(cycles()));
        let rec = e.differential(SEED, cycles).unwrap();
        let secs = start.elapsed().as_secs_f64();
        eprintln!("{preset}/{}: exported, {cycles} cycles recorded ({secs:.1} s)", b.module);
        let dut = b.verilog_dut(&rtl_out, preset);
        let first = match e.replay_cycles_in_tests {
            Some(_) => rec.first(cycles / 5),
            None => rec.first(iverilog_cycles()),
        };
        for (sim, rec) in [(Simulator::Iverilog, &first), (Simulator::Verilator, &rec)] {
            let start = std::time::Instant::now();
            check_against_rust(sim, &dut, rec, &workdir(preset, &b.module))
                .unwrap_or_else(|e| panic!("{preset}/{} under {}: {e:#}", b.module, sim.name()));
            eprintln!(
                "{preset}/{} under {}: {} cycles equal ({:.1} s incl. build)",
                b.module,
                sim.name(),
                rec.inputs.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
}

#[test]
fn cu_under_iverilog_and_verilator() {
    check::<CuBlocks>();
}

#[test]
fn seed_under_iverilog_and_verilator() {
    check::<SeedBlocks>();
}
