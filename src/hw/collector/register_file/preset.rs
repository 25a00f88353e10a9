//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The block's type at this preset's sizes.
    type RegisterFile: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn register_file() -> Result<Self::RegisterFile>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::collector::register_file::preset::AtPreset for $B {
            type RegisterFile = $crate::sized_register_file!($S);
            fn register_file() -> $crate::__anyhow::Result<Self::RegisterFile> {
                <$crate::sized_register_file!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The collector's banked register file.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(super::MODULE, "RegisterFile",
        "operand collector: banked register file, one read per bank per cycle (latency 1), one lane-masked write", crate::hw::collector::operand_collector::parts_header(&B::PRESET),
        B::register_file, differential::<B>, Some(super::PROPERTIES))]
}

/// The register file at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let row_bits = crate::params::clog2(p.collector.rows_per_bank(p.scheduler.warps));
    let sizes = (p.collector.banks, row_bits, p.scheduler.threads, p.collector.lane_bits);
    let name = format!("register_file_{}", p.name);
    run(&name, || B::register_file().unwrap(), sizes, seed, cycles)
}

/// A register file of `banks x 2^row_bits` rows of `lanes x lane_bits` against its model.
pub fn run<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    (banks, row_bits, lanes, lane_bits): (usize, usize, usize, usize),
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = super::model::RegisterFileModel::new(banks, 1 << row_bits, lanes, lane_bits);
    let stim = super::stimulus::register_file_stimulus(banks, row_bits, lanes, lane_bits);
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// None in the differential suite: this block's differential runs are in `tests/operand_collector.rs`, at several sizes.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![]
}
