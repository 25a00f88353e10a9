//! `simt-rtl speed`: how fast each way of running a block's random differential stimulus is, for
//! the same stimulus: the in-crate rust-hdl simulation with the model beside it, and the exported
//! Verilog (rtl_out/) under iverilog and under Verilator, each build timed apart from its run.
//! Every Verilog run is also compared with the rust-hdl run, cycle by cycle, so the figures are
//! for runs that were checked.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::preset_blocks::PresetBlocks;
use crate::sim::verilog_sim::{compare_exact, simulate_verilog_timed, Simulator};

/// One simulator's figures for one block.
#[derive(Clone, Copy, Debug)]
pub struct SimSpeed {
    pub build_secs: f64,
    pub cycles_per_sec: f64,
}

/// One block's figures.
#[derive(Clone, Debug)]
pub struct SpeedRow {
    pub module: String,
    pub cycles: usize,
    /// rust-hdl block and model together, compared every cycle.
    pub rust_hdl: f64,
    pub iverilog: SimSpeed,
    pub verilator: SimSpeed,
}

/// Measures each of `modules` of preset `B` over `cycles` cycles of its stimulus (seed `seed`),
/// with the Verilog from `rtl/<preset>/` and working files in `work/<module>/`.
pub fn measure<B: PresetBlocks>(
    modules: &[String],
    rtl: &Path,
    cycles: usize,
    seed: u64,
    work: &Path,
    progress: &dyn Fn(&str),
) -> Result<Vec<SpeedRow>> {
    if cycles == 0 {
        anyhow::bail!("--cycles must be at least 1");
    }
    let preset = B::PRESET.name;
    let blocks = crate::registry::exported_blocks::<B>()?;
    let mut rows = vec![];
    for module in modules {
        let block = blocks
            .iter()
            .find(|b| &b.module == module)
            .with_context(|| format!("no exported block `{module}`"))?;
        let start = Instant::now();
        let rec = crate::registry::differential::<B>(module, seed, cycles)?;
        let rust_hdl = cycles as f64 / start.elapsed().as_secs_f64();
        let dut = block.verilog_dut(rtl, preset);
        let mut speeds = vec![];
        for sim in [Simulator::Iverilog, Simulator::Verilator] {
            let (out, times) = simulate_verilog_timed(
                sim,
                &dut,
                &rec.inputs,
                &work.join(module).join(sim.name()),
            )?;
            compare_exact(
                &format!("{preset}/{module} under {}", sim.name()),
                &dut.outputs,
                &rec.outputs,
                &out,
            )?;
            speeds.push(SimSpeed {
                build_secs: times.build.as_secs_f64(),
                cycles_per_sec: cycles as f64 / times.run.as_secs_f64(),
            });
        }
        let row = SpeedRow {
            module: module.clone(),
            cycles,
            rust_hdl,
            iverilog: speeds[0],
            verilator: speeds[1],
        };
        progress(&format!(
            "{module}: rust-hdl + model {:.0}, iverilog {:.0}, Verilator {:.0} cycles/s",
            row.rust_hdl, row.iverilog.cycles_per_sec, row.verilator.cycles_per_sec
        ));
        rows.push(row);
    }
    Ok(rows)
}

/// A Markdown table of the figures.
pub fn table(preset: &str, rows: &[SpeedRow]) -> String {
    let mut t = format!(
        "Preset `{preset}`, {} cycles of each block's random stimulus; every Verilog run was compared with the rust-hdl run.\n\n",
        rows.first().map_or(0, |r| r.cycles)
    );
    t += "| block | rust-hdl + model, cycles/s | iverilog build, s | iverilog, cycles/s | Verilator build, s | Verilator, cycles/s |\n";
    t += "|---|---:|---:|---:|---:|---:|\n";
    for r in rows {
        t += &format!(
            "| {} | {:.0} | {:.1} | {:.0} | {:.1} | {:.0} |\n",
            r.module,
            r.rust_hdl,
            r.iverilog.build_secs,
            r.iverilog.cycles_per_sec,
            r.verilator.build_secs,
            r.verilator.cycles_per_sec
        );
    }
    t
}
