//! The harness every block uses, and the bottom of the verification stack: the port-level view
//! of a rust-hdl block ([`Dut`]), cycle-level reference models ([`CycleModel`]) on named port
//! structs ([`PortStruct`]), seeded random stimulus ([`Rng`]), the fast single-threaded
//! differential runner ([`differential`]) and the runner for the exported Verilog under iverilog
//! and Verilator ([`verilog_sim`]), and the description of a block's formal properties
//! ([`Properties`]). It imports nothing of the crate but `params`.
//!
//! One cycle, everywhere (Rust simulation, models, Verilog testbenches): drive the inputs with
//! the clock low, let the logic settle, sample every output, then one rising clock edge.

pub mod differential;
pub mod dut;
pub mod rng;
pub mod verilog_sim;

pub use differential::{run_differential, Recorded};
pub use dut::{Dut, Port, PortStruct, Word};
pub use rng::Rng;

/// Cycles for a test run: the environment variable `var` when set, else `default`. A value that
/// is not a positive whole number is an error naming the variable.
pub fn cycles_from_env(var: &str, default: usize) -> anyhow::Result<usize> {
    match std::env::var(var) {
        Err(_) => Ok(default),
        Ok(text) => match text.trim().replace('_', "").parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => anyhow::bail!("`{var}` = {text:?} must be a positive whole number of cycles"),
        },
    }
}

/// A cycle-level reference model of a block, working on the block's port values (one `u64` per
/// port, in the block's port order).
pub trait CycleModel {
    /// The outputs in this cycle, before the clock edge, for these inputs.
    fn outputs(&self, inputs: &[u64]) -> Vec<u64>;
    /// One rising clock edge with these inputs.
    fn step(&mut self, inputs: &[u64]);
}

/// Declares a struct of port values, one `u64` field per port in the block's port order, with
/// its conversion to and from the word vectors the runners use.
#[macro_export]
macro_rules! port_struct {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* $field:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name { $($(#[$fm])* pub $field: u64,)* }
        impl $crate::sim::PortStruct for $name {
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
            fn from_words(words: &[u64]) -> Self {
                let mut it = words.iter().copied();
                Self { $($field: it.next().expect("one word per port"),)* }
            }
            fn to_words(&self) -> Vec<u64> {
                vec![$(self.$field),*]
            }
        }
    };
}

/// A block's formal properties, stated in the block's folder: the SystemVerilog wrapper beside
/// the block, the wrapper module in it and the wrapper's parameters for a preset.
#[derive(Clone, Copy)]
pub struct Properties {
    /// The properties file, relative to the crate root.
    pub properties: &'static str,
    /// The wrapper module in it.
    pub wrapper: &'static str,
    /// The wrapper's parameters for a preset.
    pub parameters: fn(&crate::params::Preset) -> Vec<(&'static str, usize)>,
}
