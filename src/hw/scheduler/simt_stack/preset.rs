//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::{StackIn, StackOut};
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The block's type at this preset's sizes.
    type Stack: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn stack() -> Result<Self::Stack>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::scheduler::simt_stack::preset::AtPreset for $B {
            type Stack = $crate::sized_simt_stack!($S);
            fn stack() -> $crate::__anyhow::Result<Self::Stack> {
                <$crate::sized_simt_stack!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// One warp's SIMT stack.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(
        super::MODULE,
        "SimtStack",
        "one warp's SIMT reconvergence stack of {mask, pc} with overflow/underflow flags",
        vec![],
        B::stack,
        differential::<B>,
        Some(super::PROPERTIES),
    )
    .with_quick_synthesis_proof()]
}

/// The stack at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::SimtStackModel::new(p.stack_depth);
    let stimulus = super::stimulus::stack_stimulus(p.threads, p.pc_width);
    let name = format!("stack_{}", B::PRESET.name);
    run_differential(&name, || B::stack().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's check: the stack, its stimulus reaching pushes on a full stack,
/// pops on an empty one, and push with pop.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("stack", differential::<B>).covering(|rec, _| {
        let (mut full_push, mut empty_pop, mut both) = (0, 0, 0);
        for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
            let (i, o) = (StackIn::from_words(i), StackOut::from_words(o));
            full_push += (i.push == 1 && i.pop == 0 && o.full == 1) as usize;
            empty_pop += (i.pop == 1 && i.push == 0 && o.empty == 1) as usize;
            both += (i.push == 1 && i.pop == 1) as usize;
        }
        anyhow::ensure!(
            full_push > 10 && empty_pop > 10 && both > 10,
            "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}"
        );
        Ok(())
    })]
}
