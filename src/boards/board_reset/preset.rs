//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Recorded};

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::boards::board_reset::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The board tops' reset.
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    vec![entry::<B, _>(
        "board_reset",
        "BoardReset",
        "board tops: power-on reset and the synchronised reset button",
        vec![("Power-on", format!("{} cycles", super::POR_CYCLES))],
        super::BoardReset::new,
        differential::<B>,
        None,
    )]
}

/// The reset against its model.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let mut model = super::model::BoardResetModel::default();
    let name = format!("board_reset_{}", B::PRESET.name);
    let stimulus = super::stimulus::button_stimulus();
    run_differential(
        &name,
        || super::BoardReset::new().unwrap(),
        &mut model,
        seed,
        cycles,
        stimulus,
    )
}

/// The differential suite's check (one size): the button pressed more than 1,000 times.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let check = Check::new("board_reset", differential::<B>).covering(|rec, _| {
        let resets = rec.output("reset")?;
        let presses = resets.windows(2).skip(20).filter(|w| w[0] == 0 && w[1] == 1).count();
        anyhow::ensure!(presses > 1000, "only {presses} button resets");
        Ok(())
    });
    vec![check.one_size()]
}
