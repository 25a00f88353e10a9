//! Verilog export: turns a rust-hdl block into one self-contained Verilog file with a meaningful
//! top module name, deduplicated child modules and a header that states every parameter.
//! Writing a preset's blocks and `manifest.json` into `rtl_out/` is `flow::gen`'s. Also the
//! registry's [`Entry`] (what each block's folder states about an exported module) and the
//! differential run that replays its long tail on the exported Verilog.

pub mod entry;
pub mod replay;
pub mod verilog;
pub mod write;

pub use entry::{Check, Entry, FormalBlock, Reference};
pub use replay::{check_exported, differential_dir, differential_via_verilog, RUST_HDL_CYCLES};
pub use verilog::export_module;
pub use write::ExportedBlock;
