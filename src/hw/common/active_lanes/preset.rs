//! This block at a preset's sizes: its type and constructor, its registry entry (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's check of it.

use anyhow::Result;

use super::model::ActiveLanesOut;
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The block's type at this preset's sizes.
    type ActiveLanes: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn active_lanes() -> Result<Self::ActiveLanes>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::common::active_lanes::preset::AtPreset for $B {
            type ActiveLanes = $crate::sized_active_lanes!($S);
            fn active_lanes() -> $crate::__anyhow::Result<Self::ActiveLanes> {
                <$crate::sized_active_lanes!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The lane counter over a warp's mask.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(
        "active_lanes",
        "ActiveLanes",
        "active lanes of a warp's mask: their count, any, all (GPGPU-Sim's active_count). Combinational",
        vec![],
        B::active_lanes,
        differential::<B>,
        Some(super::PROPERTIES),
    )]
}

/// The counter at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let lanes = B::PRESET.scheduler.threads;
    let mut model = super::model::ActiveLanesModel { lanes };
    let stimulus = super::stimulus::active_lanes_stimulus(lanes);
    let name = format!("active_lanes_{}", B::PRESET.name);
    run_differential(&name, || B::active_lanes().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's check: the counter, its stimulus reaching no lane, every lane, and
/// some but not all.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("active lanes", differential::<B>).covering(|rec, _| {
        let (mut none, mut all, mut some) = (0, 0, 0);
        for o in &rec.outputs {
            let o = ActiveLanesOut::from_words(o);
            none += (o.any == 0) as usize;
            all += (o.all == 1) as usize;
            some += (o.any == 1 && o.all == 0) as usize;
        }
        anyhow::ensure!(
            none > 10 && all > 10 && some > 10,
            "coverage: no lane {none}, every lane {all}, some {some}"
        );
        Ok(())
    })]
}
