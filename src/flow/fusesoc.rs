//! The FuseSoC core file (`simt_rtl.core`, CAPI 2), written by `gen` beside the Verilog: the
//! `cu` preset's exported files in the registry's order, the board top and its PLL wrapper, and
//! the targets (the sources, the self-test in Icarus, Verilator lint, the Alchitry Cu bitstream).

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
    let pll_top = super::gen::alchitry_cu_top(&preset)?.is_some();
    let (pll_fileset, pll_set) = if pll_top {
        (
            format!(
                "  # The iCE40 PLL making the cu board clock ({mhz} MHz) in front of the self-test: module `alchitry_cu_top`.\n  alchitry_cu_top:\n    files:\n{}    file_type: verilogSource\n",
                file("alchitry_cu_top")
            ),
            "alchitry_cu_top, ",
        )
    } else {
        (String::new(), "")
    };
    let top = if pll_top { "alchitry_cu_top" } else { board_top };
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
{pll_fileset}  testbench:
    files:
      - sim/self_test_tb.v
    file_type: verilogSource
  lint_waivers:
    files:
      - sim/verilator_waivers.vlt
    file_type: vlt
  alchitry_cu_pins:
    files:
      - {constraints}/alchitry_cu.pcf
    file_type: PCF

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
  # The self-test bitstream for the Alchitry Cu (iCE40-HX8K CB132), clocked at {mhz} MHz by the PLL.
  alchitry_cu:
    default_tool: icestorm
    filesets: [board_top, {pll_set}alchitry_cu_pins]
    toplevel: {top}
    tools:
      icestorm:
        pnr: next
        nextpnr_options: [--hx8k, --package, cb132, --freq, \"{mhz}\"]
",
        version = env!("CARGO_PKG_VERSION"),
        board_top = file(board_top),
    ))
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
