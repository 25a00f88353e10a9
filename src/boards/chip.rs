//! The chip on a board: its FPGA family and the device, package and speed grade that place and
//! route is told. What each family's tools do with them is [`crate::flow::fpga`]'s.

use anyhow::{Context, Result};

/// An FPGA family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Lattice iCE40 (the Alchitry Cu's iCE40-HX8K).
    Ice40,
    /// Lattice ECP5 (the ULX3S's LFE5U-85F).
    Ecp5,
    /// Xilinx 7-series (the Arty's Artix-7).
    Xilinx7,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Ice40, Family::Ecp5, Family::Xilinx7];

    /// The name `--family` takes.
    pub fn name(self) -> &'static str {
        match self {
            Family::Ice40 => "ice40",
            Family::Ecp5 => "ecp5",
            Family::Xilinx7 => "xilinx7",
        }
    }

    /// The family `--family` names, or a one-line error listing them.
    pub fn parse(name: &str) -> Result<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name).with_context(|| {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            format!("--family `{name}` is not one of {}", names.join(", "))
        })
    }
}

/// A board's FPGA as place and route names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    pub family: Family,
    /// nextpnr's device flag without its dashes (`hx8k`, `85k`), or the part (`xc7a35t`).
    pub device: &'static str,
    pub package: &'static str,
    /// The speed grade, where the family's place and route takes one.
    pub speed: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_family_is_refused_naming_the_known_ones() {
        let e = Family::parse("gowin").unwrap_err().to_string();
        assert_eq!(e, "--family `gowin` is not one of ice40, ecp5, xilinx7");
        assert_eq!(Family::parse("ecp5").unwrap(), Family::Ecp5);
    }
}
