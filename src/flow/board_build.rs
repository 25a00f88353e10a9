//! `simt-rtl build --board alchitry-cu`: the self-test top of a preset, through yosys
//! `synth_ice40`, `nextpnr-ice40 --hx8k --package cb132 --freq F --report`, `icepack`, and
//! `icetime` as a cross-check, into `build/alchitry_cu/`; then a resource table and the achieved
//! Fmax against the target, read from nextpnr's JSON report. A core clock other than the board's
//! own comes from the iCE40 PLL ([`Ice40Pll`]), which then wraps the self-test in `top`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use rust_hdl::prelude::Block;
use serde_json::Value;

use super::ice40_pll::{pll_top_verilog, Ice40Pll};
use super::Mapper;
use crate::boards::Board;
use crate::export::export_module;
use crate::registry::PresetBlocks;

/// Which board top to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardTop {
    /// The preset's [`SelfTest`](crate::boards::SelfTest) (LFSR traffic, signature, LEDs).
    SelfTest,
    /// The `cu` SIMT core behind the serial port ([`CoreBoard`](crate::boards::CoreBoard)).
    Core,
}

impl BoardTop {
    pub const ALL: [BoardTop; 2] = [BoardTop::SelfTest, BoardTop::Core];
    /// Its name on the command line (`--top`).
    pub fn name(self) -> &'static str {
        match self {
            BoardTop::SelfTest => "self-test",
            BoardTop::Core => "core",
        }
    }
    /// The module `simt-rtl gen` exports from the same blocks as this top
    /// (`rtl_out/<preset>/<module>.v`): what a table measured on a build was generated from.
    pub fn exported_module(self) -> &'static str {
        match self {
            BoardTop::SelfTest => crate::boards::self_test::MODULE,
            BoardTop::Core => crate::boards::core_board::MODULE,
        }
    }

    /// The LUT mapper `build` uses when `--mapper` is not given, chosen by measurement over 5
    /// placements each (`docs/src/results/toolchain-self-test.md`, `toolchain-core.md`): ABC9 on
    /// the self-test top, whose Fmax range it lifts clear of ABC's; ABC on the core top, where
    /// no ABC9 option wins beyond placement noise and ABC makes the fewest cells.
    pub fn default_mapper(self) -> Mapper {
        match self {
            BoardTop::SelfTest => Mapper::Abc9,
            BoardTop::Core => Mapper::Abc,
        }
    }
}

crate::value_enum!(BoardTop, BoardTop::ALL, |t| t.name());

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub board: Board,
    pub top: BoardTop,
    /// Core clock in MHz: the board's own, or one the PLL makes from it (then nextpnr's target is
    /// what the PLL makes).
    pub freq_mhz: f64,
    /// Cycles of the self-test run.
    pub cycles: u64,
    pub synthesis: super::Synthesis,
    pub out_dir: PathBuf,
    /// Read the bitstream back and simulate it ([`super::readback`]).
    pub verify: bool,
}

/// One row of the resource table.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub name: String,
    pub used: u64,
    pub total: u64,
}

/// What the build measured.
#[derive(Clone, Debug)]
pub struct BuildReport {
    pub resources: Vec<Resource>,
    /// Achieved Fmax of the board clock, MHz.
    pub fmax_mhz: f64,
    pub target_mhz: f64,
    pub bitstream: PathBuf,
    pub bitstream_bytes: u64,
    /// The read-back check's finding, when it ran.
    pub verified: Option<super::readback::Verified>,
    /// nextpnr's critical path of the board clock, when its log has one.
    pub critical_path: Option<CriticalPath>,
}

/// nextpnr's critical path of one clock, as its log reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalPath {
    /// The signals it passes through, first to last (a cell's name cut before its first
    /// `SB_` part: the register or net yosys named it after), each once in a row.
    pub signals: Vec<String>,
    pub logic_ns: f64,
    pub routing_ns: f64,
}

impl CriticalPath {
    /// The first register-to-register ("posedge -> posedge") critical path of a nextpnr log:
    /// the board has one clock, and the other reports are paths from or to the pins.
    pub fn from_log(log: &str) -> Option<CriticalPath> {
        let mut lines = log.lines().skip_while(|l| {
            !(l.contains("Critical path report for clock") && l.contains("(posedge -> posedge)"))
        });
        lines.next()?;
        let mut signals: Vec<String> = vec![];
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(at) = words.iter().position(|w| *w == "logic,") {
                let number = |k: usize| words.get(k).and_then(|w| w.parse::<f64>().ok());
                let (logic_ns, routing_ns) = (number(at.checked_sub(2)?)?, number(at + 1)?);
                return Some(CriticalPath { signals, logic_ns, routing_ns });
            }
            let cell = match words.as_slice() {
                [_, _, _, "Source", cell, ..] | [_, "Sink", cell, ..] => *cell,
                _ => continue,
            };
            let signal = cell_signal(cell);
            if signals.last() != Some(&signal) {
                signals.push(signal);
            }
        }
        None
    }

    /// The path as Markdown: its delay split and the signals it runs through.
    pub fn markdown(&self) -> String {
        let total = self.logic_ns + self.routing_ns;
        let through: Vec<String> = self.signals.iter().map(|s| format!("`{s}`")).collect();
        format!(
            "Critical path (nextpnr): {total:.1} ns, {:.1} ns logic and {:.1} ns routing, through {}.\n",
            self.logic_ns,
            self.routing_ns,
            through.join(" -> ")
        )
    }
}

/// The register or net a packed cell is named after: its name up to the first dotted part that
/// holds `SB_` or ends in `_LC` (`a.b.q_SB_LUT4_I3_LC` -> `a.b`).
fn cell_signal(cell: &str) -> String {
    let parts: Vec<&str> =
        cell.split('.').take_while(|p| !p.contains("SB_") && !p.ends_with("_LC")).collect();
    if parts.is_empty() {
        cell.to_string()
    } else {
        parts.join(".")
    }
}

impl BuildReport {
    /// The table `build` prints (Markdown).
    pub fn table(&self) -> String {
        let mut s = String::from("| resource | used | total | % |\n|---|---|---|---|\n");
        for r in &self.resources {
            let pct = if r.total > 0 { 100.0 * r.used as f64 / r.total as f64 } else { 0.0 };
            s.push_str(&format!("| {} | {} | {} | {:.1}% |\n", r.name, r.used, r.total, pct));
        }
        let verdict = if self.fmax_mhz >= self.target_mhz { "met" } else { "FAILED" };
        s.push_str(&format!(
            "\nFmax {:.1} MHz, target {:.1} MHz: timing {verdict}\n",
            self.fmax_mhz, self.target_mhz
        ));
        s
    }
    /// What `build --markdown` writes: the synthesis command, the table, the bitstream's
    /// read-back check and nextpnr's critical path.
    pub fn markdown(&self, synthesis: &str) -> String {
        let checked = match &self.verified {
            Some(v) => format!("Read-back: {} ({} cycles simulated).", v.summary, v.cycles),
            None => "Read-back: not checked (`--no-verify`).".to_string(),
        };
        let path =
            self.critical_path.as_ref().map_or(String::new(), |p| format!("\n{}", p.markdown()));
        format!(
            "Synthesis: `yosys {synthesis}`; bitstream {} bytes.\n\n{}\n{checked}\n{path}",
            self.bitstream_bytes,
            self.table()
        )
    }
}

/// Reads nextpnr's `--report` JSON: utilisation of the cells that matter and the board clock's
/// achieved Fmax.
pub fn parse_report(json: &str) -> Result<(Vec<Resource>, f64)> {
    let v: Value = serde_json::from_str(json).context("nextpnr's report is not JSON")?;
    let util = v
        .get("utilization")
        .and_then(Value::as_object)
        .context("nextpnr's report has no `utilization`")?;
    let names = [
        ("ICESTORM_LC", "logic cells"),
        ("ICESTORM_RAM", "block RAMs"),
        ("SB_IO", "I/O pins"),
        ("SB_GB", "global buffers"),
        ("ICESTORM_PLL", "PLLs"),
    ];
    let mut resources = vec![];
    for (key, name) in names {
        if let Some(u) = util.get(key) {
            let get = |f: &str| u.get(f).and_then(Value::as_u64).unwrap_or(0);
            resources.push(Resource {
                name: format!("{name} ({key})"),
                used: get("used"),
                total: get("available"),
            });
        }
    }
    let fmax = v
        .get("fmax")
        .and_then(Value::as_object)
        .and_then(|m| {
            m.values().filter_map(|c| c.get("achieved").and_then(Value::as_f64)).reduce(f64::min)
        })
        .context("nextpnr's report has no achieved Fmax")?;
    Ok((resources, fmax))
}

/// The PLL that makes `freq_mhz` from `board`'s clock, or `None` when that is the board's own.
pub fn core_clock(board: &Board, freq_mhz: f64) -> Result<Option<Ice40Pll>> {
    if freq_mhz == board.clock_mhz as f64 {
        return Ok(None);
    }
    Ice40Pll::for_frequency(board.clock_mhz as f64, freq_mhz).map(Some).with_context(|| {
        format!(
            "--freq {freq_mhz}: the {} clock is {} MHz, other clocks come from the iCE40 PLL",
            board.name, board.clock_mhz
        )
    })
}

/// Preset `B`'s self-test top for `board`, `cycles` cycles, as Verilog with top module `top`
/// (its expected signature is computed by simulating it first); with `pll`, `top` is the PLL
/// in front of the self-test (module `self_test`).
pub fn board_top_verilog<B: PresetBlocks>(
    board: &Board,
    cycles: u64,
    pll: Option<&Ice40Pll>,
) -> Result<String> {
    let mut top = B::self_test(cycles)?;
    top.connect_all();
    let header = format!(
        "// The `{}` self-test for the {} ({cycles} cycles)\n// Generated by simt-rtl {}; do not edit.\n",
        B::PRESET.name,
        board.description,
        env!("CARGO_PKG_VERSION")
    );
    under_pll(&top, crate::boards::self_test::MODULE, &header, board, pll)
}

/// A board top as Verilog with top module `top`; with `pll`, `top` is the PLL in front of it
/// (module `inner`).
fn under_pll(
    top: &impl Block,
    inner: &str,
    header: &str,
    board: &Board,
    pll: Option<&Ice40Pll>,
) -> Result<String> {
    match pll {
        None => export_module(top, "top", header),
        Some(pll) => Ok(export_module(top, inner, header)?
            + "\n"
            + &pll_top_verilog(pll, board.clock_mhz as f64, inner, "top")),
    }
}

/// The serial port's clocks per bit at a `mhz` core clock.
fn clocks_per_bit(mhz: f64) -> f64 {
    (mhz * 1e6 / crate::boards::HOST_BAUD as f64).round()
}

/// The `cu` core's board top at `mhz` (its serial port's clocks per bit from that clock) as
/// Verilog with top module `top`; with `pll`, `top` is the PLL in front of it (`core_board`).
pub fn core_board_verilog(board: &Board, mhz: f64, pll: Option<&Ice40Pll>) -> Result<String> {
    let cpb = clocks_per_bit(mhz);
    let error =
        (mhz * 1e6 / cpb - crate::boards::HOST_BAUD as f64).abs() / crate::boards::HOST_BAUD as f64;
    if error > 0.02 {
        anyhow::bail!("a {mhz:.3} MHz clock cannot make {} baud within 2% ({:.1}% off at {cpb} clocks per bit)", crate::boards::HOST_BAUD, 100.0 * error);
    }
    let mut top = crate::boards::CoreBoard::new(cpb as usize, &[])?;
    top.connect_all();
    let header = format!(
        "// The `cu` SIMT core behind the serial port for the {} ({mhz:.3} MHz, {cpb} clocks per bit)\n// Generated by simt-rtl {}; do not edit.\n",
        board.description,
        env!("CARGO_PKG_VERSION")
    );
    under_pll(&top, crate::boards::core_board::MODULE, &header, board, pll)
}

/// Builds the Alchitry Cu bitstream of preset `B`'s self-test top, or of the core's board top.
pub fn build_alchitry_cu<B: PresetBlocks>(opts: &BuildOptions) -> Result<BuildReport> {
    // Every argument is checked before anything is simulated or written.
    let pll = core_clock(&opts.board, opts.freq_mhz)?;
    crate::params::check_range(
        "cycles",
        opts.cycles as usize,
        1,
        crate::boards::self_test::MAX_SELF_TEST_CYCLES,
    )?;
    let dir = &opts.out_dir;
    crate::flow::results::writable_dir(dir)?;
    let target_mhz = pll.map_or(opts.freq_mhz, |p| p.fout_mhz);
    if let Some(p) = &pll {
        eprintln!(
            "build: core clock {:.3} MHz from the PLL (DIVR {}, DIVF {}, DIVQ {})",
            p.fout_mhz, p.divr, p.divf, p.divq
        );
    }
    let verilog = match opts.top {
        BoardTop::SelfTest => {
            eprintln!(
                "build: simulating the self-test ({} cycles) for its expected signature",
                opts.cycles
            );
            board_top_verilog::<B>(&opts.board, opts.cycles, pll.as_ref())?
        }
        BoardTop::Core => core_board_verilog(&opts.board, target_mhz, pll.as_ref())?,
    };
    crate::sim::write_whole(&dir.join("top.v"), verilog)?;
    if opts.top == BoardTop::Core {
        let cpb = clocks_per_bit(target_mhz).to_string();
        crate::sim::write_whole(&dir.join(super::readback::CLOCKS_PER_BIT_FILE), cpb)?;
    }
    crate::sim::write_whole(&dir.join("top.pcf"), opts.board.constraints())?;
    let freq = format!("{target_mhz:.3}");
    super::stage(
        dir,
        "yosys",
        &[
            "-p",
            &format!(
                "read_verilog -noautowire top.v; {} -top top -json top.json",
                opts.synthesis.command()
            ),
        ],
        "yosys.log",
        "build: synthesis",
    )?;
    // Timing is judged below from the report, so nextpnr is told to finish when it misses.
    super::stage(
        dir,
        "nextpnr-ice40",
        &[
            "--hx8k",
            "--package",
            "cb132",
            "--json",
            "top.json",
            "--pcf",
            "top.pcf",
            "--asc",
            "top.asc",
            "--freq",
            &freq,
            "--report",
            "report.json",
            "--timing-allow-fail",
        ],
        "nextpnr.log",
        "build: place and route",
    )?;
    super::stage(dir, "icepack", &["top.asc", "top.bin"], "icepack.log", "build: bitstream")?;
    super::stage(
        dir,
        "icetime",
        &[
            "-d",
            "hx8k",
            "-P",
            "cb132",
            "-p",
            "top.pcf",
            "-c",
            &freq,
            "-t",
            "-r",
            "icetime.txt",
            "top.asc",
        ],
        "icetime.log",
        "build: timing cross-check",
    )
    .or_else(|e| {
        // icetime's verdict is a cross-check only; nextpnr's report decides.
        eprintln!("build: icetime reports a problem (not fatal): {e:#}");
        Ok::<(), anyhow::Error>(())
    })?;
    let report =
        std::fs::read_to_string(dir.join("report.json")).context("nextpnr wrote no report.json")?;
    let (resources, fmax_mhz) = parse_report(&report)?;
    let bitstream = dir.join("top.bin");
    let bitstream_bytes = std::fs::metadata(&bitstream)
        .with_context(|| format!("no bitstream {}", bitstream.display()))?
        .len();
    let verified = match opts.verify {
        true => Some(verify_bitstream::<B>(opts, target_mhz).context("build: read-back")?),
        false => None,
    };
    let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
    let critical_path = CriticalPath::from_log(&log);
    Ok(BuildReport {
        resources,
        fmax_mhz,
        target_mhz,
        bitstream,
        bitstream_bytes,
        verified,
        critical_path,
    })
}

/// The read-back stage: the bitstream's own netlist simulated ([`super::readback`]), the
/// self-test's LEDs against the rust-hdl simulation's, or a kernel on the core top.
fn verify_bitstream<B: PresetBlocks>(
    opts: &BuildOptions,
    target_mhz: f64,
) -> Result<super::readback::Verified> {
    use super::readback;
    eprintln!("build: read-back (icebox_vlog, the cells under Verilator)");
    let started = std::time::Instant::now();
    let engine = readback::engine(&opts.out_dir)?;
    let build_secs = started.elapsed().as_secs_f64();
    let verified = match opts.top {
        BoardTop::SelfTest => {
            let mut top = B::self_test(opts.cycles)?;
            let leds =
                crate::boards::self_test::leds_when_done(&mut top, opts.cycles as usize + 64)?;
            readback::check_self_test(&engine, leds as u8, opts.cycles + 10_000)
        }
        BoardTop::Core => readback::check_core(&engine, clocks_per_bit(target_mhz) as usize),
    };
    verified.map(|v| super::readback::Verified { build_secs, ..v })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path read from a nextpnr 0.4 log: its signals in order, each once in a row, and its
    /// delay split; the pins' report after it is not taken.
    #[test]
    fn critical_path_is_read_from_the_nextpnr_log() {
        let log = "\
Info: Critical path report for clock 'core_clk' (posedge -> posedge):
Info: curr total
Info:  0.5  0.5  Source run.traffic.state.q_SB_DFFSS_Q_DFFLC.O
Info:  0.6  1.1    Net run.rb[30] budget 0.000000 ns (10,15) -> (9,16)
Info:                Sink run.oc.o_valid$0.q_SB_LUT4_I3_LC.I1
Info:                Defined in:
Info:                  top.v:7995.15-7995.103
Info:  0.4  1.5  Source run.oc.o_valid$0.q_SB_LUT4_I3_LC.O
Info:  0.6  2.1    Net run.oc.x[1] budget 0.000000 ns (9,16) -> (9,16)
Info:                Sink run.oc.arbiter.q_row$24.q_SB_DFF_Q_2_D_SB_LUT4_O_LC.I3
Info: 5.7 ns logic, 11.9 ns routing

Info: Critical path report for clock 'core_clk' (<async> -> posedge):
Info:  0.0  0.0  Source rst_n$sb_io.D_IN_0
Info: 0.4 ns logic, 3.9 ns routing
";
        let path = CriticalPath::from_log(log).expect("a path");
        let through = ["run.traffic.state", "run.oc.o_valid$0", "run.oc.arbiter.q_row$24"];
        assert_eq!(path.signals, through);
        assert_eq!((path.logic_ns, path.routing_ns), (5.7, 11.9));
        let text = path.markdown();
        assert!(text.starts_with("Critical path (nextpnr): 17.6 ns, 5.7 ns logic"), "{text}");
        assert_eq!(CriticalPath::from_log("Info: no timing here"), None);
    }
}
