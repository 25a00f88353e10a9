//! The boards: their chips, clocks and every pin the board tops use, in one place. The
//! constraint files in `constraints/` are generated from these tables in the format of each
//! board's family (`simt-rtl gen` writes them; a test checks the committed files are fresh and
//! that the Alchitry Cu V1 pins agree with rust-hdl's BSP).

use anyhow::{bail, Result};

use super::chip::{Chip, Family};

/// A board the flows know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Name on the command line.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    pub chip: Chip,
    /// The constraint file written for it, relative to `constraints/`, in its family's format
    /// (`.pcf`, `.lpf`, `.xdc`).
    pub constraint_file: &'static str,
    /// Where `build` writes its bitstream by default (and `flash` and `load` look for it).
    pub build_dir: &'static str,
    /// The core presets `build --top core` puts on it, each with its default clock in MHz; the
    /// first is the board's default.
    pub cores: &'static [(&'static str, u32)],
    pub clock_pin: &'static str,
    pub clock_mhz: u32,
    /// The reset button, active low (`rst_n`).
    pub reset_n_pin: &'static str,
    /// `led[0]` .. `led[7]`.
    pub led_pins: [&'static str; 8],
    /// USB UART into the FPGA (`usb_rx`) and out of it (`usb_tx`).
    pub uart_rx_pin: &'static str,
    pub uart_tx_pin: &'static str,
}

pub use crate::protocol::HOST_BAUD;

impl Board {
    /// Clock cycles per bit of the host link ([`HOST_BAUD`]).
    pub fn clocks_per_bit(&self) -> usize {
        (self.clock_mhz as usize * 1_000_000) / HOST_BAUD as usize
    }
}

/// The clock of the SIMT core's board top (`core_board`), from the iCE40 PLL, a whole number of
/// MHz (a whole number of clocks per bit): the highest such clock the core top meets with margin
/// over placements (how it was chosen: the book's design notes; what it meets now: the
/// generated `build-core.md`).
pub const CORE_BOARD_MHZ: u32 = 50;
/// Its serial port's clocks per bit ([`HOST_BAUD`] at [`CORE_BOARD_MHZ`]).
pub const CORE_BOARD_CLOCKS_PER_BIT: usize = (CORE_BOARD_MHZ / (HOST_BAUD / 1_000_000)) as usize;

/// Alchitry Cu V1 (iCE40-HX8K, CB132).
pub const ALCHITRY_CU_V1: Board = Board {
    name: "alchitry-cu",
    description: "Alchitry Cu V1: Lattice iCE40-HX8K CB132, 100 MHz clock",
    chip: Chip { family: Family::Ice40, device: "hx8k", package: "cb132", speed: None },
    constraint_file: "alchitry_cu.pcf",
    build_dir: "build/alchitry_cu",
    cores: &[("cu-core", CORE_BOARD_MHZ)],
    clock_pin: "P7",
    clock_mhz: 100,
    reset_n_pin: "P8",
    led_pins: ["J11", "K11", "K12", "K14", "L12", "L14", "M12", "N14"],
    uart_rx_pin: "P14",
    uart_tx_pin: "M9",
};

/// Alchitry Cu V2: the V1 with different LED pins.
pub const ALCHITRY_CU_V2: Board = Board {
    name: "alchitry-cu-v2",
    description: "Alchitry Cu V2: Lattice iCE40-HX8K CB132, 100 MHz clock, V2 LED pins",
    constraint_file: "alchitry_cu_v2.pcf",
    led_pins: ["J11", "K11", "G12", "H12", "K14", "J12", "L14", "K12"],
    ..ALCHITRY_CU_V1
};

/// Digilent Arty A7-35T (Vivado flow): LD4-LD7, then the green channels of RGB LEDs LD0-LD3;
/// the `ck_rst` button; the FTDI USB UART.
pub const ARTY_A7_35T: Board = Board {
    name: "arty-a7-35t",
    description: "Digilent Arty A7-35T: Xilinx XC7A35T, 100 MHz clock",
    chip: Chip { family: Family::Xilinx7, device: "xc7a35t", package: "csg324", speed: Some("1") },
    constraint_file: "arty_a7_35t.xdc",
    build_dir: "build/arty_a7_35t",
    cores: &[],
    clock_pin: "E3",
    clock_mhz: 100,
    reset_n_pin: "C2",
    led_pins: ["H5", "J5", "T9", "T10", "F6", "J4", "J2", "H6"],
    uart_rx_pin: "A9",
    uart_tx_pin: "D10",
};

/// Radiona ULX3S with the LFE5U-85F (speed grade 6), its pins from the board's published
/// constraint file (emard/ulx3s, `doc/constraints/ulx3s_v20.lpf`): `clk_25mhz`; `btn[0]`, the
/// power button, which reads 0 while pressed; `led[0]`-`led[7]`; the FTDI's `ftdi_txd` into the
/// FPGA and `ftdi_rxd` out of it.
pub const ULX3S_85F: Board = Board {
    name: "ulx3s-85f",
    description: "Radiona ULX3S: Lattice ECP5 LFE5U-85F-6 CABGA381, 25 MHz clock",
    chip: Chip { family: Family::Ecp5, device: "85k", package: "CABGA381", speed: Some("6") },
    constraint_file: "ulx3s.lpf",
    build_dir: "build/ulx3s_85f",
    cores: &[("seed-core", 50), ("cu-core", CORE_BOARD_MHZ)],
    clock_pin: "G2",
    clock_mhz: 25,
    reset_n_pin: "D6",
    led_pins: ["B2", "C2", "C1", "D2", "D1", "E2", "E1", "H3"],
    uart_rx_pin: "M1",
    uart_tx_pin: "L4",
};

pub const BOARDS: [Board; 4] = [ALCHITRY_CU_V1, ALCHITRY_CU_V2, ULX3S_85F, ARTY_A7_35T];

crate::value_enum!(Board, BOARDS, |b| b.name);

/// An Alchitry Cu's revision (`--rev`): the LED pins differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revision {
    V1,
    V2,
}

impl Revision {
    pub const ALL: [Revision; 2] = [Revision::V1, Revision::V2];
    pub fn name(self) -> &'static str {
        match self {
            Revision::V1 => "v1",
            Revision::V2 => "v2",
        }
    }
}

crate::value_enum!(Revision, Revision::ALL, |r| r.name());

impl Board {
    /// This board at revision `rev` (`--board` and `--rev`): the Alchitry Cu has two, other
    /// boards none.
    pub fn revision(self, rev: Option<Revision>) -> Result<Board> {
        let v2 = ALCHITRY_CU_V2;
        match (self, rev) {
            (b, None) => Ok(b),
            (ALCHITRY_CU_V1, Some(Revision::V1)) => Ok(ALCHITRY_CU_V1),
            (ALCHITRY_CU_V1, Some(Revision::V2)) | (ALCHITRY_CU_V2, Some(Revision::V2)) => Ok(v2),
            (ALCHITRY_CU_V2, Some(Revision::V1)) => bail!("--board alchitry-cu-v2 is revision v2: --rev v1 contradicts it (use --board alchitry-cu --rev v1)"),
            (b, Some(r)) => bail!("--rev {}: board `{}` has no revisions (only alchitry-cu has: v1, v2)", r.name(), b.name),
        }
    }
}

impl Board {
    /// `(port, pin)` of every board signal, in a fixed order.
    pub fn pins(&self) -> Vec<(String, &'static str)> {
        let mut v =
            vec![("clk".to_string(), self.clock_pin), ("rst_n".to_string(), self.reset_n_pin)];
        v.extend(self.led_pins.iter().enumerate().map(|(i, p)| (format!("led[{i}]"), *p)));
        v.push(("usb_rx".to_string(), self.uart_rx_pin));
        v.push(("usb_tx".to_string(), self.uart_tx_pin));
        v
    }

    /// The constraint file's text in its family's format: a pcf for the iCE40, an lpf for the
    /// ECP5, an xdc for the 7-series.
    pub fn constraints(&self) -> String {
        let mut s = format!(
            "# {}\n# Generated by simt-rtl from src/boards/pins.rs; do not edit (`cargo run -- gen`).\n",
            self.description
        );
        s.push_str(&self.pin_constraints(&self.pins(), self.clock_mhz as f64));
        s
    }

    /// The constraint lines that put each of `pins` (`(port, pin)`) on its pin, in the board's
    /// family's format, with the clock `clk` at `clock_mhz` on the ECP5 and 7-series (the
    /// board's oscillator in its own file; the target clock in `report`'s harness, which the
    /// clock pin drives directly: an lpf's frequency overrides nextpnr's `--freq`).
    pub fn pin_constraints(&self, pins: &[(String, &'static str)], clock_mhz: f64) -> String {
        let mut s = String::new();
        match self.chip.family {
            Family::Ice40 => {
                for (port, pin) in pins {
                    s.push_str(&format!("set_io {port} {pin}\n"));
                }
            }
            Family::Ecp5 => s.push_str(&Self::lpf(pins, clock_mhz)),
            Family::Xilinx7 => {
                for (port, pin) in pins {
                    s.push_str(&format!("set_property -dict {{ PACKAGE_PIN {pin} IOSTANDARD LVCMOS33 }} [get_ports {{ {port} }}]\n"));
                }
                let period = 1000.0 / clock_mhz;
                s.push_str(&format!("create_clock -add -name sys_clk_pin -period {period:.2} -waveform {{0 {:.2}}} [get_ports {{ clk }}]\n", period / 2.0));
            }
        }
        s
    }

    /// The ECP5's lpf lines: each pin 3.3 V CMOS; the button and the serial input pulled up (as
    /// the ULX3S's own file has them; so are `report`'s harness inputs on those pins), the
    /// outputs at 4 mA; the clock's frequency.
    fn lpf(pins: &[(String, &'static str)], clock_mhz: f64) -> String {
        let mut s = String::new();
        for (port, pin) in pins {
            let io = match port.as_str() {
                "clk" => "PULLMODE=NONE IO_TYPE=LVCMOS33",
                "rst_n" | "usb_rx" | "sin" | "load" => "PULLMODE=UP IO_TYPE=LVCMOS33",
                _ => "PULLMODE=NONE IO_TYPE=LVCMOS33 DRIVE=4",
            };
            s.push_str(&format!(
                "LOCATE COMP \"{port}\" SITE \"{pin}\";\nIOBUF PORT \"{port}\" {io};\n"
            ));
        }
        s.push_str(&format!("FREQUENCY PORT \"clk\" {clock_mhz} MHZ;\n"));
        s
    }

    /// The core preset `build --top core` puts on this board by default, or the one named,
    /// with its default clock in MHz; a one-line error when the board has no core top or not
    /// that one.
    pub fn core(&self, preset: Option<&str>) -> Result<(&'static str, u32)> {
        let Some(first) = self.cores.first() else {
            bail!("board `{}` has no core top", self.name)
        };
        let Some(p) = preset else { return Ok(*first) };
        self.cores.iter().find(|(n, _)| *n == p).copied().ok_or_else(|| {
            let names: Vec<&str> = self.cores.iter().map(|(n, _)| *n).collect();
            anyhow::anyhow!(
                "--preset `{p}`: the core top on the {} is one of {}",
                self.name,
                names.join(", ")
            )
        })
    }
}

/// Writes every board's constraint file into `dir`; returns the paths.
pub fn write_constraints(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    use anyhow::Context;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory {}", dir.display()))?;
    let mut written = vec![];
    for b in BOARDS {
        let path = dir.join(b.constraint_file);
        crate::sim::write_whole(&path, b.constraints())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_hdl::prelude::*;

    fn locations(constraints: Vec<PinConstraint>) -> Vec<String> {
        let mut v: Vec<(usize, String)> = constraints
            .into_iter()
            .filter_map(|c| match c.constraint {
                Constraint::Location(l) => Some((c.index, l)),
                _ => None,
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, l)| l).collect()
    }

    /// Our Cu V1 table agrees with rust-hdl's Alchitry Cu BSP where the BSP has the pin.
    #[test]
    fn cu_v1_pins_match_the_bsp() {
        use rust_hdl_bsp_alchitry_cu::pins;
        assert_eq!(
            locations(pins::clock().constraints()),
            vec![ALCHITRY_CU_V1.clock_pin.to_string()]
        );
        assert_eq!(
            locations(pins::leds().constraints()),
            ALCHITRY_CU_V1.led_pins.map(String::from).to_vec()
        );
        assert_eq!(pins::CLOCK_SPEED_100MHZ, ALCHITRY_CU_V1.clock_mhz as u64 * 1_000_000);
    }

    /// No pin is used twice on a board, and every port is constrained.
    #[test]
    fn pins_are_distinct() {
        for b in BOARDS {
            let pins = b.pins();
            let mut sites: Vec<&str> = pins.iter().map(|(_, p)| *p).collect();
            sites.sort();
            sites.dedup();
            assert_eq!(sites.len(), pins.len(), "{}: a pin is used twice", b.name);
            // One line places the pin (an lpf's IOBUF line sets its I/O standard).
            let placing = |l: &&str| l.contains("rst_n") && !l.starts_with("IOBUF");
            assert_eq!(b.constraints().lines().filter(placing).count(), 1, "{}", b.name);
        }
    }

    /// The exported UARTs are sized for the Alchitry Cu's oscillator.
    #[test]
    fn the_exported_uarts_run_at_the_alchitry_cu_clock() {
        use crate::hw::link::uart::preset::{EXPORT_CLOCKS_PER_BIT, EXPORT_CLOCK_MHZ};
        assert_eq!(EXPORT_CLOCK_MHZ, ALCHITRY_CU_V1.clock_mhz);
        assert_eq!(EXPORT_CLOCKS_PER_BIT, ALCHITRY_CU_V1.clocks_per_bit());
    }

    #[test]
    fn a_revision_names_an_alchitry_cu_and_no_other_board() {
        let err = |b: Board, r| b.revision(Some(r)).unwrap_err().to_string();
        assert_eq!(ALCHITRY_CU_V1.revision(None).unwrap(), ALCHITRY_CU_V1);
        assert_eq!(ALCHITRY_CU_V1.revision(Some(Revision::V2)).unwrap(), ALCHITRY_CU_V2);
        assert_eq!(ALCHITRY_CU_V2.revision(Some(Revision::V2)).unwrap(), ALCHITRY_CU_V2);
        assert!(err(ALCHITRY_CU_V2, Revision::V1).contains("--rev v1 contradicts it"));
        assert!(err(ARTY_A7_35T, Revision::V1).contains("board `arty-a7-35t` has no revisions"));
    }
}
