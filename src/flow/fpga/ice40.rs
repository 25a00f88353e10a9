//! The Lattice iCE40's board flow: `nextpnr-ice40` places and routes into an `.asc`, `icepack`
//! packs it into the `.bin`, `icetime` cross-checks its timing, `iceprog` programs the board;
//! and the PLL (`SB_PLL40_CORE`) that clocks a board top below (or above) the board's
//! oscillator: its divider settings, found the way icestorm's `icepll` finds them, and the
//! Verilog wrapper `top` that puts it in front of the board top.

use std::path::Path;

use anyhow::{bail, Result};

use super::toolchain::{Toolchain, UtilisationCells};
use crate::boards::Chip;

/// The iCE40's tools (icestorm's and nextpnr's, from Debian).
pub const TOOLCHAIN: Toolchain = Toolchain {
    nextpnr: "nextpnr-ice40",
    pins_flag: "--pcf",
    pnr_extra: &[],
    config: ("--asc", "top.asc"),
    packer: "icepack",
    pack_args: &["top.asc", "top.bin"],
    bitstream: "top.bin",
    report_cells: &[
        ("ICESTORM_LC", "logic cells"),
        ("ICESTORM_RAM", "block RAMs"),
        ("SB_IO", "I/O pins"),
        ("SB_GB", "global buffers"),
        ("ICESTORM_PLL", "PLLs"),
    ],
    utilisation: UtilisationCells {
        logic: "ICESTORM_LC",
        block_ram: "ICESTORM_RAM",
        dsp: "ICESTORM_DSP",
    },
    cross_check: Some(icetime),
    round_trip: None,
    programmer: "iceprog",
    program_command,
};

/// The iceprog command line for `bin`: into the configuration flash, or with `sram` into the
/// FPGA's configuration RAM (lost at power-off; `iceprog -S`).
fn program_command(bin: &Path, sram: bool) -> Vec<String> {
    let mut cmd = vec!["iceprog".to_string()];
    if sram {
        cmd.push("-S".to_string());
    }
    cmd.push(bin.display().to_string());
    cmd
}

/// icestorm's timing analysis of the packed `top.asc` at `freq` MHz (`icetime.txt`), a
/// cross-check of nextpnr's.
fn icetime(dir: &Path, chip: &Chip, freq: &str) -> Result<()> {
    let args = ["-d", chip.device, "-P", chip.package, "-p", "top.pcf", "-c", freq, "-t"];
    let args: Vec<&str> = args.into_iter().chain(["-r", "icetime.txt", "top.asc"]).collect();
    crate::flow::stage(dir, "icetime", &args, "icetime.log", "build: timing cross-check")
}

/// Settings of an `SB_PLL40_CORE` in simple feedback mode:
/// `fout = fin / (DIVR + 1) * (DIVF + 1) / 2^DIVQ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ice40Pll {
    pub divr: u32,
    pub divf: u32,
    pub divq: u32,
    pub filter_range: u32,
    /// The output frequency these settings make, MHz.
    pub fout_mhz: f64,
}

/// Input frequencies the PLL takes, MHz (iCE40 sysCLOCK PLL guide, as `icepll` checks them).
pub const PLL_IN_MHZ: (f64, f64) = (10.0, 133.0);
/// Output frequencies it makes, MHz.
pub const PLL_OUT_MHZ: (f64, f64) = (16.0, 275.0);

impl Ice40Pll {
    /// The settings whose output is nearest `fout_mhz` from `fin_mhz` (phase detector 10-133
    /// MHz, VCO 533-1066 MHz), as `icepll -i FIN -o FOUT` chooses them (simple feedback).
    pub fn for_frequency(fin_mhz: f64, fout_mhz: f64) -> Result<Self> {
        if !(PLL_IN_MHZ.0..=PLL_IN_MHZ.1).contains(&fin_mhz) {
            bail!(
                "PLL input frequency {fin_mhz} MHz is outside the iCE40 PLL's {}-{} MHz",
                PLL_IN_MHZ.0,
                PLL_IN_MHZ.1
            );
        }
        if !(PLL_OUT_MHZ.0..=PLL_OUT_MHZ.1).contains(&fout_mhz) {
            bail!(
                "clock {fout_mhz} MHz is outside what the iCE40 PLL makes ({}-{} MHz)",
                PLL_OUT_MHZ.0,
                PLL_OUT_MHZ.1
            );
        }
        let mut best: Option<Self> = None;
        for divr in 0..=15u32 {
            let f_pfd = fin_mhz / (divr + 1) as f64;
            if !(10.0..=133.0).contains(&f_pfd) {
                continue;
            }
            for divf in 0..=127u32 {
                let f_vco = f_pfd * (divf + 1) as f64;
                if !(533.0..=1066.0).contains(&f_vco) {
                    continue;
                }
                for divq in 1..=6u32 {
                    let fout = f_vco / (1u32 << divq) as f64;
                    if best.is_none_or(|b| (fout - fout_mhz).abs() < (b.fout_mhz - fout_mhz).abs())
                    {
                        best = Some(Self {
                            divr,
                            divf,
                            divq,
                            filter_range: filter_range(f_pfd),
                            fout_mhz: fout,
                        });
                    }
                }
            }
        }
        best.ok_or_else(|| {
            anyhow::anyhow!("no iCE40 PLL setting makes {fout_mhz} MHz from {fin_mhz} MHz")
        })
    }
}

/// The loop filter for a phase-detector frequency (as `icepll` sets it).
fn filter_range(f_pfd: f64) -> u32 {
    match f_pfd {
        f if f < 17.0 => 1,
        f if f < 26.0 => 2,
        f if f < 44.0 => 3,
        f if f < 66.0 => 4,
        f if f < 101.0 => 5,
        _ => 6,
    }
}

/// Module `name` with the board top's ports (`clk`, `rst_n`, `led[7:0]`, `usb_rx`, `usb_tx`): the
/// PLL makes the core clock from `clk`, and module `inner` (the self-test, same ports) runs on
/// it, held in reset until the PLL has locked.
pub fn pll_top_verilog(pll: &Ice40Pll, fin_mhz: f64, inner: &str, name: &str) -> String {
    format!(
        "// {name}: `{inner}` clocked at {fout:.3} MHz by the iCE40 PLL from the board's {fin} MHz clock\n\
         // (SB_PLL40_CORE, simple feedback: {fin} / (DIVR + 1) * (DIVF + 1) / 2^DIVQ).\n\
         module {name}(input wire clk, input wire rst_n, output wire [7:0] led, input wire usb_rx, output wire usb_tx);\n\
         \x20   wire core_clk;\n\
         \x20   wire locked;\n\
         \x20   SB_PLL40_CORE #(\n\
         \x20       .FEEDBACK_PATH(\"SIMPLE\"),\n\
         \x20       .DIVR(4'd{divr}),\n\
         \x20       .DIVF(7'd{divf}),\n\
         \x20       .DIVQ(3'd{divq}),\n\
         \x20       .FILTER_RANGE(3'd{filter})\n\
         \x20   ) pll (\n\
         \x20       .REFERENCECLK(clk),\n\
         \x20       .PLLOUTGLOBAL(core_clk),\n\
         \x20       .LOCK(locked),\n\
         \x20       .RESETB(1'b1),\n\
         \x20       .BYPASS(1'b0)\n\
         \x20   );\n\
         \x20   // Until the PLL locks, the run is held in reset as if the button were pressed.\n\
         \x20   {inner} run(.clk(core_clk), .rst_n(rst_n & locked), .led(led), .usb_rx(usb_rx), .usb_tx(usb_tx));\n\
         endmodule\n",
        fout = pll.fout_mhz,
        fin = fin_mhz,
        divr = pll.divr,
        divf = pll.divf,
        divq = pll.divq,
        filter = pll.filter_range,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output these settings make is the formula's, and the nearest the PLL can make.
    #[test]
    fn settings_make_the_frequency_they_claim() {
        for want in [16.0, 25.0, 33.333, 40.0, 45.0, 48.0, 50.0, 60.0, 75.0, 100.0, 200.0, 275.0] {
            let p = Ice40Pll::for_frequency(100.0, want).unwrap();
            let f = 100.0 / (p.divr + 1) as f64 * (p.divf + 1) as f64 / (1u32 << p.divq) as f64;
            assert!((f - p.fout_mhz).abs() < 1e-9, "{want}: {p:?}");
            assert!((p.fout_mhz - want).abs() <= want * 0.02, "{want}: {p:?} is more than 2% off");
            assert!(
                p.divr <= 15
                    && p.divf <= 127
                    && (1..=6).contains(&p.divq)
                    && (1..=6).contains(&p.filter_range)
            );
        }
        assert_eq!(Ice40Pll::for_frequency(100.0, 50.0).unwrap().fout_mhz, 50.0);
    }

    #[test]
    fn frequencies_out_of_range_are_refused() {
        let err = |fin, fout| format!("{:#}", Ice40Pll::for_frequency(fin, fout).unwrap_err());
        assert!(err(100.0, 300.0)
            .contains("clock 300 MHz is outside what the iCE40 PLL makes (16-275 MHz)"));
        assert!(err(100.0, 10.0).contains("outside what the iCE40 PLL makes"));
        assert!(err(5.0, 50.0).contains("PLL input frequency 5 MHz is outside"));
    }

    /// Where icestorm's `icepll` is installed, it chooses the same dividers.
    #[test]
    fn agrees_with_icepll() {
        use crate::sim::interrupt::Guarded;
        crate::sim::verilog_sim::require_tool("icepll").unwrap();
        for want in [25.0, 40.0, 45.0, 48.0, 60.0] {
            let out = std::process::Command::new("icepll")
                .args(["-i", "100", "-o", &want.to_string()])
                .output_guarded()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            let field = |name: &str| -> u32 {
                let line = text
                    .lines()
                    .find(|l| l.trim_start().starts_with(name))
                    .unwrap_or_else(|| panic!("no {name} in icepll's output:\n{text}"));
                line.split(':').nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap()
            };
            let p = Ice40Pll::for_frequency(100.0, want).unwrap();
            assert_eq!(
                (p.divr, p.divf, p.divq, p.filter_range),
                (field("DIVR"), field("DIVF"), field("DIVQ"), field("FILTER_RANGE")),
                "{want} MHz:\n{text}"
            );
        }
    }
}
