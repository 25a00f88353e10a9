//! The measuring commands: `report`, `soak`, `speed`, `bench`, `explore` and `kernels`, each a
//! table on standard output and, with `--markdown`, a stamped file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::inputs::{kernel_inputs, named_kernel_inputs};
use super::{emit, exported_files, kernel_files, markdown_output};
use crate::flow::fpga::Family;
use crate::flow::report::Target;
use crate::flow::results;
use crate::flow::{Mapper, Synthesis};
use crate::sim::output::Output;

// The flags of `simt-rtl report`.
#[derive(clap::Args)]
pub struct Report {
    /// Preset whose rtl_out/ blocks are measured.
    #[arg(long, default_value = "cu")]
    pub preset: String,
    /// Only this design (its whole name, as the table's first column gives it; repeat for more).
    #[arg(long)]
    pub block: Vec<String>,
    /// Target clock, MHz.
    #[arg(long, default_value_t = 100.0)]
    pub freq: f64,
    /// Synthesize with clock enables (yosys `synth_ice40` without `-nodffe`): fewer logic
    /// cells, often a lower Fmax.
    #[arg(long)]
    pub dffe: bool,
    /// yosys's LUT mapper, as `build --mapper`; repeat it to measure each design with each
    /// mapper, side by side.
    #[arg(long, default_value = "abc")]
    pub mapper: Vec<Mapper>,
    /// The exported Verilog (with manifest.json).
    #[arg(long, default_value = "rtl_out")]
    pub rtl: PathBuf,
    /// Working directory (one subdirectory per design, with every tool's log).
    #[arg(long, default_value = "build/report")]
    pub out: PathBuf,
    /// Place and route each design this many times (nextpnr's default seed, then `--seed 1`,
    /// `2`, ...), and give the lowest and highest Fmax beside the first: how much the Fmax
    /// depends on placement. 1 to 20.
    #[arg(long, default_value_t = 1)]
    pub placements: u32,
    /// FPGA family: `ice40` (the HX8K, placed and routed), or `ecp5` (LFE5U-85F) and `xilinx7`
    /// (XC7A100T), measured after synthesis alone (`ecp5` placed and routed with `--route`);
    /// repeat it for several of the latter side by side.
    #[arg(long, default_value = "ice40")]
    pub family: Vec<String>,
    /// With `--family ecp5`: place and route each design in its shift harness on the ULX3S's
    /// LFE5U-85F (speed grade 6), as the iCE40 always is: LUT4s, flip-flops, block RAMs,
    /// multipliers and Fmax, instead of the resources after synthesis alone.
    #[arg(long)]
    pub route: bool,
    /// Stop after placement (nextpnr `--no-route`): each Fmax is nextpnr's estimate from the
    /// placement, for a design too big or too full to route in reasonable time.
    #[arg(long)]
    pub place_only: bool,
    /// With a family measured after synthesis alone: also each design's blocks (the modules
    /// directly inside it), from a second synthesis with the hierarchy kept.
    #[arg(long)]
    pub by_block: bool,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

// The flags of `simt-rtl soak`.
#[derive(clap::Args)]
pub struct Soak {
    /// Preset whose blocks are run.
    #[arg(long, default_value = "cu")]
    pub preset: String,
    /// Only this block (its exported module's whole name, or a block the preset checks without
    /// exporting it, as the seed core's host link; repeat for more).
    #[arg(long)]
    pub block: Vec<String>,
    /// Cycles per block.
    #[arg(long, default_value_t = 100_000_000)]
    pub cycles: u64,
    /// Seed of the first segment.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Blocks run at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Of a block whose run is replayed on its Verilog (the schedulers, the lane ALU, the core),
    /// the cycles of each segment the rust-hdl block itself runs beside its model (default
    /// 20,000; as many as the segment for a whole run on rust-hdl); Verilator compares every
    /// cycle.
    #[arg(long)]
    pub rust_hdl_cycles: Option<u64>,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

// The flags of `simt-rtl speed`.
#[derive(clap::Args)]
pub struct Speed {
    /// Preset whose blocks are measured.
    #[arg(long, default_value = "cu")]
    pub preset: String,
    /// Only this block (its exported module's whole name; repeat for more).
    #[arg(long)]
    pub block: Vec<String>,
    /// Time `simt-rtl run`'s two engines on this kernel instead (repeatable; the local data
    /// share from the kernel's .lds beside it, else pseudo-random words from seed 1, as
    /// `run` gives), on the core --core names.
    #[arg(long, conflicts_with = "block")]
    pub kernel: Vec<PathBuf>,
    /// The core preset --kernel runs on (one with a Verilator engine: cu-core or seed-core).
    #[arg(long, default_value = "cu-core", requires = "kernel")]
    pub core: String,
    /// With --kernel: time the Verilator engine alone, not the rust-hdl core in lockstep too
    /// (the seed core's lockstep run of kernels/spin.s takes about half an hour).
    #[arg(long, requires = "kernel")]
    pub engine_only: bool,
    /// Time the read-back netlist of the bitstream built in this directory (`simt-rtl
    /// build --out DIR`) instead, for --cycles cycles, under Verilator and iverilog.
    #[arg(long, conflicts_with_all = ["block", "kernel"])]
    pub bitstream: Option<PathBuf>,
    /// Cycles of stimulus per block.
    #[arg(long, default_value_t = 100_000)]
    pub cycles: usize,
    /// Random seed.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// The exported Verilog.
    #[arg(long, default_value = "rtl_out")]
    pub rtl: PathBuf,
    /// Working directory (testbenches, simulator builds).
    #[arg(long, default_value = "build/speed")]
    pub out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

// The flags of `simt-rtl bench`.
#[derive(clap::Args)]
pub struct Bench {
    /// Cycles per configuration (2 to 10000000).
    #[arg(long, default_value_t = 100_000)]
    pub cycles: usize,
    /// Random seed.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Also place and route the cu preset's two exported collectors (rtl_out/cu/
    /// operand_collector.v, operand_collector_pipelined.v, in report's harness) for their
    /// Fmax, and give the cu rows' reads per second.
    #[arg(long)]
    pub fmax: bool,
    /// With --fmax: placements (nextpnr seeds) per collector, 1 to 20.
    #[arg(long, default_value_t = 1, requires = "fmax")]
    pub placements: u32,
    /// With --fmax: the exported Verilog.
    #[arg(long, default_value = "rtl_out", requires = "fmax")]
    pub rtl: PathBuf,
    /// With --fmax: working directory for synthesis and place and route.
    #[arg(long, default_value = "build/bench", requires = "fmax")]
    pub out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

// The flags of `simt-rtl explore`.
#[derive(clap::Args)]
pub struct Explore {
    /// The kernels (assembly sources), as `kernels` takes them.
    #[arg(required = true)]
    pub kernels: Vec<PathBuf>,
    /// Which core and the sizes beside it: `cu-core` (placed and routed on the iCE40-HX8K) or
    /// `seed-core` (synthesized for the ECP5 LFE5U-85F, the one within 60% of its LUT4s with the
    /// highest mean IPC chosen).
    #[arg(long, default_value = "cu-core")]
    pub preset: String,
    /// Placements (nextpnr seeds) per core, 1 to 20 (`cu-core`, or `seed-core` with `--route`;
    /// default 1).
    #[arg(long)]
    pub placements: Option<u32>,
    /// With `cu-core`: the cost of each instruction-set extension instead of the sizes (the
    /// core without extensions, with each one alone, and with all).
    #[arg(long)]
    pub extensions: bool,
    /// With `seed-core`: place and route the seed core itself on the ULX3S's LFE5U-85F,
    /// `--placements` times, in `report`'s shift harness, instead of synthesizing the sizes
    /// beside it: LUT4s, Fmax, mean IPC and lane throughput against its goals (about an hour
    /// a placement on a 2-core machine).
    #[arg(long)]
    pub route: bool,
    /// With `--route`: stop after placement (nextpnr `--no-route`), each Fmax nextpnr's
    /// estimate from the placement (the seed core's routing has not finished in hours here).
    #[arg(long)]
    pub place_only: bool,
    /// Working directory (one subdirectory per core, with its Verilog and every tool's log).
    #[arg(long, default_value = "build/explore")]
    pub out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/explore-core.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

/// `simt-rtl report`.
pub fn report(a: Report) -> Result<()> {
    let Report {
        preset,
        block,
        freq,
        dffe,
        mapper,
        rtl,
        out,
        placements,
        family,
        route,
        place_only,
        by_block,
        markdown,
    } = a;
    let markdown = markdown_output(markdown.as_deref(), std::slice::from_ref(&rtl))?;
    let families = family.iter().map(|f| Family::parse(f)).collect::<Result<Vec<_>>>()?;
    let placed = match (families.as_slice(), route) {
        ([Family::Ice40], true) => anyhow::bail!("--route takes --family ecp5 (ice40 is always placed and routed)"),
        ([Family::Ice40], false) => Family::Ice40,
        ([Family::Ecp5], true) => Family::Ecp5,
        (_, true) => anyhow::bail!("--route places and routes one family: give `--family ecp5` alone (ice40 is always placed and routed)"),
        (_, false) if place_only => anyhow::bail!("--place-only needs a family that is placed: --family ice40, or --family ecp5 with --route"),
        (_, false) => {
            let (dirs, markdown) = ((rtl.as_path(), out.as_path()), markdown.as_ref());
            return report_synthesis(&preset, &block, (&families, by_block), dirs, markdown);
        }
    };
    if by_block {
        anyhow::bail!(
            "--by-block needs a family measured after synthesis alone (--family ecp5 or xilinx7)"
        );
    }
    let targets: Vec<Target> = match placed {
        Family::Ice40 => {
            mapper.into_iter().map(|mapper| Target::ice40(Synthesis { dffe, mapper })).collect()
        }
        _ if dffe || mapper != [Mapper::Abc] => anyhow::bail!(
            "--dffe and --mapper choose the iCE40's synthesis: the ECP5 is synthesized with `{}`",
            Family::Ecp5.info().synth
        ),
        _ => vec![Target::ecp5()],
    };
    let targets: Vec<Target> =
        targets.into_iter().map(|t| if place_only { t.placed_only() } else { t }).collect();
    // Every tool found before any work (`targets` has one board).
    crate::flow::fpga::toolchain::require_place_and_route(&targets[0].board)?;
    let (table, inputs) = report_table(&preset, &block, freq, &targets, &rtl, &out, placements)?;
    let title = format!("Resources and Fmax: preset `{preset}`");
    let nextpnr = match placed {
        Family::Ice40 => results::NEXTPNR,
        _ => results::NEXTPNR_ECP5,
    };
    emit(&table, markdown.as_ref(), &title, (&[results::YOSYS, nextpnr], &inputs))
}

/// `simt-rtl report --family F` for families measured after synthesis alone: each chosen design
/// synthesized for each family.
fn report_synthesis(
    preset: &str,
    block: &[String],
    (families, by_block): (&[Family], bool),
    (rtl, out): (&Path, &Path),
    markdown: Option<&Output>,
) -> Result<()> {
    use crate::flow::{fpga, report};
    if families.contains(&Family::Ice40) {
        anyhow::bail!("--family ice40 is placed and routed: measure it apart from the families measured after synthesis alone");
    }
    let designs = chosen_designs(preset, block, rtl)?;
    let (mut rows, mut blocks) = (vec![], String::new());
    for (i, d) in designs.iter().enumerate() {
        let dir = out.join(preset).join(format!("{i:02}_{}", d.top));
        let read = report::read_script(d, &dir)?;
        for &family in families {
            eprintln!("report: {}: yosys {}", d.name, family.info().synth);
            let resources = fpga::synthesize(family, &read, &d.top, &dir)
                .with_context(|| format!("measuring {}", d.name))?;
            rows.push(fpga::SynthRow { design: d.name.clone(), family, resources });
            if by_block {
                eprintln!("report: {}: yosys {}", d.name, family.info().synth_hierarchical);
                let shares = fpga::by_block(family, &read, &d.top, &dir)?;
                blocks.push_str(&fpga::by_block_table(&d.name, family, &shares));
            }
        }
    }
    let files = measured_files(designs);
    let title = format!("Resources after synthesis: preset `{preset}`");
    let table = fpga::synth_table(&rows) + &blocks;
    emit(&table, markdown, &title, (&[results::YOSYS], &files))
}

/// `simt-rtl report`: the table of the preset's designs that `block` names (every one when it is
/// empty), each synthesized each way of `synthesis`, and the files of the designs measured.
fn report_table(
    preset: &str,
    block: &[String],
    freq: f64,
    targets: &[Target],
    rtl: &Path,
    out: &Path,
    placements: u32,
) -> Result<(String, Vec<PathBuf>)> {
    use crate::flow::report;
    if !(1.0..=400.0).contains(&freq) {
        anyhow::bail!("--freq must be between 1 and 400 MHz, got {freq}");
    }
    report::check_placements("--placements", placements)?;
    let designs = chosen_designs(preset, block, rtl)?;
    let mut rows = vec![];
    for (i, d) in designs.iter().enumerate() {
        for &target in targets {
            // Each mapper's netlist apart, named by it, when there are several.
            let several = targets.len() > 1;
            let mapper = target.synthesis.mapper.name();
            let tag = if several { format!("_{mapper}") } else { String::new() };
            let dir = out.join(preset).join(format!("{i:02}_{}{tag}", d.top));
            let mut row = report::measure(d, &dir, freq, target, placements)
                .with_context(|| format!("measuring {}", d.name))?;
            if several {
                row.name = format!("{} ({mapper})", row.name);
            }
            rows.push(row);
        }
    }
    Ok((report::table(&rows, freq, targets), measured_files(designs)))
}

/// The designs of preset `preset` in `rtl` that `block` names whole (every one when it is empty).
fn chosen_designs(
    preset: &str,
    block: &[String],
    rtl: &Path,
) -> Result<Vec<crate::flow::report::Design>> {
    let p = crate::params::preset(preset)?;
    let mut designs = crate::flow::report::designs(&p, rtl)?;
    let names: Vec<String> = designs.iter().map(|d| d.name.clone()).collect();
    let chosen = crate::flow::whole_names(&names, block, ("a design", "designs"), preset)?;
    designs.retain(|d| chosen.contains(&d.name));
    Ok(designs)
}

/// The files a table of `designs` was measured on: a built-in design is stamped with the
/// repository file it was built from.
fn measured_files(designs: Vec<crate::flow::report::Design>) -> Vec<PathBuf> {
    designs
        .into_iter()
        .flat_map(|d| if d.built_in.is_some() { vec![PathBuf::from(d.source)] } else { d.files })
        .collect()
}

/// `simt-rtl soak`.
pub fn soak(a: Soak) -> Result<()> {
    use crate::flow::soak;
    let Soak { preset, block, cycles, seed, jobs, rust_hdl_cycles, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &[])?;
    if let Some(n) = rust_hdl_cycles {
        anyhow::ensure!(n >= 1, "--rust-hdl-cycles must be at least 1");
        // Read by every replayed differential run of this process; set before any thread starts.
        std::env::set_var("SIMT_RUST_HDL_CYCLES", n.to_string());
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let say = |line: &str| eprintln!("{line}");
    let modules = crate::with_preset!(&preset, B => soak::soakable::<B>(&block))?;
    let rows =
        crate::with_preset!(&preset, B => soak::soak::<B>(&modules, cycles, seed, jobs, &say))?;
    let title = format!("Soak: preset `{preset}`");
    let rtl = Path::new("rtl_out");
    let inputs: Vec<PathBuf> = crate::with_preset!(&preset, B => Ok::<_, anyhow::Error>(
        modules.iter().flat_map(|m| soak::inputs::<B>(rtl, m)).collect()))?;
    emit(
        &soak::table(&preset, seed, &rows),
        markdown.as_ref(),
        &title,
        (&[results::RUSTC], &inputs),
    )
}

/// `simt-rtl speed`: of the engines on kernels, of a bitstream's read-back, or of the blocks.
pub fn speed(a: Speed) -> Result<()> {
    use crate::flow::{soak, speed};
    let read: Vec<PathBuf> =
        a.kernel.iter().chain([&a.rtl]).chain(a.bitstream.as_ref()).cloned().collect();
    let markdown = markdown_output(a.markdown.as_deref(), &read)?;
    if !a.kernel.is_empty() {
        let core = crate::params::core_params(&a.core)?;
        return speed_of_engines(core, &a.kernel, !a.engine_only, markdown.as_ref());
    }
    if let Some(dir) = &a.bitstream {
        return speed_of_readback(dir, a.cycles, markdown.as_ref());
    }
    let Speed { preset, block, cycles, seed, rtl, out, .. } = a;
    let say = |line: &str| eprintln!("{line}");
    let work = out.join(&preset);
    let modules = crate::with_preset!(&preset, B => soak::modules::<B>(&block))?;
    let rows = crate::with_preset!(&preset, B => speed::measure::<B>(&modules, &rtl, cycles, seed, &work, &say))?;
    let title = format!("Simulation speed: preset `{preset}`");
    let tools = [results::RUSTC, results::IVERILOG, results::VERILATOR];
    let inputs = exported_files(&rtl, &preset, &modules);
    emit(&speed::table(&preset, &rows), markdown.as_ref(), &title, (&tools, &inputs))
}

/// `simt-rtl speed --kernel`: `run`'s two engines timed on each kernel.
fn speed_of_engines(
    params: crate::params::CoreParams,
    kernels: &[PathBuf],
    lockstep: bool,
    markdown: Option<&Output>,
) -> Result<()> {
    if !crate::verify::fast_engine::has_engine(params) {
        anyhow::bail!(
            "--core {}: no Verilator engine for this core (cu-core and seed-core have one)",
            params.name
        );
    }
    let inputs = kernel_inputs(kernels, params)?;
    let say = |line: &str| eprintln!("{line}");
    let rows = crate::flow::speed::engines(params, &inputs, 10_000_000, lockstep, &say)?;
    let table = crate::flow::speed::engine_table(params.name, &rows);
    let tools = [results::RUSTC, results::VERILATOR];
    let title = "Speed of `simt-rtl run`'s engines";
    emit(&table, markdown, title, (&tools, &kernel_files(kernels, params)))
}

/// `simt-rtl speed --bitstream DIR`: the read-back netlist's speed under each simulator.
fn speed_of_readback(dir: &Path, cycles: usize, markdown: Option<&Output>) -> Result<()> {
    if !(1..=10_000_000).contains(&cycles) {
        anyhow::bail!("--cycles must be between 1 and 10000000 with --bitstream, got {cycles}");
    }
    let speeds = crate::flow::readback::speeds(dir, cycles as u64)?;
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
    use crate::flow::{board_build::BoardTop, readback::CLOCKS_PER_BIT_FILE};
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

/// `simt-rtl bench`.
pub fn bench(a: Bench) -> Result<()> {
    let Bench { cycles, seed, fmax, placements, rtl, out, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), std::slice::from_ref(&rtl))?;
    if cycles < 2 {
        anyhow::bail!("--cycles must be at least 2, got {cycles}");
    }
    if cycles > 10_000_000 {
        anyhow::bail!("--cycles must be at most 10000000, got {cycles}");
    }
    crate::flow::report::check_placements("--placements", placements)?;
    let mut rows = crate::bench::run_all(cycles, seed);
    let mut tools = vec![results::RUSTC];
    if fmax {
        collector_fmax(&mut rows, placements, &rtl, &out)?;
        tools.extend([results::YOSYS, results::NEXTPNR]);
    }
    let table = crate::bench::table(&rows);
    let collectors = crate::params::CollectorTiming::ALL
        .map(crate::hw::collector::operand_collector::module_name);
    let inputs = exported_files(&rtl, "cu", &collectors);
    emit(&table, markdown.as_ref(), "Operand collector benchmark", (&tools, &inputs))
}

/// `simt-rtl bench --fmax`: the cu rows get the Fmax range of their exported collector, placed
/// and routed `placements` times as `report` does.
fn collector_fmax(
    rows: &mut [crate::bench::BenchRow],
    placements: u32,
    rtl: &Path,
    out: &Path,
) -> Result<()> {
    use crate::flow::report;
    let designs = report::designs(&crate::params::CU, rtl)?;
    for timing in crate::params::CollectorTiming::ALL {
        let module = crate::hw::collector::operand_collector::module_name(timing);
        let Some(design) = designs.iter().find(|d| d.name == module) else {
            anyhow::bail!("{} has no `{module}` for preset cu: run `simt-rtl gen`", rtl.display());
        };
        say!("bench: {module}: synthesis and {placements} placement(s)");
        let target = report::Target::ice40(Default::default());
        let m = report::measure(design, &out.join(module), 100.0, target, placements)
            .with_context(|| format!("measuring {module}"))?;
        let Some(range) = m.fmax_range() else { anyhow::bail!("{module} did not route") };
        for r in rows.iter_mut().filter(|r| r.config == "cu" && r.timing == timing) {
            r.fmax_mhz = Some(range);
        }
    }
    Ok(())
}

/// `simt-rtl explore`.
pub fn explore(a: Explore) -> Result<()> {
    use crate::flow::explore;
    use crate::params::{CORE_CU, CORE_SEED};
    let Explore { kernels, preset, placements, extensions, route, place_only, out, markdown } = a;
    let markdown = markdown_output(markdown.as_deref(), &kernels)?;
    let core = match preset.as_str() {
        "cu-core" => CORE_CU,
        "seed-core" => CORE_SEED,
        other => anyhow::bail!("--preset must be cu-core or seed-core (the cores explore measures sizes beside), got `{other}`"),
    };
    if extensions && core != CORE_CU {
        anyhow::bail!("--extensions takes --preset cu-core (seed-core carries every extension)");
    }
    if route && core != CORE_SEED {
        anyhow::bail!("--route takes --preset seed-core (cu-core is always placed and routed)");
    }
    if place_only && !route {
        anyhow::bail!(
            "--place-only takes --route (it stops the seed core's place and route after placement)"
        );
    }
    if placements.is_some() && core == CORE_SEED && !route {
        anyhow::bail!("--placements takes --route with --preset seed-core (without it the sizes are synthesized, not placed)");
    }
    let placements = placements.unwrap_or(1);
    // Every kernel read and assembled before any work, so a bad file is the only output; the
    // local data shares are the core's, whose rows and lane bits every explored size keeps.
    let inputs = named_kernel_inputs(&kernels, core)?;
    let say = |line: &str| eprintln!("{line}");
    let stamp_inputs = kernel_files(&kernels, core);
    if route {
        let ecp5 = crate::flow::report::Target::ecp5();
        let target = (if place_only { ecp5.placed_only() } else { ecp5 }, placements);
        crate::flow::fpga::toolchain::require_place_and_route(&target.0.board)?;
        let rows = explore::explore(&[core], &inputs, target, &out, &say)?;
        let title = match place_only {
            true => "The seed core placed on the ECP5 (not routed)",
            false => "The seed core placed and routed on the ECP5",
        };
        let tools = [results::RUSTC, results::YOSYS, results::NEXTPNR_ECP5];
        return emit(
            &explore::routed_table(&rows),
            markdown.as_ref(),
            title,
            (&tools, &stamp_inputs),
        );
    }
    if core == CORE_SEED {
        let family = Family::Ecp5;
        let (rows, left_out) =
            explore::explore_synthesized(&explore::SEED_CORES, &inputs, family, &out, &say)?;
        let title = "The seed core's candidate sizes on the ECP5";
        let table = explore::synthesized_table(&rows, &left_out, family);
        return emit(
            &table,
            markdown.as_ref(),
            title,
            (&[results::RUSTC, results::YOSYS], &stamp_inputs),
        );
    }
    let tools = [results::RUSTC, results::YOSYS, results::NEXTPNR];
    if extensions {
        let cores = explore::extension_variants(core);
        let target = (crate::flow::report::Target::ice40(Default::default()), placements);
        let rows = explore::explore(&cores, &inputs, target, &out, &say)?;
        let title = "The cost of each extension on the cu core";
        let table = explore::extension_table(&rows, core.isa);
        return emit(&table, markdown.as_ref(), title, (&tools, &stamp_inputs));
    }
    let target = (crate::flow::report::Target::ice40(Default::default()), placements);
    let rows = explore::explore(&explore::CORES, &inputs, target, &out, &say)?;
    let title = "The cu core at larger sizes";
    emit(&explore::table(&rows), markdown.as_ref(), title, (&tools, &stamp_inputs))
}

/// `simt-rtl kernels`: each kernel (its `.lds` beside it, else pseudo-random words from seed 1)
/// on the model of the core `core`, or of `core` with other warps or collector units.
pub fn kernels(
    kernels: &[PathBuf],
    core: crate::params::CoreParams,
    (warps, collector_units): (Option<usize>, Option<usize>),
    markdown: Option<&Path>,
) -> Result<()> {
    let markdown = markdown_output(markdown, kernels)?;
    let markdown = markdown.as_ref();
    let params = crate::params::CoreParams {
        warps: warps.unwrap_or(core.warps),
        collector_units: collector_units.unwrap_or(core.collector_units),
        ..core
    };
    params.validate()?;
    let title = if params == core {
        format!("Kernels on the core `{}`", core.name)
    } else {
        format!(
            "Kernels on the `{}` model with {} warps and {} collector units (no exported core has this size)",
            core.name, params.warps, params.collector_units
        )
    };
    let inputs = named_kernel_inputs(kernels, params)?;
    let rows = crate::verify::core_run::kernel_rows(params, &inputs, 10_000_000)?;
    let table = crate::verify::core_run::kernel_table(&rows);
    emit(&table, markdown, &title, (&[results::RUSTC], &kernel_files(kernels, core)))
}
