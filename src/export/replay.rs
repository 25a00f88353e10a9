//! A long differential run checked on the exported Verilog: the rust-hdl block beside its model
//! for the first cycles, then the model alone, the whole recording replayed on the block's
//! Verilog under Verilator.

use std::path::Path;

use anyhow::{Context, Result};

use crate::sim::rng::Rng;
use crate::sim::verilog_sim::{check_against_rust, Simulator, VerilogDut};
use crate::sim::{run_differential_then_model, CycleModel, Dut, Recorded};

/// Cycles of a differential run that the rust-hdl block itself simulates beside its model, as
/// many as the exported-Verilog equivalence replays (`tests/verilog_equivalence.rs`). A longer
/// run goes on with the model alone and replays the whole recording on the block's exported
/// Verilog under Verilator ([`differential_via_verilog`]).
/// `SIMT_RUST_HDL_CYCLES` sets another count (`soak --rust-hdl-cycles`: the long run of the
/// seed core on rust-hdl, docs/src/results/soak-seed-core.md).
pub const RUST_HDL_CYCLES: usize = 20_000;

/// The block `make_dut()` against `model` for `cycles` cycles of the stimulus `gen` makes, every
/// output on every cycle: the rust-hdl block for the first [`RUST_HDL_CYCLES`], and, for a
/// longer run, its exported Verilog under Verilator for all of them (in [`differential_dir`]).
/// For the blocks whose rust-hdl simulation is slow (the warp schedulers, the lane ALU, the
/// core), where a long run is faster this way; a small block's Verilator build costs more than
/// its rust-hdl run ([`run_differential`](crate::sim::run_differential) for those).
pub fn differential_via_verilog<D, M, G>(
    name: &str,
    make_dut: impl Fn() -> D,
    model: &mut M,
    seed: u64,
    cycles: usize,
    gen: G,
) -> Result<Recorded>
where
    D: Dut,
    M: CycleModel,
    G: FnMut(&mut Rng, &M, usize) -> Vec<u64>,
{
    let on_block = crate::sim::cycles_from_env("SIMT_RUST_HDL_CYCLES", RUST_HDL_CYCLES)?;
    let rec = run_differential_then_model(name, &make_dut, model, seed, on_block, cycles, gen)?;
    if cycles > on_block {
        on_verilator(name, seed, &make_dut, &rec)?;
    }
    Ok(rec)
}

/// [`differential_via_verilog`]'s replay of `rec` on the block's exported Verilog. A function
/// of its own, so that the block it builds has no slot in its caller's frame: two blocks as
/// large as the 8x8 collector in one frame overflow a test thread's stack.
#[inline(never)]
fn on_verilator<D: Dut>(
    name: &str,
    seed: u64,
    make_dut: &impl Fn() -> D,
    rec: &Recorded,
) -> Result<()> {
    // One directory per process (tests of one name may run side by side), removed when the
    // Verilog matched (the stimulus and the outputs run to hundreds of megabytes; ccache keeps
    // the compiled objects), kept for reading when it did not.
    let dir = differential_dir(name, seed);
    let header = format!("// {name} (simt-rtl differential run, seed {seed})\n");
    let top: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    check_exported(Simulator::Verilator, make_dut(), (&top, &header), rec, &dir)
        .with_context(|| format!("{name}: the exported Verilog against the model"))?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Where [`differential_via_verilog`] replays run `name` with `seed` in this process:
/// `target/verilog-sim/differential/NAME_seedSEED_pidPID/`.
pub fn differential_dir(name: &str, seed: u64) -> std::path::PathBuf {
    crate::sim::differential::scratch_dir()
        .join("verilog-sim")
        .join("differential")
        .join(format!("{name}_seed{seed}_pid{}", std::process::id()))
}

/// Replays `rec` on `block`'s Verilog, exported as module `top` (with `header`) into
/// `dir/<top>.v`, under `sim` in `dir`: every output on every cycle must equal the recording.
pub fn check_exported<D: Dut>(
    sim: Simulator,
    mut block: D,
    (top, header): (&str, &str),
    rec: &Recorded,
    dir: &Path,
) -> Result<()> {
    block.connect_all();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = dir.join(format!("{top}.v"));
    let text = super::export_module(&block, top, header)?;
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
    check_against_rust(sim, &VerilogDut::of(&block, top, file), rec, dir)
}
