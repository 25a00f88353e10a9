//! The IP: every block as rust-hdl hardware, one folder per block, grouped by subsystem. A
//! block's folder holds its hardware (`mod.rs`), its plain-Rust cycle model (`model.rs`, written
//! from the seeds' algorithms, not from the rust-hdl code), its constrained-random stimulus
//! (`stimulus.rs`) and its formal properties (`<block>.sv`) side by side.
//!
//! | subsystem | what its blocks do |
//! |---|---|
//! | [`common`] | what the others are built from: encoders, arbiters, test-pattern registers, RAM |
//! | [`scheduler`] | warps and their SIMT stacks (seed 003) |
//! | [`collector`] | GPGPU-Sim's banked register file and operand collector (seeds 000, 002) |
//! | [`core`] | the front end's stages (seed 001) and the SIMT core that joins every subsystem |
//! | [`lds`] | the local data share (seed 004) |
//! | [`link`] | the serial host link |
//!
//! Each subsystem's `mod.rs` re-exports its blocks (and the models it names), and those are
//! re-exported here whole: a block is `crate::hw::<Block>`, its model `crate::hw::<Block>Model`;
//! the registry (`crate::registry`) lists the blocks.
//!
//! The board tops that wrap these blocks live apart, in [`crate::boards`].

pub mod collector;
pub mod common;
pub mod core;
pub mod lds;
pub mod link;
pub mod scheduler;

pub use self::collector::*;
pub use self::common::*;
pub use self::core::*;
pub use self::lds::*;
pub use self::link::*;
pub use self::scheduler::*;
