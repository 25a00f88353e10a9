//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::{IBufferIn, IBufferOut};
use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `IBuffer<W, WW, A>`: the scheduler's warps and pc width.
    type IBuffer: Dut + 'static;
    /// `IBufferRam<W, WW, A>`: the same, in block RAM.
    type IBufferRam: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn ibuffer() -> Result<Self::IBuffer>;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn ibuffer_ram() -> Result<Self::IBufferRam>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::core::ibuffer::preset::AtPreset for $B {
            type IBuffer = $crate::sized_ibuffer!($S);
            type IBufferRam = $crate::sized_ibuffer_ram!($S);
            fn ibuffer() -> $crate::__anyhow::Result<Self::IBuffer> {
                <$crate::sized_ibuffer!($S)>::new()
            }
            fn ibuffer_ram() -> $crate::__anyhow::Result<Self::IBufferRam> {
                <$crate::sized_ibuffer_ram!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The SIMT core's I-buffer, in registers and in block RAM.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![
        entry::<B, _>("ibuffer", "IBuffer",
            "the SIMT core's per-warp instruction buffer: two slots per warp, fill, issue of the oldest, flush, misuse flags", vec![],
            B::ibuffer, differential::<B>, Some(super::PROPERTIES)),
        entry::<B, _>("ibuffer_ram", "IBufferRam",
            "the pipelined SIMT core's I-buffer: the same two slots per warp in block RAM, its head shown a cycle after it is named", vec![],
            B::ibuffer_ram, ram_differential::<B>, Some(super::RAM_PROPERTIES)),
    ]
}

/// The I-buffer at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::IBufferModel::new(p.warps);
    let stimulus = super::stimulus::ibuffer_stimulus(p.warps, p.pc_width);
    let name = format!("ibuffer_{}", B::PRESET.name);
    run_differential(&name, || B::ibuffer().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The I-buffer in block RAM against the I-buffer's model with its head registered.
pub fn ram_differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::IBufferModel::registered(p.warps);
    let stimulus = super::stimulus::ibuffer_stimulus(p.warps, p.pc_width);
    let name = format!("ibuffer_ram_{}", B::PRESET.name);
    run_differential(&name, || B::ibuffer_ram().unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's checks: in flip-flops and in block RAM, each reaching a full warp
/// issued and filled in one cycle, flushes of a non-empty buffer, fills of a full one and issues
/// from an empty one.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![
        Check::new("ibuffer", differential::<B>).covering(|rec, _| coverage(rec)),
        Check::new("ibuffer_ram", ram_differential::<B>).covering(|rec, _| coverage(rec)),
    ]
}

fn coverage(rec: &Recorded) -> Result<()> {
    let (mut full_swap, mut flushed, mut fill_full, mut issue_empty) = (0, 0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (IBufferIn::from_words(i), IBufferOut::from_words(o));
        if i.reset == 1 {
            continue;
        }
        let has_space = |w: u64| o.space >> w & 1 == 1;
        let has_head = |w: u64| o.head_valid >> w & 1 == 1;
        full_swap += (i.fill_valid == 1
            && i.issue_valid == 1
            && i.fill_warp == i.issue_warp
            && !has_space(i.fill_warp)) as usize;
        flushed += (i.flush_valid == 1 && has_head(i.flush_warp)) as usize;
        fill_full += (i.fill_valid == 1
            && !has_space(i.fill_warp)
            && !(i.issue_valid == 1 && i.issue_warp == i.fill_warp)) as usize;
        issue_empty += (i.issue_valid == 1 && !has_head(i.issue_warp)) as usize;
    }
    anyhow::ensure!(
        full_swap > 100 && flushed > 100 && fill_full > 10 && issue_empty > 10,
        "coverage: full warp issued and filled {full_swap}, flushes {flushed}, fills of full {fill_full}, issues of empty {issue_empty}"
    );
    Ok(())
}
