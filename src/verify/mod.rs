//! The suites built on the harness ([`crate::sim`]): each block's stimulus, its differential run
//! at a preset, the operand collector's closed loop, the SIMT core's kernel and program runs and what a kernel left, and
//! the board top driven through its serial lines (in rust-hdl, and as Verilog under Verilator: the
//! fast engine).

pub mod collector_env;
pub mod core_run;
pub mod fast_engine;
pub mod kernel_results;
pub mod link_sim;
pub mod suites;

use std::path::Path;

use anyhow::{Context, Result};

use crate::sim::verilog_sim::{check_against_rust, Simulator, VerilogDut};
use crate::sim::{Dut, Recorded};

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
    let text = crate::export::export_module(&block, top, header)?;
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
    check_against_rust(sim, &VerilogDut::of(&block, top, file), rec, dir)
}
