//! The registry's entry for one exported block: its module, how it is built and exported, its
//! differential run and its formal properties. Each block's folder makes its entries (its
//! `preset.rs`); the registry lists the folders.

use anyhow::Result;

use super::write::export_new;
use super::ExportedBlock;
use crate::params::{Preset, PresetSizes};
use crate::sim::{Dut, Properties, Recorded};

/// One exported block of one preset.
pub struct Entry {
    /// The Verilog module (and file) name.
    pub module: &'static str,
    export: Box<dyn Fn() -> Result<ExportedBlock>>,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
}

impl Entry {
    /// The block's Verilog, header and ports.
    pub fn export(&self) -> Result<ExportedBlock> {
        (self.export)()
    }
    /// The block against its model for `cycles` cycles of its stimulus from `seed`.
    /// It runs on a thread with a large stack ([`crate::sim::on_large_stack`]).
    pub fn differential(&self, seed: u64, cycles: usize) -> Result<Recorded> {
        let run = self.differential;
        crate::sim::on_large_stack(move || run(seed, cycles))?
    }
    /// Its formal properties, if it has any.
    pub fn formal(&self) -> Option<FormalBlock> {
        self.properties.map(|p| p.of(self.module))
    }
}

/// An entry: `make` builds the block `block` of preset `B`, exported as `module` with `summary`
/// and the `header` lines; `differential` is its run against its model.
#[allow(clippy::too_many_arguments)] // one per column of the registry
pub fn entry<B: PresetSizes, D: Dut + 'static>(
    module: &'static str,
    block: &'static str,
    summary: &str,
    header: Vec<(&'static str, String)>,
    make: impl Fn() -> Result<D> + 'static,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
) -> Entry {
    entry_at(B::PRESET, module, block, summary, header, make, differential, properties)
}

/// As [`entry`], its header stating the sizes of `preset` (the SIMT core's own, for the core
/// and the board top around it).
#[allow(clippy::too_many_arguments)] // one per column of the registry
pub fn entry_at<D: Dut + 'static>(
    preset: Preset,
    module: &'static str,
    block: &'static str,
    summary: &str,
    header: Vec<(&'static str, String)>,
    make: impl Fn() -> Result<D> + 'static,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
) -> Entry {
    let summary = summary.to_string();
    let export = move || export_new(&preset, &make, module, block, &summary, &header);
    Entry { module, export: Box::new(export), differential, properties }
}

/// A block with formal properties, as `prove` checks it.
#[derive(Clone, Copy)]
pub struct FormalBlock {
    /// The exported module (`rtl_out/<preset>/<module>.v`).
    pub module: &'static str,
    /// The properties file, relative to the crate root.
    pub properties: &'static str,
    /// Its text, built into the crate.
    pub text: &'static str,
    /// The wrapper module in it.
    pub wrapper: &'static str,
    /// The wrapper's parameters for a preset.
    pub parameters: fn(&Preset) -> Vec<(&'static str, usize)>,
}

impl Properties {
    /// The properties of the exported module `module`.
    pub fn of(self, module: &'static str) -> FormalBlock {
        let Properties { properties, text, wrapper, parameters } = self;
        FormalBlock { module, properties, text, wrapper, parameters }
    }
}
