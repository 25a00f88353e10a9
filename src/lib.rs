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
//! | 0 | [`params`], [`protocol`] | parameters, their rules and the presets; the host link's wire format |
//! | 1 | [`sim`] | the harness every block is checked with ([`sim::Dut`], [`sim::CycleModel`], named port structs, seeded random numbers, the differential runner, Verilog simulation, [`sim::Properties`]) |
//! | 2 | [`isa`], [`export`] | the SIMT core's instruction set, assembler, reference interpreter and random programs; one block to one Verilog file, and the registry's [`export::Entry`] |
//! | 3 | [`hw`] | the IP by subsystem, one folder per block: its rust-hdl hardware, cycle model, stimulus and formal properties side by side |
//! | 4 | [`link`] | the host's side of the serial link |
//! | 5 | [`boards`] | the boards' pins and clocks, and the tops that put the IP on them |
//! | 6 | [`bench`](mod@bench), [`demo`] | the collector benchmark; the scheduler demo |
//! | 7 | [`verify`] | the collector's closed loop, kernel runs, the cu core's Verilator engine |
//! | 8 | [`registry`] | every block folder once: the presets as block types, every exported block's entry |
//! | 9 | [`flow`] | `gen`, yosys, nextpnr, icepack, Vivado, report, prove, soak, speed |
//! | 10 | `commands` | one handler per subcommand, with its flags (the `cli` feature) |
//!
//! The command line (`main.rs`) sits on top: it parses the arguments and calls a handler.
//!
//! # Entry points for a library user
//!
//! (The book's "Using the blocks as a library" page, and `examples/front_end.rs`.)
//!
//! - Sizes: [`params::Sizes::new`] in a `const`, then one `sized_<block>!` macro per block for
//!   its type (for example [`sized_operand_collector!`]); [`params::Sizes::checked`] at run time.
//! - Blocks: [`hw`] (each block's `new()` checks its sizes again), and their cycle models beside
//!   them (`hw::<subsystem>::<block>::model`).
//! - The harness: [`sim::run_differential`], [`sim::CycleModel`], [`sim::Dut`] with
//!   [`dut_ports!`], [`sim::verilog_sim`] for iverilog and Verilator runs.
//! - Export: [`export::export_module`].
//! - Kernels on a core of one's own sizes: [`verify::core_run::run_rust_hdl_on`].
//! - [`rust_hdl`], the version the blocks are written in.
//!
//! Every public item of [`params`], [`hw`], [`isa`], [`sim`], [`export`] and [`verify`] is
//! documented, every block's ports and every model's fields among them: the build fails on one
//! that is not (`#[deny(missing_docs)]` on each). The SIMT core's, the warp scheduler's and the
//! host link's internal stages (the issue stage, the branch unit, ...) are not public: a user
//! takes the block whole.
//!
//! The tool flows (`flow`, with the `flows` feature), the boards' tops ([`boards`]) and the
//! command handlers (`commands`, with the `cli` feature) serve the `simt-rtl` program; they are public for it and for the tests, not a
//! stable library interface.
//!
//! # The chain of checks
//!
//! A block's rust-hdl description is simulated against its model on seeded random stimulus
//! (`tests/differential.rs`); its exported Verilog is simulated under iverilog and Verilator on
//! the same stimulus (`tests/verilog_equivalence.rs`), linted, and synthesized without latches
//! (`tests/verilog_checks.rs`); its properties are proven on the exported Verilog
//! (`tests/formal.rs`); and the board flow builds and times the bitstream
//! (`tests/board_build.rs`).

#[doc(hidden)]
pub use anyhow as __anyhow;
/// The rust-hdl this crate's blocks are written in, for a user's own top (and for this crate's
/// exported macros).
pub use rust_hdl;

pub mod bench;
pub mod boards;
#[cfg(feature = "cli")]
pub mod commands;
pub mod demo;
#[deny(missing_docs)]
pub mod export;
#[cfg(feature = "flows")]
pub mod flow;
#[deny(missing_docs)]
pub mod hw;
#[deny(missing_docs)]
pub mod isa;
pub mod link;
#[deny(missing_docs)]
pub mod params;
pub mod protocol;
pub mod registry;
#[deny(missing_docs)]
pub mod sim;
#[deny(missing_docs)]
pub mod verify;
