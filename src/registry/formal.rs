//! A block's formal properties under its exported module's name. Each block states its
//! [`Properties`] in its own folder (`PROPERTIES` beside `<block>.sv`); its registry entry
//! names them, and `simt-rtl prove` and `tests/formal.rs` take them from the registry.

use crate::params::Preset;
pub use crate::sim::Properties;

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
