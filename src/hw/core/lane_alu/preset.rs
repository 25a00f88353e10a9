//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{differential_via_verilog, Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `LaneAlu<T, DW, SW, TD>`: the collector's lanes and lane width.
    type LaneAlu: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn lane_alu() -> Result<Self::LaneAlu>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::core::lane_alu::preset::AtPreset for $B {
            type LaneAlu = $crate::sized_lane_alu!($S);
            fn lane_alu() -> $crate::__anyhow::Result<Self::LaneAlu> {
                <$crate::sized_lane_alu!($S)>::new(
                    <$B as $crate::params::PresetSizes>::PRESET.isa(),
                )
            }
        }
    };
}
pub(crate) use at_preset;

/// The SIMT core's lane ALUs.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![entry::<B, _>("lane_alu", "LaneAlu",
        "the SIMT core's execution stage: one integer ALU per lane (the ISA's ALU ops), zero test for branches",
        vec![("Ops", "op codes 0..13 and 16..21 (op_high set): add sub and or xor shl shr slt seq pass_b lane, and the extensions' mul slts sra, min max minu maxu, mulh mulhu; others, and those of extensions not built in, give 0 and bad_op".into()), ("Extensions", B::PRESET.isa().names())],
        B::lane_alu, differential::<B>, Some(super::PROPERTIES)).with_quick_synthesis_proof().replayed_on_verilator()]
}

/// The lane ALUs at preset `B` against their model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let (lanes, bits) = (p.scheduler.threads, p.collector.lane_bits);
    let mut model = super::model::LaneAluModel { lanes, lane_bits: bits, isa: p.isa() };
    let stimulus = super::stimulus::alu_stimulus(lanes, bits);
    let name = format!("lane_alu_{}", p.name);
    differential_via_verilog(&name, || B::lane_alu().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's check: every op code, undefined ones included.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("lane ALU", differential::<B>).covering(|rec, _| every_op_code(rec))]
}

/// A run of the lane ALUs offered every op code (`op` and `op_high`, the first two inputs: 32
/// codes), undefined ones included, more than 10 times.
pub fn every_op_code(rec: &Recorded) -> Result<()> {
    let mut seen = [0usize; 32];
    rec.inputs.iter().for_each(|i| seen[(i[0] | i[1] << 4) as usize] += 1);
    anyhow::ensure!(seen.iter().all(|&n| n > 10), "op codes seen: {seen:?}");
    Ok(())
}
