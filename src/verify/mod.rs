//! The suites built on the blocks: the operand collector's closed loop, the SIMT core's kernel
//! and program runs and what a kernel left, and the cu core's board top as Verilog under
//! Verilator (the fast engine). Each block's own differential run is in its folder.

pub mod collector_env;
pub mod core_run;
pub mod fast_engine;
pub mod kernel_results;
