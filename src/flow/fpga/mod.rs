//! The FPGA families behind one interface. Here, its synthesis half: each family's yosys
//! synthesis command, the device it is measured against, and how its cells count as resources
//! (LUTs, flip-flops, LUT RAM, block RAM, multipliers); [`synthesize`] measures a design after
//! synthesis alone. Its board half, [`toolchain`]: place and route, packing, timing, PLL, pin file
//! and programmer, implemented by [`ice40`] and [`ecp5`] (the Xilinx 7-series is built by
//! Vivado, [`crate::flow::vivado`]).

pub mod ecp5;
pub mod ice40;
pub mod toolchain;

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

pub use crate::boards::Family;

/// One family's cell names, device and sizes.
#[derive(Clone, Copy, Debug)]
pub struct FamilyInfo {
    /// The yosys synthesis pass (a `-top` is added), flattening the design.
    pub synth: &'static str,
    /// The same pass keeping the hierarchy (for [`by_block`]).
    pub synth_hierarchical: &'static str,
    /// The device its percentages are of, and that device's LUTs and block RAMs.
    pub device: &'static str,
    pub device_luts: u64,
    pub device_block_rams: u64,
    pub device_dsps: u64,
    /// What one LUT is (`LUT4`, `LUT6`).
    pub lut: &'static str,
    /// `(cell name prefix, LUTs each)`: cells that take LUT sites, counted into [`Resources::luts`].
    lut_cells: &'static [(&'static str, u64)],
    /// Cells counted as LUT RAM (their sites are in `lut_cells` too).
    lut_ram_cells: &'static [&'static str],
    flip_flop_cells: &'static [&'static str],
    /// `(cell, block RAMs each)`: an 18 Kbit block RAM counts 1 (a Xilinx RAMB36 counts 2).
    block_ram_cells: &'static [(&'static str, u64)],
    dsp_cells: &'static [&'static str],
}

const ICE40: FamilyInfo = FamilyInfo {
    synth: super::SYNTH_ICE40,
    synth_hierarchical: "synth_ice40 -nodffe -noflatten",
    device: "iCE40-HX8K",
    device_luts: 7_680,
    device_block_rams: 32,
    device_dsps: 0,
    lut: "LUT4",
    lut_cells: &[("SB_LUT4", 1)],
    lut_ram_cells: &[],
    flip_flop_cells: &["SB_DFF"],
    block_ram_cells: &[("SB_RAM40_4K", 1)],
    dsp_cells: &["SB_MAC16"],
};

/// A carry cell (CCU2C) takes two LUT4 sites; a 16 x 4 LUT RAM (TRELLIS_DPR16X4) holds its 64
/// bits in four. Synthesized with `-nowidelut` (LUT4s only, no PFUMX/L6MUX21 wide functions):
/// yosys 0.23's wide-LUT mapping takes more LUT4 sites for the same logic (the seed core's
/// table, `docs/src/results/synth-seed-core-ecp5.md`, before and after in its history), and LUT4
/// sites are what a design must fit in.
const ECP5: FamilyInfo = FamilyInfo {
    synth: "synth_ecp5 -nowidelut",
    synth_hierarchical: "synth_ecp5 -nowidelut -noflatten",
    device: "LFE5U-85F",
    device_luts: 83_640,
    device_block_rams: 208,
    device_dsps: 156,
    lut: "LUT4",
    lut_cells: &[("LUT4", 1), ("CCU2C", 2), ("TRELLIS_DPR16X4", 4)],
    lut_ram_cells: &["TRELLIS_DPR16X4"],
    flip_flop_cells: &["TRELLIS_FF"],
    block_ram_cells: &[("DP16KD", 1), ("PDPW16KD", 1)],
    dsp_cells: &["MULT18X18D"],
};

/// LUT RAM cells take the LUTs of their SLICEM: RAM32M and RAM64M four, RAM32X1D and RAM64X1D
/// two, the others one.
const XILINX7: FamilyInfo = FamilyInfo {
    synth: "synth_xilinx -flatten",
    synth_hierarchical: "synth_xilinx",
    device: "XC7A100T",
    device_luts: 63_400,
    device_block_rams: 270,
    device_dsps: 240,
    lut: "LUT6",
    lut_cells: &[
        ("LUT", 1),
        ("RAM32M", 4),
        ("RAM64M", 4),
        ("RAM32X1D", 2),
        ("RAM64X1D", 2),
        ("RAM128X1D", 4),
        ("RAM32X1S", 1),
        ("RAM64X1S", 1),
        ("SRL", 1),
    ],
    lut_ram_cells: &["RAM32M", "RAM64M", "RAM32X1", "RAM64X1", "RAM128X1", "SRL"],
    flip_flop_cells: &["FDRE", "FDSE", "FDCE", "FDPE"],
    block_ram_cells: &[("RAMB18E1", 1), ("RAMB36E1", 2)],
    dsp_cells: &["DSP48E1"],
};

impl Family {
    /// Its synthesis, device and cells.
    pub fn info(self) -> &'static FamilyInfo {
        match self {
            Family::Ice40 => &ICE40,
            Family::Ecp5 => &ECP5,
            Family::Xilinx7 => &XILINX7,
        }
    }
}

/// What one synthesized design takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// LUT sites: logic LUTs, and the LUT sites of carry and LUT RAM cells.
    pub luts: u64,
    /// LUT RAM cells (their sites are in `luts`).
    pub lut_rams: u64,
    pub flip_flops: u64,
    /// 18 Kbit block RAMs (4 Kbit on the iCE40).
    pub block_rams: u64,
    pub dsps: u64,
}

impl Resources {
    /// The resources in the last `stat` of a yosys log (the flattened design's), by `family`'s
    /// cell names.
    pub fn from_stat(family: Family, log: &str) -> Resources {
        let stat = log.rsplit("Printing statistics.").next().unwrap_or("");
        Resources::of_cells(family, &cell_counts(stat))
    }

    /// The resources of `cells` (`(cell type, count)`), by `family`'s cell names; other cells
    /// (a submodule's instances, multiplexers inside a slice) count nothing.
    pub fn of_cells(family: Family, cells: &[(&str, u64)]) -> Resources {
        let f = family.info();
        let weighted = |table: &[(&str, u64)]| -> u64 {
            cells
                .iter()
                .map(|(c, n)| {
                    table.iter().find(|(p, _)| c.starts_with(p)).map_or(0, |(_, w)| w * n)
                })
                .sum()
        };
        let counted = |names: &[&str]| -> u64 {
            cells
                .iter()
                .filter(|(c, _)| names.iter().any(|p| c.starts_with(p)))
                .map(|(_, n)| n)
                .sum()
        };
        Resources {
            luts: weighted(f.lut_cells),
            lut_rams: counted(f.lut_ram_cells),
            flip_flops: counted(f.flip_flop_cells),
            block_rams: weighted(f.block_ram_cells),
            dsps: counted(f.dsp_cells),
        }
    }

    fn plus(self, o: Resources, times: u64) -> Resources {
        Resources {
            luts: self.luts + times * o.luts,
            lut_rams: self.lut_rams + times * o.lut_rams,
            flip_flops: self.flip_flops + times * o.flip_flops,
            block_rams: self.block_rams + times * o.block_rams,
            dsps: self.dsps + times * o.dsps,
        }
    }

    /// `luts` as a share of the family's device, in percent.
    pub fn lut_percent(&self, family: Family) -> f64 {
        100.0 * self.luts as f64 / family.info().device_luts as f64
    }
}

/// The `(cell type, count)` lines of one yosys `stat` section.
fn cell_counts(stat: &str) -> Vec<(&str, u64)> {
    stat.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let (cell, n) = (words.next()?, words.next()?.parse().ok()?);
            words.next().is_none().then_some((cell, n))
        })
        .collect()
}

/// Whether `log` is a complete yosys log of `family`'s flattening synthesis of `top`, as
/// [`synthesize`] runs it now (an earlier run's, which a caller may reuse).
pub fn is_complete_synthesis(family: Family, top: &str, log: &str) -> bool {
    log.contains(&format!("{} -top {top};", family.info().synth)) && log.contains("End of script")
}

/// Synthesizes a design for `family` with yosys: `read` (yosys commands that read its files),
/// top module `top`, after the structural checks of
/// [`check_structure`](super::check_structure), failing on a latch; yosys's log goes to
/// `dir/yosys-<family>.log`. Returns what the flattened design takes. Minutes for the seed-size
/// core (about 10 for `synth_ecp5`).
pub fn synthesize(family: Family, read: &str, top: &str, dir: &Path) -> Result<Resources> {
    let log = run_synthesis(family, read, top, dir, false)?;
    Ok(Resources::from_stat(family, &log))
}

/// yosys's log of `family`'s synthesis of `top` (flattened, or with the hierarchy kept), written
/// to `dir/yosys-<family>.log` (`yosys-<family>-hierarchy.log`) too.
fn run_synthesis(family: Family, read: &str, top: &str, dir: &Path, keep: bool) -> Result<String> {
    let f = family.info();
    let synth = if keep { f.synth_hierarchical } else { f.synth };
    let script = format!(
        "{read}{}; {synth} -top {top}; {}; stat",
        super::structure_checks(top),
        super::NO_LATCHES
    );
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let log =
        dir.join(format!("yosys-{}{}.log", family.name(), if keep { "-hierarchy" } else { "" }));
    let (ok, text) = super::tool_output(Command::new("yosys").args(["-p", &script]), "yosys")?;
    crate::sim::write_whole(&log, &text)?;
    if !ok {
        anyhow::bail!("yosys {synth} of `{top}` failed (log: {})", log.display());
    }
    Ok(text)
}

/// One block inside a design: the module, its instances, what they take with everything inside
/// them, and the blocks directly inside it.
#[derive(Clone, Debug)]
pub struct BlockShare {
    pub module: String,
    pub instances: u64,
    pub resources: Resources,
    pub inner: Vec<BlockShare>,
}

/// Each module's `(cell type, count)` lines in a yosys `stat` of a design kept hierarchical.
type Sections<'a> = std::collections::BTreeMap<&'a str, Vec<(&'a str, u64)>>;

/// What each block directly inside `top` takes (its instances with all they hold; with the
/// blocks directly inside each), and `top`'s own logic last (module `top`), from `family`'s
/// synthesis with the hierarchy kept: each block is optimized within its own
/// boundaries, so the sum is larger than the flattened design's (constants and unused outputs
/// do not cross a boundary).
pub fn by_block(family: Family, read: &str, top: &str, dir: &Path) -> Result<Vec<BlockShare>> {
    let log = run_synthesis(family, read, top, dir, true)?;
    let stat = log.rsplit("Printing statistics.").next().unwrap_or("");
    // One section per module, then the hierarchy's own (instance counts, not cells).
    let sections: Sections = stat
        .split("=== ")
        .skip(1)
        .filter_map(|sec| sec.split_once(" ==="))
        .filter(|(name, _)| name.trim() != "design hierarchy")
        .map(|(name, body)| (name.trim(), cell_counts(body)))
        .collect();
    let cells =
        sections.get(top).with_context(|| format!("yosys printed no statistics of `{top}`"))?;
    let mut shares = inside(top, &sections, family, 2);
    shares.push(BlockShare {
        module: top.to_string(),
        instances: 1,
        resources: Resources::of_cells(family, cells),
        inner: vec![],
    });
    Ok(shares)
}

/// Module `m`'s cells with everything inside them.
fn total(m: &str, sections: &Sections, family: Family) -> Resources {
    let cells = sections.get(m).map_or(&[][..], |c| &c[..]);
    cells
        .iter()
        .filter(|(c, _)| sections.contains_key(c))
        .fold(Resources::of_cells(family, cells), |sum, (c, n)| {
            sum.plus(total(c, sections, family), *n)
        })
}

/// The blocks directly inside module `m`, `levels` deep, the largest LUT users first.
fn inside(m: &str, sections: &Sections, family: Family, levels: usize) -> Vec<BlockShare> {
    if levels == 0 {
        return vec![];
    }
    let mut shares: Vec<BlockShare> = sections
        .get(m)
        .map_or(&[][..], |c| &c[..])
        .iter()
        .filter(|(c, _)| sections.contains_key(c))
        .map(|(c, n)| BlockShare {
            module: c.to_string(),
            instances: *n,
            resources: Resources::default().plus(total(c, sections, family), *n),
            inner: inside(c, sections, family, levels - 1),
        })
        .collect();
    shares.sort_by_key(|b| std::cmp::Reverse(b.resources.luts));
    shares
}

/// The blocks of `design` as a Markdown table, the largest LUT users first, each followed by
/// the blocks inside it.
pub fn by_block_table(design: &str, family: Family, shares: &[BlockShare]) -> String {
    let f = family.info();
    let sum: u64 = shares.iter().map(|b| b.resources.luts).sum();
    let mut s = format!(
        "\n`{design}` on the {} by block (`{}`, the hierarchy kept: each block optimized within its own boundaries, so the sum, {sum} {}s, is more than the flattened design's; a block's figures include the blocks inside it, listed below it when they take 1% or more):\n\n| block (module) | instances | {}s | share of the sum | flip-flops | block RAMs | multipliers |\n|---|---|---|---|---|---|---|\n",
        f.device, f.synth_hierarchical, f.lut, f.lut
    );
    let row = |b: &BlockShare, name: String| {
        let x = b.resources;
        let share = 100.0 * x.luts as f64 / sum.max(1) as f64;
        format!(
            "| {name} | {} | {} | {share:.0}% | {} | {} | {} |\n",
            b.instances, x.luts, x.flip_flops, x.block_rams, x.dsps
        )
    };
    for b in shares {
        let own = if b.module == design { " (its own logic)" } else { "" };
        s.push_str(&row(b, format!("{}{own}", b.module)));
        for i in b.inner.iter().filter(|i| i.resources.luts * 100 >= sum) {
            s.push_str(&row(i, format!("&nbsp;&nbsp;in it: {}", i.module)));
        }
    }
    s
}

/// One design's resources on one family.
#[derive(Clone, Debug)]
pub struct SynthRow {
    pub design: String,
    pub family: Family,
    pub resources: Resources,
}

/// The rows as a Markdown table, each figure with its share of the family's device.
pub fn synth_table(rows: &[SynthRow]) -> String {
    let mut s = String::from(
        "| design | family (device) | LUTs | of the device | LUT RAM cells | flip-flops | block RAMs (18 Kbit) | multipliers (DSP) |\n|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let (f, x) = (r.family.info(), &r.resources);
        let share = |n: u64, of: u64| {
            if of == 0 {
                String::new()
            } else {
                format!(" ({:.0}%)", 100.0 * n as f64 / of as f64)
            }
        };
        s.push_str(&format!(
            "| {} | {} ({}) | {} {} | {:.1}% | {} | {} | {}{} | {}{} |\n",
            r.design,
            r.family.name(),
            f.device,
            x.luts,
            f.lut,
            x.lut_percent(r.family),
            x.lut_rams,
            x.flip_flops,
            x.block_rams,
            share(x.block_rams, f.device_block_rams),
            x.dsps,
            share(x.dsps, f.device_dsps),
        ));
    }
    s.push_str(&format!(
        "\nAfter yosys synthesis alone (no place and route), each design as its own top. {}\n",
        "LUTs count LUT sites: on the ECP5 a carry cell (CCU2C) takes two LUT4s and a 16 x 4 LUT RAM (TRELLIS_DPR16X4) four; on the 7-series a LUT RAM cell takes the LUTs of its slice. Block RAMs count 18 Kbit halves (a Xilinx RAMB36 is two)."
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const ECP5_STAT: &str = "Printing statistics.\n\n=== top ===\n\n   Number of cells:  10\n     CCU2C                          3\n     DP16KD                         2\n     LUT4                         100\n     MULT18X18D                     4\n     TRELLIS_DPR16X4                5\n     TRELLIS_FF                    50\n";

    #[test]
    fn a_log_is_reused_only_for_the_same_synthesis() {
        let log = |synth: &str, end: &str| {
            format!("-- Running command `read_verilog x.v; {synth} -top core; stat' --\n{end}")
        };
        let now = Family::Ecp5.info().synth;
        assert!(is_complete_synthesis(Family::Ecp5, "core", &log(now, "End of script.")));
        assert!(!is_complete_synthesis(Family::Ecp5, "core", &log(now, "ERROR: killed")));
        assert!(!is_complete_synthesis(Family::Ecp5, "other", &log(now, "End of script.")));
        // A log of the synthesis before `-nowidelut`.
        assert!(!is_complete_synthesis(Family::Ecp5, "core", &log("synth_ecp5", "End of script.")));
    }

    #[test]
    fn ecp5_cells_count_as_their_sites() {
        let r = Resources::from_stat(Family::Ecp5, ECP5_STAT);
        assert_eq!(
            r,
            Resources {
                luts: 100 + 2 * 3 + 4 * 5,
                lut_rams: 5,
                flip_flops: 50,
                block_rams: 2,
                dsps: 4
            }
        );
    }

    #[test]
    fn xilinx_block_rams_count_in_18_kbit_halves() {
        let stat = "Printing statistics.\n     LUT3 10\n     LUT6 5\n     RAMB36E1 3\n     RAMB18E1 1\n     RAM32M 2\n     FDRE 7\n     DSP48E1 1\n";
        let r = Resources::from_stat(Family::Xilinx7, stat);
        assert_eq!(
            r,
            Resources { luts: 15 + 8, lut_rams: 2, flip_flops: 7, block_rams: 7, dsps: 1 }
        );
    }
}
