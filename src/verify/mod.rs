//! The suites built on the harness ([`crate::sim`]): each block's stimulus, its differential run
//! at a preset, the operand collector's closed loop, the SIMT core's kernel and program runs and what a kernel left, and
//! the board top driven through its serial lines (in rust-hdl, and as Verilog under Verilator: the
//! fast engine).

pub mod collector_env;
pub mod core_run;
pub mod fast_engine;
pub mod kernel_results;
pub mod suites;
