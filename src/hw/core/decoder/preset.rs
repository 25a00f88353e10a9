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
        "the SIMT core's instruction decode: opcode ROM from the ISA's decoder, register, immediate, target and store fields",
        vec![("Extensions", B::PRESET.isa().names())],
        || super::Decoder::new(B::PRESET.isa()), differential::<B>, None).with_quick_synthesis_proof()]
}

/// The decoder against its model.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let name = format!("decoder_{}", B::PRESET.name);
    let isa = B::PRESET.isa();
    let make = || super::Decoder::new(isa).unwrap();
    let stimulus = super::stimulus::decoder_stimulus(isa);
    let mut model = super::model::DecoderModel { isa };
    run_differential(&name, make, &mut model, seed, cycles, stimulus)
}

/// The differential suite's check, at every preset (its extensions differ): every kind of
/// instruction the preset's opcodes have, and illegal opcodes.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let check = Check::new("decoder", differential::<B>).covering(|rec, _| {
        let isa = B::PRESET.isa();
        let mut kinds = [0usize; super::Kind::ALL.len()];
        let mut illegal = 0;
        for (kind, legal) in rec.output("kind")?.into_iter().zip(rec.output("legal")?) {
            kinds[kind as usize] += 1;
            illegal += (legal == 0) as usize;
        }
        let carried = |k: usize| {
            (0..64u32).any(|c| {
                let i = crate::isa::Inst::decode_in(c << 26, isa);
                i.is_some() && super::Controls::of(i).kind as usize == k
            })
        };
        anyhow::ensure!(
            (0..kinds.len()).all(|k| !carried(k) || kinds[k] > 100) && illegal > 100,
            "kinds {kinds:?}, illegal {illegal}"
        );
        Ok(())
    });
    vec![check]
}
