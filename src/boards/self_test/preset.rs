//! This block at a preset's sizes: its type and constructor. The self-test top is exported as
//! the preset's board top by `gen` (`self_test.v`), not as a registry entry.

use anyhow::Result;

use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::Dut;

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The board self-test top around this preset's scheduler and operand collector.
    type SelfTest: Dut + 'static;
    /// The self-test top running `cycles` cycles, its expected signature computed by simulation.
    fn self_test(cycles: u64) -> Result<Self::SelfTest>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::boards::self_test::preset::AtPreset for $B {
            type SelfTest = $crate::sized_self_test!($S);
            fn self_test(cycles: u64) -> $crate::__anyhow::Result<Self::SelfTest> {
                let preset = <$B as $crate::params::PresetSizes>::PRESET;
                preset.board_clock()?;
                <$crate::sized_self_test!($S)>::for_board(&preset, cycles)
            }
        }
    };
}
pub(crate) use at_preset;

/// None: the board top is `gen`'s (it has no model to be checked against cycle by cycle; its
/// own run checks its signature, `tests/self_test.rs`).
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![]
}

/// None in the differential suite: this block's differential runs are in `tests/self_test.rs`, its own signature checked to the end of its run.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![]
}
