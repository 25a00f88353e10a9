//! Runs a program on the SIMT core and on the ISA's reference interpreter and compares what
//! they leave: every register of every warp and lane, every local-data-share word, and the
//! counts both keep (instructions, divergent branches, stack high-water mark, bank-conflict
//! cycles). `simt-rtl run` and `tests/simt_core.rs` use it.

use anyhow::{bail, Context, Result};

use super::kernel_results::KernelResult;
use crate::hw::core::simt_core::model::CoreCounters;
use crate::hw::SimtCoreModel;
use crate::isa::interp::Machine;
use crate::isa::Inst;
use crate::params::CoreParams;
use crate::sim::differential::{write_vcd_watched, Progress};
use crate::sim::verilog_sim::Simulator;
use crate::sim::{run_differential, Dut};
use std::path::Path;

/// The core's counters after running `program` with the local data share holding `lds` from
/// word 0, or an error naming the first difference from the interpreter.
pub fn run_and_compare(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
) -> Result<CoreCounters> {
    let m = interpret(params, program, lds, max_cycles)?;
    let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
    let mut core = SimtCoreModel::new(params, &words, lds);
    let counters = core.run(max_cycles).context("the SIMT core")?;
    compare(&m, &core, &counters)?;
    Ok(counters)
}

/// As [`run_and_compare`], on the rust-hdl core too: the program is written through its
/// instruction-memory port, started, and run to the end, every output of the rust-hdl core
/// equal to the model's on every cycle; with `vcd`, the rust-hdl run's waveform is written there.
/// Returns what the kernel left (equal to the interpreter's).
pub fn run_rust_hdl(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
    vcd: Option<&Path>,
) -> Result<KernelResult> {
    run_rust_hdl_watched(params, program, lds, max_cycles, vcd, &|_| {})
}

/// As [`run_rust_hdl`], telling `watch` each cycle how far the run (and then the waveform) is.
pub fn run_rust_hdl_watched(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
    vcd: Option<&Path>,
    watch: &dyn Fn(Progress),
) -> Result<KernelResult> {
    let core = run_core(params, program, lds, max_cycles, (vcd, watch), None, &preset_core)?;
    Ok(KernelResult { params, regs: core.regs(), lds: core.lds_words(), counters: core.counters })
}

/// As [`run_rust_hdl`], on a core of your own sizes: `make(params, lds)` builds it (with
/// `type MyCore = simt_rtl::sized_simt_core!(MY_CORE)`, `&|p, lds| MyCore::with_lds(p, lds)`);
/// `run_rust_hdl` itself knows only the crate's core types.
pub fn run_rust_hdl_on<C: Dut>(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
    make: &dyn Fn(CoreParams, &[u32]) -> Result<C>,
) -> Result<KernelResult> {
    let own: OnCore = &|run, inputs| run.go(|| make(params, lds), inputs);
    let core = run_core(params, program, lds, max_cycles, (None, &|_| {}), None, own)?;
    Ok(KernelResult { params, regs: core.regs(), lds: core.lds_words(), counters: core.counters })
}

/// As [`run_rust_hdl`], and then the exported Verilog of that core (its local data share holding
/// `lds`) replays the run under `sim` in `workdir`, every output equal to the rust-hdl core's on
/// every cycle (the write-backs among them, so every register it writes).
pub fn run_verilog(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
    sim: Simulator,
    workdir: &Path,
) -> Result<CoreCounters> {
    let verilog = Some((sim, workdir));
    Ok(run_core(params, program, lds, max_cycles, (None, &|_| {}), verilog, &preset_core)?.counters)
}

/// Runs a [`Lockstep`] on a rust-hdl core: the crate's type for the run's sizes
/// ([`preset_core`]) or a type of the caller's ([`run_rust_hdl_on`]).
type OnCore<'a> = &'a dyn Fn(&Lockstep, &dyn Fn(usize) -> Vec<u64>) -> Result<SimtCoreModel>;

/// On the crate's core type of the run's sizes.
fn preset_core(run: &Lockstep, inputs: &dyn Fn(usize) -> Vec<u64>) -> Result<SimtCoreModel> {
    run.on_core(inputs)
}

fn run_core(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
    (vcd, watch): (Option<&Path>, &dyn Fn(Progress)),
    verilog: Option<(Simulator, &Path)>,
    on_core: OnCore,
) -> Result<SimtCoreModel> {
    let mut m = match interpret(params, program, lds, max_cycles) {
        Ok(m) => m,
        Err(e) => {
            // No result to compare with, but the core's waveform of the run is still written.
            if let Some(path) = vcd {
                let (schedule, _) = schedule(params, &[program.to_vec()], lds, max_cycles);
                let run = Lockstep::new(params, lds, schedule.len(), (vcd, watch), None);
                let _ = on_core(&run, &|c| schedule[c].clone());
                return Err(e.context(format!("waveform of the core's run: {}", path.display())));
            }
            return Err(e);
        }
    };
    // On the Verilog, a second program then loads every local-data-share word, so that the
    // write-backs compared show the memory the kernel left.
    let mut programs = vec![program.to_vec()];
    if verilog.is_some() {
        let dump = crate::isa::dump_program(params)?;
        m.relaunch();
        m.run(&dump).context("the reference interpreter, reading the local data share back")?;
        programs.push(dump);
    }
    let (schedule, limit_hit) = schedule(params, &programs, lds, max_cycles);
    let inputs = |c: usize| schedule[c].clone();
    let run = Lockstep::new(params, lds, schedule.len(), (vcd, watch), verilog);
    let model = on_core(&run, &inputs)?;
    if limit_hit {
        bail!(CycleLimit { cycles: max_cycles });
    }
    compare(&m, &model, &model.counters)?;
    let errors = model.errors();
    if !errors.is_empty() {
        bail!("the core raised error flags: {}", errors.join(", "));
    }
    Ok(model)
}

/// The inputs, cycle by cycle: after a reset, each program written through the
/// instruction-memory port, started, and run to the end (the model alone tells how long), or
/// for `max_cycles` cycles; and whether a program was still running then (a run past the limit
/// is still simulated, and its waveform written, up to the limit).
fn schedule(
    params: CoreParams,
    programs: &[Vec<Inst>],
    lds: &[u32],
    max_cycles: u64,
) -> (Vec<Vec<u64>>, bool) {
    use crate::hw::core::simt_core::model::CoreIn;
    use crate::sim::PortStruct;
    let mut probe = SimtCoreModel::new(params, &[], lds);
    let mut schedule: Vec<Vec<u64>> = vec![];
    let mut apply = |i: CoreIn, probe: &mut SimtCoreModel| {
        probe.step_with(&i);
        schedule.push(i.to_words());
    };
    apply(CoreIn { reset: 1, ..Default::default() }, &mut probe);
    for words in programs.iter().map(|p| p.iter().map(|i| i.encode()).collect::<Vec<u32>>()) {
        for (a, &w) in words.iter().enumerate() {
            apply(
                CoreIn {
                    imem_write_valid: 1,
                    imem_write_addr: a as u64,
                    imem_write_data: w as u64,
                    ..Default::default()
                },
                &mut probe,
            );
        }
        apply(CoreIn { start: 1, ..Default::default() }, &mut probe);
        let mut n = 0;
        while probe.running() && n < max_cycles {
            apply(CoreIn::default(), &mut probe);
            n += 1;
        }
    }
    let limit_hit = probe.running();
    (schedule, limit_hit)
}

/// The core ran `cycles` cycles and had not finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleLimit {
    /// The limit.
    pub cycles: u64,
}

impl std::fmt::Display for CycleLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "the SIMT core did not finish within {} cycles", self.cycles)
    }
}

impl std::error::Error for CycleLimit {}

/// One run of a rust-hdl core beside its model, and what else to do with it.
struct Lockstep<'a> {
    name: String,
    params: CoreParams,
    lds: &'a [u32],
    cycles: usize,
    vcd: Option<&'a Path>,
    watch: &'a dyn Fn(Progress),
    verilog: Option<(Simulator, &'a Path)>,
}

impl<'a> Lockstep<'a> {
    fn new(
        params: CoreParams,
        lds: &'a [u32],
        cycles: usize,
        (vcd, watch): (Option<&'a Path>, &'a dyn Fn(Progress)),
        verilog: Option<(Simulator, &'a Path)>,
    ) -> Self {
        let name = format!("simt_core_{}_run", params.name);
        Lockstep { name, params, lds, cycles, vcd, watch, verilog }
    }

    /// The model after the run on the concrete core whose generics these sizes give
    /// ([`with_simt_core!`](crate::with_simt_core) refuses sizes no core type has).
    fn on_core(&self, inputs: &dyn Fn(usize) -> Vec<u64>) -> Result<SimtCoreModel> {
        let (params, lds) = (self.params, self.lds);
        crate::with_simt_core!(params, C => self.go(|| C::with_lds(params, lds), inputs))
    }

    /// The model after the run.
    fn go<D: Dut>(
        &self,
        make: impl Fn() -> Result<D>,
        inputs: &dyn Fn(usize) -> Vec<u64>,
    ) -> Result<SimtCoreModel> {
        let mut model = SimtCoreModel::new(self.params, &[], self.lds);
        make()?;
        let total = self.cycles as u64;
        let rec = run_differential(
            &self.name,
            || make().expect("built once above"),
            &mut model,
            0,
            self.cycles,
            |_, _, c| {
                (self.watch)(Progress { cycle: c as u64, total, waveform_bytes: None });
                inputs(c)
            },
        );
        // The waveform is written whether or not the run matched its model: a run that differs
        // is the one to read (the schedule is known before the run, so every cycle of it).
        if let Some(path) = self.vcd {
            let all: Vec<Vec<u64>> = (0..self.cycles).map(inputs).collect();
            write_vcd_watched(make()?, &all, 0, path, self.watch)?;
            crate::sim::gtkw::write_gtkw(path, crate::hw::core::simt_core::WAVE_GROUPS)?;
        }
        let rec = match (rec, self.vcd) {
            (Err(e), Some(path)) => return Err(e.context(format!("waveform: {}", path.display()))),
            (rec, _) => rec?,
        };
        if let Some((sim, dir)) = self.verilog {
            let header = "// The SIMT core with a kernel's local data share (simt-rtl core_run)\n";
            crate::export::check_exported(
                sim,
                make()?,
                (crate::hw::core::simt_core::MODULE, header),
                &rec,
                dir,
            )?;
        }
        Ok(model)
    }
}

fn interpret(
    params: CoreParams,
    program: &[Inst],
    lds: &[u32],
    max_cycles: u64,
) -> Result<Machine> {
    params.validate()?;
    if program.len() > params.imem_words {
        bail!("the program has {} instructions: the core's instruction memory holds {} (`imem_words`)", program.len(), params.imem_words);
    }
    let mut m = Machine::new(params.machine(max_cycles), lds)?;
    m.run(program).context("the reference interpreter")?;
    Ok(m)
}

/// The differences between the interpreter's machine and the core's
/// ([`compare_with_interpreter`](crate::link::compare_with_interpreter)).
fn compare(m: &Machine, core: &SimtCoreModel, counters: &CoreCounters) -> Result<()> {
    let (regs, lds) = (core.regs(), core.lds_words());
    crate::link::compare_with_interpreter(core.params, m, (&regs, &lds), counters, "the core")
}

/// The counters as a two-column Markdown table.
pub fn counters_table(c: &CoreCounters) -> String {
    let rows = [
        ("cycles", c.cycles.to_string()),
        ("instructions issued", c.issued.to_string()),
        ("IPC", format!("{:.2}", c.ipc())),
        ("scoreboard stalls", c.scoreboard_stalls.to_string()),
        ("structural stalls (collector full, branch port)", c.structural_stalls.to_string()),
        ("register-bank stalls (collector)", c.bank_stalls.to_string()),
        ("local-data-share conflict cycles", c.lds_conflict_cycles.to_string()),
        ("divergent branches", c.divergent_branches.to_string()),
        ("stack high water", c.stack_high_water.to_string()),
        ("barrier wait cycles (the core's own)", c.barrier_waits.to_string()),
    ];
    let mut s = String::from("| counter | value |\n|---|---|\n");
    for (k, v) in rows {
        s += &format!("| {k} | {v} |\n");
    }
    s
}

/// A kernel to run: its name, its program and the local data share it starts with.
pub type KernelInput = (String, Vec<Inst>, Vec<u32>);

/// One kernel's run on the core model, checked against the interpreter.
#[derive(Clone, Debug)]
pub struct KernelRow {
    /// The kernel's name.
    pub kernel: String,
    /// The core's collector timing.
    pub collector_timing: crate::params::CollectorTiming,
    /// The core's issue policy.
    pub policy: crate::params::IssuePolicy,
    /// What the run counted.
    pub counters: CoreCounters,
}

/// Every kernel (name, program, local data share) on `params`' core with each collector timing
/// and each issue policy, each run checked against the interpreter.
pub fn kernel_rows(
    params: CoreParams,
    kernels: &[KernelInput],
    max_cycles: u64,
) -> Result<Vec<KernelRow>> {
    use crate::params::{CollectorTiming, IssuePolicy};
    let mut rows = vec![];
    for collector_timing in CollectorTiming::ALL {
        for policy in [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest] {
            let p = CoreParams { collector_timing, policy, ..params };
            for (kernel, program, lds) in kernels {
                let counters = run_and_compare(p, program, lds, max_cycles).with_context(|| {
                    format!("{kernel} ({} collector, {})", collector_timing.name(), policy.name())
                })?;
                rows.push(KernelRow { kernel: kernel.clone(), collector_timing, policy, counters });
            }
        }
    }
    Ok(rows)
}

/// The rows as a Markdown table, each configuration's kernels side by side, and each
/// configuration's mean IPC over its kernels.
pub fn kernel_table(rows: &[KernelRow]) -> String {
    let mut s = String::from("| kernel | collector | policy | cycles | issued | IPC | scoreboard stalls | structural stalls | register-bank stalls | LDS conflict cycles | divergent branches | stack high water |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in rows {
        let c = r.counters;
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} |\n",
            r.kernel,
            r.collector_timing.name(),
            r.policy.name(),
            c.cycles,
            c.issued,
            c.ipc(),
            c.scoreboard_stalls,
            c.structural_stalls,
            c.bank_stalls,
            c.lds_conflict_cycles,
            c.divergent_branches,
            c.stack_high_water
        ));
    }
    s.push_str("\n| collector | policy | mean IPC over the kernels |\n|---|---|---|\n");
    // `kernel_rows` keeps each configuration's rows together.
    for group in
        rows.chunk_by(|a, b| (a.collector_timing, a.policy) == (b.collector_timing, b.policy))
    {
        let mean = group.iter().map(|r| r.counters.ipc()).sum::<f64>() / group.len() as f64;
        let (timing, policy) = (group[0].collector_timing.name(), group[0].policy.name());
        s.push_str(&format!("| {timing} | {policy} | {mean:.2} |\n"));
    }
    s
}
