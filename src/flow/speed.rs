//! `simt-rtl speed`: how fast each way of running a block's random differential stimulus is, for
//! the same stimulus: the in-crate rust-hdl simulation with the model beside it, and the exported
//! Verilog (rtl_out/) under iverilog and under Verilator, each build timed apart from its run.
//! Every Verilog run is also compared with the rust-hdl run, cycle by cycle, so the figures are
//! for runs that were checked.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::registry::PresetBlocks;
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

/// One kernel's run on each of `simt-rtl run`'s engines.
#[derive(Clone, Debug)]
pub struct EngineRow {
    pub kernel: String,
    /// The kernel's own cycles (the core's cycle counter).
    pub kernel_cycles: u64,
    /// The rust-hdl core beside its model (`run --lockstep`): seconds for the whole command's
    /// work (the model's schedule, loading, the run); `None` when not timed.
    pub lockstep_secs: Option<f64>,
    /// The Verilator engine: the seconds of its build when it was not cached (0 when it was), of
    /// the session (loading through the serial port, the run, reading back) and the cycles the
    /// session simulated.
    pub build_secs: f64,
    pub engine_secs: f64,
    pub engine_cycles: u64,
}

/// Times `run`'s two engines (the Verilator engine only, without `lockstep`) on each kernel
/// (`(name, program, local data share)`) on the core `params` describe (one with a Verilator
/// engine), each result checked against the interpreter's.
pub fn engines(
    params: crate::params::CoreParams,
    kernels: &[crate::verify::core_run::KernelInput],
    max_cycles: u64,
    lockstep: bool,
    progress: &dyn Fn(&str),
) -> Result<Vec<EngineRow>> {
    use crate::verify::fast_engine;
    let started = Instant::now();
    let engine = fast_engine::engine(params, progress)?;
    let build_secs = started.elapsed().as_secs_f64();
    let mut rows = vec![];
    for (k, (name, program, lds)) in kernels.iter().enumerate() {
        let mut m = crate::isa::interp::Machine::new(params.machine(max_cycles), lds)?;
        m.run(program).with_context(|| format!("{name} on the reference interpreter"))?;
        let fast =
            fast_engine::run_kernel(&engine, params, program, lds, max_cycles, Box::new(|_| {}))
                .with_context(|| format!("{name} on the Verilator engine"))?;
        fast_engine::check(params, &m, &fast.run)
            .with_context(|| format!("{name} on the Verilator engine"))?;
        let lockstep_secs = match lockstep {
            true => Some(time_lockstep(params, program, lds, max_cycles, &fast.run)?),
            false => None,
        };
        let row = EngineRow {
            kernel: name.clone(),
            kernel_cycles: fast.run.status.counters.cycles,
            lockstep_secs,
            build_secs: if k == 0 { build_secs } else { 0.0 },
            engine_secs: fast.secs,
            engine_cycles: fast.cycles,
        };
        let lockstep = row.lockstep_secs.map_or("not timed".into(), |s| format!("{s:.1} s"));
        progress(&format!(
            "{name}: {} cycles; lockstep {lockstep}, Verilator engine {:.2} s",
            row.kernel_cycles, row.engine_secs
        ));
        rows.push(row);
    }
    Ok(rows)
}

/// Seconds of a kernel's run on the rust-hdl core in lockstep with its model, whose cycle count
/// must be the engine's (`run`).
fn time_lockstep(
    params: crate::params::CoreParams,
    program: &[crate::isa::Inst],
    lds: &[u32],
    max_cycles: u64,
    run: &crate::link::BoardRun,
) -> Result<f64> {
    let started = Instant::now();
    let lockstep = crate::verify::core_run::run_rust_hdl(params, program, lds, max_cycles, None)
        .context("in lockstep")?;
    let (engine, rust_hdl) = (run.status.counters.cycles, lockstep.counters.cycles);
    anyhow::ensure!(
        engine == rust_hdl,
        "the engine ran {engine} cycles, the rust-hdl core {rust_hdl}"
    );
    Ok(started.elapsed().as_secs_f64())
}

/// A Markdown table of [`engines`]' figures.
pub fn engine_table(core: &str, rows: &[EngineRow]) -> String {
    let mut t = format!(
        "`simt-rtl run` on the core `{core}`: each kernel on the rust-hdl core in lockstep with its model (`--lockstep`) and on the Verilator engine (the default), both results checked against the reference interpreter. Kernel cycles/s: the kernel's cycles over the run's wall time. The engine's session also loads the local data share and the program through the board top's link (on the engine's byte port, a byte a cycle) and reads every register and word back: its simulated cycles/s count all of those cycles. The engine's build is timed apart (0 when it was cached).\n\n"
    );
    t += "| kernel | kernel cycles | lockstep, s | lockstep, kernel cycles/s | engine build, s | engine, s | engine, kernel cycles/s | engine, simulated cycles/s |\n";
    t += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for r in rows {
        let (secs, rate) = match r.lockstep_secs {
            Some(s) => (format!("{s:.2}"), format!("{:.0}", r.kernel_cycles as f64 / s)),
            None => ("not timed".into(), "-".into()),
        };
        t += &format!(
            "| {} | {} | {secs} | {rate} | {:.1} | {:.2} | {:.0} | {:.0} |\n",
            r.kernel,
            r.kernel_cycles,
            r.build_secs,
            r.engine_secs,
            r.kernel_cycles as f64 / r.engine_secs,
            r.engine_cycles as f64 / r.engine_secs
        );
    }
    t
}
