//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::{ScoreboardIn, ScoreboardOut};
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, CycleModel, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `Scoreboard<W, WW, R, RRW>`: the scheduler's warps, the collector's registers per warp.
    type Scoreboard: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
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
        B::scoreboard, differential::<B>, Some(super::PROPERTIES)).with_quick_synthesis_proof()]
}

/// The scoreboard at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let mut model = super::model::ScoreboardModel::new(p.scheduler.warps);
    let stim = super::stimulus::scoreboard_stimulus(p.scheduler.warps, p.collector.regs_per_warp);
    let name = format!("scoreboard_{}", p.name);
    run_differential(&name, || B::scoreboard().unwrap(), &mut model, seed, cycles, stim)
}

/// The differential suite's check: hazards seen, a hazard cleared by the same cycle's release,
/// both misuse flags' causes.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("scoreboard", differential::<B>).covering(|rec, _| coverage::<B>(rec))]
}

fn coverage<B: AtPreset>(rec: &Recorded) -> Result<()> {
    let (mut hazards, mut bypassed, mut double, mut free) = (0, 0, 0, 0);
    let mut model = super::model::ScoreboardModel::new(B::PRESET.scheduler.warps);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (si, so) = (ScoreboardIn::from_words(i), ScoreboardOut::from_words(o));
        hazards += so.hazard as usize;
        let without_release = ScoreboardIn { release_valid: 0, ..si };
        bypassed += (so.hazard == 0 && model.collides(&without_release)) as usize;
        double += (si.reset == 0
            && so.err_double_reserve == 0
            && si.reserve_valid == 1
            && model.reg_table[si.reserve_warp as usize].contains(&si.reserve_reg)
            && !(si.release_valid == 1
                && (si.release_warp, si.release_reg) == (si.reserve_warp, si.reserve_reg)))
            as usize;
        free += (si.reset == 0
            && si.release_valid == 1
            && !model.reg_table[si.release_warp as usize].contains(&si.release_reg))
            as usize;
        model.step(i);
    }
    anyhow::ensure!(
        hazards > 1000 && bypassed > 100 && double > 10 && free > 10,
        "coverage: hazards {hazards}, cleared by the same cycle's release {bypassed}, double reservations {double}, releases of free registers {free}"
    );
    Ok(())
}
