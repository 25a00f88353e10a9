//! This block at a preset's sizes: its type and constructor, its registry entry (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's check of it.

use anyhow::Result;

use super::model::{BarrierIn, BarrierOut};
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, CycleModel, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `Barrier<W, WW>`: the scheduler's warps.
    type Barrier: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn barrier() -> Result<Self::Barrier>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::core::barrier::preset::AtPreset for $B {
            type Barrier = $crate::sized_barrier!($S);
            fn barrier() -> $crate::__anyhow::Result<Self::Barrier> {
                <$crate::sized_barrier!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The SIMT core's barrier.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(super::MODULE, "Barrier",
        "the SIMT core's barrier (`bar`): warps wait until every warp that has not ended waits, then are re-activated one a cycle; sticky flag for a diverged arrival",
        vec![],
        B::barrier, differential::<B>, Some(super::PROPERTIES)).with_quick_synthesis_proof()]
}

/// The barrier at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let warps = B::PRESET.scheduler.warps;
    let mut model = super::model::BarrierModel::default();
    let stim = super::stimulus::barrier_stimulus(warps);
    let name = format!("barrier_{}", B::PRESET.name);
    run_differential(&name, || B::barrier().unwrap(), &mut model, seed, cycles, stim)
}

/// The differential suite's check: releases of every warp together, re-activations held back by
/// the fill, and diverged arrivals.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("barrier", differential::<B>).covering(|rec, _| coverage(rec))]
}

fn coverage(rec: &Recorded) -> Result<()> {
    let (mut releases, mut held, mut reactivated, mut diverged) = (0, 0, 0, 0);
    let mut model = super::model::BarrierModel::default();
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (bi, bo) = (BarrierIn::from_words(i), BarrierOut::from_words(o));
        releases += (bi.reset == 0 && model.lets_go(&bi)) as usize;
        held += (model.releasing != 0 && bi.ctl_busy == 1) as usize;
        reactivated += bo.ctl_valid as usize;
        diverged += (bi.reset == 0 && bi.arrive == 1 && bi.diverged == 1) as usize;
        model.step(i);
    }
    anyhow::ensure!(
        releases > 100 && held > 100 && reactivated > 300 && diverged > 10,
        "coverage: releases {releases}, re-activations held back by the fill {held}, re-activations {reactivated}, diverged arrivals {diverged}"
    );
    Ok(())
}
