//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::LinkOut;
use crate::export::entry::entry_at;
use crate::export::{Check, Entry};
use crate::params::{CoreParams, PresetSizes, CORE_CU, CORE_SEED};
use crate::sim::{run_differential, PortStruct, Recorded};

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::link::host_link::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The host link of the `cu-core`'s board top (presets whose core is the `cu-core`).
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    match crate::hw::core::simt_core::preset::core_preset::<B>() {
        Some((core, sizes)) if core == CORE_CU => vec![entry_at(sizes, "host_link", "HostLink",
            "host link: the serial protocol engine between the UART and the SIMT core (writes, start, status, write-back capture)",
            vec![("Protocol", super::link_protocol(&core))],
            super::HostLinkCu::new, differential::<B>, Some(super::PROPERTIES))],
        _ => vec![],
    }
}

/// The host link of preset `B`'s core against its model.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    if B::PRESET.core != Some(CORE_CU) {
        anyhow::bail!(
            "preset `{}` has no host link (only the `{}` core has a board)",
            B::PRESET.name,
            CORE_CU.name
        );
    }
    let name = format!("host_link_{}", B::PRESET.name);
    differential_of(&CORE_CU, &name, super::HostLinkCu::new, seed, cycles)
}

/// The seed core's host link (records of 133 bytes: 32 lanes of 32 bits, their mask, register
/// and warp) against its model: the link of the seed preset's core, which its board top
/// (`CoreBoardSeed`, built for the Verilator engine) carries; it is not exported.
pub fn differential_seed(seed: u64, cycles: usize) -> Result<Recorded> {
    let name = format!("host_link_{}", CORE_SEED.name);
    differential_of(&CORE_SEED, &name, super::HostLinkSeed::new, seed, cycles)
}

/// Core `core`'s host link, as `make` builds it, against its model.
fn differential_of<L: crate::sim::Dut>(
    core: &CoreParams,
    name: &str,
    make: fn() -> Result<L>,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = super::model::HostLinkModel::new(super::model::HostLinkSizes::of(core));
    make()?;
    let stimulus = super::stimulus::host_link_stimulus();
    run_differential(name, || make().expect("built once above"), &mut model, seed, cycles, stimulus)
}

/// The traffic of a run exercised every command and every error flag: per million cycles, over
/// 1,000 words written, 100 starts, 10 core resets and 10,000 cycles answering.
fn exercised(rec: &Recorded) -> Result<()> {
    let outs: Vec<LinkOut> = rec.outputs.iter().map(|o| LinkOut::from_words(o)).collect();
    let count = |f: fn(&LinkOut) -> bool| outs.iter().filter(|o| f(o)).count();
    let (writes, starts, resets, replies) = (
        count(|o| o.imem_write_valid == 1),
        count(|o| o.start == 1),
        count(|o| o.core_reset == 1),
        count(|o| o.tx_valid == 1),
    );
    let flags = outs.iter().fold(0, |a, o| a | o.link_errors);
    let per_million = |n: usize| n * 1_000_000 / outs.len().max(1);
    anyhow::ensure!(
        per_million(writes) > 1000
            && per_million(starts) > 100
            && per_million(resets) > 10
            && per_million(replies) > 10_000
            && flags == 0b1111,
        "the traffic exercised too little: in {} cycles, {writes} words written, {starts} starts, {resets} core resets, {replies} cycles answering, flags seen {flags:#b}",
        outs.len()
    );
    Ok(())
}

/// The differential suite's checks: the link of the preset's core, the `cu-core`'s (exported)
/// or the `seed-core`'s (a check only): words written, starts, core resets, answers, and every
/// error flag.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let run: fn(u64, usize) -> Result<Recorded> = match B::PRESET.core {
        Some(core) if core == CORE_CU => differential::<B>,
        Some(core) if core == CORE_SEED => differential_seed,
        _ => return vec![],
    };
    vec![Check::new("host_link", run).covering(|rec, _| exercised(rec))]
}
