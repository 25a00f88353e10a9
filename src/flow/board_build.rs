//! `simt-rtl build --board B`: a board top (a preset's self-test, or a core behind the serial
//! port) through the board's family's flow ([`crate::flow::fpga::toolchain`]): yosys's
//! synthesis, nextpnr with the board's chip, pins and clock, the packer (and on the iCE40
//! `icetime` as a cross-check), into the board's build directory; then a resource table and the
//! achieved Fmax against the target, read from nextpnr's JSON report. A core clock other than the
//! board's own comes from the family's PLL ([`Pll`]), which then wraps the board top in `top`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rust_hdl::prelude::Block;
use serde_json::Value;

use super::fpga::toolchain::{self, Pll};
use super::Mapper;
use crate::boards::{Board, Family};
use crate::export::export_module;
use crate::registry::PresetBlocks;

/// Which board top to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardTop {
    /// The preset's [`SelfTest`](crate::boards::SelfTest) (LFSR traffic, signature, LEDs).
    SelfTest,
    /// A SIMT core behind the serial port ([`CoreBoard`](crate::boards::CoreBoard)).
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
    /// The core preset of the core top (one of the board's [`Board::cores`]).
    pub core: crate::params::CoreParams,
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
    /// Why there is no read-back check, when there is none.
    pub unverified: &'static str,
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
            // nextpnr 0.4: `delay total Source cell.pin`; 0.11: `type delay total Source cell.pin`.
            let at = words.iter().position(|w| *w == "Source" || *w == "Sink");
            let Some(cell) = at.and_then(|at| words.get(at + 1)) else { continue };
            let signal = cell_signal(cell);
            // Cells nextpnr made itself (`$nextpnr...`) name no signal of the design.
            if !signal.starts_with('$') && signals.last() != Some(&signal) {
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

/// The register or net a packed cell's pin is named after: the cell's name (the pin cut off) up
/// to the first cell type in it (`SB_`, `_LC`, `_TRELLIS_`, `_LUT4`, `_CCU2C`), a register's
/// output `q` left out (`a.b.q_SB_LUT4_I3_LC.I1` -> `a.b`, `a.x_LUT4_Z_27.F` -> `a.x`).
fn cell_signal(pin: &str) -> String {
    let cell = pin.rsplit_once('.').map_or(pin, |(cell, _)| cell);
    let typed = |p: &str| {
        let types = ["SB_", "_TRELLIS_", "_LUT4", "_CCU2C", "_DP16KD", "_MULT18X18D"];
        types
            .iter()
            .filter_map(|t| p.find(t))
            .min()
            .or_else(|| p.ends_with("_LC").then(|| p.len() - 3))
    };
    let mut parts = vec![];
    for part in cell.split('.') {
        let Some(at) = typed(part) else {
            parts.push(part);
            continue;
        };
        let name = part[..at].trim_end_matches('_');
        if !matches!(name, "" | "q") {
            parts.push(name);
        }
        break;
    }
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
            None => format!("Read-back: {}.", self.unverified),
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

/// Reads nextpnr's `--report` JSON: utilisation of `cells` (`(key, name)`: the family's
/// [`report_cells`](toolchain::Toolchain::report_cells)) and the slowest clock's achieved Fmax.
pub fn parse_report(json: &str, cells: &[(&str, &str)]) -> Result<(Vec<Resource>, f64)> {
    let v: Value = serde_json::from_str(json).context("nextpnr's report is not JSON")?;
    let util = v
        .get("utilization")
        .and_then(Value::as_object)
        .context("nextpnr's report has no `utilization`")?;
    let mut resources = vec![];
    for &(key, name) in cells {
        if let Some(u) = util.get(key) {
            let get = |f: &str| u.get(f).and_then(Value::as_u64).unwrap_or(0);
            resources.push(Resource {
                name: if name.contains(key) { name.to_string() } else { format!("{name} ({key})") },
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

/// Preset `B`'s self-test top for `board`, `cycles` cycles, as Verilog with top module `top`
/// (its expected signature is computed by simulating it first); with `pll`, `top` is the PLL
/// in front of the self-test (module `self_test`).
pub fn board_top_verilog<B: PresetBlocks>(
    board: &Board,
    cycles: u64,
    pll: Option<&Pll>,
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
    pll: Option<&Pll>,
) -> Result<String> {
    let verilog = export_module(top, if pll.is_some() { inner } else { "top" }, header)?;
    Ok(with_pll(verilog, inner, board, pll))
}

/// `verilog` (module `inner`, or `top` without a PLL), with `pll` in front of it as `top`.
fn with_pll(verilog: String, inner: &str, board: &Board, pll: Option<&Pll>) -> String {
    match pll {
        None => verilog,
        Some(pll) => verilog + "\n" + &pll.top_verilog(board.clock_mhz as f64, inner, "top"),
    }
}

/// The serial port's clocks per bit at a `mhz` core clock.
fn clocks_per_bit(mhz: f64) -> f64 {
    (mhz * 1e6 / crate::boards::HOST_BAUD as f64).round()
}

/// The board top of the core `core` at `mhz` (its serial port's clocks per bit from that clock)
/// as Verilog with top module `top`; with `pll`, `top` is the PLL in front of it (`core_board`).
pub fn core_board_verilog(
    board: &Board,
    core: crate::params::CoreParams,
    mhz: f64,
    pll: Option<&Pll>,
) -> Result<String> {
    let cpb = clocks_per_bit(mhz);
    let error =
        (mhz * 1e6 / cpb - crate::boards::HOST_BAUD as f64).abs() / crate::boards::HOST_BAUD as f64;
    if error > 0.02 {
        anyhow::bail!("a {mhz:.3} MHz clock cannot make {} baud within 2% ({:.1}% off at {cpb} clocks per bit)", crate::boards::HOST_BAUD, 100.0 * error);
    }
    let header = format!(
        "// The `{}` SIMT core behind the serial port for the {} ({mhz:.3} MHz, {cpb} clocks per bit)\n// Generated by simt-rtl {}; do not edit.\n",
        core.name,
        board.description,
        env!("CARGO_PKG_VERSION")
    );
    let inner = crate::boards::core_board::MODULE;
    let module = if pll.is_some() { inner } else { "top" };
    let verilog = crate::boards::core_board::board_verilog(core, cpb as usize, module, &header)?;
    Ok(with_pll(verilog, inner, board, pll))
}

impl BuildOptions {
    /// The yosys synthesis command: the iCE40's as `--dffe` and `--mapper` choose, the ECP5's
    /// family command.
    pub fn synthesis_command(&self) -> String {
        self.synthesis.command_for(self.board.chip.family)
    }
}

/// Builds the bitstream of preset `B`'s self-test top, or of the core's board top, for the
/// board `opts` names, through its family's flow.
pub fn build_board<B: PresetBlocks>(opts: &BuildOptions) -> Result<BuildReport> {
    // Every argument is checked before anything is simulated or written.
    let board = &opts.board;
    let tools = toolchain::require_place_and_route(board)?;
    super::require_tool(tools.packer)?;
    let pll = Pll::for_board(board, opts.freq_mhz)?;
    let most = crate::boards::self_test::MAX_SELF_TEST_CYCLES;
    crate::params::check_range("cycles", opts.cycles as usize, 1, most)?;
    let dir = &opts.out_dir;
    crate::flow::results::writable_dir(dir)?;
    clear_earlier_build(dir)?;
    let target_mhz = pll.map_or(opts.freq_mhz, |p| p.fout_mhz());
    if let Some(p) = &pll {
        eprintln!("build: core clock {target_mhz:.3} MHz from the PLL ({})", p.describe());
    }
    write_top::<B>(opts, pll.as_ref(), target_mhz)?;
    // No latch after mapping, as in the synthesis check of every exported block
    // (`flow::synth_ice40`): the board tops are mapped here only (`TestSynthesis`).
    let synth = format!(
        "read_verilog -noautowire top.v; {} -top top -json top.json; {}",
        opts.synthesis_command(),
        super::NO_LATCHES
    );
    super::stage(dir, "yosys", &["-p", &synth], "yosys.log", "build: synthesis")?;
    no_latch_inferred(&dir.join("yosys.log"))?;
    toolchain::place_and_route(board, dir, target_mhz)?;
    let bitstream = toolchain::pack(board, dir, target_mhz)?;
    let report =
        std::fs::read_to_string(dir.join("report.json")).context("nextpnr wrote no report.json")?;
    let (resources, fmax_mhz) = parse_report(&report, tools.report_cells)?;
    let bitstream_bytes = std::fs::metadata(&bitstream)
        .with_context(|| format!("no bitstream {}", bitstream.display()))?
        .len();
    let (verified, unverified) = match opts.verify {
        false => (None, "not checked (--no-verify)"),
        true => (Some(verify_bitstream::<B>(opts, target_mhz).context("build: read-back")?), ""),
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
        unverified,
        critical_path,
    })
}

/// Fails if yosys's log `log` reports a latch inferred from a process (which the mapped-cell
/// check catches too, unless a family maps it to logic).
fn no_latch_inferred(log: &Path) -> Result<()> {
    let text = std::fs::read_to_string(log)
        .with_context(|| format!("cannot read yosys's log {}", log.display()))?;
    match super::latch_inferred(&text) {
        Some(line) => bail!("yosys inferred a latch in the board top: {line}"),
        None => Ok(()),
    }
}

/// What an earlier build into `dir` left that says what the build is, or that a later step
/// reads: its top, netlists, bitstreams, report and the core top's notes. Removed before a
/// build starts, so that a build that fails leaves no older bitstream looking like its own,
/// and a self-test build over a core-top build no longer reads as a core top.
const BUILD_PRODUCTS: &[&str] = &[
    "top.v",
    "top.json",
    "top.asc",
    "top.bin",
    "top.bit",
    "top.config",
    "top.svf",
    "report.json",
    super::readback::CLOCKS_PER_BIT_FILE,
    super::readback::CORE_PRESET_FILE,
];

fn clear_earlier_build(dir: &Path) -> Result<()> {
    for name in BUILD_PRODUCTS {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                bail!("cannot remove {} of an earlier build: {e}", dir.join(name).display())
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes the board top (`top.v`), its pin file and, for the core top, its serial port's
/// clocks per bit into the build directory.
fn write_top<B: PresetBlocks>(opts: &BuildOptions, pll: Option<&Pll>, mhz: f64) -> Result<()> {
    let (board, dir) = (&opts.board, &opts.out_dir);
    let verilog = match opts.top {
        BoardTop::SelfTest => {
            eprintln!(
                "build: simulating the self-test ({} cycles) for its expected signature",
                opts.cycles
            );
            board_top_verilog::<B>(board, opts.cycles, pll)?
        }
        BoardTop::Core => core_board_verilog(board, opts.core, mhz, pll)?,
    };
    crate::sim::write_whole(&dir.join("top.v"), verilog)?;
    if opts.top == BoardTop::Core {
        let cpb = clocks_per_bit(mhz).to_string();
        crate::sim::write_whole(&dir.join(super::readback::CLOCKS_PER_BIT_FILE), cpb)?;
        let core = format!("{}\n", opts.core.name);
        crate::sim::write_whole(&dir.join(super::readback::CORE_PRESET_FILE), core)?;
    }
    crate::sim::write_whole(&dir.join(toolchain::pin_file(board, "top")), board.constraints())
}

/// The read-back stage: the bitstream's own netlist simulated ([`super::readback`]), the
/// self-test's LEDs against the rust-hdl simulation's, or a kernel on the core top.
fn verify_bitstream<B: PresetBlocks>(
    opts: &BuildOptions,
    target_mhz: f64,
) -> Result<super::readback::Verified> {
    use super::readback;
    let started = std::time::Instant::now();
    let tools = toolchain::of_board(&opts.board)?;
    if let Some(round_trip) = tools.round_trip {
        round_trip(&opts.out_dir)?;
    }
    match opts.board.chip.family {
        Family::Ice40 => eprintln!("build: read-back (icebox_vlog, the cells under Verilator)"),
        _ => eprintln!("build: read-back (nextpnr's routed design, the cells under Verilator)"),
    }
    let engine = readback::engine(&opts.out_dir)?;
    let build_secs = started.elapsed().as_secs_f64();
    let simulated = readback::Simulated::of(&opts.out_dir);
    let verified = match opts.top {
        BoardTop::SelfTest => {
            let mut top = B::self_test(opts.cycles)?;
            let leds =
                crate::boards::self_test::leds_when_done(&mut top, opts.cycles as usize + 64)?;
            readback::check_self_test(&engine, simulated, leds as u8, opts.cycles + 10_000)
        }
        BoardTop::Core => {
            let cpb = clocks_per_bit(target_mhz) as usize;
            readback::check_core(&engine, simulated, opts.core, cpb)
        }
    }?;
    let summary = match tools.round_trip {
        Some(_) => {
            verified.summary + "; the bitstream unpacked and packed again is top.bit bit for bit"
        }
        None => verified.summary,
    };
    Ok(readback::Verified { summary, build_secs, ..verified })
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
        // nextpnr-ecp5 0.11's columns, a block RAM's pin first.
        let log = "\
Info: Critical path report for clock 'clock' (posedge -> posedge):
Info:       type curr  total name
Info:   clk-to-q  5.61  5.61 Source stacks.mask_ram.mem.0.0.DOA4
Info:    routing  2.00  7.61 Net stacks.mask_ram.mem.0.0_DOA4[0] (26,22) -> (24,4)
Info:                          Sink pop_data_mask_LUT4_Z_27_D_LUT4_Z.A
Info:      logic  0.24  7.84 Source pop_data_mask_LUT4_Z_27_D_LUT4_Z.F
Info:    routing  0.73  9.78 Net pop_data_mask[4] (21,3) -> (21,2)
Info:                          Sink warp_pc.mask_q$4.q_TRELLIS_FF_Q_27_DI_LUT4_Z.B
Info:      setup  0.00  10.15 Source warp_pc.mask_q$4.q_TRELLIS_FF_Q_27.DI
Info: 6.32 ns logic, 3.83 ns routing
";
        let path = CriticalPath::from_log(log).expect("a path");
        assert_eq!(path.signals, ["stacks.mask_ram.mem.0.0", "pop_data_mask", "warp_pc.mask_q$4"]);
        assert_eq!(cell_signal("run.oc.take_LUT4_Z.C"), "run.oc.take");
        assert_eq!(
            cell_signal("run.oc.tail$0.q_TRELLIS_FF_Q_2_DI_LUT4_Z_A_CCU2C_A0$CCU2_COMB1.FCO"),
            "run.oc.tail$0"
        );
        assert_eq!((path.logic_ns, path.routing_ns), (6.32, 3.83));
        assert_eq!(CriticalPath::from_log("Info: no timing here"), None);
    }
}
