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
    type WarpArbiter: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn warp_arbiter() -> Result<Self::WarpArbiter>;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn warp_arbiter_lookahead() -> Result<Self::WarpArbiter>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::common::round_robin::preset::AtPreset for $B {
            type WarpArbiter = $crate::sized_round_robin_arbiter!($S);
            fn warp_arbiter() -> $crate::__anyhow::Result<Self::WarpArbiter> {
                <$crate::sized_round_robin_arbiter!($S)>::new()
            }
            fn warp_arbiter_lookahead() -> $crate::__anyhow::Result<Self::WarpArbiter> {
                <$crate::sized_round_robin_arbiter!($S)>::lookahead()
            }
        }
    };
}
pub(crate) use at_preset;

/// The round-robin arbiter over the warps.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(
        "round_robin_arbiter",
        "RoundRobinArbiter",
        "round-robin arbiter over the warps, priority rotates past the last taken grant",
        vec![],
        B::warp_arbiter,
        differential::<B>,
        Some(super::PROPERTIES),
    )
    .with_quick_synthesis_proof()]
}

/// The arbiter at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = super::model::RoundRobinModel::new(n);
    let stimulus = super::stimulus::arbiter_stimulus(n);
    let name = format!("arbiter_{}", B::PRESET.name);
    run_differential(&name, || B::warp_arbiter().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The lookahead arbiter (`req` one cycle early, inside the registered-mode scheduler) against
/// the arbiter's model a cycle later.
pub fn lookahead_differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = super::model::LookaheadRoundRobinModel::new(n);
    let stimulus = super::stimulus::arbiter_stimulus(n);
    let name = format!("arbiter_lookahead_{}", B::PRESET.name);
    let make = || B::warp_arbiter_lookahead().unwrap();
    run_differential(&name, make, &mut model, seed, cycles, stimulus)
}

/// The differential suite's checks: the arbiter and its lookahead timing.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![
        Check::new("arbiter", differential::<B>),
        Check::new("lookahead arbiter", lookahead_differential::<B>),
    ]
}
