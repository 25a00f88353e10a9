//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties) and its differential run.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::Entry;
use crate::params::PresetSizes;
use crate::params::{EmptyTop, SchedulerMode, TopStorage};
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// All warps' stacks in block RAM, as the scheduler holds them.
    type StackRam: Dut + 'static;
    fn stack_ram(
        empty_top: crate::params::EmptyTop,
        top_storage: crate::params::TopStorage,
    ) -> Result<Self::StackRam>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::scheduler::simt_stack_ram::preset::AtPreset for $B {
            type StackRam = $crate::sized_simt_stack_ram!($S);
            fn stack_ram(
                empty_top: $crate::params::EmptyTop,
                top_storage: $crate::params::TopStorage,
            ) -> $crate::__anyhow::Result<Self::StackRam> {
                <$crate::sized_simt_stack_ram!($S)>::new(empty_top, top_storage)
            }
        }
    };
}
pub(crate) use at_preset;

/// Every warp's stack as the fixed-mode warp scheduler stores it.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    vec![entry::<B, _>("simt_stack_ram", "SimtStackRam",
        "every warp's SIMT stack in block RAM, tops in registers: the fixed-mode warp scheduler's stacks", vec![("Empty top", format!("{:?}", fixed.empty_top()))],
        move || B::stack_ram(fixed.empty_top(), fixed.top_storage()), exported_differential::<B>, Some(super::PROPERTIES))]
}

/// The stacks as exported (the fixed-mode scheduler's storage) against their model.
fn exported_differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    differential::<B>(fixed.empty_top(), fixed.top_storage(), seed, cycles)
}

/// The stacks at preset `B`, with `empty_top` and `top_storage`, against their model.
pub fn differential<B: AtPreset>(
    empty_top: EmptyTop,
    top_storage: TopStorage,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model =
        super::model::SimtStackRamModel::new(p.warps, p.stack_depth, empty_top, top_storage);
    let name = format!("stack_ram_{}_{empty_top:?}_{top_storage:?}", B::PRESET.name);
    let make = || B::stack_ram(empty_top, top_storage).unwrap();
    let stimulus = super::stimulus::stack_ram_stimulus(p);
    run_differential(&name, make, &mut model, seed, cycles, stimulus)
}
