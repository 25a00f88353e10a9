//! The FuseSoC core file (`simt_rtl.core`, CAPI 2), written by `gen` beside the Verilog: the
//! `cu` preset's exported files in the registry's order, the board top and its PLL wrapper, and
//! the targets (the sources, the self-test under Verilator, Verilator lint, and each board's
//! self-test bitstream in edalize's flow API: icestorm for the Alchitry Cu, trellis for the ULX3S).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::registry::{entries, CuBlocks};

/// The preset whose files the core lists (the one sized for the Alchitry Cu).
const PRESET: &str = "cu";

/// The core's text, its paths relative to the core file: `rtl` holds the exported Verilog
/// (`gen --out`), `constraints` the pin files (`gen --constraints`).
pub fn core_text(rtl: &str, constraints: &str) -> Result<String> {
    let preset = crate::params::preset(PRESET)?;
    let mhz = preset.board_clock_mhz.context("preset `cu` has no board clock")?;
    let file = |module: &str| format!("      - {rtl}/{PRESET}/{module}.v\n");
    let all = entries::<CuBlocks>();
    let sources: String = all.iter().filter(|e| !e.board_top).map(|e| file(e.module)).collect();
    let board_top =
        all.iter().find(|e| e.board_top).context("preset `cu` has no board top")?.module;
    let (mut board_filesets, mut board_targets) = (String::new(), String::new());
    let mut pll_modules = vec![];
    for (board, flow) in super::gen::fusesoc_boards() {
        let pll = super::gen::pll_top(&board, &preset)?.map(|(module, _)| module);
        // A PLL top the revisions of one board share is one fileset.
        if let Some(module) = pll.as_ref().filter(|m| !pll_modules.contains(*m)) {
            board_filesets += &format!("  # The PLL making the cu board clock ({mhz} MHz) on the {}: module `{module}`.\n  {module}:\n    files:\n{}    file_type: verilogSource\n", board.name, file(module));
            pll_modules.push(module.clone());
        }
        let (pins, target) = board_target(&board, flow, pll.as_deref(), constraints, mhz);
        board_filesets += &pins;
        board_targets += &target;
    }
    Ok(format!(
        "CAPI=2:
# FuseSoC core for the Verilog simt-rtl generates ({rtl}/, preset `cu`, sized for the
# Alchitry Cu). Written by `simt-rtl gen` with the sources; do not edit.
name: ::simt-rtl:{version}
description: SIMT GPU core blocks (warp scheduler, SIMT stacks, operand collector, local data share, scoreboard, I-buffer, decoder, lane ALU) generated from rust-hdl

filesets:
  rtl:
    files:
{sources}    file_type: verilogSource
  board_top:
    files:
{board_top}    file_type: verilogSource
  testbench:
    files:
      - sim/self_test_tb.v
    file_type: verilogSource
  lint_waivers:
    files:
      - sim/verilator_waivers.vlt
    file_type: vlt
{board_filesets}
targets:
  # The sources, for use from other cores.
  default:
    filesets: [rtl]
  # The board self-test (100,000 cycles) under Verilator, in edalize's flow API: prints PASS when
  # the signature matches the simulated one (seconds; `--flow-options tool=icarus` under Icarus
  # takes many minutes).
  sim:
    flow: sim
    filesets: [lint_waivers, board_top, testbench]
    toplevel: self_test_tb
    flow_options:
      tool: verilator
      mode: binary
      verilator_options: [--timescale, 1ns/1ps]
      iverilog_options: [-g2005]
  # Verilator -Wall lint of the operand collector (the waivers are justified in the .vlt).
  lint:
    flow: lint
    filesets: [lint_waivers, rtl]
    toplevel: operand_collector
    flow_options:
      tool: verilator
      verilator_options: [-Wall]
{board_targets}",
        version = env!("CARGO_PKG_VERSION"),
        board_top = file(board_top),
    ))
}

/// The FuseSoC target of `board` (see [`target_name`]) in edalize's flow `flow`: its pin file's
/// fileset, and the target building the self-test behind the PLL top `pll` (when the preset's
/// clock is not the board's own) with nextpnr's device, package, speed grade and clock.
fn board_target(
    board: &crate::boards::Board,
    flow: &str,
    pll: Option<&str>,
    constraints: &str,
    mhz: u32,
) -> (String, String) {
    let target = target_name(board);
    let (pll_set, top) = match pll {
        Some(module) => (format!("{module}, "), module),
        None => (String::new(), crate::boards::self_test::MODULE),
    };
    let pin_type = match board.chip.family {
        crate::boards::Family::Ecp5 => "LPF",
        _ => "PCF",
    };
    let pins = format!(
        "  {target}_pins:\n    files:\n      - {constraints}/{}\n    file_type: {pin_type}\n",
        board.constraint_file
    );
    let chip = &board.chip;
    let speed = chip.speed.map_or(String::new(), |s| format!(", --speed, \"{s}\""));
    let target_text = format!(
        "  # The self-test bitstream for the {} ({}), clocked at {mhz} MHz.\n  {target}:\n    flow: {flow}\n    filesets: [board_top, {pll_set}{target}_pins]\n    toplevel: {top}\n    flow_options:\n      pnr: next\n      nextpnr_options: [--{}, --package, {}{speed}, --freq, \"{mhz}\"]\n",
        board.name, board.description, chip.device, chip.package
    );
    (pins, target_text)
}

/// The core's target for `board`: its name with `_` for `-` (`alchitry_cu`, `ulx3s_85f`).
pub fn target_name(board: &crate::boards::Board) -> String {
    board.name.replace('-', "_")
}

/// Where the core file `core` finds the Verilog in `rtl` and the pin files in `constraints`
/// (directories that exist), relative to its own directory, which must hold both: FuseSoC
/// reads paths relative to the core file. Checked before `gen` writes anything.
pub fn layout(core: &Path, rtl: &Path, constraints: &Path) -> Result<(String, String)> {
    let dir = match core.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir =
        dir.canonicalize().with_context(|| format!("--fusesoc: no directory {}", dir.display()))?;
    let relative = |flag: &str, p: &Path| -> Result<String> {
        let full =
            p.canonicalize().with_context(|| format!("{flag}: no directory {}", p.display()))?;
        match full.strip_prefix(&dir) {
            Ok(rel) if !rel.as_os_str().is_empty() => Ok(rel.to_string_lossy().replace('\\', "/")),
            _ => bail!(
                "parameter `--fusesoc` = {}: the core file must be in a directory that holds {flag} ({}), as FuseSoC reads paths relative to it",
                core.display(),
                p.display()
            ),
        }
    };
    Ok((relative("--out", rtl)?, relative("--constraints", constraints)?))
}

/// Writes the core file `core` for the [`layout`] `(rtl, constraints)`.
pub fn write_core(core: &Path, (rtl, constraints): &(String, String)) -> Result<PathBuf> {
    crate::sim::write_whole(core, core_text(rtl, constraints)?)?;
    Ok(core.to_path_buf())
}
