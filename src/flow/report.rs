//! `simt-rtl report`: every exported block of a preset, and the board top, placed and routed
//! alone on the iCE40-HX8K (CB132), or with `--family ecp5 --route` on the ULX3S's LFE5U-85F,
//! with its logic cells (LUT4s on the ECP5), flip-flops, block RAMs (and multipliers) and Fmax.
//!
//! A block has more ports than the package has pins, so each one is wrapped in a generated
//! *shift harness*: every input bit comes from a shift register fed by one pin (`sin`), every
//! output bit is captured (`load`) into a second shift register read out through one pin
//! (`sout`), and the input chain's last bit feeds the output chain. Nothing can be optimised
//! away, and every path of the block runs register to register, so the Fmax is the block's own.
//! The harness costs one flip-flop (one logic cell) per port bit; the table gives that count, and
//! the flip-flop column subtracts it.
//!
//! The registry's references (Verilog a block equals but the crate does not write: the seed's own
//! `WarpScheduler`, 003) are measured the same way, beside our blocks, at the sizes each names.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::fpga::{Family, Resources};
use super::Synthesis;
use crate::boards::{Board, ALCHITRY_CU_V1, ULX3S_85F};
use crate::params::Preset;
use crate::registry::Reference;

/// The HX8K's logic cells.
pub const HX8K_LOGIC_CELLS: u64 = 7680;

/// Where a design is placed and routed: a board's chip, whose clock, serial and reset pins carry
/// the harness's `clk`, `sin`, `sout` and `load`, and the iCE40's synthesis options (another
/// family is synthesized as `build` synthesizes it).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub board: Board,
    pub synthesis: Synthesis,
    /// Stop after placement (nextpnr `--no-route`): the Fmax is nextpnr's estimate from the
    /// placement, for designs too big or too full to route in reasonable time.
    pub place_only: bool,
}

impl Target {
    /// The Alchitry Cu's iCE40-HX8K, synthesized as `synthesis` says.
    pub fn ice40(synthesis: Synthesis) -> Target {
        Target { board: ALCHITRY_CU_V1, synthesis, place_only: false }
    }

    /// The ULX3S's LFE5U-85F.
    pub fn ecp5() -> Target {
        Target { board: ULX3S_85F, synthesis: Synthesis::default(), place_only: false }
    }

    /// This target, placed and not routed.
    pub fn placed_only(self) -> Target {
        Target { place_only: true, ..self }
    }

    pub fn family(&self) -> Family {
        self.board.chip.family
    }
}

/// One design to measure.
#[derive(Clone, Debug)]
pub struct Design {
    /// Row label.
    pub name: String,
    /// Where it comes from (a file of rtl_out/, or the seed).
    pub source: String,
    pub files: Vec<PathBuf>,
    /// Verilog built into the crate, read after `files` (written into the work directory as
    /// `built_in.v` first).
    pub built_in: Option<&'static str>,
    pub top: String,
    /// Read the files as SystemVerilog (the seed needs it).
    pub sv: bool,
    /// yosys commands run after reading the files (e.g. `chparam`).
    pub setup: String,
}

/// A port of a design's top module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub input: bool,
    pub width: usize,
}

/// What one design measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub name: String,
    pub source: String,
    /// The family it was placed and routed for.
    pub family: Family,
    /// Logic cells nextpnr packed (on the ECP5 its LUT4 sites, `TRELLIS_COMB`), harness
    /// included.
    pub logic_cells: u64,
    /// Flip-flops of the design itself (the harness's subtracted).
    pub flip_flops: u64,
    pub block_rams: u64,
    /// Multipliers (none on the iCE40-HX8K).
    pub dsps: u64,
    /// Bits of the harness (its flip-flops, about as many logic cells).
    pub harness_bits: u64,
    /// Achieved Fmax (MHz), when the design fits and routes (or is placed: see `estimated`).
    pub fmax_mhz: Option<f64>,
    /// The Fmax figures are nextpnr's estimates after placement, not measured after routing
    /// ([`Target::place_only`]).
    pub estimated: bool,
    /// The Fmax of each further placement (nextpnr `--seed 1`, `2`, ...; see [`measure`]), so
    /// that the table can say how much the Fmax depends on placement.
    pub other_placements_mhz: Vec<f64>,
}

impl Measurement {
    pub fn fits(&self) -> bool {
        let f = self.family.info();
        self.logic_cells <= f.device_luts
            && self.block_rams <= f.device_block_rams
            && self.dsps <= f.device_dsps
    }
    /// The lowest and highest Fmax over every placement, when the design routed.
    pub fn fmax_range(&self) -> Option<(f64, f64)> {
        let f = self.fmax_mhz?;
        let all = || self.other_placements_mhz.iter().copied().chain([f]);
        Some((all().fold(f64::INFINITY, f64::min), all().fold(0.0, f64::max)))
    }
}

/// The designs of `preset` from `rtl_dir` (rtl_out/): every exported block in manifest order,
/// then the Verilog its entries are equal to but the crate does not write (the registry's
/// references: the seed's own WarpScheduler), at the sizes each names.
pub fn designs(preset: &Preset, rtl_dir: &Path) -> Result<Vec<Design>> {
    let manifest_path = rtl_dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest_path).with_context(|| {
        format!("cannot read {} (run `simt-rtl gen` first)", manifest_path.display())
    })?;
    let manifest: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON", manifest_path.display()))?;
    let blocks = manifest["presets"][preset.name]["blocks"].as_array().with_context(|| {
        format!(
            "{} has no preset `{}`: regenerate it with `simt-rtl gen --preset {}`",
            manifest_path.display(),
            preset.name,
            preset.name
        )
    })?;
    let rtl_dir = std::fs::canonicalize(rtl_dir)
        .with_context(|| format!("cannot read {}", rtl_dir.display()))?;
    let mut out = vec![];
    for b in blocks {
        let (Some(file), Some(module)) = (b["file"].as_str(), b["module"].as_str()) else {
            bail!("{}: a block without `file` or `module`", manifest_path.display());
        };
        out.push(Design {
            name: module.to_string(),
            source: format!("rtl_out/{file}"),
            files: vec![rtl_dir.join(file)],
            built_in: None,
            top: module.to_string(),
            sv: false,
            setup: String::new(),
        });
    }
    let references: Vec<Reference> = crate::with_preset!(preset.name, B => {
        Ok::<_, anyhow::Error>(crate::registry::entries::<B>().iter().filter_map(|e| e.reference).collect())
    })?;
    for r in references {
        for (sizes, setup) in (r.designs)(preset) {
            out.push(Design {
                name: format!("{} {sizes}", r.name),
                source: r.source.into(),
                files: vec![],
                built_in: Some(r.text),
                top: r.top.into(),
                sv: true,
                setup,
            });
        }
    }
    Ok(out)
}

/// The yosys commands that read `d`, its built-in Verilog written into `dir` first.
pub(crate) fn read_script(d: &Design, dir: &Path) -> Result<String> {
    let mut files = d.files.clone();
    if let Some(text) = d.built_in {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let file = dir.join("built_in.v");
        std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
        files.push(file);
    }
    let mut s = String::new();
    for f in &files {
        s.push_str(&format!("read_verilog {}{}; ", if d.sv { "-sv " } else { "" }, f.display()));
    }
    if !d.setup.is_empty() {
        s.push_str(&d.setup);
        s.push_str("; ");
    }
    Ok(s)
}

/// The ports of `d`'s top module, as yosys elaborates it.
pub fn ports(d: &Design, dir: &Path) -> Result<Vec<Port>> {
    let json = dir.join("ports.json");
    let script = format!(
        "{}hierarchy -top {}; proc; write_json {}",
        read_script(d, dir)?,
        d.top,
        json.display()
    );
    super::run(Command::new("yosys").args(["-q", "-p", &script]), "yosys")
        .with_context(|| format!("reading the ports of {}", d.name))?;
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&json)?).context("yosys wrote no JSON")?;
    let ports = v["modules"][&d.top]["ports"]
        .as_object()
        .with_context(|| format!("yosys found no module `{}`", d.top))?;
    let mut out = vec![];
    for (name, p) in ports {
        let width = p["bits"].as_array().map_or(0, Vec::len);
        match p["direction"].as_str() {
            Some("input") => out.push(Port { name: name.clone(), input: true, width }),
            Some("output") => out.push(Port { name: name.clone(), input: false, width }),
            other => bail!("port `{name}` of `{}` has direction {other:?}: only inputs and outputs can be harnessed", d.top),
        }
    }
    Ok(out)
}

/// The clock input of a port list: a 1-bit input called `clock` or `clk`.
fn clock_port(ports: &[Port]) -> Option<&Port> {
    ports.iter().find(|p| p.input && p.width == 1 && (p.name == "clock" || p.name == "clk"))
}

/// The shift harness around module `top` (see the module documentation): top module
/// `simt_harness` with ports `clk`, `sin`, `load`, `sout`.
pub fn harness_verilog(top: &str, ports: &[Port]) -> Result<String> {
    let clock = clock_port(ports).map(|p| p.name.clone());
    let data: Vec<&Port> =
        ports.iter().filter(|p| Some(&p.name) != clock.as_ref() && p.width > 0).collect();
    let n_in: usize = data.iter().filter(|p| p.input).map(|p| p.width).sum();
    let n_out: usize = data.iter().filter(|p| !p.input).map(|p| p.width).sum();
    if n_out == 0 {
        bail!("module `{top}` has no outputs: nothing to measure");
    }
    let mut v = format!(
        "// Shift harness around `{top}` (generated by simt-rtl report): {n_in} input bits shifted in\n\
         // from `sin`, {n_out} output bits captured on `load` and shifted out to `sout`.\n\
         `default_nettype none\n\
         module simt_harness(input wire clk, input wire sin, input wire load, output wire sout);\n"
    );
    // The input chain (at least one bit, so that `sin` always reaches `sout`).
    let n_chain = n_in.max(1);
    v.push_str(&format!(
        "  reg [{}:0] chain_in = 0;\n  reg [{}:0] chain_out = 0;\n  wire [{}:0] outs;\n",
        n_chain - 1,
        n_out - 1,
        n_out - 1
    ));
    let shift = |name: &str, n: usize, from: &str| {
        if n == 1 {
            from.to_string()
        } else {
            format!("{{{name}[{}:0], {from}}}", n - 2)
        }
    };
    v.push_str("  always @(posedge clk) begin\n");
    v.push_str(&format!("    chain_in <= {};\n", shift("chain_in", n_chain, "sin")));
    v.push_str(&format!(
        "    chain_out <= load ? outs : {};\n  end\n  assign sout = chain_out[{}];\n",
        shift("chain_out", n_out, &format!("chain_in[{}]", n_chain - 1)),
        n_out - 1
    ));
    let mut conns = vec![];
    let (mut i, mut o) = (0, 0);
    for p in ports {
        if Some(&p.name) == clock.as_ref() {
            conns.push(format!(".{}(clk)", p.name));
        } else if p.width == 0 {
            continue;
        } else if p.input {
            conns.push(format!(".{}(chain_in[{}:{}])", p.name, i + p.width - 1, i));
            i += p.width;
        } else {
            conns.push(format!(".{}(outs[{}:{}])", p.name, o + p.width - 1, o));
            o += p.width;
        }
    }
    v.push_str(&format!("  {top} dut (\n    {}\n  );\nendmodule\n", conns.join(",\n    ")));
    Ok(v)
}

/// Harness bits of a port list: every port bit but the clock's.
pub fn harness_bits(ports: &[Port]) -> u64 {
    let clock = clock_port(ports).map(|p| p.name.clone());
    let n_in: usize =
        ports.iter().filter(|p| p.input && Some(&p.name) != clock.as_ref()).map(|p| p.width).sum();
    let n_out: usize = ports.iter().filter(|p| !p.input).map(|p| p.width).sum();
    (n_in.max(1) + n_out) as u64
}

/// `(used, available)` of `cell` in nextpnr's "Device utilisation" lines, printed after packing
/// (so also when placement then fails for lack of room).
pub fn utilisation(log: &str, cell: &str) -> Option<(u64, u64)> {
    let key = format!("{cell}:");
    let line = log.lines().find(|l| l.split_whitespace().nth(1) == Some(key.as_str()))?;
    let rest = line.split_once(key.as_str())?.1;
    let (used, avail) = rest.split_once('/')?;
    Some((used.trim().parse().ok()?, avail.split_whitespace().next()?.parse().ok()?))
}

/// Most placements `measure` runs per design.
pub const MAX_PLACEMENTS: u32 = 20;

/// Places and routes `d` in its harness on `target`'s chip at `freq_mhz`, in `dir`: once with
/// nextpnr's default seed (the row's Fmax), then, when it fits, `placements - 1` times more
/// with `--seed 1`, `--seed 2`, ... (the same netlist placed differently; each run's log and
/// report beside the first's).
pub fn measure(
    d: &Design,
    dir: &Path,
    freq_mhz: f64,
    target: Target,
    placements: u32,
) -> Result<Measurement> {
    check_placements("placements", placements)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = &std::fs::canonicalize(dir)?;
    let ports = ports(d, dir)?;
    std::fs::write(dir.join("harness.v"), harness_verilog(&d.top, &ports)?)
        .context("cannot write harness.v")?;
    let (board, family) = (&target.board, target.family());
    let pin_file = harness_pins(dir, board, freq_mhz)?;
    let script = format!(
        "{}read_verilog harness.v; {} -top simt_harness -json harness.json; stat",
        read_script(d, dir)?,
        target.synthesis.command_for(family)
    );
    let what = |step: &str| format!("report: {}: {step}", d.name);
    super::stage(dir, "yosys", &["-p", &script], "yosys.log", &what("synthesis"))?;
    let log = std::fs::read_to_string(dir.join("yosys.log"))?;
    let stats = Resources::from_stat(family, &log);
    let tools = super::fpga::toolchain::of_board(board)?;
    // nextpnr writing its report to `report` (with `seed`, placing with that seed).
    let run = |report: &str, seed: Option<u32>, log: &str, step: &str| {
        let files = ("harness.json", pin_file.as_str());
        let mut args = super::fpga::toolchain::nextpnr_args(board, files, freq_mhz, report)?;
        args.extend(seed.map(|s| ["--seed".to_string(), s.to_string()]).into_iter().flatten());
        args.extend(target.place_only.then(|| "--no-route".to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        super::stage(dir, tools.nextpnr, &args, log, &what(step))
    };
    let step = if target.place_only { "placement" } else { "place and route" };
    let pnr = run("report.json", None, "nextpnr.log", step);
    let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
    let cells = tools.utilisation;
    let (logic_cells, _) = utilisation(&log, cells.logic)
        .context("nextpnr printed no logic-cell count (see nextpnr.log)")?;
    let used = |cell: &str| utilisation(&log, cell).map_or(0, |u| u.0);
    let harness_bits = harness_bits(&ports);
    let mut m = Measurement {
        name: d.name.clone(),
        source: d.source.clone(),
        family,
        logic_cells,
        flip_flops: stats.flip_flops.saturating_sub(harness_bits),
        block_rams: used(cells.block_ram),
        dsps: used(cells.dsp),
        harness_bits,
        fmax_mhz: None,
        estimated: target.place_only,
        other_placements_mhz: vec![],
    };
    let fmax = |report: &str, log: &str| match target.place_only {
        true => placement_fmax(dir, log),
        false => achieved_fmax(dir, report),
    };
    match pnr {
        Ok(()) => m.fmax_mhz = Some(fmax("report.json", "nextpnr.log")?),
        // Too big is a result, not an error.
        Err(_) if !m.fits() => return Ok(m),
        Err(e) => return Err(e),
    }
    for seed in 1..placements {
        let (report, log) = (format!("report_seed{seed}.json"), format!("nextpnr_seed{seed}.log"));
        run(&report, Some(seed), &log, &format!("{step}, seed {seed}"))?;
        m.other_placements_mhz.push(fmax(&report, &log)?);
    }
    Ok(m)
}

/// Writes the harness's pin file for `board` into `dir` (its clock, serial and reset pins
/// carry `clk`, `sin`, `sout` and `load`; the clock at the target, `freq_mhz`); returns its name.
fn harness_pins(dir: &Path, board: &Board, freq_mhz: f64) -> Result<String> {
    let pins = [
        ("clk", board.clock_pin),
        ("sin", board.uart_rx_pin),
        ("load", board.reset_n_pin),
        ("sout", board.uart_tx_pin),
    ]
    .map(|(port, pin)| (port.to_string(), pin));
    let name = super::fpga::toolchain::pin_file(board, "harness");
    std::fs::write(dir.join(&name), board.pin_constraints(&pins, freq_mhz))
        .with_context(|| format!("cannot write {name}"))?;
    Ok(name)
}

/// `placements` (named `name` in the error) is between 1 and [`MAX_PLACEMENTS`].
pub fn check_placements(name: &str, placements: u32) -> Result<()> {
    crate::params::check_range(name, placements as usize, 1, MAX_PLACEMENTS as usize)
}

/// The achieved Fmax in nextpnr's JSON report `dir/file`.
fn achieved_fmax(dir: &Path, file: &str) -> Result<f64> {
    let report = std::fs::read_to_string(dir.join(file))
        .with_context(|| format!("nextpnr wrote no {file}"))?;
    Ok(super::board_build::parse_report(&report, &[])?.1)
}

/// How a table says its designs were placed, lower-case and at the start of a sentence:
/// routed or, with [`Target::place_only`] (`estimated`), not.
pub fn placed_words(estimated: bool) -> (&'static str, &'static str) {
    match estimated {
        true => ("placed (not routed)", "Placed (not routed)"),
        false => ("placed and routed", "Placed and routed"),
    }
}

/// What a table says of Fmax figures measured with [`Target::place_only`].
pub const ESTIMATED_NOTE: &str = "Fmax, placed only (`--place-only`): each is nextpnr's estimate after placement (its delay model of the unrouted connections), not a measurement after routing.\n";

/// nextpnr's estimate of the Fmax after placement in its log `dir/file` (its report has none
/// without routing): the lowest over the clocks of its "Max frequency for clock" lines.
fn placement_fmax(dir: &Path, file: &str) -> Result<f64> {
    let log = std::fs::read_to_string(dir.join(file))
        .with_context(|| format!("nextpnr wrote no {file}"))?;
    estimated_fmax(&log).with_context(|| format!("nextpnr printed no Fmax estimate in {file}"))
}

/// The lowest Fmax of the "Max frequency for clock 'c': F MHz" lines of a nextpnr log.
pub fn estimated_fmax(log: &str) -> Option<f64> {
    log.lines()
        .filter(|l| l.contains(": Max frequency for clock"))
        .filter_map(|l| l.split("': ").nth(1)?.split_whitespace().next()?.parse::<f64>().ok())
        .reduce(f64::min)
}

/// The report as a Markdown table.
pub fn table(rows: &[Measurement], freq_mhz: f64, target: &[Target]) -> String {
    let family = target.first().map_or(Family::Ice40, Target::family);
    let f = family.info();
    // The iCE40's logic cells are LUT4s with their flip-flops; a family with multipliers gets
    // a column for them.
    let logic = if family == Family::Ice40 { "logic cells".into() } else { format!("{}s", f.lut) };
    let dsps = f.device_dsps > 0;
    let (dsp_head, dsp_rule) = if dsps { (" multipliers |", "---|") } else { ("", "") };
    let mut s = format!(
        "| design | {logic} (of {}) | flip-flops | block RAMs |{dsp_head} Fmax (MHz, target {freq_mhz}) | harness bits |\n|---|---|---|---|{dsp_rule}---|---|\n",
        f.device_luts
    );
    for m in rows {
        let pct = 100.0 * m.logic_cells as f64 / f.device_luts as f64;
        let mut fmax = match m.fmax_mhz {
            Some(f) if f >= freq_mhz => format!("{f:.1}"),
            Some(f) => format!("{f:.1} (misses)"),
            None => "does not fit".into(),
        };
        if let Some((lo, hi)) = m.fmax_range().filter(|_| !m.other_placements_mhz.is_empty()) {
            fmax.push_str(&format!(
                "; {lo:.1}-{hi:.1} over {} placements",
                m.other_placements_mhz.len() + 1
            ));
        }
        let dsp = if dsps { format!(" {} |", m.dsps) } else { String::new() };
        s.push_str(&format!(
            "| {} | {} ({pct:.0}%) | {} | {} |{dsp} {fmax} | {} |\n",
            m.name, m.logic_cells, m.flip_flops, m.block_rams, m.harness_bits
        ));
    }
    let harness_cells = match family {
        Family::Ice40 => "logic cells include the harness's, about one per harness bit",
        _ => "LUT4s include the harness's, one per output bit (its load multiplexer)",
    };
    let estimated = rows.iter().any(|m| m.estimated);
    let (placed, placed_on) = placed_words(estimated);
    s.push_str(&format!(
        "\nEach design is {placed} alone inside a shift harness (every port bit shifted in or out through \
         one pin, so nothing is optimised away and every path is register to register); {harness_cells}; \
         flip-flops exclude them.\n",
    ));
    if rows.iter().any(|m| !m.other_placements_mhz.is_empty()) {
        s.push_str(&format!(
            "Fmax: with nextpnr's default seed, then the lowest and highest over that placement and the others \
             (`--placements N`: the same netlist {placed} with `--seed 1` to `N - 1`).\n",
        ));
    }
    if estimated {
        s.push_str(ESTIMATED_NOTE);
    }
    if family != Family::Ice40 {
        let chip = target[0].board.chip;
        s.push_str(&format!(
            "{} on the {} ({}, package {}{}), the harness on its clock, serial and reset pins.\n",
            placed_on,
            f.device,
            target[0].board.name,
            chip.package,
            chip.speed.map(|g| format!(", speed grade {g}")).unwrap_or_default()
        ));
    }
    let commands: Vec<String> = target
        .iter()
        .map(|x| {
            let command = x.synthesis.command_for(family);
            match target.len() {
                1 => format!("`{command}`"),
                _ => format!("`{command}` ({})", x.synthesis.mapper.name()),
            }
        })
        .collect();
    s.push_str(&format!("Synthesis: yosys {}.\n", commands.join(", ")));
    s
}

#[cfg(test)]
mod tests {
    use super::estimated_fmax;

    /// The estimate is the slowest clock's, read from nextpnr's own lines (the first from the
    /// seed core's board top after placement; a missed clock's line is a warning after routing).
    #[test]
    fn the_placement_estimate_is_the_slowest_clock() {
        let log = "Info: SA placement time 1055.46s\n\n\
            Info: Max frequency for clock '$glbnet$core_clk': 16.52 MHz (FAIL at 50.00 MHz)\n\
            Warning: Max frequency for clock 'clk': 12.50 MHz (FAIL at 25.00 MHz)\n\n\
            Info: Max delay <async> -> posedge $glbnet$core_clk: 1.52 ns\n";
        assert_eq!(estimated_fmax(log), Some(12.5));
        assert_eq!(estimated_fmax("Info: Routing..\n"), None);
    }
}
