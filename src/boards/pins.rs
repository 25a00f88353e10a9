//! The boards: every pin the board tops use, in one place. The constraint files in
//! `constraints/` are generated from these tables (`simt-rtl gen` writes them; a test checks the
//! committed files are fresh and that the Alchitry Cu V1 pins agree with rust-hdl's BSP).

use anyhow::{bail, Result};

/// A board the flows know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Name on the command line.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    /// The constraint file written for it, relative to `constraints/`.
    pub constraint_file: &'static str,
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
/// MHz (a whole number of clocks per bit). 55 was the highest that `build --top core --freq F`
/// met in each of 5 placements (nextpnr's default seed and `--seed 1` to `4` on its `top.json`)
/// when the `cu` core became pipelined (60 missed in one); with the barrier (`bar`, 125 more
/// logic cells) the default seed reached 53.7 MHz and missed 55, so 50, which it met (one
/// placement measured).
pub const CORE_BOARD_MHZ: u32 = 50;
/// Its serial port's clocks per bit ([`HOST_BAUD`] at [`CORE_BOARD_MHZ`]).
pub const CORE_BOARD_CLOCKS_PER_BIT: usize = (CORE_BOARD_MHZ / (HOST_BAUD / 1_000_000)) as usize;

/// Alchitry Cu V1 (iCE40-HX8K, CB132).
pub const ALCHITRY_CU_V1: Board = Board {
    name: "alchitry-cu",
    description: "Alchitry Cu V1: Lattice iCE40-HX8K CB132, 100 MHz clock",
    constraint_file: "alchitry_cu.pcf",
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
    constraint_file: "arty_a7_35t.xdc",
    clock_pin: "E3",
    clock_mhz: 100,
    reset_n_pin: "C2",
    led_pins: ["H5", "J5", "T9", "T10", "F6", "J4", "J2", "H6"],
    uart_rx_pin: "A9",
    uart_tx_pin: "D10",
};

pub const BOARDS: [Board; 3] = [ALCHITRY_CU_V1, ALCHITRY_CU_V2, ARTY_A7_35T];

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

    /// The constraint file's text: a pcf for iCE40 boards, an xdc for Xilinx boards.
    pub fn constraints(&self) -> String {
        let mut s = format!(
            "# {}\n# Generated by simt-rtl from src/boards/pins.rs; do not edit (`cargo run -- gen`).\n",
            self.description
        );
        if self.constraint_file.ends_with(".pcf") {
            for (port, pin) in self.pins() {
                s.push_str(&format!("set_io {port} {pin}\n"));
            }
        } else {
            for (port, pin) in self.pins() {
                s.push_str(&format!("set_property -dict {{ PACKAGE_PIN {pin} IOSTANDARD LVCMOS33 }} [get_ports {{ {port} }}]\n"));
            }
            let period = 1000.0 / self.clock_mhz as f64;
            s.push_str(&format!("create_clock -add -name sys_clk_pin -period {period:.2} -waveform {{0 {:.2}}} [get_ports {{ clk }}]\n", period / 2.0));
        }
        s
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
            assert_eq!(b.constraints().lines().filter(|l| l.contains("rst_n")).count(), 1);
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
