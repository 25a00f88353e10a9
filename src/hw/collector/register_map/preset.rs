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
    type RegisterMap: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn register_map() -> Result<Self::RegisterMap>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::collector::register_map::preset::AtPreset for $B {
            type RegisterMap = $crate::sized_register_map!($S);
            fn register_map() -> $crate::__anyhow::Result<Self::RegisterMap> {
                <$crate::sized_register_map!($S)>::new(
                    <$B as $crate::params::PresetSizes>::PRESET.collector.banks,
                    <$B as $crate::params::PresetSizes>::PRESET.collector.regs_per_warp,
                    <$B as $crate::params::PresetSizes>::PRESET.collector.schedulers,
                )
            }
        }
    };
}
pub(crate) use at_preset;

/// The collector's register-to-bank map.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>(
        "register_map",
        "RegisterMap",
        "operand collector: bank and row of a warp's register (GPGPU-Sim's register_bank())",
        crate::hw::collector::operand_collector::parts_header(&B::PRESET),
        B::register_map,
        differential::<B>,
        Some(super::PROPERTIES),
    )]
}

/// The register map at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let c = B::PRESET.collector;
    let mut model = super::model::RegisterMapModel {
        banks: c.banks,
        regs_per_warp: c.regs_per_warp,
        schedulers: c.schedulers,
    };
    let stimulus =
        super::stimulus::register_map_stimulus(B::PRESET.scheduler.warps, c.regs_per_warp);
    let name = format!("register_map_{}", B::PRESET.name);
    run_differential(&name, || B::register_map().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's check: the map over every warp and register.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("register map", differential::<B>)]
}
