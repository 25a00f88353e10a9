//! The fast engine of `simt-rtl run`: the Verilog of the board top with a byte port in place of
//! its serial port ([`CoreEngine`](crate::boards::core_board::CoreEngine): the board's core and
//! host link, a byte a cycle each way, [`byte_port`](crate::boards::core_board::byte_port))
//! compiled with Verilator, and driven by the host's side of the link ([`Host::run_kernel`]) as
//! the board is: the local data share written by store programs, the kernel run, every register
//! and word read back. The harness (`sim/engine/board_engine.cpp`, built with `BYTE_PORT`) moves
//! the bytes; each simulated cycle is one core cycle.
//!
//! The engine is built once per Verilog: the executable is cached under the cache directory
//! ([`cache_dir`]) by a hash of the Verilog, the harness, the Verilator version and its options
//! (`VERILATOR_FLAGS`), and built in
//! a scratch directory renamed into place, so that an interrupted build leaves nothing behind.

use crate::sim::interrupt::Guarded;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::core_run::CycleLimit;
use crate::boards::core_board::ENGINE_MODULE as MODULE;
use crate::link::{BoardRun, Host, OnPoll, Serial, StillRunning};
use crate::params::{CollectorTiming, CoreParams, CORE_CU, CORE_SEED};

/// The engine harness's argument: on a serial port its clocks per bit (the read-back
/// bitstreams'), on the engine's byte port the idle cycles after each line of bytes the host
/// sends, ten times this (a serial frame's time: a `query` a cycle after a `start` would find
/// the core not yet running).
pub const CLOCKS_PER_BIT: usize = 4;

/// The harness, compiled into the engine with the Verilog.
const HARNESS: &str = include_str!("../../sim/engine/board_engine.cpp");

/// Where built engines are kept: `$SIMT_RTL_CACHE`, else `$XDG_CACHE_HOME/simt-rtl`, else
/// `~/.cache/simt-rtl`.
pub fn cache_dir() -> Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("SIMT_RTL_CACHE") {
        return Ok(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(dir.join("simt-rtl"));
    }
    match var("HOME") {
        Some(home) => Ok(home.join(".cache").join("simt-rtl")),
        None => bail!("no cache directory for the Verilator engine: set SIMT_RTL_CACHE"),
    }
}

/// Whether the core `params` describe has a Verilator engine: the `cu` and seed cores' sizes, in
/// the pipelined timing (their exported Verilog's).
pub fn has_engine(params: CoreParams) -> bool {
    let sizes = [CORE_CU, CORE_SEED].map(|c| c.sizes());
    sizes.contains(&params.sizes()) && params.collector_timing == CollectorTiming::Pipelined
}

/// The engine for the core `params` describe ([`has_engine`]): its executable, built
/// first when the cache does not hold it (`building` is told when the build starts, and how
/// long it took when it ends: seconds for `cu-core`, minutes for `seed-core` on 2 cores).
pub fn engine(params: CoreParams, building: &dyn Fn(&str)) -> Result<PathBuf> {
    engine_for(&engine_verilog(params)?, building)
}

/// The Verilog the engine for `params`'s core is built from: the board top with the byte port,
/// module `core_engine` ([`engine_verilog`](crate::boards::core_board::engine_verilog)).
pub fn engine_verilog(params: CoreParams) -> Result<String> {
    let header = "// The board top for simt-rtl's fast engine: its serial port a byte port\n";
    crate::boards::core_board::engine_verilog(params, header)
}

/// The engine built from `verilog` (a `core_engine` module as [`engine_verilog`] gives, or one
/// changed from it on purpose: `run --verilog`), cached as [`engine`]'s.
pub fn engine_for(verilog: &str, building: &dyn Fn(&str)) -> Result<PathBuf> {
    crate::sim::verilog_sim::require_tool("verilator")?;
    let version = Command::new("verilator").arg("--version").output_guarded()?.stdout;
    let flags = [VERILATOR_FLAGS, ENGINE_FLAGS].concat().join(" ");
    let key = crate::sim::fnv1a64(
        &[verilog.as_bytes(), HARNESS.as_bytes(), &version, flags.as_bytes()].concat(),
    );
    let cache = cache_dir()?;
    let dir = cache.join(format!("{MODULE}-{key:016x}"));
    let exe = dir.join("engine");
    if exe.is_file() {
        return Ok(exe);
    }
    std::fs::create_dir_all(&cache)
        .with_context(|| format!("cannot create the cache directory {}", cache.display()))?;
    let scratch = cache.join(format!(".build-{key:016x}-{}", std::process::id()));
    building(&format!(
        "building the Verilator engine for this Verilog (once: later runs take it from {})",
        dir.display()
    ));
    let started = Instant::now();
    let built = compile(&scratch, &[(&format!("{MODULE}.v"), verilog)], MODULE, ENGINE_FLAGS);
    if let Err(e) = built {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(e);
    }
    // Another process may have put the same engine in place meanwhile: either is the one.
    if std::fs::rename(&scratch, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    if !exe.is_file() {
        bail!("the Verilator engine is not at {} after its build", exe.display());
    }
    building(&format!("built the Verilator engine in {:.0} s", started.elapsed().as_secs_f64()));
    Ok(exe)
}

/// Verilator's options for an engine (part of the cache key: an engine built with others is
/// built again).
const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "--exe",
    "--build",
    "-j",
    "2",
    "-O3",
    "--noassert",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
];

/// The engine's own: the harness for the byte port (`BYTE_PORT`); its C++ at -O2, not
/// Verilator's -Os (`simt-rtl speed --kernel kernels/spin.s --engine-only`: 82,000 simulated
/// cycles/s on `seed-core` at -Os, 164,000 at -O2; 364,000 and 895,000 on `cu-core`; a build
/// takes seconds longer).
const ENGINE_FLAGS: &[&str] = &["-CFLAGS", "-DBYTE_PORT", "-MAKEFLAGS", "OPT_FAST=-O2"];

/// Compiles `sources` (file name, Verilog) with the harness in `dir` into `dir/engine`, `top`
/// being the board top's module (ports `clk`, `rst_n`, `led[7:0]`, `usb_rx`, `usb_tx`: serial
/// lines, or with `-CFLAGS -DBYTE_PORT` in `extra` the engine's 9-bit byte lines), with
/// Verilator's `extra` arguments.
pub fn compile(dir: &Path, sources: &[(&str, &str)], top: &str, extra: &[&str]) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in sources {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("cannot write {}", dir.join(name).display()))?;
    }
    std::fs::write(dir.join("board_engine.cpp"), HARNESS)?;
    crate::sim::verilog_sim::require_tool("verilator")?;
    let out = crate::sim::verilog_sim::verilator_build()
        .args(VERILATOR_FLAGS)
        .args([
            "--prefix",
            "Vboard",
            "--top-module",
            top,
            "-Mdir",
            "obj",
            "-o",
            "../engine",
            "board_engine.cpp",
        ])
        .args(extra)
        .args(sources.iter().map(|(name, _)| name))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output_guarded()
        .context("cannot run verilator")?;
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr);
        let last: Vec<&str> = log.lines().rev().take(5).collect();
        bail!("verilator failed building the engine: {}", last.join(" / "));
    }
    let _ = std::fs::remove_dir_all(dir.join("obj"));
    Ok(dir.join("engine"))
}

/// The engine running, behind a [`Serial`] port.
pub struct VerilatorBoard {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Cycles simulated since power-up.
    pub cycle: u64,
    clocks_per_bit: usize,
}

impl VerilatorBoard {
    /// The engine at power-up, its serial port at `clocks_per_bit` cycles per bit.
    pub fn start(engine: &Path, clocks_per_bit: usize) -> Result<Self> {
        let mut child = Command::new(engine)
            .arg(clocks_per_bit.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn_guarded()
            .with_context(|| format!("cannot start the engine {}", engine.display()))?;
        let stdin = child.stdin.take().context("the engine's stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("the engine's stdout")?);
        Ok(Self { child, stdin, stdout, cycle: 0, clocks_per_bit })
    }

    /// Runs until an LED of `mask` is on, or for `limit` more cycles: the LEDs then, or `None`.
    pub fn wait_for_leds(&mut self, mask: u8, limit: u64) -> Result<Option<u8>> {
        let answer = self.ask(&format!("l {mask:x} {limit}"))?;
        self.set_cycle(answer.get(if answer[0] == "l" { 1 } else { 2 }))?;
        match (answer[0].as_str(), answer.get(2)) {
            ("l", Some(leds)) => Ok(Some(u8::from_str_radix(leds, 16)?)),
            _ => Ok(None),
        }
    }

    /// Sends one command line; its answer's fields.
    fn ask(&mut self, line: &str) -> Result<Vec<String>> {
        writeln!(self.stdin, "{line}").context("the engine stopped")?;
        self.stdin.flush().context("the engine stopped")?;
        let mut answer = String::new();
        if self.stdout.read_line(&mut answer)? == 0 {
            bail!("the engine stopped without an answer");
        }
        let fields: Vec<String> = answer.split_whitespace().map(str::to_string).collect();
        if fields.is_empty() {
            bail!("the engine gave an empty answer");
        }
        Ok(fields)
    }

    fn set_cycle(&mut self, field: Option<&String>) -> Result<()> {
        self.cycle = field.and_then(|c| c.parse().ok()).context("the engine's answer")?;
        Ok(())
    }
}

impl Serial for VerilatorBoard {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let answer = self.ask(&format!("s {hex}"))?;
        self.set_cycle(answer.get(1))
    }

    fn idle(&mut self, cycles: u64) -> Result<()> {
        let answer = self.ask(&format!("i {cycles}"))?;
        self.set_cycle(answer.get(1))
    }

    fn receive(&mut self, n: usize) -> Result<Vec<u8>> {
        let limit = (n + 2) * 12 * self.clocks_per_bit;
        let answer = self.ask(&format!("r {n} {limit}"))?;
        self.set_cycle(answer.get(if answer[0] == "b" { 1 } else { 2 }))?;
        match (answer[0].as_str(), answer.get(2)) {
            ("b", Some(hex)) if hex.len() == 2 * n => (0..n)
                .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).map_err(Into::into))
                .collect(),
            _ => bail!("the board did not answer: {} by cycle {}", answer.join(" "), self.cycle),
        }
    }
}

impl Drop for VerilatorBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A kernel's run on the engine, and how fast it went.
pub struct FastRun {
    /// What the kernel left, as the host read it back.
    pub run: BoardRun,
    /// Cycles simulated (the whole session: loading, the kernel, reading back) and the seconds
    /// they took (the build not counted).
    pub cycles: u64,
    /// The seconds they took.
    pub secs: f64,
}

/// Runs `program` on the engine with the local data share holding `lds`; `poll` sees each
/// status the host reads while the kernel runs. A kernel that takes more than `max_cycles`
/// cycles is a [`CycleLimit`] error (the engine stops at the first status read past it, at most
/// [`MOST_POLL_WAIT`](crate::link::MOST_POLL_WAIT) cycles later).
pub fn run_kernel(
    engine: &Path,
    params: CoreParams,
    program: &[crate::isa::Inst],
    lds: &[u32],
    max_cycles: u64,
    poll: OnPoll,
) -> Result<FastRun> {
    let started = Instant::now();
    let mut host = Host::new(VerilatorBoard::start(engine, CLOCKS_PER_BIT)?, params);
    host.max_cycles = Some(max_cycles);
    host.on_poll = Some(poll);
    let limit = CycleLimit { cycles: max_cycles };
    let run =
        host.run_kernel(program, lds).map_err(|e| match e.downcast_ref::<StillRunning>() {
            Some(_) => anyhow::Error::new(limit),
            None => e,
        })?;
    if run.status.counters.cycles > max_cycles {
        bail!(limit);
    }
    Ok(FastRun { run, cycles: host.serial.cycle, secs: started.elapsed().as_secs_f64() })
}

/// Checks a run on the engine against the interpreter's machine `m` after the same kernel, as
/// [`check_against_interpreter`](crate::link::check_against_interpreter) does (every register,
/// local-data-share word and count), and that no error flag was raised.
pub fn check(params: CoreParams, m: &crate::isa::interp::Machine, run: &BoardRun) -> Result<()> {
    crate::link::check_against_interpreter(params, m, run, "the core")?;
    if run.status.core_errors != 0 {
        bail!(
            "the core raised error flags {}",
            crate::params::error_flags_shown(run.status.core_errors)
        );
    }
    Ok(())
}
