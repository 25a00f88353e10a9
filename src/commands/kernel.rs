//! `simt-rtl run`: a kernel on the SIMT core, checked against the reference interpreter; and
//! what every kernel run shares (its progress line, race warnings, errors at source lines).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::inputs::{
    inputs_beside, read_bounded, read_kernel_for, read_lds, say_beside, vcd_output, INPUT_LIMIT,
};
use super::shown::{ResultArgs, Shown};
use crate::params::{CollectorTiming, IssuePolicy};

// The flags of `simt-rtl run`.
#[derive(clap::Args)]
pub struct Run {
    /// The assembly source (e.g. kernels/reduce.s).
    pub kernel: PathBuf,
    /// Core preset to run on: cu-core, tiny-core or seed-core.
    #[arg(long, default_value = "cu-core")]
    pub preset: String,
    /// Issue policy: lrr (loose round robin) or gto (greedy then oldest).
    #[arg(long, default_value = "lrr")]
    pub policy: IssuePolicy,
    /// The core's timing: pipelined or gpgpu-sim (the collector's one-cycle step, issue in
    /// one cycle); default the preset's (pipelined for cu-core). The Verilator engine is the
    /// exported cu or seed core: any other core runs in lockstep.
    #[arg(long)]
    pub collector: Option<CollectorTiming>,
    /// Initial local data share: one hex word per line from word 0 (default: K.lds beside the
    /// kernel K.s, else pseudo-random words from --seed; `random` for those always).
    #[arg(long)]
    pub lds: Option<PathBuf>,
    /// Seed of the pseudo-random local data share.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many core cycles (1 to 100000000; default 1000000, with --vcd 200000,
    /// the most a waveform may hold).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub max_cycles: Option<u64>,
    /// Run the rust-hdl core in lockstep with its model, every output compared every cycle,
    /// instead of the Verilator engine (the slower of the two on every kernel the book's engine
    /// tables time, short or long, on both cores: `simt-rtl speed --kernel` times both);
    /// tiny-core and --vcd always do.
    #[arg(long)]
    pub lockstep: bool,
    /// Write the rust-hdl core's waveform here (runs in lockstep; the waveform is built in memory,
    /// about 5 KB a cycle on the cu-core, so at most 200000 cycles).
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// For tests and debugging: build the Verilator engine from this `core_engine` Verilog (the
    /// board top with the engine's byte port, as the engine exports it, e.g. with a deliberate
    /// change) instead of the cu core's own.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["lockstep", "vcd"])]
    pub verilog: Option<PathBuf>,
    #[command(flatten)]
    pub results: ResultArgs,
}

/// The most cycles `run --vcd` records: its waveform is held in memory until the run ends.
const VCD_MAX_CYCLES: u64 = 200_000;

/// `simt-rtl run`: on the exported core under Verilator, or in lockstep with the model.
pub fn run(mut a: Run) -> Result<()> {
    let core = crate::params::core_params(&a.preset)?;
    let max_cycles = match (a.max_cycles, &a.vcd) {
        (Some(n), Some(_)) if n > VCD_MAX_CYCLES => anyhow::bail!(
            "--max-cycles {n} with --vcd: the waveform is built in memory (about 5 KB a cycle on the cu-core), so --vcd takes at most {VCD_MAX_CYCLES} cycles"
        ),
        (Some(n), _) => n,
        (None, Some(_)) => VCD_MAX_CYCLES,
        (None, None) => 1_000_000,
    };
    let params = crate::params::CoreParams {
        policy: a.policy,
        collector_timing: a.collector.unwrap_or(core.collector_timing),
        ..core
    };
    let on_verilator = crate::verify::fast_engine::has_engine(params);
    let verilator = !(a.lockstep || a.vcd.is_some() || !on_verilator);
    if let (Some(v), false) = (&a.verilog, verilator) {
        anyhow::bail!("--verilog {}: the Verilator engine runs the cu-core and seed-core in their pipelined timing only, not this run", v.display());
    }
    let verilog = a.verilog.as_deref().map(|v| read_bounded(v, 64 * INPUT_LIMIT)).transpose()?;
    let (lds, lds_beside) = inputs_beside(&a.kernel, core.name, a.lds.take(), &mut a.results)?;
    a.lds = lds;
    let beside = super::inputs::files_beside(&a.kernel);
    let mut inputs = vec![
        ("the kernel", Some(a.kernel.as_path())),
        ("the --lds file", a.lds.as_deref()),
        ("the --expect file", a.results.expect.as_deref()),
        ("the --verilog file", a.verilog.as_deref()),
    ];
    inputs.extend(beside.iter().map(|f| ("a file beside the kernel", Some(f.as_path()))));
    let vcd = a.vcd.as_deref().map(|v| vcd_output(v, &inputs)).transpose()?;
    let mut others = inputs.to_vec();
    if let Some((vcd, gtkw)) = &vcd {
        others.extend([("the --vcd waveform", Some(vcd.path())), ("its .gtkw", Some(gtkw))]);
    }
    let shown = Shown::new(&a.results, params, &others)?;
    let listing = read_kernel_for(&a.kernel, &params)?;
    let lds = read_lds(a.lds.as_deref(), a.seed, params)?;
    let kernel = Kernel { path: &a.kernel, listing: &listing };
    let about = RunAbout {
        engine: if verilator { "verilator" } else { "lockstep" },
        seed: a.seed,
        lds: a.lds.clone(),
    };
    let shown = shown.about(kernel.path, params, about);
    say_beside(&a.kernel, a.lds.as_deref().filter(|_| lds_beside), &shown)?;
    if verilator {
        run_fast(kernel, params, &lds, max_cycles, verilog.as_deref(), shown)
    } else {
        run_lockstep(kernel, params, &lds, max_cycles, vcd.map(|v| v.0.path().into()), shown)
    }
}

/// How a run was made, for its JSON record.
pub(super) struct RunAbout {
    /// `verilator`, `lockstep`, `board`, `board-sim` or `bitstream-sim`.
    pub engine: &'static str,
    pub seed: u64,
    /// The local data share's file, or `None` for pseudo-random words from `seed`.
    pub lds: Option<PathBuf>,
}

/// A kernel's source file and what the assembler made of it.
#[derive(Clone, Copy)]
struct Kernel<'a> {
    path: &'a Path,
    listing: &'a crate::isa::asm::Listing,
}

/// `simt-rtl run --lockstep`: a kernel on the rust-hdl core in lockstep with its model and the
/// interpreter.
fn run_lockstep(
    Kernel { path: kernel, listing }: Kernel,
    params: crate::params::CoreParams,
    lds: &[u32],
    max_cycles: u64,
    vcd: Option<PathBuf>,
    shown: Shown,
) -> Result<()> {
    // The interpreter alone first, for the races it sees (a fault is the core run's to report).
    let mut m = crate::isa::interp::Machine::new(params.machine(max_cycles), lds)?;
    if m.run(&listing.program).is_ok() {
        warn_races(kernel, listing, &m);
    }
    let ticker = Ticker::new();
    let result = crate::verify::core_run::run_rust_hdl_watched(
        params,
        &listing.program,
        lds,
        max_cycles,
        vcd.as_deref(),
        &|p| ticker.simulated(p),
    );
    ticker.clear();
    let result = result.map_err(|e| at_source(e, kernel, listing, vcd.as_deref()))?;
    say!(
        "{} on the rust-hdl core `{}` ({} warps x {} lanes, {}-bit values, {}, {} collector): equal to its model on every cycle; registers and local data share equal the reference interpreter's",
        kernel.display(), params.name, params.warps, params.threads, params.lane_bits, params.policy.name(), params.collector_timing.name()
    );
    if let Some(v) = &vcd {
        say!("waveform: {}", v.display());
    }
    shown.emit(&result, &listing.program)
}

/// `simt-rtl run`: a kernel on the Verilator engine, checked against the interpreter (which runs
/// first, so that a kernel that faults is refused at its source line).
fn run_fast(
    Kernel { path: kernel, listing }: Kernel,
    params: crate::params::CoreParams,
    lds: &[u32],
    max_cycles: u64,
    verilog: Option<&str>,
    shown: Shown,
) -> Result<()> {
    use crate::verify::fast_engine;
    let mut m = crate::isa::interp::Machine::new(params.machine(max_cycles), lds)?;
    m.run(&listing.program).map_err(|e| at_source(e, kernel, listing, None))?;
    warn_races(kernel, listing, &m);
    // The build's notes on stderr, terminal or not: a first build takes minutes on `seed-core`,
    // and a run that says nothing meanwhile looks hung.
    let building = |msg: &str| eprintln!("{msg}");
    let engine = match verilog {
        Some(text) => fast_engine::engine_for(text, &building)?,
        None => fast_engine::engine(params, &building)?,
    };
    let ticker = Ticker::new();
    let on_poll = ticker.on_poll(Some(max_cycles));
    let fast = fast_engine::run_kernel(&engine, params, &listing.program, lds, max_cycles, on_poll);
    ticker.clear();
    let fast = fast.map_err(|e| at_source(e, kernel, listing, None))?;
    let result = crate::verify::kernel_results::KernelResult {
        params,
        regs: fast.run.regs.clone(),
        lds: fast.run.lds.clone(),
        counters: fast.run.status.counters,
    };
    shown
        .unless(fast_engine::check(params, &m, &fast.run), &result, &listing.program)
        .with_context(|| format!("{} on the Verilator engine", kernel.display()))?;
    say!(
        "{} on the exported core `{}` ({} warps x {} lanes, {}-bit values, {}) under Verilator: registers, local data share and counts equal the reference interpreter's; {} cycles simulated in {:.2} s ({:.0} cycles/s, loading and reading back included)",
        kernel.display(), params.name, params.warps, params.threads, params.lane_bits, params.policy.name(),
        fast.cycles, fast.secs, fast.cycles as f64 / fast.secs
    );
    shown.emit(&result, &listing.program)
}

/// A kernel run's progress: on a terminal, a line on stderr with the cycles so far against the
/// run's cycle limit and the rate, rewritten at most twice a second from a second into the run
/// (nothing otherwise); and, on any stderr, a warning once a waveform being written will pass
/// [`Ticker::LARGE_WAVEFORM`] bytes.
#[derive(Clone)]
pub(super) struct Ticker(std::rc::Rc<TickerState>);

struct TickerState {
    on_terminal: bool,
    started: std::time::Instant,
    shown: std::cell::Cell<Option<std::time::Instant>>,
    warned: std::cell::Cell<bool>,
}

impl Ticker {
    const LARGE_WAVEFORM: u64 = 100_000_000;
    /// The waveform's size is projected from its first this many cycles.
    const SAMPLE_CYCLES: u64 = 1_000;

    pub(super) fn new() -> Ticker {
        Ticker(std::rc::Rc::new(TickerState {
            on_terminal: std::io::stderr().is_terminal(),
            started: std::time::Instant::now(),
            shown: std::cell::Cell::new(None),
            warned: std::cell::Cell::new(false),
        }))
    }

    /// Shows `line()` when it is time to (at most twice a second, after the first second).
    fn show(&self, line: impl FnOnce(f64) -> String) {
        let t = &self.0;
        let secs = t.started.elapsed().as_secs_f64();
        let due = t.shown.get().is_none_or(|s| s.elapsed().as_secs_f64() >= 0.5);
        if t.on_terminal && secs >= 1.0 && due {
            t.shown.set(Some(std::time::Instant::now()));
            eprint!("\r\x1b[K{}", line(secs));
        }
    }

    /// A rust-hdl run (`--lockstep`), or the waveform written after it (`--vcd`).
    fn simulated(&self, p: crate::sim::differential::Progress) {
        if let Some(bytes) = p.waveform_bytes {
            self.warn_if_large(p.cycle, p.total, bytes);
        }
        let what = if p.waveform_bytes.is_some() { "waveform: " } else { "" };
        self.show(|secs| {
            let rate = p.cycle as f64 / secs;
            format!("{what}cycle {} of {}, {rate:.0} cycles/s", p.cycle, p.total)
        });
    }

    fn warn_if_large(&self, cycle: u64, total: u64, bytes: u64) {
        let t = &self.0;
        if cycle != Self::SAMPLE_CYCLES.min(total) || t.warned.get() {
            return;
        }
        let projected = bytes as f64 / cycle as f64 * total as f64;
        if projected > Self::LARGE_WAVEFORM as f64 {
            t.warned.set(true);
            self.clear();
            eprintln!(
                "simt-rtl: warning: the waveform of {total} cycles will be about {:.0} MB (held in memory until written): --max-cycles makes it shorter",
                projected / 1e6
            );
        }
    }

    /// For the serial link's polls (the Verilator engine, `board run`): the core's counts so far,
    /// against `limit` cycles when the run has one.
    pub(super) fn on_poll(&self, limit: Option<u64>) -> crate::link::OnPoll {
        let ticker = self.clone();
        let of = limit.map_or(String::new(), |l| format!(" of at most {l}"));
        Box::new(move |s| {
            ticker.show(|secs| {
                let rate = s.counters.cycles as f64 / secs;
                format!(
                    "cycle {}{of}, {} instructions, {rate:.0} cycles/s",
                    s.counters.cycles, s.counters.issued
                )
            })
        })
    }

    /// Clears the progress line, if one is shown.
    pub(super) fn clear(&self) {
        self.0.clear();
    }
}

impl TickerState {
    fn clear(&self) {
        if self.shown.take().is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// A run that ends in an error clears its progress line too, before the error is printed.
impl Drop for TickerState {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Names, on standard error, each race between warps the interpreter saw on the local data
/// share (`crate::isa::races`): the kernel's result then depends on the warps' order.
pub(super) fn warn_races(
    kernel: &Path,
    listing: &crate::isa::asm::Listing,
    m: &crate::isa::interp::Machine,
) {
    let file = kernel.display();
    let at = |a: &crate::isa::races::Access| {
        let what = if a.write { "writes" } else { "reads" };
        let line = listing.source.get(a.pc).map_or(String::new(), |(n, _)| format!(":{n}"));
        format!("{file}{line} (warp {} {what})", a.warp)
    };
    for r in &m.races.races {
        eprintln!(
            "simt-rtl: warning: {} and {} race on local-data-share word {}: nothing orders them, so the result depends on how the warps are scheduled",
            at(&r.first), at(&r.second), r.word
        );
    }
}

/// A run's error placed in the kernel's source: a program fault as `FILE:LINE: \`text\`: fault`,
/// a limit naming `--max-cycles` (and the waveform `vcd` written up to it; `board run`, which
/// has no such flag, names its own limit); any other error prefixed with the file.
pub(super) fn at_source(
    e: anyhow::Error,
    kernel: &Path,
    listing: &crate::isa::asm::Listing,
    vcd: Option<&Path>,
) -> anyhow::Error {
    at_source_of("run", e, kernel, listing, vcd)
}

/// [`at_source`] for the command `command` (`run` or `board run`).
pub(super) fn at_source_of(
    command: &str,
    e: anyhow::Error,
    kernel: &Path,
    listing: &crate::isa::asm::Listing,
    vcd: Option<&Path>,
) -> anyhow::Error {
    use crate::isa::interp::Fault;
    use crate::verify::core_run::CycleLimit;
    let file = kernel.display();
    // A run with --vcd left its waveform, up to the fault or the limit.
    let wave = vcd
        .filter(|v| v.exists())
        .map(|v| format!(" (waveform of the core's run: {})", v.display()))
        .unwrap_or_default();
    if let Some(fault) = e.chain().find_map(|c| c.downcast_ref::<Fault>()) {
        return match (fault, fault.pc().and_then(|pc| listing.at(pc))) {
            (Fault::Limit { instructions }, _) if command == "run" => anyhow::anyhow!(
                "{file}: did not finish within --max-cycles {instructions}: the reference interpreter ran {instructions} warp instructions (each at least one core cycle) and some warp had not exited{wave}"
            ),
            (Fault::Limit { instructions }, _) => anyhow::anyhow!(
                "{file}: did not finish within {instructions} warp instructions, the most `{command}` lets the reference interpreter run before it sends a kernel: some warp had not exited (`run --max-cycles` runs longer kernels)"
            ),
            (_, Some(at)) => anyhow::anyhow!("{file}:{at}: {fault}{wave}"),
            (_, None) => anyhow::anyhow!("{file}: {fault}{wave}"),
        };
    }
    if let Some(limit) = e.chain().find_map(|c| c.downcast_ref::<CycleLimit>()) {
        let n = limit.cycles;
        return anyhow::anyhow!(
            "{file}: did not finish within --max-cycles {n}: the SIMT core ran {n} cycles{wave}"
        );
    }
    e.context(format!("{file}"))
}
