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
    type BankArbiter: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn bank_arbiter() -> Result<Self::BankArbiter>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::collector::bank_arbiter::preset::AtPreset for $B {
            type BankArbiter = $crate::sized_bank_arbiter!($S);
            fn bank_arbiter() -> $crate::__anyhow::Result<Self::BankArbiter> {
                <$crate::sized_bank_arbiter!($S)>::new(
                    <$B as $crate::params::PresetSizes>::PRESET.collector.one_bank_per_cu,
                    <$B as $crate::params::PresetSizes>::PRESET.collector.sources,
                )
            }
        }
    };
}
pub(crate) use at_preset;

/// The collector's bank arbiter.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>("bank_arbiter", "BankArbiter",
        "operand collector: per-bank read-request FIFOs and wavefront read allocator, write-back priority", crate::hw::collector::operand_collector::parts_header(&B::PRESET),
        B::bank_arbiter, differential::<B>, Some(super::PROPERTIES))
        .structure_only_in_tests_without_board(&B::PRESET)]
}

/// The bank arbiter at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let c = B::PRESET.collector;
    let rw = crate::params::clog2(c.rows_per_bank(B::PRESET.scheduler.warps));
    let sizes = (c.banks, c.collector_units, c.push_lanes(), c.queue_depth(), rw);
    let name = format!("bank_arbiter_{}", B::PRESET.name);
    run(&name, || B::bank_arbiter().unwrap(), sizes, c.one_bank_per_cu, true, seed, cycles)
}

/// A bank arbiter of `collectors` collector units over `banks` banks against its model.
pub fn run<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    (banks, collectors, lanes, depth, row_bits): (usize, usize, usize, usize, usize),
    one_bank_per_cu: bool,
    respect_bound: bool,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model =
        super::model::BankArbiterModel::new(banks, collectors, lanes, depth, one_bank_per_cu);
    let stim = super::stimulus::arbiter_stimulus(banks, collectors, row_bits, respect_bound);
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// None in the differential suite: this block's differential runs are in `tests/operand_collector.rs`, at the preset sizes and others, its queue bounds included.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![]
}
