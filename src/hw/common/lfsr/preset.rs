//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::{PresetSizes, LFSR_SEED, TAPS_32};
use crate::sim::{run_differential, Recorded};

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::common::lfsr::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The board self-test's LFSR and MISR (32 bits at every preset).
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    vec![
        entry::<B, _>(
            "lfsr",
            "Lfsr",
            "board self-test: 32-bit Galois LFSR (pseudo-random traffic)",
            vec![("Taps", format!("{TAPS_32:#010x}, seed {LFSR_SEED:#010x}"))],
            || super::Lfsr::<32>::new(TAPS_32, LFSR_SEED),
            lfsr_differential::<B>,
            None,
        ),
        entry::<B, _>(
            "misr",
            "Misr",
            "board self-test: 32-bit multiple-input signature register",
            vec![("Taps", format!("{TAPS_32:#010x}"))],
            || super::misr::Misr::<32>::new(TAPS_32),
            misr_differential::<B>,
            None,
        ),
    ]
}

/// The LFSR against its model.
pub fn lfsr_differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let (taps, start) = (super::model::TAPS_32, super::model::LFSR_SEED);
    let mut model = super::model::LfsrModel { taps, seed: start, state: 0 };
    let name = format!("lfsr_{}", B::PRESET.name);
    let make = || super::Lfsr::<32>::new(taps, start).unwrap();
    run_differential(&name, make, &mut model, seed, cycles, super::stimulus::lfsr_stimulus())
}

/// The MISR against its model.
pub fn misr_differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let taps = super::model::TAPS_32;
    let mut model = super::model::MisrModel { taps, state: 0 };
    let name = format!("misr_{}", B::PRESET.name);
    let make = || super::misr::Misr::<32>::new(taps).unwrap();
    run_differential(&name, make, &mut model, seed, cycles, super::stimulus::misr_stimulus())
}

/// The differential suite's checks (one size): the LFSR, never in state 0 after its first
/// reset (cycle 0 shows the power-up state 0), and the MISR.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let lfsr = Check::new("lfsr", lfsr_differential::<B>).covering(|rec, _| {
        let values = rec.output("value")?;
        anyhow::ensure!(values[1..].iter().all(|&v| v != 0), "the LFSR reached state 0");
        Ok(())
    });
    vec![lfsr.one_size(), Check::new("misr", misr_differential::<B>).one_size()]
}
