//! The host link: the serial protocol between a host and the SIMT core on the board, 8N1 at
//! [`HOST_BAUD`](crate::protocol::HOST_BAUD). The board's side is the [`HostLink`](crate::hw::HostLink)
//! engine (its model: [`crate::hw::link::host_link::model`]).
//!
//! Every command is one byte, then its argument bytes; only `query` and `capture` answer:
//!
//! | command | bytes | does | answer |
//! |---|---|---|---|
//! | `write` | `'W'`, address, n (0 = 256), then n words of 4 bytes, little endian | writes instruction words address, address + 1, ... | none |
//! | `start` | `'S'`, flags (bit 0: capture write-backs) | clears the capture buffer and pulses the core's `start` | none |
//! | `query` | `'Q'` | | [`STATUS_BYTES`] bytes: see [`Status`] |
//! | `capture` | `'C'`, index | | [`record_bytes`] bytes: record `index` of the capture buffer, little endian |
//! | `reset` | `'X'` | resets the core (its counters and flags; not its memories), clears the link's flags and the capture buffer | none |
//!
//! With capture on, every write-back of the run is recorded ([`CAPTURE_RECORDS`] at most; more
//! set a flag): register data in the low `lanes x lane_bits` bits, then the lane mask, the
//! register number (4 bits) and the warp. A byte that arrives while an answer is being sent is
//! dropped and flagged; an unknown command byte is ignored and flagged.

use crate::sim::interrupt::Guarded;
use anyhow::{bail, Context, Result};

use crate::hw::core::simt_core::model::CoreCounters;
use crate::isa::asm::assemble;
use crate::isa::{Inst, REGISTERS};
use crate::params::{clog2, CoreParams};

pub use crate::protocol::{record_bytes, Command, CAPTURE_RECORDS, STATUS_BYTES};

/// A byte pipe to the board: the USB serial port, or a simulation of the board top.
pub trait Serial {
    fn send(&mut self, bytes: &[u8]) -> Result<()>;
    /// Exactly `n` bytes, or an error when they do not come.
    fn receive(&mut self, n: usize) -> Result<Vec<u8>>;
    /// Lets about `cycles` core cycles pass before the next byte: a simulation that moves a
    /// byte a cycle runs them, so that a run's status is not asked for every few cycles; a
    /// serial port does nothing (its bytes take that long).
    fn idle(&mut self, _cycles: u64) -> Result<()> {
        Ok(())
    }
}

/// The core cycles [`Host::run`] first lets pass between two status queries of a running
/// program ([`Serial::idle`]), doubled after each query up to [`MOST_POLL_WAIT`].
pub const FIRST_POLL_WAIT: u64 = 32;
/// The most core cycles between two status queries of a running program.
pub const MOST_POLL_WAIT: u64 = 4096;

/// The `query` answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub running: bool,
    pub capture_enabled: bool,
    /// Bit 0 unknown command, 1 byte while busy, 2 capture buffer full, 3 framing error.
    pub link_errors: u8,
    /// The core's sticky flags ([`SimtCoreModel::error_bits`](crate::hw::SimtCoreModel::error_bits)).
    pub core_errors: u8,
    pub captured: usize,
    pub counters: CoreCounters,
}

impl Status {
    pub fn parse(b: &[u8]) -> Result<Status> {
        if b.len() != STATUS_BYTES {
            bail!("a status answer is {STATUS_BYTES} bytes, not {}", b.len());
        }
        let c = |k: usize| {
            u32::from_le_bytes([b[5 + 4 * k], b[6 + 4 * k], b[7 + 4 * k], b[8 + 4 * k]]) as u64
        };
        Ok(Status {
            running: b[0] & 1 == 1,
            capture_enabled: b[0] & 2 == 2,
            link_errors: b[0] >> 2,
            core_errors: b[1],
            captured: u16::from_le_bytes([b[3], b[4]]) as usize,
            counters: CoreCounters {
                cycles: c(0),
                issued: c(1),
                scoreboard_stalls: c(2),
                structural_stalls: c(3),
                bank_stalls: c(4),
                lds_conflict_cycles: c(5),
                divergent_branches: c(6),
                barrier_waits: c(7),
                stack_high_water: b[2] as u64,
            },
        })
    }
}

/// One recorded write-back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub warp: usize,
    pub reg: usize,
    pub mask: u64,
    /// Each lane's value.
    pub lanes: Vec<u32>,
}

impl Record {
    /// The record in `bytes` (little endian, as the link sends it) of a core with `p`'s sizes:
    /// from bit 0 up, the lanes' values, the lane mask, the register and the warp.
    pub fn parse(bytes: &[u8], p: &CoreParams) -> Record {
        let bit = |i: usize| bytes.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1);
        let field =
            |from: usize, bits: usize| (0..bits).fold(0u64, |a, k| a | (bit(from + k) as u64) << k);
        let data_bits = p.threads * p.lane_bits;
        Record {
            lanes: (0..p.threads).map(|l| field(l * p.lane_bits, p.lane_bits) as u32).collect(),
            mask: field(data_bits, p.threads),
            reg: field(data_bits + p.threads, 4) as usize,
            warp: field(data_bits + p.threads + 4, clog2(p.warps)) as usize,
        }
    }
    /// Lane `l`'s value.
    pub fn lane(&self, l: usize) -> u32 {
        self.lanes[l]
    }
}

/// What a kernel left on the board: every register of every warp and lane, the local data
/// share, and the run's counters and flags.
#[derive(Clone, Debug)]
pub struct BoardRun {
    /// `regs[(warp x threads + lane) x 16 + r]`, as the interpreter's [`Machine`](crate::isa::interp::Machine).
    pub regs: Vec<u32>,
    pub lds: Vec<u32>,
    pub status: Status,
}

/// What sees each status read while a program runs.
pub type OnPoll = Box<dyn FnMut(&Status)>;

/// The core still ran after `polls` status queries.
#[derive(Clone, Copy, Debug)]
pub struct StillRunning {
    pub polls: usize,
}

impl std::fmt::Display for StillRunning {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "the core still runs after {} status queries", self.polls)
    }
}

impl std::error::Error for StillRunning {}

/// Status queries before a program that loads or reads back the core counts as hung (and
/// [`Host::max_polls`]'s default): far more than any of them takes, so that a limit set for a
/// kernel (`run --max-cycles`) is the kernel's alone.
pub const HOUSEKEEPING_POLLS: usize = 100_000;

/// The host's side of the link to a board running `params`'s core.
pub struct Host<S: Serial> {
    pub serial: S,
    pub params: CoreParams,
    /// Status queries before a run counts as hung (in [`run_kernel`](Self::run_kernel), the
    /// kernel's run: the programs that load and read back take [`HOUSEKEEPING_POLLS`]).
    pub max_polls: usize,
    /// The kernel's run also counts as hung at the first status that shows it running past
    /// this many core cycles (the core's own count; `None`: no such limit).
    pub max_cycles: Option<u64>,
    /// Sees each status read while a program runs (progress).
    pub on_poll: Option<OnPoll>,
}

impl<S: Serial> Host<S> {
    pub fn new(serial: S, params: CoreParams) -> Self {
        Self { serial, params, max_polls: HOUSEKEEPING_POLLS, max_cycles: None, on_poll: None }
    }

    /// Writes `words` from instruction `addr` on, in bursts of at most 256.
    pub fn write(&mut self, addr: usize, words: &[u32]) -> Result<()> {
        if addr + words.len() > self.params.imem_words {
            bail!(
                "{} words from address {addr} do not fit the core's {} instruction words",
                words.len(),
                self.params.imem_words
            );
        }
        for (k, chunk) in words.chunks(256).enumerate() {
            let mut bytes = vec![Command::Write as u8, (addr + 256 * k) as u8, chunk.len() as u8];
            bytes.extend(chunk.iter().flat_map(|w| w.to_le_bytes()));
            self.serial.send(&bytes)?;
        }
        Ok(())
    }
    pub fn start(&mut self, capture: bool) -> Result<()> {
        self.serial.send(&[Command::Start as u8, capture as u8])
    }
    pub fn reset_core(&mut self) -> Result<()> {
        self.serial.send(&[Command::Reset as u8])
    }
    pub fn query(&mut self) -> Result<Status> {
        self.serial.send(&[Command::Query as u8])?;
        Status::parse(&self.serial.receive(STATUS_BYTES)?)
    }
    pub fn record(&mut self, index: usize) -> Result<Record> {
        self.serial.send(&[Command::Capture as u8, index as u8])?;
        let p = self.params;
        let bytes = self.serial.receive(crate::hw::link::host_link::core_record_bytes(&p))?;
        Ok(Record::parse(&bytes, &p))
    }

    /// Loads `program`, starts it and waits for the end, at most [`max_polls`](Self::max_polls)
    /// status queries; the status after it. Link errors other than a full capture buffer are
    /// errors.
    pub fn run(&mut self, program: &[Inst], capture: bool) -> Result<Status> {
        self.run_polled(program, capture, self.max_polls, self.max_cycles)
    }

    /// As [`run`](Self::run), at most `polls` status queries and, when given, `cycles` core
    /// cycles.
    fn run_polled(
        &mut self,
        program: &[Inst],
        capture: bool,
        polls: usize,
        cycles: Option<u64>,
    ) -> Result<Status> {
        let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
        self.write(0, &words)?;
        self.start(capture)?;
        let mut wait = FIRST_POLL_WAIT;
        for k in 0..polls {
            let s = self.query()?;
            if let Some(poll) = &mut self.on_poll {
                poll(&s);
            }
            if !s.running {
                // A full capture buffer (bit 2) is the caller's to judge from `captured`.
                if s.link_errors & !0b100 != 0 {
                    bail!("the link reports errors {:#06b} (bit 0 unknown command, 1 byte while busy, 2 capture full, 3 framing error)", s.link_errors);
                }
                return Ok(s);
            }
            if cycles.is_some_and(|most| s.counters.cycles > most) {
                bail!(StillRunning { polls: k + 1 });
            }
            self.serial.idle(wait)?;
            wait = (2 * wait).min(MOST_POLL_WAIT);
        }
        bail!(StillRunning { polls })
    }

    /// The write-backs a run with capture recorded.
    fn records(&mut self, status: &Status) -> Result<Vec<Record>> {
        (0..status.captured).map(|i| self.record(i)).collect()
    }

    /// Runs `kernel` on the board with the local data share holding `lds` (the rest 0): the
    /// share is written by store programs and every register cleared (as the interpreter
    /// starts), the core reset (so the counters are the kernel's),
    /// the kernel run, then every register and every share word read back through programs
    /// whose write-backs the link records.
    pub fn run_kernel(&mut self, kernel: &[Inst], lds: &[u32]) -> Result<BoardRun> {
        let p = self.params;
        self.reset_core()?;
        for program in fill_programs(p, lds)? {
            let s = self
                .run_polled(&program, false, HOUSEKEEPING_POLLS, None)
                .context("writing the local data share")?;
            if s.core_errors != 0 {
                bail!(
                    "the core raised flags {} writing the local data share",
                    crate::params::error_flags_shown(s.core_errors)
                );
            }
        }
        // Every register 0, as the interpreter starts.
        let clear: String =
            (0..REGISTERS).map(|r| format!("li r{r}, 0\n")).collect::<String>() + "exit\n";
        self.run_polled(&assemble(&clear)?, false, HOUSEKEEPING_POLLS, None)
            .context("clearing the registers")?;
        self.reset_core()?;
        let status = self.run(kernel, false).context("the kernel")?;
        // Registers: each warp writes every register back unchanged.
        let mut text: String = (0..REGISTERS).map(|r| format!("addi r{r}, r{r}, 0\n")).collect();
        text += "exit\n";
        let s = self
            .run_polled(&assemble(&text)?, true, HOUSEKEEPING_POLLS, None)
            .context("reading the registers back")?;
        let mut regs = vec![0; p.warps * p.threads * REGISTERS];
        let records = self.records(&s)?;
        if records.len() != p.warps * REGISTERS {
            bail!(
                "reading the registers back recorded {} write-backs, not {}",
                records.len(),
                p.warps * REGISTERS
            );
        }
        for r in records {
            for l in 0..p.threads {
                regs[(r.warp * p.threads + l) * REGISTERS + r.reg] = r.lane(l);
            }
        }
        // The local data share: thread t loads words t, t + n, ... into r3 (n threads).
        let s = self
            .run_polled(&crate::isa::dump_program(p)?, true, HOUSEKEEPING_POLLS, None)
            .context("reading the local data share back")?;
        let n = p.warps * p.threads;
        let mut memory = vec![0; p.lds_words()];
        let mut seen = vec![0; p.warps];
        for r in self.records(&s)?.into_iter().filter(|r| r.reg == 3) {
            let k = seen[r.warp];
            seen[r.warp] += 1;
            for l in 0..p.threads {
                if let Some(w) = memory.get_mut(r.warp * p.threads + l + k * n) {
                    *w = r.lane(l);
                }
            }
        }
        if seen.iter().any(|&k| k * n < memory.len()) {
            bail!("reading the local data share back recorded {seen:?} loads per warp: too few");
        }
        Ok(BoardRun { regs, lds: memory, status })
    }
}

/// Programs that leave `lds` (the rest 0) in the local data share: warp 0 builds each group of
/// `threads` consecutive words in a register (lane 0's value, then each other lane's difference
/// under a lane mask) and stores it owner-computes; the other warps exit at once. The lane masks
/// are kept in registers when they fit (up to 10 lanes), else made where each is used; a value
/// wider than `li`'s 14-bit immediate takes `lui` and `addi` (extension `lui`).
pub fn fill_programs(p: CoreParams, lds: &[u32]) -> Result<Vec<Vec<Inst>>> {
    let words = p.lds_words();
    if lds.len() > words {
        bail!("{} local-data-share words given: the core's share holds {words}", lds.len());
    }
    if p.lane_bits > 13 && !p.isa.lui {
        bail!("`lane_bits` = {} is wider than `li`'s immediate (14 bits, signed) and the core has no `lui`", p.lane_bits);
    }
    let t = p.threads;
    let value =
        |i: usize| lds.get(i).copied().unwrap_or(0) & crate::sim::rng::mask(p.lane_bits) as u32;
    // r1 the group, r2 the lane, r3 zero, r4 a lane mask, r5 a difference; r5 + k lane k's mask.
    let kept_masks = 5 + t <= REGISTERS;
    let mut header = String::from("warp r1\nbany r1, quit\nlane r2\nli r3, 0\n");
    if kept_masks {
        for k in 1..t {
            header += &format!("li r4, {k}\nseq r4, r2, r4\nsub r{}, r3, r4\n", 5 + k);
        }
    }
    let mask_of = |k: usize| match kept_masks {
        true => format!("r{}", 5 + k),
        false => "r4".to_string(),
    };
    let mut programs = vec![];
    let mut body = String::new();
    let lines = |s: &str| s.lines().count();
    for g in 0..words / t {
        let v0 = value(g * t);
        let mut group = constant("r1", v0, p.lane_bits);
        for k in 1..t {
            let d = value(g * t + k) ^ v0;
            if d != 0 {
                if !kept_masks {
                    group += &format!("li r4, {k}\nseq r4, r2, r4\nsub r4, r3, r4\n");
                }
                group += &constant("r5", d, p.lane_bits);
                group += &format!("and r5, r5, {}\nxor r1, r1, r5\n", mask_of(k));
            }
        }
        group += &format!("st r1, {}, 1\n", g * t / p.lds_banks);
        if lines(&header) + lines(&body) + lines(&group) + 2 > p.imem_words {
            programs.push(assemble(&format!("{header}{body}quit: exit\n"))?);
            body.clear();
        }
        body += &group;
    }
    programs.push(assemble(&format!("{header}{body}quit: exit\n"))?);
    Ok(programs)
}

/// The instructions that put `v` (a `lane_bits`-bit value) in register `rd`: `li` when `v` is
/// `li`'s 14-bit signed immediate cut to the lane width, else `lui` and `addi`.
fn constant(rd: &str, v: u32, lane_bits: usize) -> String {
    let lane = |x: i64| (x as u64 & crate::sim::rng::mask(lane_bits)) as u32;
    let low = ((v << 18) as i32 >> 18) as i64; // bits 13:0, signed
    if lane(low) == v {
        return format!("li {rd}, {low}\n");
    }
    let high = (v as i64 - low) as u64 >> 14 & 0x3_FFFF;
    format!("lui {rd}, {high}\naddi {rd}, {rd}, {low}\n")
}

/// Checks a board run against the reference interpreter's machine `m` after the same kernel
/// (its local data share starting as the board's): see [`compare_with_interpreter`]; `who` names
/// what ran it ("the core", "the board").
pub fn check_against_interpreter(
    p: CoreParams,
    m: &crate::isa::interp::Machine,
    run: &BoardRun,
    who: &str,
) -> Result<()> {
    compare_with_interpreter(p, m, (&run.regs, &run.lds), &run.status.counters, who)
}

/// Every register of every warp and lane and every local-data-share word that `who` ("the
/// core") left unlike the interpreter's machine `m`, in decimal (the first few and how many);
/// when the values agree, the first count the two keep that differs (instructions, divergent
/// branches, the stack's high-water mark, bank-conflict cycles): the kernel's timing, not its
/// values, differs from the interpreter's.
pub fn compare_with_interpreter(
    p: CoreParams,
    m: &crate::isa::interp::Machine,
    (regs, lds): (&[u32], &[u32]),
    counters: &CoreCounters,
    who: &str,
) -> Result<()> {
    let mut differ: Vec<String> = vec![];
    for (k, (&got, &want)) in regs.iter().zip(&m.regs).enumerate() {
        if got != want {
            let (thread, r) = (k / REGISTERS, k % REGISTERS);
            let (w, l) = (thread / p.threads, thread % p.threads);
            differ
                .push(format!("warp {w} lane {l} r{r}: {who} left {got}, the interpreter {want}"));
        }
    }
    for (a, (&got, &want)) in lds.iter().zip(&m.lds).enumerate() {
        if got != want {
            differ.push(format!(
                "local-data-share word {a}: {who} left {got}, the interpreter {want}"
            ));
        }
    }
    if !differ.is_empty() {
        let more = differ.len().saturating_sub(3);
        let tail = if more > 0 { format!("; and {more} more") } else { String::new() };
        bail!(
            "{who}'s results differ from the interpreter's in {} value(s): {}{tail}",
            differ.len(),
            differ[..differ.len().min(3)].join("; ")
        );
    }
    compare_counters(m, counters).map_err(|e| {
        anyhow::anyhow!(
            "the kernel's timing differs from the interpreter's (every value agrees): {e}"
        )
    })
}

/// The first count the core and the interpreter's machine `m` differ in: instructions,
/// divergent branches, the stack's high-water mark, bank-conflict cycles.
pub fn compare_counters(m: &crate::isa::interp::Machine, counters: &CoreCounters) -> Result<()> {
    let pairs = [
        ("instructions", counters.issued, m.counters.instructions),
        ("divergent branches", counters.divergent_branches, m.counters.divergent_branches),
        ("stack high water", counters.stack_high_water, m.counters.stack_high_water as u64),
        ("bank-conflict cycles", counters.lds_conflict_cycles, m.counters.lds_conflict_cycles),
    ];
    for (what, core, interp) in pairs {
        if core != interp {
            bail!("{what}: the core counted {core}, the interpreter {interp}");
        }
    }
    Ok(())
}

/// The Alchitry Cu's serial port: the highest-numbered `/dev/ttyUSB*` (its FTDI chip's second
/// channel is the UART; the first programs the flash).
pub fn find_port() -> Result<std::path::PathBuf> {
    let mut ports: Vec<_> = std::fs::read_dir("/dev")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("ttyUSB"))
                })
                .collect()
        })
        .unwrap_or_default();
    ports.sort_by_key(|p| {
        p.to_string_lossy().trim_start_matches("/dev/ttyUSB").parse::<u32>().unwrap_or(0)
    });
    ports.pop().ok_or_else(|| anyhow::anyhow!("no board: no USB serial port (/dev/ttyUSB*) found. Connect the Alchitry Cu with the core's board top (`core_board`) loaded, or name the port with --port; --sim runs the board top in simulation"))
}

/// A USB serial port, set to [`HOST_BAUD`](crate::protocol::HOST_BAUD) 8N1 raw with `stty`.
pub struct TtySerial {
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl TtySerial {
    pub fn open(path: &std::path::Path) -> Result<Self> {
        let shown = path.display();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open the serial port {shown}"))?;
        let baud = crate::protocol::HOST_BAUD.to_string();
        // Raw 8N1; a read returns after 0.5 s without data.
        let status = std::process::Command::new("stty")
            .arg("-F")
            .arg(path)
            .args([
                baud.as_str(),
                "raw",
                "-echo",
                "cs8",
                "-cstopb",
                "-parenb",
                "min",
                "0",
                "time",
                "5",
            ])
            .status_guarded()
            .with_context(|| {
                "cannot run `stty` to set the serial port up (coreutils)".to_string()
            })?;
        if !status.success() {
            bail!("`stty` could not set {shown} to {baud} baud 8N1 raw (is it a serial port?)");
        }
        Ok(Self { file, path: path.to_path_buf() })
    }
}

impl Serial for TtySerial {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        use std::io::Write;
        self.file
            .write_all(bytes)
            .and_then(|_| self.file.flush())
            .with_context(|| format!("writing to {}", self.path.display()))
    }
    fn receive(&mut self, n: usize) -> Result<Vec<u8>> {
        use std::io::Read;
        let (mut got, mut idle) = (vec![], 0);
        while got.len() < n {
            let mut buf = vec![0; n - got.len()];
            let k = self
                .file
                .read(&mut buf)
                .with_context(|| format!("reading from {}", self.path.display()))?;
            got.extend_from_slice(&buf[..k]);
            idle = if k == 0 { idle + 1 } else { 0 };
            if idle == 4 {
                bail!("the board did not answer: {} of {n} bytes within 2 s on {} (is the core's board top loaded?)", got.len(), self.path.display());
            }
        }
        Ok(got)
    }
}
