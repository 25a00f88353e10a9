//! The `simt-rtl` command line: the subcommands and their dispatch. Each handler, with its
//! flags, is in the library's `commands` module.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use simt_rtl::commands;

#[derive(Parser)]
#[command(
    name = "simt-rtl",
    version,
    about = "SIMT GPU front-end blocks in rust-hdl: export, simulate"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum BoardAction {
    /// Load a kernel and its local data share, run it, read every register, every share word
    /// and the counters back, and check them against the reference interpreter.
    Run(commands::board::BoardRun),
}

#[derive(Subcommand)]
enum Command {
    /// Write one Verilog file per exported block, manifest.json, the boards' constraints and the
    /// FuseSoC core.
    Gen {
        /// Preset to export (repeatable); default: cu and seed (what rtl_out/ holds).
        #[arg(long = "preset")]
        presets: Vec<String>,
        /// Output directory.
        #[arg(long, default_value = "rtl_out")]
        out: PathBuf,
        /// Directory for the boards' constraint files (pcf, xdc); default `constraints` beside
        /// --out (in the directory that holds it).
        #[arg(long)]
        constraints: Option<PathBuf>,
        /// The FuseSoC core file listing the `cu` files (in a directory that holds --out and
        /// --constraints: its paths are relative to it; its sim and lint targets name this
        /// repository's sim/ files); default `simt_rtl.core` beside --out.
        #[arg(long)]
        fusesoc: Option<PathBuf>,
    },
    /// Run the demo scenario on the warp scheduler and write a VCD and an SVG picture of it.
    Sim {
        /// Preset to simulate.
        #[arg(long, default_value = "cu")]
        preset: String,
        /// Output directory for scheduler_demo.vcd and scheduler_demo.svg.
        #[arg(long, default_value = "sim_out")]
        out: PathBuf,
    },
    /// Build the board's bitstream: a board top through yosys, nextpnr and the family's packer.
    Build(commands::board::Build),
    /// Write a Vivado batch build (top.v, xdc, build.tcl) for a Xilinx board.
    Vivado(commands::board::Vivado),
    /// Write a bitstream into the board's configuration flash (the Alchitry Cu: iceprog; the
    /// ULX3S: openFPGALoader -f).
    Flash(commands::board::Program),
    /// Load a bitstream into the board's configuration RAM, until power-off (iceprog -S;
    /// openFPGALoader).
    Load(commands::board::Program),
    /// Check the formal properties of the exported Verilog (yosys-smtbmc with yices and bitwuzla): bounded from
    /// reset, then k-induction per property. With --synth, prove each exported block equal to
    /// its iCE40 netlist instead. Exits 1 when a property or a block fails.
    Prove(commands::prove::Prove),
    /// Place and route every exported block of a preset alone on the iCE40-HX8K (or with
    /// `--family ecp5 --route` the LFE5U-85F; in a shift harness), beside the seed's own
    /// scheduler: logic cells, flip-flops, block RAMs, Fmax.
    Report(commands::measure::Report),
    /// Long random differential run: each exported block against its model, every output on
    /// every cycle, in segments of 1,000,000 cycles (segment i uses seed S+i), one block per job.
    Soak(commands::measure::Soak),
    /// Simulation speed of each block's differential stimulus: in-crate rust-hdl with the model,
    /// and the exported Verilog under iverilog and Verilator (build and run timed apart).
    Speed(commands::measure::Speed),
    /// Assemble a SIMT-core program: one 32-bit instruction word per line, in hex (`$readmemh`).
    Asm {
        /// The assembly source (e.g. kernels/vector_add.s).
        file: PathBuf,
        /// Write the words here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write a listing instead of the words: address, word, source line and source text,
        /// one instruction a line.
        #[arg(long)]
        listing: bool,
    },
    /// Run a kernel on the SIMT core and on the ISA's reference interpreter: print the core's
    /// counters and what the kernel left, and check that every register, local-data-share word
    /// and count is the interpreter's. The core is the exported Verilog of the cu core's board
    /// top under Verilator (built once per Verilog and cached), or with --lockstep the rust-hdl
    /// core beside its cycle-level model, every output compared every cycle.
    Run(commands::kernel::Run),
    /// The SIMT core on the board, through the USB serial port (the `core_board` top).
    Board {
        #[command(subcommand)]
        action: BoardAction,
    },
    /// The kernel table: every kernel on the cu core's model with each collector timing and
    /// each issue policy (cycles, instructions, IPC, stalls), each run checked against the
    /// interpreter.
    Kernels {
        /// The kernels (assembly sources); each `K.lds` beside `K.s` is its local data share,
        /// else pseudo-random words from seed 1.
        #[arg(required = true)]
        kernels: Vec<PathBuf>,
        /// The core preset whose model runs them: cu-core, tiny-core or seed-core.
        #[arg(long, default_value = "cu-core")]
        preset: String,
        /// Run the core's model with this many warps instead of the preset's (a power of two,
        /// 2 to 32): a design point no exported core has, measured on the model alone.
        #[arg(long)]
        warps: Option<usize>,
        /// Run the core's model with this many collector units instead of the preset's (a
        /// power of two, 2 to 16), as `--warps`.
        #[arg(long)]
        collector_units: Option<usize>,
        /// Also write the table, stamped with this command, the commit and the tool versions,
        /// to this Markdown file.
        #[arg(long)]
        markdown: Option<PathBuf>,
    },
    /// Measure the operand collector under saturating uniform-random traffic (a Markdown table).
    Bench(commands::measure::Bench),
    /// The cu core beside larger sizes (4 collector units, 8 warps, both, 8 lanes): each
    /// exported, placed and routed alone as `report` does, and run on the kernels by its model
    /// (checked against the interpreter): logic cells, Fmax, mean IPC and lane throughput.
    Explore(commands::measure::Explore),
}

fn run(cli: Cli) -> Result<()> {
    use commands::{board, kernel, measure, prove};
    match cli.command {
        Command::Gen { presets, out, constraints, fusesoc } => {
            commands::gen(&presets, &out, constraints.as_deref(), fusesoc.as_deref())
        }
        Command::Sim { preset, out } => commands::sim(&preset, &out),
        Command::Flash(a) => board::program(a, false),
        Command::Load(a) => board::program(a, true),
        Command::Build(a) => board::build(a),
        Command::Vivado(a) => board::vivado(a),
        Command::Report(a) => measure::report(a),
        Command::Prove(a) => prove::prove(a),
        Command::Soak(a) => measure::soak(a),
        Command::Speed(a) => measure::speed(a),
        Command::Asm { file, out, listing } => commands::asm(&file, out.as_deref(), listing),
        Command::Run(a) => kernel::run(a),
        Command::Board { action: BoardAction::Run(a) } => board::board_run(a),
        Command::Kernels { kernels, preset, warps, collector_units, markdown } => {
            let core = simt_rtl::params::core_params(&preset)?;
            measure::kernels(&kernels, core, (warps, collector_units), markdown.as_deref())
        }
        Command::Bench(a) => measure::bench(a),
        Command::Explore(a) => measure::explore(a),
    }
}

/// The command line, or exit: help and version printed (exit 0); a usage error as one line,
/// `simt-rtl: error: ...`, with clap's exit code 2.
fn parse() -> std::result::Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    use clap::{CommandFactory, FromArgMatches};
    let parsed = negatives_are_values(Cli::command())
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) => {
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("bad arguments");
            let mut what = first.strip_prefix("error: ").unwrap_or(first).to_string();
            if what.ends_with(':') {
                what = format!("{what} {}", lines.next().unwrap_or(""));
            }
            // A choice's values, as clap lists them (`[possible values: a, b]`).
            if let Some(values) = lines.find(|l| l.starts_with("[possible values:")) {
                what = format!("{what}: {}", values.trim_matches(['[', ']']));
            }
            eprintln!("simt-rtl: error: {what} (usage: simt-rtl help)");
            Err(ExitCode::from(2))
        }
    }
}

/// Every flag that takes a value takes `-1` as a value too, so that `--seed -5` is an error
/// naming `--seed` and its rule, not "unexpected argument '-5'".
fn negatives_are_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| if a.get_action().takes_values() { a.allow_negative_numbers(true) } else { a })
        .mut_subcommands(negatives_are_values)
}

fn main() -> ExitCode {
    // SIGINT and SIGTERM end every tool this command starts, then the command (130, 143).
    if let Err(e) = simt_rtl::sim::interrupt::end_tools_on_interrupt() {
        eprintln!("simt-rtl: error: {e:#}");
        return ExitCode::FAILURE;
    }
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = run(cli);
    simt_rtl::sim::interrupt::wait_if_interrupted();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("simt-rtl: error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
