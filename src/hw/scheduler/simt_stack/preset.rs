//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties) and its differential run.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::Entry;
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    type Stack: Dut + 'static;
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
        "simt_stack",
        "SimtStack",
        "one warp's SIMT reconvergence stack of {mask, pc} with overflow/underflow flags",
        vec![],
        B::stack,
        differential::<B>,
        Some(super::PROPERTIES),
    )]
}

/// The stack at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::SimtStackModel::new(p.stack_depth);
    let stimulus = super::stimulus::stack_stimulus(p.threads, p.pc_width);
    let name = format!("stack_{}", B::PRESET.name);
    run_differential(&name, || B::stack().unwrap(), &mut model, seed, cycles, stimulus)
}
