//! simt-rtl: the front end of a SIMT GPU core as synthesizable hardware in rust-hdl, each block
//! checked against a cycle-level reference model and exported as Verilog (`rtl_out/`). The
//! book under `docs/` describes the blocks, the boards and the checks; this page is the map of
//! the code.
//!
//! # Layers
//!
//! Imports go one way, downwards. A module may use only the modules of the layers below its
//! own (`tests/layering.rs` checks this on every test run):
//!
//! | layer | modules | what they hold |
//! |---|---|---|
//! | 0 | [`params`], [`protocol`], [`board`], [`sim`] | parameters, their rules and the presets; the host link's wire format; the boards' pins; the harness every block is checked with ([`sim::Dut`], [`sim::CycleModel`], named port structs, the differential runner, Verilog simulation) |
//! | 1 | [`isa`] | the SIMT core's instruction set, assembler and reference interpreter |
//! | 2 | [`blocks`] | the rust-hdl hardware, one file per block, formal properties beside it |
//! | 3 | [`model`] | the plain-Rust cycle models, one per block |
//! | 4 | [`preset_blocks`], [`export`] | the presets as concrete block types; one block to one Verilog file |
//! | 5 | [`link`], [`bench`], [`demo`] | the host's side of the serial link; the collector benchmark; the scheduler demo |
//! | 6 | [`verify`] | each block's stimulus and differential run, the collector's closed loop, kernel runs |
//! | 7 | [`registry`] | every exported block once: module, constructor, differential run, properties |
//! | 8 | [`flow`] | `gen`, yosys, nextpnr, icepack, Vivado, report, prove, soak, speed |
//!
//! The command line (`main.rs`) sits on top and only parses arguments and calls these.
//!
//! # The chain of checks
//!
//! A block's rust-hdl description is simulated against its model on seeded random stimulus
//! (`tests/differential.rs`); its exported Verilog is simulated under iverilog and Verilator on
//! the same stimulus (`tests/verilog_equivalence.rs`), linted, and synthesized without latches
//! (`tests/verilog_checks.rs`); its properties are proven on the exported Verilog
//! (`tests/formal.rs`); and the board flow builds and times the bitstream
//! (`tests/board_build.rs`).

pub mod bench;
pub mod blocks;
pub mod board;
pub mod demo;
pub mod export;
pub mod flow;
pub mod isa;
pub mod link;
pub mod model;
pub mod params;
pub mod preset_blocks;
pub mod protocol;
pub mod registry;
pub mod sim;
pub mod verify;
