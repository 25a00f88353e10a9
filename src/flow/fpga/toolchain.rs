//! The family interface's board half: after synthesis, a family's place and route (nextpnr with
//! the board's chip, pin file and clock, a JSON report and the placed configuration), its packer
//! (configuration to bitstream), an optional timing cross-check, its PLL and its programmer.
//! [`ice40::TOOLCHAIN`] and [`ecp5::TOOLCHAIN`] are the two implementations; `build`
//! ([`crate::flow::board_build`]), `flash` and `load` run whichever the board's chip names.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{ecp5, ice40, Family};
use crate::boards::{Board, Chip};

/// A check of a packed build (its directory, the chip, the clock in MHz as nextpnr was given it).
pub type CrossCheck = fn(&Path, &Chip, &str) -> Result<()>;

/// One family's tools after synthesis and how they are called.
#[derive(Clone, Copy, Debug)]
pub struct Toolchain {
    /// Its nextpnr.
    pub nextpnr: &'static str,
    /// The flag that gives nextpnr the pin file.
    pub pins_flag: &'static str,
    /// nextpnr's flag for the placed and routed configuration, and that file.
    pub config: (&'static str, &'static str),
    /// More files nextpnr writes (the ECP5's routed design, for the post-route check).
    pub pnr_extra: &'static [&'static str],
    /// The packer and its arguments (in the build directory): configuration in, bitstream out.
    pub packer: &'static str,
    pub pack_args: &'static [&'static str],
    /// The bitstream the packer writes, in the build directory (what `flash` sends).
    pub bitstream: &'static str,
    /// The keys of nextpnr's report's `utilization` that get a row, with their names.
    pub report_cells: &'static [(&'static str, &'static str)],
    /// The cells of nextpnr's "Device utilisation" lines that `report` counts.
    pub utilisation: UtilisationCells,
    /// A timing cross-check run after packing whose failure is only reported (dir, chip, MHz).
    pub cross_check: Option<CrossCheck>,
    /// The bitstream read back into a configuration and checked against the build (the ECP5's
    /// unpack round trip; the iCE40's read-back simulates the bitstream itself).
    pub round_trip: Option<fn(&Path) -> Result<()>>,
    /// The program that programs the board, and its command line for a bitstream: into the
    /// configuration flash, or (`true`) into the FPGA's configuration RAM.
    pub programmer: &'static str,
    pub program_command: fn(&Path, bool) -> Vec<String>,
}

/// nextpnr's names for a family's logic cells (LUT sites), block RAMs and multipliers.
#[derive(Clone, Copy, Debug)]
pub struct UtilisationCells {
    pub logic: &'static str,
    pub block_ram: &'static str,
    pub dsp: &'static str,
}

impl Family {
    /// The family's board flow, or a one-line error for a family built elsewhere.
    pub fn toolchain(self) -> Result<&'static Toolchain> {
        match self {
            Family::Ice40 => Ok(&ice40::TOOLCHAIN),
            Family::Ecp5 => Ok(&ecp5::TOOLCHAIN),
            Family::Xilinx7 => {
                bail!(
                    "the xilinx7 family is built by Vivado (`simt-rtl vivado` writes its project)"
                )
            }
        }
    }
}

/// Places and routes `top.json` in `dir` for `board` with a `freq_mhz` target: the
/// configuration, `report.json` and `nextpnr.log`. Timing is judged from the report, so nextpnr
/// finishes when it misses.
pub fn place_and_route(board: &Board, dir: &Path, freq_mhz: f64) -> Result<()> {
    let tools = of_board(board)?;
    let pins = pin_file(board, "top");
    let mut args = nextpnr_args(board, ("top.json", &pins), freq_mhz, "report.json")?;
    args.extend([tools.config.0, tools.config.1].map(String::from));
    args.extend(tools.pnr_extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::flow::stage(dir, tools.nextpnr, &args, "nextpnr.log", "build: place and route")
}

/// nextpnr's arguments for `board`'s chip: the synthesized design and the pin file (`files`),
/// the target clock, and the JSON report (timing is judged from it, so nextpnr finishes when
/// it misses).
pub fn nextpnr_args(
    board: &Board,
    (json, pins): (&str, &str),
    freq_mhz: f64,
    report: &str,
) -> Result<Vec<String>> {
    let tools = of_board(board)?;
    let mut args = chip_args(&board.chip);
    args.extend(["--json", json, tools.pins_flag, pins].map(String::from));
    args.extend(["--freq".to_string(), format!("{freq_mhz:.3}")]);
    args.extend(["--report", report, "--timing-allow-fail"].map(String::from));
    Ok(args)
}

/// nextpnr's arguments that name `chip`: device, package and speed grade.
pub fn chip_args(chip: &Chip) -> Vec<String> {
    let mut args = vec![format!("--{}", chip.device), "--package".into(), chip.package.into()];
    args.extend(chip.speed.map(|s| ["--speed".to_string(), s.to_string()]).into_iter().flatten());
    args
}

/// Checks that yosys and `board`'s nextpnr are installed (one line naming the install command
/// when not); returns the board's toolchain.
pub fn require_place_and_route(board: &Board) -> Result<&'static Toolchain> {
    let tools = of_board(board)?;
    for tool in ["yosys", tools.nextpnr] {
        crate::flow::require_tool(tool)?;
    }
    Ok(tools)
}

/// The name of a pin file in a build directory: `stem` with the board's constraint file's
/// extension.
pub fn pin_file(board: &Board, stem: &str) -> String {
    let ext = Path::new(board.constraint_file).extension().and_then(|e| e.to_str()).unwrap_or("");
    format!("{stem}.{ext}")
}

/// Packs the configuration in `dir` into the bitstream, then runs the cross-check, if any (its
/// failure printed, not returned). Returns the bitstream's path.
pub fn pack(board: &Board, dir: &Path, freq_mhz: f64) -> Result<PathBuf> {
    let tools = of_board(board)?;
    crate::flow::stage(dir, tools.packer, tools.pack_args, "pack.log", "build: bitstream")?;
    if let Some(check) = tools.cross_check {
        if let Err(e) = check(dir, &board.chip, &format!("{freq_mhz:.3}")) {
            eprintln!("build: the timing cross-check reports a problem (not fatal): {e:#}");
        }
    }
    Ok(dir.join(tools.bitstream))
}

/// `board`'s family's toolchain, or a one-line error naming the board.
pub fn of_board(board: &Board) -> Result<&'static Toolchain> {
    board
        .chip
        .family
        .toolchain()
        .map_err(|e| anyhow::anyhow!("board `{}` has no bitstream build here: {e}", board.name))
}

/// The bitstream `build --board B` writes by default: what `flash` and `load` send.
pub fn default_bitstream(board: &Board) -> Result<PathBuf> {
    Ok(Path::new(board.build_dir).join(of_board(board)?.bitstream))
}

/// The command that programs `board` with `bit` (`sram`: into the configuration RAM, lost at
/// power-off), after checking that the bitstream exists.
/// A relative path that starts with `-` is passed as `./-...`, so that the programmer does not
/// read the file's name as an option.
pub fn program_command(board: &Board, bit: &Path, sram: bool) -> Result<Vec<String>> {
    if bit.is_dir() {
        bail!("--bin {}: a directory, not a bitstream file", bit.display());
    }
    if !bit.is_file() {
        bail!(
            "bitstream {} does not exist: build it first with `simt-rtl build --board {}`",
            bit.display(),
            board.name
        );
    }
    let bit = match bit.to_str() {
        Some(name) if name.starts_with('-') => Path::new(".").join(bit),
        _ => bit.to_path_buf(),
    };
    Ok((of_board(board)?.program_command)(&bit, sram))
}

/// `args` as one line a POSIX shell reads back as the same words: a word with anything but
/// letters, digits and `_ - . / : = , + @ %` is put in single quotes (a quote in it as `'\''`).
pub fn shell_line(args: &[String]) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    let quoted = |a: &String| {
        if !a.is_empty() && a.chars().all(safe) {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    args.iter().map(quoted).collect::<Vec<_>>().join(" ")
}

/// Programs `board` with `bit` ([`program_command`]): one clear message when the bitstream is
/// missing, the programmer is not installed, or it finds no board.
pub fn program(board: &Board, bit: &Path, sram: bool) -> Result<()> {
    let cmd = program_command(board, bit, sram)?;
    let programmer = of_board(board)?.programmer;
    // A missing programmer is its own error (with the install hint), not a board problem.
    crate::flow::require_tool(programmer)?;
    let (ok, text) =
        crate::flow::tool_output(std::process::Command::new(&cmd[0]).args(&cmd[1..]), programmer)?;
    if !ok {
        let last = text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("(no output)");
        bail!("{programmer} failed (is the {} plugged in over USB, and readable by this user?): {last}", board.name);
    }
    Ok(())
}

/// The PLL that makes a board top's clock from the board's oscillator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pll {
    Ice40(ice40::Ice40Pll),
    Ecp5(ecp5::Ecp5Pll),
}

impl Pll {
    /// The PLL of `board`'s family that makes `freq_mhz`, or `None` when that is the board's own
    /// clock.
    pub fn for_board(board: &Board, freq_mhz: f64) -> Result<Option<Pll>> {
        let fin = board.clock_mhz as f64;
        if freq_mhz == fin {
            return Ok(None);
        }
        let (pll, which) = match board.chip.family {
            Family::Ice40 => {
                (ice40::Ice40Pll::for_frequency(fin, freq_mhz).map(Pll::Ice40), "iCE40")
            }
            Family::Ecp5 => (ecp5::Ecp5Pll::for_frequency(fin, freq_mhz).map(Pll::Ecp5), "ECP5"),
            Family::Xilinx7 => bail!("--freq {freq_mhz}: no PLL wrapper for the 7-series here"),
        };
        pll.map(Some).map_err(|e| {
            anyhow::anyhow!("--freq {freq_mhz}: the {} clock is {fin} MHz, other clocks come from the {which} PLL: {e:#}", board.name)
        })
    }

    /// The frequency it makes, MHz.
    pub fn fout_mhz(&self) -> f64 {
        match self {
            Pll::Ice40(p) => p.fout_mhz,
            Pll::Ecp5(p) => p.fout_mhz,
        }
    }

    /// Its settings in words.
    pub fn describe(&self) -> String {
        match self {
            Pll::Ice40(p) => format!("DIVR {}, DIVF {}, DIVQ {}", p.divr, p.divf, p.divq),
            Pll::Ecp5(p) => p.describe(),
        }
    }

    /// Module `name`: this PLL in front of module `inner`, both with the board top's ports.
    pub fn top_verilog(&self, fin_mhz: f64, inner: &str, name: &str) -> String {
        match self {
            Pll::Ice40(p) => ice40::pll_top_verilog(p, fin_mhz, inner, name),
            Pll::Ecp5(p) => ecp5::pll_top_verilog(p, fin_mhz, inner, name),
        }
    }
}
