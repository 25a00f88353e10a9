//! Verilog export: turns a rust-hdl block into one self-contained Verilog file with a meaningful
//! top module name, deduplicated child modules and a header that states every parameter.
//! Writing a preset's blocks and `manifest.json` into `rtl_out/` is `flow::gen`'s. Also the
//! registry's [`Entry`] (what each block's folder states about an exported module) and the
//! differential run that replays its long tail on the exported Verilog.

pub mod declared;
pub mod entry;
pub mod replay;
pub mod verilog;
pub mod write;

pub use entry::{Check, Entry, FormalBlock, Reference};
pub use replay::{check_exported, differential_dir, differential_via_verilog, RUST_HDL_CYCLES};
pub use verilog::export_module;
pub use write::ExportedBlock;

/// The waivers that `verilator --lint-only -Wall` needs on every exported file
/// (`sim/verilator_waivers.vlt`, every waiver with its reason: rust-hdl's 32-bit literals give
/// WIDTH, its settled combinational loops UNOPTFLAT), built into the crate: write it beside your
/// Verilog and pass it to Verilator first (`verilator --lint-only -Wall waivers.vlt block.v`).
pub const VERILATOR_WAIVERS: &str = include_str!("../../sim/verilator_waivers.vlt");
