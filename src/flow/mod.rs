//! Tool flows on exported Verilog: yosys synthesis checks and Verilator lint.

pub mod board_build;
pub mod explore;
pub mod fpga;
pub mod fusesoc;
pub mod gen;
pub mod prove;
pub mod readback;
pub mod report;
pub mod results;
pub mod soak;
pub mod speed;
pub mod synth_equiv;
pub mod vivado;

use crate::sim::interrupt::Guarded;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

pub use crate::export::VERILATOR_WAIVERS;

/// [`VERILATOR_WAIVERS`] as a file for Verilator: written once per process into the temporary
/// directory (whole, then moved into place), named by a hash of its text so that every process
/// with the same waivers shares one file.
fn waivers_file() -> Result<PathBuf> {
    static FILE: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let mut file = FILE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(path) = file.as_ref() {
        return Ok(path.clone());
    }
    let hash = crate::sim::fnv1a64(VERILATOR_WAIVERS.as_bytes());
    let path = std::env::temp_dir().join(format!("simt-rtl-waivers-{hash:016x}.vlt"));
    crate::sim::write_whole(&path, VERILATOR_WAIVERS)?;
    Ok(file.insert(path).clone())
}

/// The names of `known` that `wanted` names whole (every one when `wanted` is empty), in
/// `known`'s order: what `--block` selects. A wanted name that is none of them is refused in one
/// line naming them all (`what`: the kind of name, singular and plural).
pub fn whole_names(
    known: &[String],
    wanted: &[String],
    (what, plural): (&str, &str),
    preset: &str,
) -> Result<Vec<String>> {
    if let Some(bad) = wanted.iter().find(|w| !known.contains(w)) {
        bail!(
            "--block `{bad}` is not {what} of preset `{preset}` ({plural}: {})",
            known.join(", ")
        );
    }
    Ok(known.iter().filter(|k| wanted.is_empty() || wanted.contains(k)).cloned().collect())
}

/// The iCE40 synthesis command of every flow here (checks, and `build` and `report` by default).
/// `-nodffe` maps clock enables into the LUT in front of each flip-flop: otherwise nextpnr
/// promotes the widest enables (a SIMT stack slot's write enable drives T + A flip-flops) onto
/// global buffers, and the trip to the buffer and back costs more than the LUT (measured in the
/// book's design notes).
pub const SYNTH_ICE40: &str = "synth_ice40 -nodffe";

/// How yosys maps a design onto the iCE40: `build`, `report` and `prove --synth` take it
/// (`--dffe`, `--mapper`); the default is [`SYNTH_ICE40`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Synthesis {
    /// Flip-flops with clock enables (`synth_ice40` without `-nodffe`): fewer logic cells where
    /// a register holds through an `if` (the cu `simt_stack`, checked by a `board_build` test),
    /// often a lower Fmax (the design notes give a block where it is both slower and no
    /// smaller: registers with no hold to fold).
    pub dffe: bool,
    pub mapper: Mapper,
}

/// yosys's LUT mapper for the iCE40.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mapper {
    /// ABC (`synth_ice40`'s default in yosys 0.23).
    #[default]
    Abc,
    /// ABC9, which knows the cells' delays (`-abc9`; yosys 0.70's default).
    Abc9,
    /// ABC9 that may also move flip-flops (`-abc9 -dff`): a netlist whose registers are not
    /// the Verilog's, which the read-back check and `prove --synth` check as any other.
    Abc9Dff,
}

impl Mapper {
    pub const ALL: [Mapper; 3] = [Mapper::Abc, Mapper::Abc9, Mapper::Abc9Dff];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mapper::Abc => "abc",
            Mapper::Abc9 => "abc9",
            Mapper::Abc9Dff => "abc9-dff",
        }
    }
}

crate::value_enum!(Mapper, Mapper::ALL, |m| m.name());

impl Synthesis {
    /// The yosys command for `family`: the iCE40's with these options, another family's own
    /// ([`fpga::FamilyInfo::synth`]).
    pub fn command_for(self, family: fpga::Family) -> String {
        match family {
            fpga::Family::Ice40 => self.command(),
            other => other.info().synth.to_string(),
        }
    }

    /// The iCE40's yosys command.
    pub fn command(self) -> String {
        let mut c = String::from("synth_ice40");
        if !self.dffe {
            c += " -nodffe";
        }
        c += match self.mapper {
            Mapper::Abc => "",
            Mapper::Abc9 => " -abc9",
            Mapper::Abc9Dff => " -abc9 -dff",
        };
        c
    }
}

/// yosys's data directory (`yosys-config --datdir`, else `share/yosys` beside its binary).
pub(crate) fn yosys_datdir() -> Result<PathBuf> {
    require_tool("yosys")?;
    if let Ok(out) = Command::new("yosys-config").arg("--datdir").output_guarded() {
        if out.status.success() {
            return Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
        }
    }
    let yosys = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("yosys"))
        .find(|p| p.is_file())
        .context("yosys is not installed (bash scripts/install-tools.sh)")?;
    let bin = yosys.canonicalize().unwrap_or(yosys);
    Ok(bin.parent().and_then(Path::parent).unwrap_or(Path::new("/usr")).join("share/yosys"))
}

/// The text of yosys's simulation models of the iCE40 cells (`ice40/cells_sim.v`).
pub(crate) fn ice40_cell_models() -> Result<String> {
    let path = yosys_datdir()?.join("ice40/cells_sim.v");
    std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read yosys's cell models {}", path.display()))
}

/// Where `scripts/install-tools.sh` puts the YoWASP tools (the ECP5's place and route, packer
/// and PLL calculator, from PyPI): `$SIMT_YOWASP_DIR`, else
/// `$HOME/.local/share/simt-rtl/yowasp/bin`.
pub fn yowasp_bin_dir() -> PathBuf {
    install_dir("SIMT_YOWASP_DIR", "yowasp")
}

/// Where `scripts/install-tools.sh` puts a PyPI tool's programs: `$var`, else
/// `$HOME/.local/share/simt-rtl/<name>/bin`.
pub(crate) fn install_dir(var: &str, name: &str) -> PathBuf {
    if let Some(d) = std::env::var_os(var) {
        return PathBuf::from(d);
    }
    let home =
        std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"));
    home.join(format!(".local/share/simt-rtl/{name}/bin"))
}

/// The program that runs `tool`: a YoWASP tool (`yowasp-*`) from [`yowasp_bin_dir`], any other
/// from the PATH.
pub fn tool_path(tool: &str) -> PathBuf {
    match tool.starts_with("yowasp-") {
        true => yowasp_bin_dir().join(tool),
        false => PathBuf::from(tool),
    }
}

/// Fails with the install command when `tool` is missing (a YoWASP tool from its directory,
/// any other from the PATH).
pub fn require_tool(tool: &str) -> Result<()> {
    if !tool.starts_with("yowasp-") {
        return crate::sim::verilog_sim::require_tool(tool);
    }
    if !tool_path(tool).is_file() {
        bail!(
            "`{tool}` is not installed in {}: run `bash scripts/install-tools.sh` (or set SIMT_YOWASP_DIR to where it is)",
            yowasp_bin_dir().display()
        );
    }
    Ok(())
}

/// Runs `cmd` (the program `tool`, which must be installed) to the end: whether it succeeded,
/// and its stdout and stderr together.
pub(crate) fn tool_output(cmd: &mut Command, tool: &str) -> Result<(bool, String)> {
    require_tool(tool)?;
    let out = cmd.output_guarded().with_context(|| format!("cannot start {tool}"))?;
    Ok((
        out.status.success(),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    ))
}

fn run(cmd: &mut Command, tool: &str) -> Result<String> {
    let (ok, text) = tool_output(cmd, tool)?;
    if !ok {
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        bail!("{tool} failed:\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    Ok(text)
}

/// Elaborates `top` (its files read) and fails on a latch or a structural problem (`check
/// -assert`: undriven or multiply driven wires, combinational loops).
pub(crate) fn structure_checks(top: &str) -> String {
    format!(
        "hierarchy -check -top {top}; proc; \
         select -assert-none t:$dlatch t:$adlatch t:$dlatchsr; check -assert"
    )
}

/// After a technology mapping: fails if any latch is left (yosys's own, or a family's latch
/// cells: the iCE40's `SB_*LATCH*`, the 7-series' `LD*`).
pub(crate) const NO_LATCHES: &str = "select -assert-none t:$_DLATCH_* t:*LATCH* t:LD*";

/// The line of yosys's log `log` that reports a latch inferred from a process, if one does
/// (`proc`'s "Latch inferred for signal ..."; its "No latch inferred" lines do not count).
pub(crate) fn latch_inferred(log: &str) -> Option<&str> {
    log.lines().find(|l| l.contains("Latch inferred")).map(str::trim)
}

/// Reads `file`, then [`structure_checks`] of `top`.
fn structure_script(file: &Path, top: &str) -> String {
    format!("read_verilog -noautowire {}; {}", file.display(), structure_checks(top))
}

/// The checks of [`synth_ice40`] without the technology mapping: seconds instead of minutes for
/// the largest blocks.
pub fn check_structure(file: &Path, top: &str) -> Result<()> {
    run(Command::new("yosys").args(["-q", "-p", &structure_script(file, top)]), "yosys")
        .with_context(|| format!("yosys structural check of {}", file.display()))?;
    Ok(())
}

/// Synthesizes `file` with yosys `synth_xilinx` (7-series) after the checks of
/// [`check_structure`], failing on latches: catches what Xilinx tools would refuse.
pub fn synth_xilinx(file: &Path, top: &str) -> Result<()> {
    let script = format!("{}; synth_xilinx -top {top}; {NO_LATCHES}", structure_script(file, top));
    run(Command::new("yosys").args(["-q", "-p", &script]), "yosys")
        .with_context(|| format!("yosys synth_xilinx of {}", file.display()))?;
    Ok(())
}

/// Synthesizes `file` (top module `top`) with yosys for the iCE40. Fails on syntax errors,
/// missing modules, implicit wires, latches (after `proc` and after mapping), and anything
/// yosys `check -assert` finds (multiple drivers, undriven wires, logic loops).
pub fn synth_ice40(file: &Path, top: &str) -> Result<fpga::Resources> {
    let script =
        format!("{}; {SYNTH_ICE40} -top {top}; {NO_LATCHES}; stat", structure_script(file, top));
    let log = run(Command::new("yosys").args(["-p", &script]), "yosys")
        .with_context(|| format!("yosys synth_ice40 of {}", file.display()))?;
    if let Some(line) = latch_inferred(&log) {
        bail!("yosys inferred a latch in {}: {line}", file.display());
    }
    Ok(fpga::Resources::from_stat(fpga::Family::Ice40, &log))
}

/// Runs `tool` with `args` in `dir`, its output into `dir/<log>`; on failure the error names
/// the tool, the log and its last lines.
pub(crate) fn stage(dir: &Path, tool: &str, args: &[&str], log: &str, what: &str) -> Result<()> {
    eprintln!("{what} ({tool})");
    let (ok, text) = tool_output(Command::new(tool_path(tool)).args(args).current_dir(dir), tool)?;
    let log_path = dir.join(log);
    std::fs::write(&log_path, &text)
        .with_context(|| format!("cannot write {}", log_path.display()))?;
    if !ok {
        // The tool's own error lines when it printed any, else its last lines.
        let errors: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("ERROR") || l.starts_with("error"))
            .take(5)
            .collect();
        let lines = if errors.is_empty() {
            let tail: Vec<&str> =
                text.lines().filter(|l| !l.trim().is_empty()).rev().take(5).collect();
            tail.into_iter().rev().collect()
        } else {
            errors
        };
        bail!("{tool} failed (log: {}): {}", log_path.display(), lines.join(" | "));
    }
    Ok(())
}

/// `verilator --lint-only -Wall` with the project's waivers; any remaining warning fails.
pub fn verilator_lint(file: &Path, top: &str) -> Result<()> {
    run(
        Command::new("verilator")
            .args(["--lint-only", "-Wall"])
            .arg(waivers_file()?)
            .arg(file)
            .args(["--top-module", top]),
        "verilator",
    )
    .with_context(|| format!("verilator --lint-only -Wall {}", file.display()))?;
    Ok(())
}
