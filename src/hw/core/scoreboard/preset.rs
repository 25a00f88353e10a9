//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties) and its differential run.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::Entry;
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `Scoreboard<W, WW, R, RRW>`: the scheduler's warps, the collector's registers per warp.
    type Scoreboard: Dut + 'static;
    fn scoreboard() -> Result<Self::Scoreboard>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::core::scoreboard::preset::AtPreset for $B {
            type Scoreboard = $crate::sized_scoreboard!($S);
            fn scoreboard() -> $crate::__anyhow::Result<Self::Scoreboard> {
                <$crate::sized_scoreboard!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// GPGPU-Sim's scoreboard.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let regs = B::PRESET.collector.regs_per_warp;
    vec![entry::<B, _>("scoreboard", "Scoreboard",
        "GPGPU-Sim's scoreboard: registers in flight per warp, RAW/WAW hazard check (a same-cycle release counts), sticky misuse flags",
        vec![("Registers", format!("{regs} per warp"))],
        B::scoreboard, differential::<B>, Some(super::PROPERTIES))]
}

/// The scoreboard at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let mut model = super::model::ScoreboardModel::new(p.scheduler.warps);
    let stim = super::stimulus::scoreboard_stimulus(p.scheduler.warps, p.collector.regs_per_warp);
    let name = format!("scoreboard_{}", p.name);
    run_differential(&name, || B::scoreboard().unwrap(), &mut model, seed, cycles, stim)
}
