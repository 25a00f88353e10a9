//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::{StackRamIn, StackRamOut};
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::{EmptyTop, PresetSizes, SchedulerMode, TopStorage};
use crate::sim::{run_differential, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// All warps' stacks in block RAM, as the scheduler holds them.
    type StackRam: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
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

/// The differential suite's checks: each way of storing the tops.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    let ways = [
        (EmptyTop::SlotZero, TopStorage::Registers),
        (EmptyTop::Zero, TopStorage::Registers),
        (EmptyTop::Zero, TopStorage::Ram),
    ];
    ways.map(|(empty_top, top_storage)| {
        let name = format!("stack RAM, empty top {empty_top:?}, top in {top_storage:?}");
        Check::new(name, move |s, c| differential::<B>(empty_top, top_storage, s, c))
            .covering(|rec, _| coverage(rec))
    })
    .into()
}

/// Pushes on full and pops on empty stacks, push with pop of one warp, a popped warp's top shown
/// in the next cycle while it comes out of the RAM, and the top of a warp pushed while shown.
fn coverage(rec: &Recorded) -> Result<()> {
    let (mut full_push, mut empty_pop, mut both, mut refill_seen, mut pushed_shown) =
        (0, 0, 0, 0, 0);
    for (k, (i, o)) in rec.inputs.iter().zip(&rec.outputs).enumerate() {
        let (i, o) = (StackRamIn::from_words(i), StackRamOut::from_words(o));
        full_push += (i.push & !i.pop & o.full != 0) as usize;
        empty_pop += (i.pop & !i.push & o.empty != 0) as usize;
        both += (i.push & i.pop != 0) as usize;
        if let Some(next) = rec.inputs.get(k + 1) {
            let next = StackRamIn::from_words(next);
            refill_seen += (i.pop & !i.push & !o.empty & !i.clear != 0
                && i.reset == 0
                && next.top_wid == i.pop_wid) as usize;
        }
        pushed_shown += (i.push >> i.top_wid & 1 == 1 && i.reset == 0) as usize;
    }
    anyhow::ensure!(
        full_push > 10 && empty_pop > 10 && both > 10 && refill_seen > 100 && pushed_shown > 100,
        "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}, refills shown {refill_seen}, pushed tops shown {pushed_shown}"
    );
    Ok(())
}
