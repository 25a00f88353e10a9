//! The `simt-rtl` command line: thin, it calls the library.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use simt_rtl::flow::results;
use simt_rtl::flow::{Mapper, Synthesis};
use simt_rtl::sim::output::{Allow, Output};

/// `println!` that returns an error from the calling function when standard output is a closed
/// pipe or a full disk, instead of panicking. When an output is standard output (`--json -`),
/// the messages go to standard error, so that standard output is exactly that document.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if simt_rtl::sim::output::stdout_is_document() {
            eprintln!($($arg)*);
        } else {
            let mut out = std::io::stdout().lock();
            writeln!(out, $($arg)*).and_then(|_| out.flush()).context("cannot write standard output")?
        }
    }};
}

/// `print!` as [`say!`].
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if simt_rtl::sim::output::stdout_is_document() {
            eprint!($($arg)*);
        } else {
            let mut out = std::io::stdout().lock();
            write!(out, $($arg)*).and_then(|_| out.flush()).context("cannot write standard output")?
        }
    }};
}

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

/// What `run` and `board run` show of a kernel's result, and what they check it against.
#[derive(clap::Args)]
struct ResultArgs {
    /// What to print after the run: a comma-separated list of regs (the registers the program
    /// writes, per warp and lane), lds (the local data share's words that are not zero) and
    /// counters, or all or none.
    #[arg(long, default_value = "all")]
    show: String,
    /// Also write registers, local data share, counters and how the run was made to this JSON
    /// file, or `-` for standard output (schema `simt-rtl-run/3`, in the book's command-line
    /// reference).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Expected values, one per line (`w0 l3 r6 = 7`, `lds 64 = 0x2a`): exit 1 naming the line of
    /// the first the kernel did not leave (default: K.expect beside the kernel K.s, if any).
    #[arg(long)]
    expect: Option<PathBuf>,
    /// `expect` is `K.expect` found beside the kernel, not named by `--expect`.
    #[arg(skip)]
    expect_beside: bool,
}

#[derive(Subcommand)]
enum BoardAction {
    /// Load a kernel and its local data share, run it, read every register, every share word
    /// and the counters back, and check them against the reference interpreter.
    Run {
        /// The assembly source (e.g. kernels/reduce.s).
        kernel: PathBuf,
        /// Initial local data share: one hex word per line from word 0 (default: K.lds beside the
        /// kernel K.s, else pseudo-random words from --seed; `random` for those always).
        #[arg(long)]
        lds: Option<PathBuf>,
        /// Seed of the pseudo-random local data share.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The board's serial port (default: the highest-numbered /dev/ttyUSB*, the Alchitry
        /// Cu's FTDI UART channel).
        #[arg(long)]
        port: Option<PathBuf>,
        /// No board: the rust-hdl board top simulated behind its serial lines (4 clocks per bit).
        #[arg(long, conflicts_with = "port")]
        sim: bool,
        /// No board: the bitstream that `build --top core` wrote in this directory (default
        /// build/alchitry_cu), read back and simulated under Verilator through its serial pins.
        #[arg(long, value_name = "BUILD_DIR", num_args = 0..=1, default_missing_value = "build/alchitry_cu", conflicts_with_all = ["port", "sim"])]
        bitstream_sim: Option<PathBuf>,
        #[command(flatten)]
        results: ResultArgs,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Write one Verilog file per exported block and manifest.json.
    Gen {
        /// Preset to export (repeatable); default: cu and seed (what rtl_out/ holds).
        #[arg(long = "preset")]
        presets: Vec<String>,
        /// Output directory.
        #[arg(long, default_value = "rtl_out")]
        out: PathBuf,
        /// Directory for the boards' constraint files (pcf, xdc).
        #[arg(long, default_value = "constraints")]
        constraints: PathBuf,
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
    /// Build the board's bitstream: the preset's self-test top through yosys, nextpnr, icepack.
    Build(BuildArgs),
    /// Write a Vivado batch build (top.v, xdc, build.tcl) for a Xilinx board.
    Vivado(VivadoArgs),
    /// Write a bitstream into the Alchitry Cu's configuration flash (iceprog).
    Flash {
        /// The bitstream.
        #[arg(long, default_value = simt_rtl::flow::DEFAULT_BITSTREAM)]
        bin: PathBuf,
        /// Print the command instead of running it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Load a bitstream into the Alchitry Cu's configuration RAM, until power-off (iceprog -S).
    Load {
        /// The bitstream.
        #[arg(long, default_value = simt_rtl::flow::DEFAULT_BITSTREAM)]
        bin: PathBuf,
        /// Print the command instead of running it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Check the formal properties of the exported Verilog (yosys-smtbmc with yices and bitwuzla): bounded from
    /// reset, then k-induction per property. With --synth, prove each exported block equal to
    /// its iCE40 netlist instead. Exits 1 when a property or a block fails.
    Prove(ProveArgs),
    /// Place and route every exported block of a preset alone on the iCE40-HX8K (in a shift
    /// harness), beside the seed's own scheduler: logic cells, flip-flops, block RAMs, Fmax.
    Report(ReportArgs),
    /// Long random differential run: each exported block against its model, every output on
    /// every cycle, in segments of 1,000,000 cycles (segment i uses seed S+i), one block per job.
    Soak(SoakArgs),
    /// Simulation speed of each block's differential stimulus: in-crate rust-hdl with the model,
    /// and the exported Verilog under iverilog and Verilator (build and run timed apart).
    Speed(SpeedArgs),
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
    Run(RunArgs),
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
        /// Run the core's model with this many warps instead of the cu core's 4 (a power of two,
        /// 2 to 32): a design point no exported core has, measured on the model alone.
        #[arg(long)]
        warps: Option<usize>,
        /// Run the core's model with this many collector units instead of the cu core's 2 (a
        /// power of two, 2 to 16), as `--warps`.
        #[arg(long)]
        collector_units: Option<usize>,
        /// Also write the table, stamped with this command, the commit and the tool versions,
        /// to this Markdown file.
        #[arg(long)]
        markdown: Option<PathBuf>,
    },
    /// Measure the operand collector under saturating uniform-random traffic (a Markdown table).
    Bench(BenchArgs),
    /// The cu core beside larger sizes (4 collector units, 8 warps, both, 8 lanes): each
    /// exported, placed and routed alone as `report` does, and run on the kernels by its model
    /// (checked against the interpreter): logic cells, Fmax, mean IPC and lane throughput.
    Explore(ExploreArgs),
}

// The flags of the longer commands, one struct each (a command's help is its variant's doc
// comment in `Command`, not the struct's).

// The flags of `simt-rtl build`.
#[derive(clap::Args)]
struct BuildArgs {
    /// Board (only `alchitry-cu` for now).
    #[arg(long, default_value = "alchitry-cu")]
    board: String,
    /// Board revision: v1 or v2 (the LED pins differ); default v1 for alchitry-cu, v2 for
    /// alchitry-cu-v2.
    #[arg(long)]
    rev: Option<String>,
    /// Preset whose blocks go on the board (the self-test top; the core top is always the
    /// cu core).
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Core clock, MHz: the board's 100, or 16-275 made by the iCE40 PLL (default: the
    /// preset's board clock, 45 for cu).
    #[arg(long)]
    freq: Option<f64>,
    /// Cycles of the self-test run (1 to 16777215).
    #[arg(long, default_value_t = simt_rtl::boards::self_test::SELF_TEST_CYCLES)]
    cycles: u64,
    /// Board top: self-test (the preset's blocks under LFSR traffic) or core (the cu SIMT
    /// core behind the USB serial port, for `simt-rtl board run`; default clock 50 MHz).
    #[arg(long, default_value = "self-test")]
    top: String,
    /// Synthesize with clock enables (yosys `synth_ice40` without `-nodffe`): fewer logic
    /// cells, often a lower Fmax.
    #[arg(long)]
    dffe: bool,
    /// yosys's LUT mapper: abc (`synth_ice40`'s default), abc9 (`-abc9`, which knows the
    /// cells' delays) or abc9-dff (`-abc9 -dff`, which may also move flip-flops). Default:
    /// the top's, chosen by measurement (abc9 for self-test, abc for core).
    #[arg(long)]
    mapper: Option<String>,
    /// Output directory.
    #[arg(long, default_value = "build/alchitry_cu")]
    out: PathBuf,
    /// Also write the report (synthesis, resources, Fmax, read-back, nextpnr's critical
    /// path) to this Markdown file, stamped with the command, commit and tool versions.
    #[arg(long)]
    markdown: Option<PathBuf>,
    /// Skip the read-back check: by default the bitstream is read back (icebox_vlog) and its
    /// netlist simulated under Verilator (the self-test must pass with the rust-hdl
    /// simulation's LEDs; the core top must run a kernel through its serial pins).
    #[arg(long)]
    no_verify: bool,
}

// The flags of `simt-rtl vivado`.
#[derive(clap::Args)]
struct VivadoArgs {
    /// Board (`arty-a7-35t`).
    #[arg(long, default_value = "arty-a7-35t")]
    board: String,
    /// Preset whose blocks go on the board.
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Cycles of the self-test run (1 to 16777215).
    #[arg(long, default_value_t = simt_rtl::boards::self_test::SELF_TEST_CYCLES)]
    cycles: u64,
    /// Output directory.
    #[arg(long, default_value = "build/arty_a7_35t")]
    out: PathBuf,
}

// The flags of `simt-rtl prove`.
#[derive(clap::Args)]
struct ProveArgs {
    /// Preset whose rtl_out/ Verilog is checked.
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Only this block (its exported module's whole name; repeat for more).
    #[arg(long)]
    block: Vec<String>,
    /// Only this property (its label in the block's .sv file; repeat for more). Needs --block.
    #[arg(long, requires = "block", conflicts_with = "synth")]
    property: Vec<String>,
    /// Prove every exported block (not its properties) equal to the netlist yosys
    /// `synth_ice40 -nodffe` makes of it, by induction where it closes, else bounded to
    /// --depth cycles from power-on (yosys equiv_induct, sat).
    #[arg(long)]
    synth: bool,
    /// With --synth: flip-flops with clock enables, as `build --dffe`.
    #[arg(long, requires = "synth")]
    dffe: bool,
    /// With --synth: yosys's LUT mapper, as `build --mapper`.
    #[arg(long, default_value = "abc", requires = "synth")]
    mapper: String,
    /// Cycles from reset of the bounded check.
    #[arg(long, default_value_t = 20)]
    depth: usize,
    /// Seconds each property (with --synth, each block) may take (1 to 86400); one that
    /// takes longer is reported as `timed out after N s`, neither proven nor failed.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    /// The exported Verilog.
    #[arg(long, default_value = "rtl_out")]
    rtl: PathBuf,
    /// Working directory (SMT-LIB files, logs, counterexample traces).
    #[arg(long, default_value = "build/prove")]
    out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

// The flags of `simt-rtl report`.
#[derive(clap::Args)]
struct ReportArgs {
    /// Preset whose rtl_out/ blocks are measured.
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Only this design (its whole name, as the table's first column gives it; repeat for more).
    #[arg(long)]
    block: Vec<String>,
    /// Target clock, MHz.
    #[arg(long, default_value_t = 100.0)]
    freq: f64,
    /// Synthesize with clock enables (yosys `synth_ice40` without `-nodffe`): fewer logic
    /// cells, often a lower Fmax.
    #[arg(long)]
    dffe: bool,
    /// yosys's LUT mapper, as `build --mapper`; repeat it to measure each design with each
    /// mapper, side by side.
    #[arg(long, default_value = "abc")]
    mapper: Vec<String>,
    /// The exported Verilog (with manifest.json).
    #[arg(long, default_value = "rtl_out")]
    rtl: PathBuf,
    /// Working directory (one subdirectory per design, with every tool's log).
    #[arg(long, default_value = "build/report")]
    out: PathBuf,
    /// Place and route each design this many times (nextpnr's default seed, then `--seed 1`,
    /// `2`, ...), and give the lowest and highest Fmax beside the first: how much the Fmax
    /// depends on placement. 1 to 20.
    #[arg(long, default_value_t = 1)]
    placements: u32,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

// The flags of `simt-rtl soak`.
#[derive(clap::Args)]
struct SoakArgs {
    /// Preset whose blocks are run.
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Only this block (its exported module's whole name; repeat for more).
    #[arg(long)]
    block: Vec<String>,
    /// Cycles per block.
    #[arg(long, default_value_t = 100_000_000)]
    cycles: u64,
    /// Seed of the first segment.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Blocks run at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

// The flags of `simt-rtl speed`.
#[derive(clap::Args)]
struct SpeedArgs {
    /// Preset whose blocks are measured.
    #[arg(long, default_value = "cu")]
    preset: String,
    /// Only this block (its exported module's whole name; repeat for more).
    #[arg(long)]
    block: Vec<String>,
    /// Time `simt-rtl run`'s two engines on this kernel instead (repeatable; the local data
    /// share from the kernel's .lds beside it, else pseudo-random words from seed 1, as
    /// `run` gives), on the cu core.
    #[arg(long, conflicts_with = "block")]
    kernel: Vec<PathBuf>,
    /// Time the read-back netlist of the bitstream built in this directory (`simt-rtl
    /// build --out DIR`) instead, for --cycles cycles, under Verilator and iverilog.
    #[arg(long, conflicts_with_all = ["block", "kernel"])]
    bitstream: Option<PathBuf>,
    /// Cycles of stimulus per block.
    #[arg(long, default_value_t = 100_000)]
    cycles: usize,
    /// Random seed.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// The exported Verilog.
    #[arg(long, default_value = "rtl_out")]
    rtl: PathBuf,
    /// Working directory (testbenches, simulator builds).
    #[arg(long, default_value = "build/speed")]
    out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

// The flags of `simt-rtl run`.
#[derive(clap::Args)]
struct RunArgs {
    /// The assembly source (e.g. kernels/reduce.s).
    kernel: PathBuf,
    /// Core preset to run on: cu-core or tiny-core.
    #[arg(long, default_value = "cu-core")]
    preset: String,
    /// Issue policy: lrr (loose round robin) or gto (greedy then oldest).
    #[arg(long, default_value = "lrr")]
    policy: String,
    /// The core's timing: pipelined or gpgpu-sim (the collector's one-cycle step, issue in
    /// one cycle); default the preset's (pipelined for cu-core). The Verilator engine is the
    /// exported cu core: any other core runs in lockstep.
    #[arg(long)]
    collector: Option<String>,
    /// Initial local data share: one hex word per line from word 0 (default: K.lds beside the
    /// kernel K.s, else pseudo-random words from --seed; `random` for those always).
    #[arg(long)]
    lds: Option<PathBuf>,
    /// Seed of the pseudo-random local data share.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up after this many core cycles (1 to 100000000).
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    max_cycles: u64,
    /// Run the rust-hdl core in lockstep with its model, every output compared every cycle
    /// (slower: `simt-rtl speed --kernel` times both), instead of the Verilator engine;
    /// tiny-core and --vcd always do.
    #[arg(long)]
    lockstep: bool,
    /// Write the rust-hdl core's waveform here (runs in lockstep).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// For tests and debugging: build the Verilator engine from this `core_board` Verilog (as
    /// the engine exports it, e.g. with a deliberate change) instead of the cu core's own.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["lockstep", "vcd"])]
    verilog: Option<PathBuf>,
    #[command(flatten)]
    results: ResultArgs,
}

// The flags of `simt-rtl bench`.
#[derive(clap::Args)]
struct BenchArgs {
    /// Cycles per configuration (2 to 10000000).
    #[arg(long, default_value_t = 100_000)]
    cycles: usize,
    /// Random seed.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Also place and route the cu preset's two exported collectors (rtl_out/cu/
    /// operand_collector.v, operand_collector_pipelined.v, in report's harness) for their
    /// Fmax, and give the cu rows' reads per second.
    #[arg(long)]
    fmax: bool,
    /// With --fmax: placements (nextpnr seeds) per collector, 1 to 20.
    #[arg(long, default_value_t = 1, requires = "fmax")]
    placements: u32,
    /// With --fmax: the exported Verilog.
    #[arg(long, default_value = "rtl_out", requires = "fmax")]
    rtl: PathBuf,
    /// With --fmax: working directory for synthesis and place and route.
    #[arg(long, default_value = "build/bench", requires = "fmax")]
    out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

// The flags of `simt-rtl explore`.
#[derive(clap::Args)]
struct ExploreArgs {
    /// The kernels (assembly sources), as `kernels` takes them.
    #[arg(required = true)]
    kernels: Vec<PathBuf>,
    /// Placements (nextpnr seeds) per core, 1 to 20.
    #[arg(long, default_value_t = 1)]
    placements: u32,
    /// Working directory (one subdirectory per core, with its Verilog and every tool's log).
    #[arg(long, default_value = "build/explore")]
    out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/explore-core.md).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Gen { presets, out, constraints } => gen(&presets, &out, &constraints),
        Command::Sim { preset, out } => {
            let (vcd, svg) =
                simt_rtl::with_preset!(&preset, B => simt_rtl::demo::run_demo::<B>(&out))
                    .with_context(|| format!("demo for preset `{preset}`"))?;
            say!("wrote {}\nwrote {}", vcd.display(), svg.display());
            Ok(())
        }
        Command::Flash { bin, dry_run } => program(&bin, false, dry_run),
        Command::Load { bin, dry_run } => program(&bin, true, dry_run),
        Command::Build(a) => build(a),
        Command::Vivado(a) => vivado(a),
        Command::Report(a) => report_cmd(a),
        Command::Prove(a) => prove_cmd(a),
        Command::Soak(a) => soak(a),
        Command::Speed(a) => speed(a),
        Command::Asm { file, out, listing } => asm(&file, out.as_deref(), listing),
        Command::Run(a) => run_kernel(a),
        Command::Board {
            action: BoardAction::Run { kernel, lds, seed, port, sim, bitstream_sim, mut results },
        } => {
            let (lds, lds_beside) = inputs_beside(&kernel, lds, &mut results);
            let inputs =
                [("the kernel", Some(kernel.as_path())), ("the --lds file", lds.as_deref())];
            let params = simt_rtl::params::CORE_CU;
            let shown = Shown::new(&results, params, &inputs)?;
            let (target, engine) = match (sim, bitstream_sim) {
                (true, _) => (Target::Sim, "board-sim"),
                (_, Some(dir)) => (Target::Bitstream(dir), "bitstream-sim"),
                _ => (Target::Board(port), "board"),
            };
            let about = RunAbout { engine, seed, lds: lds.clone() };
            say_beside(&kernel, lds.as_deref().filter(|_| lds_beside), &shown)?;
            board_run(&kernel, lds.as_deref(), seed, target, shown.about(&kernel, params, about))
        }
        Command::Kernels { kernels, warps, collector_units, markdown } => {
            let markdown = markdown_output(markdown.as_deref(), &kernels)?;
            kernel_table(&kernels, (warps, collector_units), markdown.as_ref())
        }
        Command::Bench(a) => bench(a),
        Command::Explore(a) => explore(a),
    }
}

/// `simt-rtl explore`.
fn explore(a: ExploreArgs) -> Result<()> {
    use simt_rtl::flow::explore;
    let ExploreArgs { kernels, placements, out, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &kernels)?;
    // Every kernel read and assembled before any work, so a bad file is the only output; the
    // local data shares are the cu core's, whose rows and lane bits every explored size keeps.
    let inputs = named_kernel_inputs(&kernels, simt_rtl::params::CORE_CU)?;
    let say = |line: &str| eprintln!("{line}");
    let rows = explore::explore(&explore::CORES, &inputs, placements, &out, &say)?;
    let tools = [results::RUSTC, results::YOSYS, results::NEXTPNR];
    let title = "The cu core at larger sizes";
    emit(&explore::table(&rows), markdown.as_ref(), title, (&tools, &kernel_files(&kernels)))
}

/// `simt-rtl flash` and `load` (`sram`: into the configuration RAM); with `dry_run`, the
/// command is printed instead.
fn program(bin: &Path, sram: bool, dry_run: bool) -> Result<()> {
    if !dry_run {
        return simt_rtl::flow::program(bin, sram);
    }
    simt_rtl::flow::require_bitstream(bin)?;
    say!("{}", simt_rtl::flow::iceprog_command(bin, sram).join(" "));
    Ok(())
}

/// `simt-rtl vivado`.
fn vivado(a: VivadoArgs) -> Result<()> {
    let VivadoArgs { board, preset, cycles, out } = a;
    let b = simt_rtl::boards::board(&board)?;
    let most = simt_rtl::boards::self_test::MAX_SELF_TEST_CYCLES;
    simt_rtl::params::check_range("cycles", cycles as usize, 1, most)?;
    if b != simt_rtl::boards::ARTY_A7_35T {
        anyhow::bail!("board `{board}` is not a Vivado board: `vivado` knows arty-a7-35t (use `build` for alchitry-cu)");
    }
    let written = simt_rtl::with_preset!(&preset, B => simt_rtl::flow::vivado::write_vivado_project::<B>(&b, cycles, &out))?;
    for path in written {
        say!("wrote {}", path.display());
    }
    say!("run: cd {} && vivado -mode batch -source build.tcl", out.display());
    Ok(())
}

/// `simt-rtl report`.
fn report_cmd(a: ReportArgs) -> Result<()> {
    let ReportArgs { preset, block, freq, dffe, mapper, rtl, out, placements, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    let synthesis: Vec<Synthesis> = mapper
        .iter()
        .map(|m| Ok(Synthesis { dffe, mapper: Mapper::parse(m)? }))
        .collect::<Result<_>>()?;
    let (table, inputs) = report(&preset, &block, freq, &synthesis, &rtl, &out, placements)?;
    let title = format!("Resources and Fmax: preset `{preset}`");
    emit(&table, markdown.as_ref(), &title, (&[results::YOSYS, results::NEXTPNR], &inputs))
}

/// `simt-rtl prove`: the formal properties, or with `--synth` each block against its netlist.
fn prove_cmd(a: ProveArgs) -> Result<()> {
    let budget = std::time::Duration::from_secs(a.timeout);
    let markdown = markdown_output(a.markdown.as_deref(), &[])?;
    if a.synth {
        let synthesis = Synthesis { dffe: a.dffe, mapper: Mapper::parse(&a.mapper)? };
        let dirs = (a.rtl.as_path(), a.out.as_path());
        prove_synth(&a.preset, &a.block, synthesis, a.depth, budget, dirs, markdown)
    } else {
        let only = (a.block.as_slice(), a.property.as_slice());
        prove(&a.preset, only, a.depth, budget, &a.rtl, &a.out, markdown.as_ref())
    }
}

/// `simt-rtl soak`.
fn soak(a: SoakArgs) -> Result<()> {
    use simt_rtl::flow::soak;
    let SoakArgs { preset, block, cycles, seed, jobs, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let say = |line: &str| eprintln!("{line}");
    let modules = simt_rtl::with_preset!(&preset, B => soak::modules::<B>(&block))?;
    let rows =
        simt_rtl::with_preset!(&preset, B => soak::soak::<B>(&modules, cycles, seed, jobs, &say))?;
    let title = format!("Soak: preset `{preset}`");
    let inputs = exported_files(Path::new("rtl_out"), &preset, &modules);
    emit(
        &soak::table(&preset, seed, &rows),
        markdown.as_ref(),
        &title,
        (&[results::RUSTC], &inputs),
    )
}

/// `simt-rtl speed`: of the engines on kernels, of a bitstream's read-back, or of the blocks.
fn speed(a: SpeedArgs) -> Result<()> {
    use simt_rtl::flow::{soak, speed};
    let markdown = markdown_output(a.markdown.as_deref(), &a.kernel)?;
    if !a.kernel.is_empty() {
        return speed_of_engines(&a.kernel, markdown.as_ref());
    }
    if let Some(dir) = &a.bitstream {
        return speed_of_readback(dir, a.cycles, markdown.as_ref());
    }
    let SpeedArgs { preset, block, cycles, seed, rtl, out, .. } = a;
    let say = |line: &str| eprintln!("{line}");
    let work = out.join(&preset);
    let modules = simt_rtl::with_preset!(&preset, B => soak::modules::<B>(&block))?;
    let rows = simt_rtl::with_preset!(&preset, B => speed::measure::<B>(&modules, &rtl, cycles, seed, &work, &say))?;
    let title = format!("Simulation speed: preset `{preset}`");
    let tools = [results::RUSTC, results::IVERILOG, results::VERILATOR];
    let inputs = exported_files(&rtl, &preset, &modules);
    emit(&speed::table(&preset, &rows), markdown.as_ref(), &title, (&tools, &inputs))
}

/// `simt-rtl asm`.
fn asm(file: &Path, out: Option<&Path>, listing: bool) -> Result<()> {
    let out = out.map(|o| Output::new("--out", o, Allow::Any, &[("the source file", file)]));
    let out = out.transpose()?;
    let assembled = read_kernel(file)?;
    let words: String = if listing {
        assembled.text()
    } else {
        assembled.program.iter().map(|i| format!("{:08x}\n", i.encode())).collect()
    };
    match out {
        Some(out) if !out.is_stdout() => {
            out.write(&words)?;
            say!("wrote {} ({} instructions)", out.path().display(), assembled.program.len());
        }
        Some(out) => out.write(&words)?,
        None => say_raw!("{words}"),
    }
    Ok(())
}

/// `simt-rtl run`: on the exported core under Verilator, or in lockstep with the model.
fn run_kernel(mut a: RunArgs) -> Result<()> {
    let core = simt_rtl::params::core_params(&a.preset)?;
    let params = simt_rtl::params::CoreParams {
        policy: simt_rtl::params::IssuePolicy::parse(&a.policy)?,
        collector_timing: match &a.collector {
            Some(c) => simt_rtl::params::CollectorTiming::parse(c)?,
            None => core.collector_timing,
        },
        ..core
    };
    let cu = simt_rtl::params::CORE_CU;
    let on_verilator =
        params.sizes() == cu.sizes() && params.collector_timing == cu.collector_timing;
    let verilator = !(a.lockstep || a.vcd.is_some() || !on_verilator);
    if let (Some(v), false) = (&a.verilog, verilator) {
        anyhow::bail!("--verilog {}: the Verilator engine runs the cu-core in its pipelined timing only, not this run", v.display());
    }
    let verilog = a.verilog.as_deref().map(|v| read_bounded(v, 64 * INPUT_LIMIT)).transpose()?;
    let (lds, lds_beside) = inputs_beside(&a.kernel, a.lds.take(), &mut a.results);
    a.lds = lds;
    let inputs = [("the kernel", Some(a.kernel.as_path())), ("the --lds file", a.lds.as_deref())];
    let vcd = a.vcd.as_deref().map(|v| vcd_output(v, &inputs)).transpose()?;
    let mut others = inputs.to_vec();
    if let Some((vcd, gtkw)) = &vcd {
        others.extend([("the --vcd waveform", Some(vcd.path())), ("its .gtkw", Some(gtkw))]);
    }
    let shown = Shown::new(&a.results, params, &others)?;
    let listing = read_kernel(&a.kernel)?;
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
        run_fast(kernel, params, &lds, a.max_cycles, verilog.as_deref(), shown)
    } else {
        run_lockstep(kernel, params, &lds, a.max_cycles, vcd.map(|v| v.0.path().into()), shown)
    }
}

/// `K.lds` and `K.expect` beside the kernel `K.s`, when `--lds` and `--expect` name no file
/// (`K.expect` only with `K.lds`, or when there is none); `--lds random` asks for pseudo-random
/// words. Returns the `--lds` file to read, if any, and whether it was found beside the kernel;
/// puts the expectations file in `results`.
fn inputs_beside(
    kernel: &Path,
    lds: Option<PathBuf>,
    results: &mut ResultArgs,
) -> (Option<PathBuf>, bool) {
    let found = |ext: &str| Some(kernel.with_extension(ext)).filter(|p| p.is_file());
    let (lds, beside) = match lds {
        Some(p) if p.as_os_str() == "random" => (None, false),
        Some(p) => (Some(p), false),
        None => (found("lds"), found("lds").is_some()),
    };
    // K.expect holds for K.lds: not for another local data share given in its place.
    if results.expect.is_none() && (found("lds").is_none() || beside) {
        results.expect = found("expect");
        results.expect_beside = results.expect.is_some();
    }
    (lds, beside)
}

/// The line saying which inputs were found beside the kernel, once every argument is checked.
fn say_beside(kernel: &Path, lds: Option<&Path>, shown: &Shown) -> Result<()> {
    let mut used: Vec<String> = lds.map(|p| p.display().to_string()).into_iter().collect();
    used.extend(shown.expect.as_ref().filter(|_| shown.expect_beside).map(|e| e.path().into()));
    let hint = if lds.is_some() { " (--lds random for pseudo-random words)" } else { "" };
    if !used.is_empty() {
        say!("{}: using {} beside it{hint}", kernel.display(), used.join(" and "));
    }
    Ok(())
}

/// How a run was made, for its JSON record.
struct RunAbout {
    /// `verilator`, `lockstep`, `board`, `board-sim` or `bitstream-sim`.
    engine: &'static str,
    seed: u64,
    /// The local data share's file, or `None` for pseudo-random words from `seed`.
    lds: Option<PathBuf>,
}

/// `simt-rtl bench`.
fn bench(a: BenchArgs) -> Result<()> {
    let BenchArgs { cycles, seed, fmax, placements, rtl, out, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    if cycles < 2 {
        anyhow::bail!("--cycles must be at least 2, got {cycles}");
    }
    if cycles > 10_000_000 {
        anyhow::bail!("--cycles must be at most 10000000, got {cycles}");
    }
    simt_rtl::flow::report::check_placements("--placements", placements)?;
    let mut rows = simt_rtl::bench::run_all(cycles, seed);
    let mut tools = vec![results::RUSTC];
    if fmax {
        collector_fmax(&mut rows, placements, &rtl, &out)?;
        tools.extend([results::YOSYS, results::NEXTPNR]);
    }
    let table = simt_rtl::bench::table(&rows);
    let collectors = simt_rtl::params::CollectorTiming::ALL
        .map(simt_rtl::hw::collector::operand_collector::module_name);
    let inputs = exported_files(&rtl, "cu", &collectors);
    emit(&table, markdown.as_ref(), "Operand collector benchmark", (&tools, &inputs))
}

/// `simt-rtl kernels`: each kernel (its `.lds` beside it, else pseudo-random words from seed 1)
/// on the cu core's model in each configuration.
fn kernel_table(
    kernels: &[PathBuf],
    (warps, collector_units): (Option<usize>, Option<usize>),
    markdown: Option<&Output>,
) -> Result<()> {
    let cu = simt_rtl::params::CORE_CU;
    let params = simt_rtl::params::CoreParams {
        warps: warps.unwrap_or(cu.warps),
        collector_units: collector_units.unwrap_or(cu.collector_units),
        ..cu
    };
    params.validate()?;
    let title = if params == cu {
        "Kernels on the cu core".to_string()
    } else {
        format!(
            "Kernels on the cu core's model with {} warps and {} collector units (no exported core has this size)",
            params.warps, params.collector_units
        )
    };
    let inputs = named_kernel_inputs(kernels, params)?;
    let rows = simt_rtl::verify::core_run::kernel_rows(params, &inputs, 10_000_000)?;
    let table = simt_rtl::verify::core_run::kernel_table(&rows);
    emit(&table, markdown, &title, (&[results::RUSTC], &kernel_files(kernels)))
}

/// As [`kernel_inputs`], each kernel named by its file's stem (`loop` for `kernels/loop.s`).
fn named_kernel_inputs(
    kernels: &[PathBuf],
    params: simt_rtl::params::CoreParams,
) -> Result<Vec<simt_rtl::verify::core_run::KernelInput>> {
    let mut inputs = kernel_inputs(kernels, params)?;
    for (path, (name, _, _)) in kernels.iter().zip(&mut inputs) {
        *name = path.file_stem().map_or(name.clone(), |s| s.to_string_lossy().into());
    }
    Ok(inputs)
}

/// Each kernel as its path, its program and its local data share (`K.lds` beside `K.s`, else
/// pseudo-random words from seed 1).
fn kernel_inputs(
    kernels: &[PathBuf],
    params: simt_rtl::params::CoreParams,
) -> Result<Vec<simt_rtl::verify::core_run::KernelInput>> {
    let mut inputs = vec![];
    for path in kernels {
        let listing = read_kernel(path)?;
        let lds = path.with_extension("lds");
        let lds = read_lds(lds.exists().then_some(lds.as_path()), 1, params)?;
        inputs.push((path.display().to_string(), listing.program, lds));
    }
    Ok(inputs)
}

/// `simt-rtl bench --fmax`: the cu rows get the Fmax range of their exported collector, placed
/// and routed `placements` times as `report` does.
fn collector_fmax(
    rows: &mut [simt_rtl::bench::BenchRow],
    placements: u32,
    rtl: &Path,
    out: &Path,
) -> Result<()> {
    use simt_rtl::flow::report;
    let designs = report::designs(&simt_rtl::params::CU, rtl)?;
    for timing in simt_rtl::params::CollectorTiming::ALL {
        let module = simt_rtl::hw::collector::operand_collector::module_name(timing);
        let Some(design) = designs.iter().find(|d| d.name == module) else {
            anyhow::bail!("{} has no `{module}` for preset cu: run `simt-rtl gen`", rtl.display());
        };
        say!("bench: {module}: synthesis and {placements} placement(s)");
        let m = report::measure(design, &out.join(module), 100.0, Default::default(), placements)
            .with_context(|| format!("measuring {module}"))?;
        let Some(range) = m.fmax_range() else { anyhow::bail!("{module} did not route") };
        for r in rows.iter_mut().filter(|r| r.config == "cu" && r.timing == timing) {
            r.fmax_mhz = Some(range);
        }
    }
    Ok(())
}

/// `simt-rtl speed --kernel`: `run`'s two engines timed on each kernel.
fn speed_of_engines(kernels: &[PathBuf], markdown: Option<&Output>) -> Result<()> {
    let params = simt_rtl::params::CORE_CU;
    let inputs = kernel_inputs(kernels, params)?;
    let say = |line: &str| eprintln!("{line}");
    let rows = simt_rtl::flow::speed::engines(params, &inputs, 10_000_000, &say)?;
    let table = simt_rtl::flow::speed::engine_table(params.name, &rows);
    let tools = [results::RUSTC, results::VERILATOR];
    let title = "Speed of `simt-rtl run`'s engines";
    emit(&table, markdown, title, (&tools, &kernel_files(kernels)))
}

/// Prints a measured table and, when asked, writes it stamped to a Markdown file.
fn emit(
    table: &str,
    markdown: Option<&Output>,
    title: &str,
    stamped: (&[results::Tool], &[PathBuf]),
) -> Result<()> {
    say_raw!("{table}");
    write_table(table, markdown, title, stamped)
}

/// Writes a measured table to the Markdown file `--markdown` named, if any, stamped with the
/// versions of `tools` and the hashes of `inputs` (the files it measured: [`results::stamp`]).
fn write_table(
    table: &str,
    markdown: Option<&Output>,
    title: &str,
    (tools, inputs): (&[results::Tool], &[PathBuf]),
) -> Result<()> {
    if let Some(out) = markdown {
        results::write_markdown(out, title, (tools, inputs), table)?;
        if !out.is_stdout() {
            say!("wrote {}", out.path().display());
        }
    }
    Ok(())
}

/// The `--markdown` output, checked (and a device or FIFO opened) before any work; it may not
/// be one of the command's `inputs`.
fn markdown_output(path: Option<&Path>, inputs: &[PathBuf]) -> Result<Option<Output>> {
    let inputs: Vec<(&str, &Path)> = inputs.iter().map(|p| ("an input", p.as_path())).collect();
    path.map(|p| Output::new("--markdown", p, Allow::Any, &inputs)).transpose()
}

/// The exported Verilog of `modules` at `preset` under `rtl` (`rtl/<preset>/<module>.v`).
fn exported_files<S: AsRef<str>>(rtl: &Path, preset: &str, modules: &[S]) -> Vec<PathBuf> {
    modules.iter().map(|m| rtl.join(preset).join(format!("{}.v", m.as_ref()))).collect()
}

/// The inputs of a table of kernels: each kernel, its `.lds` when there is one, and the exported
/// `cu` cores (`rtl_out/cu/simt_core*.v`, from the registry) whose cycles it counts.
fn kernel_files(kernels: &[PathBuf]) -> Vec<PathBuf> {
    use simt_rtl::preset_blocks::CuBlocks;
    let cores: Vec<&str> = simt_rtl::registry::entries::<CuBlocks>()
        .iter()
        .map(|e| e.module)
        .filter(|m| m.starts_with("simt_core"))
        .collect();
    let mut files = exported_files(Path::new("rtl_out"), "cu", &cores);
    for kernel in kernels {
        files.push(kernel.clone());
        files.extend(Some(kernel.with_extension("lds")).filter(|l| l.is_file()));
    }
    files
}

/// `simt-rtl gen`: the presets' Verilog and manifest, and the boards' constraints.
fn gen(presets: &[String], out: &Path, constraints: &Path) -> Result<()> {
    let presets: Vec<&str> = if presets.is_empty() {
        vec!["cu", "seed"]
    } else {
        presets.iter().map(String::as_str).collect()
    };
    for p in &presets {
        simt_rtl::params::preset(p)?;
    }
    let new_out = !out.exists();
    results::writable_dir(out)?;
    if let Err(e) = results::writable_dir(constraints) {
        if new_out {
            let _ = std::fs::remove_dir(out); // only if still empty
        }
        return Err(e);
    }
    let mut written = simt_rtl::flow::gen::generate(&presets, out)?;
    written.extend(simt_rtl::boards::write_constraints(constraints)?);
    for path in written {
        say!("wrote {}", path.display());
    }
    Ok(())
}

/// `simt-rtl build`: the board top's bitstream (read back and checked unless `--no-verify`) and
/// its report; exit 1 when timing fails.
fn build(a: BuildArgs) -> Result<()> {
    use simt_rtl::flow::board_build::{build_alchitry_cu, BoardTop, BuildOptions};
    let BuildArgs { board, rev, preset, freq, cycles, top, dffe, mapper, out, markdown, no_verify } =
        a;
    let (preset, verify) = (preset.as_str(), !no_verify);
    let top = BoardTop::parse(&top)?;
    let mapper = mapper.as_deref().map(Mapper::parse).transpose()?;
    let synthesis = Synthesis { dffe, mapper: mapper.unwrap_or(top.default_mapper()) };
    if top == BoardTop::Core && preset != "cu" {
        anyhow::bail!("--top core builds the cu SIMT core: --preset `{preset}` applies to the self-test top only (leave it out, or give --preset cu)");
    }
    let board = alchitry_board(&board, rev.as_deref())?;
    let default_mhz = match top {
        BoardTop::Core => simt_rtl::boards::CORE_BOARD_MHZ as f64,
        BoardTop::SelfTest => simt_rtl::params::preset(preset)?.board_clock()? as f64,
    };
    let freq_mhz = freq.unwrap_or(default_mhz);
    let pins = Path::new("constraints").join(board.constraint_file);
    let opts = BuildOptions { board, top, freq_mhz, cycles, synthesis, out_dir: out, verify };
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    let report = simt_rtl::with_preset!(preset, B => build_alchitry_cu::<B>(&opts))?;
    say!("synthesis: yosys {}", synthesis.command());
    say_raw!("{}", report.table());
    say!("bitstream {} ({} bytes)", report.bitstream.display(), report.bitstream_bytes);
    match &report.verified {
        Some(v) => say!(
            "read-back: {} ({} cycles simulated in {:.1} s, after {:.1} s reading back and compiling; zero-delay and functional: timing is nextpnr's)",
            v.summary, v.cycles, v.secs, v.build_secs
        ),
        None => say!("read-back: not checked (--no-verify)"),
    }
    if let Some(path) = &report.critical_path {
        say_raw!("{}", path.markdown());
    }
    let title = match top {
        BoardTop::SelfTest => format!("Board build: the `{preset}` self-test top"),
        BoardTop::Core => "Board build: the core top".to_string(),
    };
    let mut tools = vec![results::YOSYS, results::NEXTPNR];
    if verify {
        tools.push(results::VERILATOR);
    }
    let mut inputs = exported_files(Path::new("rtl_out"), preset, &[top.exported_module()]);
    inputs.push(pins);
    let table = report.markdown(&synthesis.command());
    write_table(&table, markdown.as_ref(), &title, (&tools, &inputs))?;
    if report.fmax_mhz < report.target_mhz {
        anyhow::bail!(
            "timing failed: Fmax {:.1} MHz is below the {:.1} MHz target",
            report.fmax_mhz,
            report.target_mhz
        );
    }
    Ok(())
}

/// The Alchitry Cu of `--board` and `--rev`.
fn alchitry_board(board: &str, rev: Option<&str>) -> Result<simt_rtl::boards::Board> {
    Ok(match (board, rev) {
        ("alchitry-cu", None | Some("v1")) => simt_rtl::boards::ALCHITRY_CU_V1,
        ("alchitry-cu", Some("v2")) | ("alchitry-cu-v2", None | Some("v2")) => {
            simt_rtl::boards::ALCHITRY_CU_V2
        }
        ("alchitry-cu-v2", Some("v1")) => {
            anyhow::bail!("--board alchitry-cu-v2 is revision v2: --rev v1 contradicts it (use --board alchitry-cu --rev v1)")
        }
        ("alchitry-cu" | "alchitry-cu-v2", Some(other)) => {
            anyhow::bail!("unknown --rev `{other}` for alchitry-cu: known revisions are v1, v2")
        }
        (other, _) => {
            simt_rtl::boards::board(other)?;
            anyhow::bail!("board `{other}` has no bitstream build here (use `simt-rtl vivado` for Xilinx boards); `build` knows alchitry-cu")
        }
    })
}

/// `simt-rtl report`: the table of the preset's designs that `block` names (every one when it is
/// empty), each synthesized each way of `synthesis`, and the files of the designs measured.
fn report(
    preset: &str,
    block: &[String],
    freq: f64,
    synthesis: &[Synthesis],
    rtl: &Path,
    out: &Path,
    placements: u32,
) -> Result<(String, Vec<PathBuf>)> {
    use simt_rtl::flow::report;
    if !(1.0..=400.0).contains(&freq) {
        anyhow::bail!("--freq must be between 1 and 400 MHz, got {freq}");
    }
    report::check_placements("--placements", placements)?;
    let p = simt_rtl::params::preset(preset)?;
    let mut designs = report::designs(&p, rtl)?;
    let names: Vec<String> = designs.iter().map(|d| d.name.clone()).collect();
    let chosen = simt_rtl::flow::whole_names(&names, block, ("a design", "designs"), preset)?;
    designs.retain(|d| chosen.contains(&d.name));
    let mut rows = vec![];
    for (i, d) in designs.iter().enumerate() {
        for &s in synthesis {
            // Each mapper's netlist apart, named by it, when there are several.
            let several = synthesis.len() > 1;
            let tag = if several { format!("_{}", s.mapper.name()) } else { String::new() };
            let dir = out.join(preset).join(format!("{i:02}_{}{tag}", d.top));
            let mut row = report::measure(d, &dir, freq, s, placements)
                .with_context(|| format!("measuring {}", d.name))?;
            if several {
                row.name = format!("{} ({})", row.name, s.mapper.name());
            }
            rows.push(row);
        }
    }
    // A built-in design is stamped with the repository file it was built from.
    let files = designs
        .into_iter()
        .flat_map(|d| if d.built_in.is_some() { vec![PathBuf::from(d.source)] } else { d.files })
        .collect();
    Ok((report::table(&rows, freq, synthesis), files))
}

/// `simt-rtl prove`: one line per property; exit 1 when one fails.
fn prove(
    preset: &str,
    (block, property): (&[String], &[String]),
    depth: usize,
    budget: std::time::Duration,
    rtl: &Path,
    out: &Path,
    markdown: Option<&Output>,
) -> Result<()> {
    use simt_rtl::flow::prove::{prove_each, Outcome};
    let p = simt_rtl::params::preset(preset)?;
    let blocks: Vec<_> = formal_blocks(preset)?
        .into_iter()
        .filter(|b| block.is_empty() || block.iter().any(|n| n == b.module))
        .collect();
    for name in block.iter().filter(|n| !blocks.iter().any(|b| b.module == n.as_str())) {
        refuse_formal_block(name, preset)?;
    }
    let mut failed = 0;
    let mut table =
        "| block | property | result | seconds (the whole block) |\n|---|---|---|---:|\n"
            .to_string();
    let mut progress = ProveProgress::new(&blocks, property, budget)?;
    let mut inputs = vec![];
    for b in blocks {
        let dir = out.join(preset).join(b.module);
        let rtl_file = rtl.join(preset).join(format!("{}.v", b.module));
        inputs.extend([rtl_file.clone(), PathBuf::from(b.properties)]);
        let start = std::time::Instant::now();
        let next = &mut |name: &str| progress.next(b.module, name);
        let outcomes = prove_each(&b, &p, (&rtl_file, &dir), depth, property, Some(budget), next)
            .with_context(|| format!("proving {}", b.module))?;
        progress.clear();
        let secs = format!("{:.0}", start.elapsed().as_secs_f64());
        for (i, (name, outcome)) in outcomes.into_iter().enumerate() {
            failed += matches!(outcome, Outcome::Failed { .. }) as usize;
            say!("{}: {name}: {outcome}", b.module);
            let time = if i == 0 { secs.as_str() } else { "" };
            table += &format!("| {} | {name} | {outcome} | {time} |\n", b.module);
        }
    }
    let title = format!("Formal properties: preset `{preset}`");
    let tools = [results::YOSYS, results::BITWUZLA, results::YICES];
    write_table(&table, markdown, &title, (&tools, &inputs))?;
    if failed > 0 {
        anyhow::bail!("{failed} propert{} failed", if failed == 1 { "y" } else { "ies" });
    }
    Ok(())
}

/// `prove`'s overall progress on a terminal: property i of N, the time elapsed, and the most
/// the properties left may take (each at most its `--timeout`).
struct ProveProgress {
    total: usize,
    done: usize,
    budget: std::time::Duration,
    start: std::time::Instant,
    shown: bool,
}

impl ProveProgress {
    fn new(
        blocks: &[simt_rtl::registry::FormalBlock],
        only: &[String],
        budget: std::time::Duration,
    ) -> Result<ProveProgress> {
        let mut total = 0;
        for b in blocks {
            let names = simt_rtl::flow::prove::properties_of(b)?;
            total += names.iter().filter(|n| only.is_empty() || only.contains(n)).count();
        }
        let (start, shown) = (std::time::Instant::now(), std::io::stderr().is_terminal());
        Ok(ProveProgress { total, done: 0, budget, start, shown })
    }

    /// Property `name` of `block` starts.
    fn next(&mut self, block: &str, name: &str) {
        self.done += 1;
        if self.shown {
            let elapsed = self.start.elapsed().as_secs();
            let most = (self.total + 1 - self.done) as u64 * self.budget.as_secs();
            eprint!(
                "\r\x1b[Kprove: property {} of {}: {block}: {name}; {}:{:02} elapsed, at most {}:{:02} left",
                self.done, self.total, elapsed / 60, elapsed % 60, most / 60, most % 60
            );
        }
    }

    /// Clears the progress line before results are printed.
    fn clear(&self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// `simt-rtl speed --bitstream DIR`: the read-back netlist's speed under each simulator.
fn speed_of_readback(dir: &Path, cycles: usize, markdown: Option<&Output>) -> Result<()> {
    if !(1..=10_000_000).contains(&cycles) {
        anyhow::bail!("--cycles must be between 1 and 10000000 with --bitstream, got {cycles}");
    }
    let speeds = simt_rtl::flow::readback::speeds(dir, cycles as u64)?;
    let mut table = format!(
        "The netlist `icebox_vlog` reads back from {}/top.asc, with yosys's iCE40 cell models and the PLL's stand-in, run from power-up with its serial input idle (compile times apart).\n\n| simulator | cycles | seconds | cycles/s |\n|---|---:|---:|---:|\n",
        dir.display()
    );
    for (simulator, secs) in speeds {
        let rate = cycles as f64 / secs.max(1e-9);
        table += &format!("| {simulator} | {cycles} | {secs:.2} | {rate:.0} |\n");
    }
    let title = format!("Read-back netlist speed: {}", dir.display());
    let tools = [results::YOSYS, results::IVERILOG, results::VERILATOR];
    emit(&table, markdown, &title, (&tools, &[readback_source(dir)]))
}

/// The exported board top the build in `dir` was made from (`rtl_out/<preset>/<module>.v`, the
/// preset named in its `top.v`'s first line, the top by its clocks-per-bit file), else its `top.v`.
fn readback_source(dir: &Path) -> PathBuf {
    use simt_rtl::flow::{board_build::BoardTop, readback::CLOCKS_PER_BIT_FILE};
    let top_v = dir.join("top.v");
    let text = std::fs::read_to_string(&top_v).unwrap_or_default();
    let preset = text.lines().next().and_then(|l| l.split('`').nth(1)).map(str::to_string);
    let top = match dir.join(CLOCKS_PER_BIT_FILE).is_file() {
        true => BoardTop::Core,
        false => BoardTop::SelfTest,
    };
    match preset {
        Some(p) => exported_files(Path::new("rtl_out"), &p, &[top.exported_module()]).remove(0),
        None => top_v,
    }
}

/// `simt-rtl prove --synth`: one line per exported block; exit 1 when one fails.
fn prove_synth(
    preset: &str,
    block: &[String],
    synthesis: Synthesis,
    depth: usize,
    budget: std::time::Duration,
    (rtl, out): (&Path, &Path),
    markdown: Option<Output>,
) -> Result<()> {
    use simt_rtl::flow::prove::Outcome;
    use simt_rtl::flow::synth_equiv::{prove_synthesis, SynthCheck};
    let blocks = simt_rtl::with_preset!(preset, B => simt_rtl::flow::soak::modules::<B>(block))?;
    let mut failed = 0;
    let mut table = "| block | result | seconds |\n|---|---|---:|\n".to_string();
    for module in &blocks {
        let file = rtl.join(preset).join(format!("{module}.v"));
        let dir = out.join("synth").join(preset).join(module);
        let check = SynthCheck {
            module,
            gold: &file,
            synthesized: &file,
            synthesis,
            depth,
            dir: &dir,
            budget: Some(budget),
        };
        let start = std::time::Instant::now();
        let outcome = prove_synthesis(&check).with_context(|| format!("proving {module}"))?;
        failed += matches!(outcome, Outcome::Failed { .. }) as usize;
        say!("{module}: synthesis: {outcome}");
        table += &format!("| {module} | {outcome} | {:.0} |\n", start.elapsed().as_secs_f64());
    }
    table += &format!(
        "\nSynthesis: yosys `{}`; each block within {} s.\n",
        synthesis.command(),
        budget.as_secs()
    );
    let title = format!("Blocks equal to their iCE40 netlists: preset `{preset}`");
    let inputs = exported_files(rtl, preset, &blocks);
    write_table(&table, markdown.as_ref(), &title, (&[results::YOSYS], &inputs))?;
    if failed > 0 {
        anyhow::bail!(
            "{failed} block{} differ from their netlists",
            if failed == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// The blocks of `preset` with formal properties, from the registry.
fn formal_blocks(preset: &str) -> Result<Vec<simt_rtl::registry::FormalBlock>> {
    simt_rtl::with_preset!(preset, B => Ok(simt_rtl::registry::formal_blocks::<B>()))
}

/// The error for `--block name`, which has no properties at `preset`: it names the preset that
/// exports the block with properties, or every block with properties.
fn refuse_formal_block(name: &str, preset: &str) -> Result<()> {
    let mut known: Vec<&str> = vec![];
    for other in simt_rtl::params::PRESETS.map(|p| p.name) {
        let modules: Vec<&str> = formal_blocks(other)?.iter().map(|b| b.module).collect();
        if other != preset && modules.contains(&name) {
            anyhow::bail!("--block `{name}` is exported for preset `{other}` only, not `{preset}`");
        }
        for m in modules {
            if !known.contains(&m) {
                known.push(m);
            }
        }
    }
    anyhow::bail!(
        "--block `{name}` has no formal properties (blocks with properties: {})",
        known.join(", ")
    )
}

/// A kernel's source file and what the assembler made of it.
#[derive(Clone, Copy)]
struct Kernel<'a> {
    path: &'a Path,
    listing: &'a simt_rtl::isa::asm::Listing,
}

/// `simt-rtl run --lockstep`: a kernel on the rust-hdl core in lockstep with its model and the
/// interpreter.
fn run_lockstep(
    Kernel { path: kernel, listing }: Kernel,
    params: simt_rtl::params::CoreParams,
    lds: &[u32],
    max_cycles: u64,
    vcd: Option<PathBuf>,
    shown: Shown,
) -> Result<()> {
    // The interpreter alone first, for the races it sees (a fault is the core run's to report).
    let mut m = simt_rtl::isa::interp::Machine::new(params.machine(max_cycles), lds)?;
    if m.run(&listing.program).is_ok() {
        warn_races(kernel, listing, &m);
    }
    let ticker = Ticker::new();
    let result = simt_rtl::verify::core_run::run_rust_hdl_watched(
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
    params: simt_rtl::params::CoreParams,
    lds: &[u32],
    max_cycles: u64,
    verilog: Option<&str>,
    shown: Shown,
) -> Result<()> {
    use simt_rtl::verify::fast_engine;
    let mut m = simt_rtl::isa::interp::Machine::new(params.machine(max_cycles), lds)?;
    m.run(&listing.program).map_err(|e| at_source(e, kernel, listing, None))?;
    warn_races(kernel, listing, &m);
    // The build's note, like the progress line, on a terminal only.
    let building = |msg: &str| {
        if std::io::stderr().is_terminal() {
            eprintln!("{msg}")
        }
    };
    let engine = match verilog {
        Some(text) => fast_engine::engine_for(text, &building)?,
        None => fast_engine::engine(params, &building)?,
    };
    let ticker = Ticker::new();
    let on_poll = ticker.on_poll(Some(max_cycles));
    let fast = fast_engine::run_kernel(&engine, params, &listing.program, lds, max_cycles, on_poll);
    ticker.clear();
    let fast = fast.map_err(|e| at_source(e, kernel, listing, None))?;
    let result = simt_rtl::verify::kernel_results::KernelResult {
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
struct Ticker(std::rc::Rc<TickerState>);

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

    fn new() -> Ticker {
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
    fn simulated(&self, p: simt_rtl::sim::differential::Progress) {
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
    fn on_poll(&self, limit: Option<u64>) -> simt_rtl::link::OnPoll {
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
    fn clear(&self) {
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
/// share (`simt_rtl::isa::races`): the kernel's result then depends on the warps' order.
fn warn_races(
    kernel: &Path,
    listing: &simt_rtl::isa::asm::Listing,
    m: &simt_rtl::isa::interp::Machine,
) {
    let file = kernel.display();
    let at = |a: &simt_rtl::isa::races::Access| {
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

/// A host on `serial` whose polls show `ticker`'s progress line (a board run has no cycle limit:
/// it stops after [`Host::max_polls`](simt_rtl::link::Host) polls).
fn watched<S: simt_rtl::link::Serial>(
    serial: S,
    params: simt_rtl::params::CoreParams,
    ticker: &Ticker,
) -> simt_rtl::link::Host<S> {
    let mut host = simt_rtl::link::Host::new(serial, params);
    host.on_poll = Some(ticker.on_poll(None));
    host
}

/// Where `board run` runs a kernel.
enum Target {
    /// The board, at this serial port (default: found).
    Board(Option<PathBuf>),
    /// The rust-hdl board top.
    Sim,
    /// The read-back bitstream of the core-top build in this directory.
    Bitstream(PathBuf),
}

/// `simt-rtl board run`: a kernel on the board (or a simulation of it) through the serial link.
fn board_run(
    kernel: &Path,
    lds: Option<&Path>,
    seed: u64,
    target: Target,
    shown: Shown,
) -> Result<()> {
    use simt_rtl::link::TtySerial;
    let params = simt_rtl::params::CORE_CU;
    let listing = read_kernel(kernel)?;
    let program = &listing.program;
    let lds = read_lds(lds, seed, params)?;
    // The interpreter runs first: a kernel that faults is refused before anything is sent, its
    // fault at its source line; the board's result is then checked against this machine.
    let mut m = simt_rtl::isa::interp::Machine::new(params.machine(BOARD_INSTRUCTIONS), &lds)?;
    m.run(program).map_err(|e| at_source(e, kernel, &listing, None))?;
    warn_races(kernel, &listing, &m);
    let ticker = Ticker::new();
    let (run, on) = match target {
        Target::Sim => {
            let board = simt_rtl::verify::link_sim::SimBoard::new(4, &[])?;
            (
                watched(board, params, &ticker).run_kernel(program, &lds)?,
                "the simulated board top (rust-hdl, serial lines at 4 clocks per bit)".to_string(),
            )
        }
        Target::Bitstream(dir) => {
            let board = simt_rtl::flow::readback::core_board(&dir)?;
            let on = format!("the read-back bitstream of {} (Verilator)", dir.display());
            (watched(board, params, &ticker).run_kernel(program, &lds).context(on.clone())?, on)
        }
        Target::Board(port) => {
            let port = match port {
                Some(p) => p,
                None => simt_rtl::link::find_port()?,
            };
            let serial = TtySerial::open(&port)?;
            (
                watched(serial, params, &ticker).run_kernel(program, &lds)?,
                format!("the board at {}", port.display()),
            )
        }
    };
    ticker.clear();
    let result = simt_rtl::verify::kernel_results::KernelResult {
        params,
        regs: run.regs.clone(),
        lds: run.lds.clone(),
        counters: run.status.counters,
    };
    let who = if on.starts_with("the board at") { "the board" } else { "the core" };
    let check = simt_rtl::link::check_against_interpreter(params, &m, &run, who);
    shown
        .unless(check, &result, program)
        .with_context(|| format!("{} on {on}", kernel.display()))?;
    say!("{} on {on}: every register, local-data-share word and count equals the reference interpreter's; core flags {}", kernel.display(), simt_rtl::params::error_flags_shown(run.status.core_errors));
    shown.emit(&result, program)
}

/// The `--vcd` output, checked before any run, and the path of the `.gtkw` save file written
/// beside it: both regular files (the save file is made from the waveform, beside it), neither
/// an input of the run nor the other.
fn vcd_output(vcd: &Path, inputs: &[(&str, Option<&Path>)]) -> Result<(Output, PathBuf)> {
    let gtkw = vcd.with_extension("gtkw");
    if gtkw == vcd {
        anyhow::bail!(
            "--vcd {}: its .gtkw save file would overwrite the waveform: name the waveform .vcd",
            vcd.display()
        );
    }
    let inputs: Vec<(&str, &Path)> = inputs.iter().filter_map(|(w, p)| Some((*w, (*p)?))).collect();
    let out = Output::new("--vcd", vcd, Allow::FileOnly, &inputs)?;
    let mut others = inputs.clone();
    others.push(("the --vcd waveform", vcd));
    Output::new("--vcd's save file", &gtkw, Allow::FileOnly, &others)?;
    Ok((out, gtkw))
}

/// `--show`, `--json` and `--expect`, checked and read before any run.
struct Shown {
    show: simt_rtl::verify::kernel_results::Show,
    json: Option<Output>,
    /// How the run was made, recorded in the JSON.
    run: serde_json::Value,
    /// The expectations file's values.
    expect: Option<simt_rtl::verify::kernel_results::Expectations>,
    /// The expectations file was found beside the kernel, not named by `--expect`.
    expect_beside: bool,
}

impl Shown {
    /// For a run on `params`'s core, whose input and output files are `others` (each with
    /// what it is): `--json` may name none of them, nor `--expect`'s file.
    fn new(
        args: &ResultArgs,
        params: simt_rtl::params::CoreParams,
        others: &[(&str, Option<&Path>)],
    ) -> Result<Shown> {
        let mut others: Vec<(&str, &Path)> =
            others.iter().filter_map(|(w, p)| Some((*w, (*p)?))).collect();
        others.extend(args.expect.as_deref().map(|e| ("the --expect file", e)));
        let json = args.json.as_deref().map(|j| Output::new("--json", j, Allow::Any, &others));
        let json = json.transpose()?;
        let expect = match &args.expect {
            Some(path) => {
                let text = read_bounded(path, INPUT_LIMIT)?;
                let name = path.display().to_string();
                match simt_rtl::verify::kernel_results::Expectations::parse(&name, &text, params) {
                    Ok(e) => Some(e),
                    // Found beside the kernel, not asked for: written for another core, say.
                    Err(e) if args.expect_beside => {
                        say!("{name} beside the kernel is left out: {e:#}");
                        None
                    }
                    Err(e) => return Err(e),
                }
            }
            None => None,
        };
        let show = simt_rtl::verify::kernel_results::Show::parse(&args.show)?;
        let expect_beside = args.expect_beside && expect.is_some();
        Ok(Shown { show, json, run: serde_json::Value::Null, expect, expect_beside })
    }

    /// This run's record for the JSON: the kernel, the core, its policy and timing, the engine,
    /// the local data share's source, and this tool's version and commit.
    fn about(
        mut self,
        kernel: &Path,
        params: simt_rtl::params::CoreParams,
        about: RunAbout,
    ) -> Shown {
        self.run = serde_json::json!({
            "kernel": kernel.display().to_string(),
            "core": params.name,
            "policy": params.policy.name(),
            "timing": params.collector_timing.name(),
            "engine": about.engine,
            "lds": about.lds.map(|p| p.display().to_string()),
            "seed": about.seed,
            "tool": { "version": env!("CARGO_PKG_VERSION"), "commit": results::commit() },
        });
        self
    }

    /// `check` (a comparison with the interpreter), after printing what `--show` asks for of
    /// `result` when it failed: the error then follows the results it is about.
    fn unless(
        &self,
        check: Result<()>,
        result: &simt_rtl::verify::kernel_results::KernelResult,
        program: &[simt_rtl::isa::Inst],
    ) -> Result<()> {
        if check.is_err() {
            say_raw!("{}", result.text(program, self.show));
        }
        check
    }

    /// Prints what `--show` asks for, checks the expected values, and then (all of them
    /// matching) writes the JSON file.
    fn emit(
        &self,
        result: &simt_rtl::verify::kernel_results::KernelResult,
        program: &[simt_rtl::isa::Inst],
    ) -> Result<()> {
        say_raw!("{}", result.text(program, self.show));
        if let Some(expected) = &self.expect {
            result.check(expected)?;
            say!("every value of {} is the kernel's", expected.path());
        }
        if let Some(out) = &self.json {
            out.write(serde_json::to_string_pretty(&result.json(&self.run))? + "\n")?;
            if !out.is_stdout() {
                say!("wrote {}", out.path().display());
            }
        }
        Ok(())
    }
}

/// The most bytes read from a kernel, local-data-share or expectations file.
const INPUT_LIMIT: u64 = 1 << 20;

/// The text of `path`, refused when larger than `limit` bytes or not UTF-8 (never reads more).
fn read_bounded(path: &Path, limit: u64) -> Result<String> {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .file_type();
    // Opening a FIFO would wait for a writer; a directory has no text.
    for (is, what) in
        [(kind.is_fifo(), "a FIFO"), (kind.is_socket(), "a socket"), (kind.is_dir(), "a directory")]
    {
        if is {
            anyhow::bail!("{}: is {what}, not a file", path.display());
        }
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = vec![];
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{}: larger than {limit} bytes, the most an input file may be",
            path.display()
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    // A byte-order mark, as some editors write at the start of UTF-8 text, is not text.
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// A kernel's assembly source, assembled (errors as `FILE:LINE: message`).
fn read_kernel(path: &std::path::Path) -> Result<simt_rtl::isa::asm::Listing> {
    use simt_rtl::isa::asm::AtLine;
    let source = read_bounded(path, INPUT_LIMIT)?;
    simt_rtl::isa::asm::assemble_listing(&source).map_err(|e| match e.downcast_ref::<AtLine>() {
        Some(at) => anyhow::anyhow!("{}:{}: {}", path.display(), at.line, at.message),
        None => e.context(path.display().to_string()),
    })
}

/// Warp instructions the interpreter runs a kernel for before `board run` sends it (the
/// board's own limit is its host's status polls).
const BOARD_INSTRUCTIONS: u64 = 10_000_000;

/// A run's error placed in the kernel's source: a program fault as `FILE:LINE: \`text\`: fault`,
/// a limit naming `--max-cycles` (and the waveform `vcd` written up to it); any other error
/// prefixed with the file.
fn at_source(
    e: anyhow::Error,
    kernel: &Path,
    listing: &simt_rtl::isa::asm::Listing,
    vcd: Option<&Path>,
) -> anyhow::Error {
    use simt_rtl::isa::interp::Fault;
    use simt_rtl::verify::core_run::CycleLimit;
    let file = kernel.display();
    // A run with --vcd left its waveform, up to the fault or the limit.
    let wave = vcd
        .filter(|v| v.exists())
        .map(|v| format!(" (waveform of the core's run: {})", v.display()))
        .unwrap_or_default();
    if let Some(fault) = e.chain().find_map(|c| c.downcast_ref::<Fault>()) {
        return match (fault, fault.pc().and_then(|pc| listing.at(pc))) {
            (Fault::Limit { instructions }, _) => anyhow::anyhow!(
                "{file}: did not finish within --max-cycles {instructions}: the reference interpreter ran {instructions} warp instructions (each at least one core cycle) and some warp had not exited{wave}"
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

/// A kernel's local data share: the hex words of `path` (one per line), or pseudo-random words.
fn read_lds(
    path: Option<&std::path::Path>,
    seed: u64,
    params: simt_rtl::params::CoreParams,
) -> Result<Vec<u32>> {
    match path {
        Some(path) => {
            let text = read_bounded(path, INPUT_LIMIT)?;
            simt_rtl::isa::lds_words(&text, &path.display().to_string(), params)
        }
        None => {
            let mut rng = simt_rtl::sim::Rng::new(seed);
            Ok((0..4 * params.lds_rows).map(|_| rng.bits(params.lane_bits) as u32).collect())
        }
    }
}

/// The command line, or exit: help and version printed (exit 0); a usage error as one line,
/// `simt-rtl: error: ...`, with clap's exit code 2.
fn parse() -> std::result::Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
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
            eprintln!("simt-rtl: error: {what} (usage: simt-rtl help)");
            Err(ExitCode::from(2))
        }
    }
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
