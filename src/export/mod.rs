//! Verilog export: turns a rust-hdl block into one self-contained Verilog file with a meaningful
//! top module name, deduplicated child modules and a header that states every parameter.
//! Writing a preset's blocks and `manifest.json` into `rtl_out/` is `flow::gen`'s.

pub mod verilog;
pub mod write;

pub use verilog::export_module;
pub use write::ExportedBlock;
