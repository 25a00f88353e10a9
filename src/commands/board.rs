//! `simt-rtl build`, `vivado`, `flash`, `load` and `board run`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::inputs::{inputs_beside, read_kernel_for, read_lds, say_beside};
use super::kernel::{at_source_of, warn_races, RunAbout, Ticker};
use super::shown::{ResultArgs, Shown};
use super::{exported_files, markdown_output, write_table};
use crate::boards::{Board, Revision};
use crate::flow::board_build::{build_board, BoardTop, BuildOptions, BuildReport};
use crate::flow::results;
use crate::flow::{Mapper, Synthesis};

// The flags of `simt-rtl build`.
#[derive(clap::Args)]
pub struct Build {
    /// Board: alchitry-cu (iCE40-HX8K; alchitry-cu-v2 for its V2 LED pins) or ulx3s-85f (ECP5
    /// LFE5U-85F); arty-a7-35t is built by `simt-rtl vivado`.
    #[arg(long, default_value = "alchitry-cu")]
    pub board: Board,
    /// Board revision: v1 or v2 (the LED pins differ); default v1 for alchitry-cu, v2 for
    /// alchitry-cu-v2.
    #[arg(long)]
    pub rev: Option<Revision>,
    /// The self-test top's block preset (default cu), or the core top's core preset (default
    /// the board's first: cu-core on the alchitry-cu, seed-core on the ulx3s-85f).
    #[arg(long)]
    pub preset: Option<String>,
    /// Core clock, MHz: the board's own (100 on the alchitry-cu, 25 on the ulx3s-85f), or one
    /// its PLL makes (iCE40 16-275, ECP5 10-400). Default: the self-test preset's board clock
    /// (45 for cu), or the core preset's clock on that board (src/boards/pins.rs).
    #[arg(long)]
    pub freq: Option<f64>,
    /// Cycles of the self-test run (1 to 16777215; default
    /// `boards::self_test::SELF_TEST_CYCLES`). Self-test top only.
    #[arg(long)]
    pub cycles: Option<u64>,
    /// Board top: self-test (the preset's blocks under LFSR traffic) or core (a SIMT core
    /// behind the USB serial port, for `simt-rtl board run`).
    #[arg(long, default_value = "self-test")]
    pub top: BoardTop,
    /// Synthesize with clock enables (yosys `synth_ice40` without `-nodffe`): fewer logic
    /// cells, often a lower Fmax. iCE40 only (the ECP5 builds with `synth_ecp5 -nowidelut`).
    #[arg(long)]
    pub dffe: bool,
    /// yosys's LUT mapper: abc (`synth_ice40`'s default), abc9 (`-abc9`, which knows the
    /// cells' delays) or abc9-dff (`-abc9 -dff`, which may also move flip-flops). Default:
    /// the top's, chosen by measurement (abc9 for self-test, abc for core).
    #[arg(long)]
    pub mapper: Option<Mapper>,
    /// Output directory (default: the board's, build/alchitry_cu or build/ulx3s_85f).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the report (synthesis, resources, Fmax, read-back, nextpnr's critical
    /// path) to this Markdown file, stamped with the command, commit and tool versions.
    #[arg(long)]
    pub markdown: Option<PathBuf>,
    /// Skip the read-back check: by default the bitstream is read back (icebox_vlog) and its
    /// netlist simulated under Verilator (the self-test must pass with the rust-hdl
    /// simulation's LEDs; the core top must run a kernel through its serial pins).
    #[arg(long)]
    pub no_verify: bool,
}

// The flags of `simt-rtl vivado`.
#[derive(clap::Args)]
pub struct Vivado {
    /// Board (`arty-a7-35t`).
    #[arg(long, default_value = "arty-a7-35t")]
    pub board: Board,
    /// Preset whose blocks go on the board.
    #[arg(long, default_value = "cu")]
    pub preset: String,
    /// Cycles of the self-test run (1 to 16777215).
    #[arg(long, default_value_t = crate::boards::self_test::SELF_TEST_CYCLES)]
    pub cycles: u64,
    /// Output directory.
    #[arg(long, default_value = "build/arty_a7_35t")]
    pub out: PathBuf,
}

/// `simt-rtl build`: the board top's bitstream (read back and checked unless `--no-verify`) and
/// its report; exit 1 when timing fails.
pub fn build(a: Build) -> Result<()> {
    let Build { board, rev, preset, freq, cycles, top, dffe, mapper, out, markdown, no_verify } = a;
    let board = board.revision(rev)?;
    crate::flow::fpga::toolchain::of_board(&board)?;
    if board.chip.family != crate::boards::Family::Ice40 && (dffe || mapper.is_some()) {
        anyhow::bail!(
            "--dffe and --mapper choose the iCE40's mapping: the {} builds with `{}`",
            board.name,
            board.chip.family.info().synth
        );
    }
    let synthesis = Synthesis { dffe, mapper: mapper.unwrap_or(top.default_mapper()) };
    let (block_preset, core, default_mhz) = match top {
        BoardTop::Core => {
            let (name, mhz) = board.core(preset.as_deref())?;
            ("cu", crate::params::core_params(name)?, mhz as f64)
        }
        BoardTop::SelfTest => {
            let p = preset.as_deref().unwrap_or("cu");
            (p, crate::params::CORE_CU, crate::params::preset(p)?.board_clock()? as f64)
        }
    };
    if top == BoardTop::Core && cycles.is_some() {
        anyhow::bail!("--cycles sets the self-test run's length: the core top runs kernels (`board run`), not a self-test");
    }
    let cycles = cycles.unwrap_or(crate::boards::self_test::SELF_TEST_CYCLES);
    let freq_mhz = freq.unwrap_or(default_mhz);
    let pins = Path::new("constraints").join(board.constraint_file);
    let out_dir = out.unwrap_or_else(|| PathBuf::from(board.build_dir));
    let verify = !no_verify;
    let opts = BuildOptions { board, top, core, freq_mhz, cycles, synthesis, out_dir, verify };
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    let report = crate::with_preset!(block_preset, B => build_board::<B>(&opts))?;
    say_report(&opts, &report)?;
    let title = match top {
        BoardTop::SelfTest => {
            format!("Board build: the `{block_preset}` self-test top on the {}", board.name)
        }
        BoardTop::Core => {
            format!("Board build: the `{}` core top on the {}", core.name, board.name)
        }
    };
    let tools = build_tools(&board, verify);
    // The block preset whose `rtl_out/` directory holds the top's module.
    let exported_preset = match (top, super::exporting_preset(core)) {
        (BoardTop::Core, Some(p)) => p.name,
        _ => block_preset,
    };
    let mut inputs =
        exported_files(Path::new("rtl_out"), exported_preset, &[top.exported_module()]);
    inputs.push(pins);
    let table = report.markdown(&opts.synthesis_command());
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

/// What `build` prints: the synthesis, the resource table, the bitstream, the read-back and the
/// critical path.
fn say_report(opts: &BuildOptions, report: &BuildReport) -> Result<()> {
    say!("synthesis: yosys {}", opts.synthesis_command());
    say_raw!("{}", report.table());
    say!("bitstream {} ({} bytes)", report.bitstream.display(), report.bitstream_bytes);
    match &report.verified {
        Some(v) => say!(
            "read-back: {} ({} cycles simulated in {:.1} s, after {:.1} s reading back and compiling; zero-delay and functional: timing is nextpnr's)",
            v.summary, v.cycles, v.secs, v.build_secs
        ),
        None => say!("read-back: {}", report.unverified),
    }
    if let Some(path) = &report.critical_path {
        say_raw!("{}", path.markdown());
    }
    Ok(())
}

/// The tools a build's table is stamped with.
fn build_tools(board: &Board, verify: bool) -> Vec<results::Tool> {
    let mut tools = vec![results::YOSYS];
    tools.push(match board.chip.family {
        crate::boards::Family::Ecp5 => results::NEXTPNR_ECP5,
        _ => results::NEXTPNR,
    });
    if verify {
        tools.push(results::VERILATOR);
    }
    tools
}

/// `simt-rtl vivado`.
pub fn vivado(a: Vivado) -> Result<()> {
    let Vivado { board, preset, cycles, out } = a;
    let most = crate::boards::self_test::MAX_SELF_TEST_CYCLES;
    crate::params::check_range("cycles", cycles as usize, 1, most)?;
    if board != crate::boards::ARTY_A7_35T {
        anyhow::bail!("board `{}` is not a Vivado board: `vivado` knows arty-a7-35t (use `build` for alchitry-cu)", board.name);
    }
    let written = crate::with_preset!(&preset, B => crate::flow::vivado::write_vivado_project::<B>(&board, cycles, &out))?;
    for path in written {
        say!("wrote {}", path.display());
    }
    say!("run: cd {} && vivado -mode batch -source build.tcl", out.display());
    Ok(())
}

// The flags of `simt-rtl flash` and `load`.
#[derive(clap::Args)]
pub struct Program {
    /// Board: alchitry-cu (iceprog) or ulx3s-85f (openFPGALoader).
    #[arg(long, default_value = "alchitry-cu")]
    pub board: Board,
    /// The bitstream (default: what `build --board B` writes, build/alchitry_cu/top.bin or
    /// build/ulx3s_85f/top.bit).
    #[arg(long)]
    pub bin: Option<PathBuf>,
    /// Print the command instead of running it.
    #[arg(long)]
    pub dry_run: bool,
}

/// `simt-rtl flash` and `load` (`sram`: into the configuration RAM) of the bitstream on the
/// board; with `--dry-run`, the command is printed instead.
pub fn program(a: Program, sram: bool) -> Result<()> {
    use crate::flow::fpga::toolchain;
    let Program { board, bin, dry_run } = a;
    let bin = match bin {
        Some(b) => b,
        None => toolchain::default_bitstream(&board)?,
    };
    if !dry_run {
        return toolchain::program(&board, &bin, sram);
    }
    say!("{}", toolchain::shell_line(&toolchain::program_command(&board, &bin, sram)?));
    Ok(())
}

/// Where `board run` runs a kernel.
enum Target {
    /// The board, at this serial port (default: found).
    Board(Option<PathBuf>),
    /// The rust-hdl board top.
    Sim,
    /// The core-top build in this directory: its read-back bitstream (iCE40) or its
    /// placed-and-routed design (ECP5).
    Bitstream(PathBuf),
}

/// Warp instructions the interpreter runs a kernel for before `board run` sends it (the
/// board's own limit is its host's status polls).
const BOARD_INSTRUCTIONS: u64 = 10_000_000;

/// The flags of `simt-rtl board run`.
#[derive(clap::Args)]
pub struct BoardRun {
    /// The assembly source (e.g. kernels/reduce.s).
    pub kernel: PathBuf,
    /// Initial local data share: one hex word per line from word 0 (default: K.lds beside the
    /// kernel K.s, else pseudo-random words from --seed; `random` for those always).
    #[arg(long)]
    pub lds: Option<PathBuf>,
    /// Seed of the pseudo-random local data share.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The board's serial port (default: the highest-numbered /dev/ttyUSB*, the Alchitry
    /// Cu's FTDI UART channel).
    #[arg(long)]
    pub port: Option<PathBuf>,
    /// No board: the rust-hdl board top simulated behind its serial lines (4 clocks per bit).
    #[arg(long, conflicts_with = "port")]
    pub sim: bool,
    /// No board: the bitstream that `build --top core` wrote in this directory (default
    /// build/alchitry_cu), read back and simulated under Verilator through its serial pins.
    #[arg(long, value_name = "BUILD_DIR", num_args = 0..=1, default_missing_value = "build/alchitry_cu", conflicts_with_all = ["port", "sim"])]
    pub bitstream_sim: Option<PathBuf>,
    /// The core preset the board top carries: `cu-core` (the default), or `seed-core` (`build
    /// --board ulx3s-85f --top core`'s default). With --bitstream-sim, the build's own.
    #[arg(long)]
    pub preset: Option<String>,
    #[command(flatten)]
    pub results: ResultArgs,
}

/// `simt-rtl board run`: the kernel's inputs found and checked, then `run_on`.
pub fn board_run(a: BoardRun) -> Result<()> {
    let BoardRun { kernel, lds, seed, port, sim, bitstream_sim, preset, mut results } = a;
    let params = run_core(preset.as_deref(), sim, bitstream_sim.as_deref())?;
    let (lds, lds_beside) = inputs_beside(&kernel, params.name, lds, &mut results)?;
    let inputs = [("the kernel", Some(kernel.as_path())), ("the --lds file", lds.as_deref())];
    let shown = Shown::new(&results, params, &inputs)?;
    let (target, engine) = match (sim, bitstream_sim) {
        (true, _) => (Target::Sim, "board-sim"),
        (_, Some(dir)) => (Target::Bitstream(dir), "bitstream-sim"),
        _ => (Target::Board(port), "board"),
    };
    let about = RunAbout { engine, seed, lds: lds.clone() };
    say_beside(&kernel, lds.as_deref().filter(|_| lds_beside), &shown)?;
    run_on(&kernel, (lds.as_deref(), seed), params, target, shown.about(&kernel, params, about))
}

/// The core `board run` talks to: the one `--preset` names (default `cu-core`), which the
/// rust-hdl board top (`--sim`, the cu core's) and a build (`--bitstream-sim`, its own) must be.
fn run_core(
    preset: Option<&str>,
    sim: bool,
    build: Option<&Path>,
) -> Result<crate::params::CoreParams> {
    let named = preset
        .map(|p| crate::params::core_params(p).map_err(|e| anyhow::anyhow!("--preset: {e}")))
        .transpose()?;
    let fixed = match (sim, build) {
        (true, _) => Some((crate::params::CORE_CU, "the rust-hdl board top (--sim)".to_string())),
        (_, Some(dir)) => Some((
            crate::flow::readback::core_preset(dir)?,
            format!("the build in {}", dir.display()),
        )),
        _ => None,
    };
    match (named, fixed) {
        (Some(n), Some((f, what))) if n != f => {
            anyhow::bail!("--preset {}: {what} carries the core `{}`", n.name, f.name)
        }
        (_, Some((f, _))) => Ok(f),
        (n, None) => Ok(n.unwrap_or(crate::params::CORE_CU)),
    }
}

/// A kernel on the board (or a simulation of it) through the serial link.
fn run_on(
    kernel: &Path,
    (lds, seed): (Option<&Path>, u64),
    params: crate::params::CoreParams,
    target: Target,
    shown: Shown,
) -> Result<()> {
    use crate::link::TtySerial;
    let listing = read_kernel_for(kernel, &params)?;
    let program = &listing.program;
    let lds = read_lds(lds, seed, params)?;
    // The interpreter runs first: a kernel that faults is refused before anything is sent, its
    // fault at its source line; the board's result is then checked against this machine.
    let mut m = crate::isa::interp::Machine::new(params.machine(BOARD_INSTRUCTIONS), &lds)?;
    m.run(program).map_err(|e| at_source_of("board run", e, kernel, &listing, None))?;
    warn_races(kernel, &listing, &m);
    let ticker = Ticker::new();
    let (run, on) = match target {
        Target::Sim => {
            let board = crate::boards::core_board::SimBoard::new(4, &[])?;
            (
                watched(board, params, &ticker).run_kernel(program, &lds)?,
                "the simulated board top (rust-hdl, serial lines at 4 clocks per bit)".to_string(),
            )
        }
        Target::Bitstream(dir) => {
            let board = crate::flow::readback::core_board(&dir)?;
            let design = crate::flow::readback::Simulated::of(&dir).design();
            let on = format!("{design} of {} (Verilator)", dir.display());
            (watched(board, params, &ticker).run_kernel(program, &lds).context(on.clone())?, on)
        }
        Target::Board(port) => {
            let port = match port {
                Some(p) => p,
                None => crate::link::find_port()?,
            };
            let serial = TtySerial::open(&port)?;
            (
                watched(serial, params, &ticker).run_kernel(program, &lds)?,
                format!("the board at {}", port.display()),
            )
        }
    };
    ticker.clear();
    let result = crate::verify::kernel_results::KernelResult {
        params,
        regs: run.regs.clone(),
        lds: run.lds.clone(),
        counters: run.status.counters,
    };
    let who = if on.starts_with("the board at") { "the board" } else { "the core" };
    let check = crate::link::check_against_interpreter(params, &m, &run, who);
    shown
        .unless(check, &result, program)
        .with_context(|| format!("{} on {on}", kernel.display()))?;
    say!("{} on {on}: every register, local-data-share word and count equals the reference interpreter's; core flags {}", kernel.display(), crate::params::error_flags_shown(run.status.core_errors));
    shown.emit(&result, program)
}

/// A host on `serial` whose polls show `ticker`'s progress line (a board run has no cycle limit:
/// it stops after [`Host::max_polls`](crate::link::Host) polls).
fn watched<S: crate::link::Serial>(
    serial: S,
    params: crate::params::CoreParams,
    ticker: &Ticker,
) -> crate::link::Host<S> {
    let mut host = crate::link::Host::new(serial, params);
    host.on_poll = Some(ticker.on_poll(None));
    host
}
