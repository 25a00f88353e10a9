//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::{CollectorParams, CollectorTiming, PresetSizes};
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>` (its `new()` checks every one against the preset), with the preset's timing or pipelined.
    type OperandCollector: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn operand_collector(timing: crate::params::CollectorTiming) -> Result<Self::OperandCollector>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::collector::operand_collector::preset::AtPreset for $B {
            type OperandCollector = $crate::sized_operand_collector!($S);
            fn operand_collector(
                timing: $crate::params::CollectorTiming,
            ) -> $crate::__anyhow::Result<Self::OperandCollector> {
                <$crate::sized_operand_collector!($S)>::new(
                    $crate::params::CollectorParams {
                        timing,
                        ..<$B as $crate::params::PresetSizes>::PRESET.collector
                    },
                    <$B as $crate::params::PresetSizes>::PRESET.scheduler.warps,
                    <$B as $crate::params::PresetSizes>::PRESET.scheduler.threads,
                )
            }
        }
    };
}
pub(crate) use at_preset;

/// GPGPU-Sim's operand collector, and the same pipelined at a preset with a board clock or one
/// its properties make a claim at (its queue bound is proven at `tiny`).
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let p = B::PRESET;
    let mut list = vec![entry::<B, _>(super::module_name(CollectorTiming::GpgpuSim), "OperandCollector",
        "GPGPU-Sim's operand collector (opndcoll_rfu_t): banked register file, bank arbiter, collector and dispatch units",
        vec![("Collector", super::collector_summary(&p)), ("Interface", super::COLLECTOR_INTERFACE.into())],
        || B::operand_collector(CollectorTiming::GpgpuSim), |s, c| differential::<B>(CollectorTiming::GpgpuSim, s, c), Some(super::PROPERTIES))
        .structure_only_in_tests_without_board(&p)];
    let claimed_here = super::PIPELINED_PROPERTIES.claims.iter().any(|c| c.preset == p.name);
    if p.board_clock_mhz.is_some() || claimed_here {
        list.push(entry::<B, _>(super::module_name(CollectorTiming::Pipelined), "OperandCollector",
            "the operand collector pipelined for clock speed: a unit freed by dispatch is allocated a cycle later",
            vec![("Collector", super::collector_summary(&p)), ("Timing", CollectorTiming::Pipelined.name().into()), ("Interface", super::COLLECTOR_INTERFACE.into())],
            || B::operand_collector(CollectorTiming::Pipelined), |s, c| differential::<B>(CollectorTiming::Pipelined, s, c), Some(super::PIPELINED_PROPERTIES))
            .structure_only_in_tests_without_board(&p));
    }
    list
}

/// The collector at preset `B` with `timing` against its model.
pub fn differential<B: AtPreset>(
    timing: CollectorTiming,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET;
    let name = format!("{}_{}", super::module_name(timing), p.name);
    run(
        &name,
        || B::operand_collector(timing).unwrap(),
        CollectorParams { timing, ..p.collector },
        (p.scheduler.warps, p.scheduler.threads),
        seed,
        cycles,
    )
}

/// An operand collector with parameters `c` for `warps` warps of `threads` lanes against its
/// model, on [`collector_stimulus`](super::stimulus::collector_stimulus).
pub fn run<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    c: CollectorParams,
    (warps, threads): (usize, usize),
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = super::model::OperandCollectorModel::new(c, warps, threads);
    let stim = super::stimulus::collector_stimulus(c, warps, threads);
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// None in the differential suite: this block's differential runs are in `tests/operand_collector.rs`, at the preset sizes and others and in its closed loop.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![]
}
