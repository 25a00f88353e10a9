//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties) and its differential run.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{differential_via_verilog, Entry};
use crate::params::{PresetSizes, SchedulerMode};
use crate::sim::{Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    type Scheduler: Dut + 'static;
    /// The same scheduler behind the seed's ports.
    type SeedScheduler: Dut + 'static;
    fn scheduler(mode: crate::params::SchedulerMode) -> Result<Self::Scheduler>;
    fn seed_scheduler() -> Result<Self::SeedScheduler>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::scheduler::warp_scheduler::preset::AtPreset for $B {
            type Scheduler = $crate::sized_warp_scheduler!($S);
            type SeedScheduler = $crate::sized_seed_warp_scheduler!($S);
            fn scheduler(
                mode: $crate::params::SchedulerMode,
            ) -> $crate::__anyhow::Result<Self::Scheduler> {
                <$crate::sized_warp_scheduler!($S)>::new(mode)
            }
            fn seed_scheduler() -> $crate::__anyhow::Result<Self::SeedScheduler> {
                <$crate::sized_seed_warp_scheduler!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The warp scheduler in fixed and registered mode, and in the seed's own ports.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    let registered = SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy);
    let seed_mode = SchedulerMode::SeedCompatible;
    vec![
        entry::<B, _>("warp_scheduler", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode)", vec![("Mode", fixed.name())],
            move || B::scheduler(fixed), |s, c| differential::<B>(SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy), s, c), Some(super::PROPERTIES)),
        entry::<B, _>("warp_scheduler_registered", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode, commands registered: they act a cycle after they are offered)", vec![("Mode", registered.name())],
            move || B::scheduler(registered), |s, c| differential::<B>(SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy), s, c), None),
        entry::<B, _>("WarpScheduler", "SeedWarpScheduler",
            "the seed's WarpScheduler (003): seed-compatible mode behind the seed's ports", vec![("Mode", seed_mode.name())],
            B::seed_scheduler, |s, c| seed_differential::<B>(true, s, c), None),
    ]
}

/// The scheduler at preset `B` in `mode` against its model.
pub fn differential<B: AtPreset>(
    mode: SchedulerMode,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::WarpSchedulerModel::new(p, mode);
    let name = format!("scheduler_{}_{}", B::PRESET.name, mode.name().replace([' ', ','], "_"));
    let stimulus = super::stimulus::scheduler_stimulus(p, true);
    differential_via_verilog(
        &name,
        || B::scheduler(mode).unwrap(),
        &mut model,
        seed,
        cycles,
        stimulus,
    )
}

/// The seed-port scheduler; `allow_overflow` false keeps pushes off full stacks (for the
/// comparison with the seed, whose stack has no overflow check).
pub fn seed_differential<B: AtPreset>(
    allow_overflow: bool,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::SeedWarpSchedulerModel::new(p);
    let name = format!("seed_scheduler_{}", B::PRESET.name);
    let stimulus = super::stimulus::seed_scheduler_stimulus(p, allow_overflow);
    differential_via_verilog(
        &name,
        || B::seed_scheduler().unwrap(),
        &mut model,
        seed,
        cycles,
        stimulus,
    )
}
