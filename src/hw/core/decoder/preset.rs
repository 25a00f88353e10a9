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
        impl $crate::hw::core::decoder::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The SIMT core's instruction decode (the ISA's, at every preset).
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    vec![entry::<B, _>("decoder", "Decoder",
        "the SIMT core's instruction decode: opcode ROM from the ISA's decoder, register, immediate, target and store fields", vec![],
        super::Decoder::new, differential::<B>, None).with_quick_synthesis_proof()]
}

/// The decoder against its model.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let name = format!("decoder_{}", B::PRESET.name);
    let make = || super::Decoder::new().unwrap();
    let stimulus = super::stimulus::decoder_stimulus();
    run_differential(&name, make, &mut super::model::DecoderModel, seed, cycles, stimulus)
}

/// The differential suite's check (one size): every kind of instruction, and illegal opcodes.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let check = Check::new("decoder", differential::<B>).covering(|rec, _| {
        let mut kinds = [0usize; super::Kind::ALL.len()];
        let mut illegal = 0;
        for (kind, legal) in rec.output("kind")?.into_iter().zip(rec.output("legal")?) {
            kinds[kind as usize] += 1;
            illegal += (legal == 0) as usize;
        }
        anyhow::ensure!(
            kinds.iter().all(|&n| n > 100) && illegal > 100,
            "kinds {kinds:?}, illegal {illegal}"
        );
        Ok(())
    });
    vec![check.one_size()]
}
