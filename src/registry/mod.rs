//! The registry: every block folder once, in manifest order. Each folder's `preset.rs` states
//! the block's type at a preset's sizes and its entries: the Verilog module, the rust-hdl block
//! and what it is in one line, how it is built, its random differential run (the block against
//! its reference model, on its stimulus) and its formal properties. The registry makes every
//! folder's types for every preset and lists their entries; `gen` and the manifest, the
//! differential, exported-Verilog, soak and speed suites, and `prove` all iterate [`entries`].
//!
//! Adding a block: its folder, then one line in the list below (see the book's "Adding a block").

use anyhow::{bail, Result};

use crate::export::ExportedBlock;
pub use crate::export::{Check, Entry, FormalBlock, Reference};
pub use crate::params::PresetSizes;
use crate::params::{Preset, Sizes, CU, SEED, TINY};
use crate::sim::Recorded;

/// The registry: from the folders listed (paths under the crate root, in manifest order), the
/// presets' block types ([`PresetBlocks`]) and every preset's entries ([`entries`]).
macro_rules! registry {
    ($($($folder:ident)::+),+ $(,)?) => {
        /// The blocks of one preset: every folder's types at its sizes.
        pub trait PresetBlocks: PresetSizes $(+ crate::$($folder)::+::preset::AtPreset)+ {}
        impl<B: PresetSizes $(+ crate::$($folder)::+::preset::AtPreset)+> PresetBlocks for B {}

        /// Every exported block of preset `B`, in manifest order.
        pub fn entries<B: PresetBlocks>() -> Vec<Entry> {
            let mut list = vec![];
            $(list.extend(crate::$($folder)::+::preset::entries::<B>());)+
            list
        }

        /// Every block folder's differential checks at preset `B` (the differential suite's),
        /// each folder named by its path under the crate root (`hw::core::scoreboard`).
        pub fn checks<B: PresetBlocks>() -> Vec<(String, Vec<Check>)> {
            vec![$((
                stringify!($($folder)::+).replace(' ', ""),
                crate::$($folder)::+::preset::checks::<B>(),
            )),+]
        }

        /// Every block folder (its path under the crate root, `hw::core::scoreboard`) with the
        /// modules it exports at preset `B`.
        pub fn folders<B: PresetBlocks>() -> Vec<(String, Vec<&'static str>)> {
            vec![$((
                stringify!($($folder)::+).replace(' ', ""),
                crate::$($folder)::+::preset::entries::<B>().iter().map(|e| e.module).collect(),
            )),+]
        }

        preset_type!(SeedBlocks = SEED, SEED_SIZES; $($($folder)::+),+);
        preset_type!(CuBlocks = CU, CU_SIZES; $($($folder)::+),+);
        preset_type!(TinyBlocks = TINY, TINY_SIZES; $($($folder)::+),+);
    };
}

/// A preset as a type: every listed folder's blocks at its sizes.
macro_rules! preset_type {
    ($name:ident = $preset:ident, $sizes:ident; $($($folder:ident)::+),+) => {
        #[doc = concat!("The const generics of the `", stringify!($preset), "` preset's blocks.")]
        pub const $sizes: Sizes = Sizes::of(&$preset);
        #[doc = concat!("The blocks of the `", stringify!($preset), "` preset.")]
        pub struct $name;
        impl PresetSizes for $name {
            const PRESET: Preset = $preset;
        }
        $(crate::$($folder)::+::preset::at_preset!($name, $sizes);)+
    };
}

registry!(
    hw::common::priority_encoder,
    hw::common::round_robin,
    hw::common::active_lanes,
    hw::scheduler::simt_stack,
    hw::scheduler::simt_stack_ram,
    hw::scheduler::warp_scheduler,
    hw::collector::bank_arbiter,
    hw::collector::register_map,
    hw::collector::register_file,
    hw::common::lfsr,
    boards::board_reset,
    hw::link::uart,
    hw::lds::local_data_share,
    hw::core::scoreboard,
    hw::core::barrier,
    hw::core::ibuffer,
    hw::core::decoder,
    hw::core::lane_alu,
    hw::collector::operand_collector,
    hw::core::simt_core,
    hw::link::host_link,
    boards::core_board,
    boards::self_test,
);

/// Runs `$body` with `$B` bound to the [`PresetBlocks`] type of the preset named `$name`; an
/// unknown name is an error naming the known presets.
#[macro_export]
macro_rules! with_preset {
    ($name:expr, $B:ident => $body:expr) => {{
        match $crate::params::preset($name)?.name {
            "seed" => {
                type $B = $crate::registry::SeedBlocks;
                $body
            }
            "cu" => {
                type $B = $crate::registry::CuBlocks;
                $body
            }
            "tiny" => {
                type $B = $crate::registry::TinyBlocks;
                $body
            }
            other => unreachable!("preset `{other}` has no block types"),
        }
    }};
}

/// The entry of exported module `module` of preset `B`; an unknown module is an error naming
/// the preset's modules.
pub fn entry_of<B: PresetBlocks>(module: &str) -> Result<Entry> {
    let mut all = entries::<B>();
    match all.iter().position(|e| e.module == module) {
        Some(i) => Ok(all.swap_remove(i)),
        None => {
            let known: Vec<_> = all.iter().map(|e| e.module).collect();
            bail!(
                "preset `{}` exports no module `{module}` (it exports {})",
                B::PRESET.name,
                known.join(", ")
            )
        }
    }
}

/// Every exported block of preset `B`, built and exported, in manifest order.
pub fn exported_blocks<B: PresetBlocks>() -> Result<Vec<ExportedBlock>> {
    entries::<B>().iter().map(Entry::export).collect()
}

/// The blocks of preset `B` with formal properties.
pub fn formal_blocks<B: PresetBlocks>() -> Vec<FormalBlock> {
    entries::<B>().iter().filter_map(Entry::formal).collect()
}

/// The differential run of exported module `module` of preset `B` ([`Entry::differential`]).
pub fn differential<B: PresetBlocks>(module: &str, seed: u64, cycles: usize) -> Result<Recorded> {
    entry_of::<B>(module)?.differential(seed, cycles)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of every preset builds and exports: each `new()` checks its const generics
    /// against the preset (`check_derived`).
    fn check<B: PresetBlocks>() {
        for e in entries::<B>() {
            e.export().unwrap_or_else(|err| panic!("{} at {}: {err:#}", e.module, B::PRESET.name));
        }
    }

    #[test]
    fn every_block_of_every_preset_builds() {
        check::<SeedBlocks>();
        check::<CuBlocks>();
        check::<TinyBlocks>();
    }
}
