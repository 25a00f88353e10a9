//! The registry's entry for one exported block: its module, how it is built and exported, its
//! differential run and its formal properties. Each block's folder makes its entries (its
//! `preset.rs`); the registry lists the folders.

use anyhow::Result;

use super::write::export_new;
use super::ExportedBlock;
use crate::params::{Preset, PresetSizes};
use crate::sim::{Dut, Properties, Recorded};

/// One exported block of one preset.
pub struct Entry {
    /// The Verilog module (and file) name.
    pub module: &'static str,
    export: Box<dyn Fn() -> Result<ExportedBlock> + Send + Sync>,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
    /// The preset's board top: what the board flows and the FuseSoC core's board target build.
    pub board_top: bool,
    /// Verilog this block is equal to that the crate does not export (the seed's own).
    pub reference: Option<Reference>,
    /// Its equality with its iCE40 netlist closes by induction in seconds, so the synthesis
    /// equivalence suite proves it on every run (`prove --synth` proves every block).
    pub quick_synthesis_proof: bool,
    /// How the test run's synthesis check (`tests/verilog_checks.rs`) treats it.
    pub synthesis_in_tests: TestSynthesis,
    /// At most this many cycles of its differential run are replayed on its Verilog in the test
    /// run (the seed-size core: its rust-hdl simulation runs at hundreds of cycles per second).
    pub replay_cycles_in_tests: Option<usize>,
    /// Its differential run goes through its Verilog: the rust-hdl block beside its model for
    /// the first [`RUST_HDL_CYCLES`](super::RUST_HDL_CYCLES), the whole run replayed on
    /// Verilator ([`differential_via_verilog`](super::differential_via_verilog)).
    pub replayed_on_verilator: bool,
}

/// How the test run's synthesis check treats a block: every block gets yosys's latch and
/// structure checks (`flow::check_structure`); most are also mapped to iCE40 cells there
/// (`flow::synth_ice40`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestSynthesis {
    /// Mapped to iCE40 cells by the synthesis check.
    Mapped,
    /// Too large to map within the test run (not a board target, and many minutes to map):
    /// latch and structure checks only.
    StructureOnly,
    /// A board top that the board-build tests (`tests/board_build.rs`) map to iCE40 cells, with
    /// the same latch check, on its way to a bitstream: not mapped a second time.
    MappedByBoardBuild,
}

/// Verilog that a block is equal to, port for port, but that the crate does not write: the
/// seed's own `WarpScheduler`, copied verbatim. `report` measures it beside the block, and the
/// seed-equivalence test drives both with the same stimulus.
#[derive(Clone, Copy)]
pub struct Reference {
    /// What it is, the start of its rows in `report`'s table.
    pub name: &'static str,
    /// The file, relative to the crate root.
    pub source: &'static str,
    /// Its text, built into the crate.
    pub text: &'static str,
    /// Its top module.
    pub top: &'static str,
    /// The sizes `report` measures it at for a preset: each a row label and the yosys commands
    /// that set its parameters (after which the top must be named `top` again).
    pub designs: fn(&Preset) -> Vec<(String, String)>,
    /// A run of the block against its model on stimulus the reference is defined for (its
    /// inputs are what both are driven with), `cycles` cycles from `seed`.
    pub run: fn(u64, usize) -> Result<Recorded>,
}

impl Entry {
    /// This entry marked as its preset's board top.
    pub fn as_board_top(self) -> Entry {
        Entry { board_top: true, ..self }
    }
    /// This entry with its synthesis equivalence proven on every test run.
    pub fn with_quick_synthesis_proof(self) -> Entry {
        Entry { quick_synthesis_proof: true, ..self }
    }
    /// This entry checked for latches and structure only in the test run, not mapped, at a
    /// preset without a board clock (the seed's sizes: no board target, and mapping the operand
    /// collector or its bank arbiter there takes minutes); mapped everywhere else.
    pub fn structure_only_in_tests_without_board(self, preset: &Preset) -> Entry {
        match preset.board_clock_mhz {
            None => Entry { synthesis_in_tests: TestSynthesis::StructureOnly, ..self },
            Some(_) => self,
        }
    }
    /// This entry, a board top, mapped by the board-build tests rather than the synthesis check
    /// ([`TestSynthesis::MappedByBoardBuild`]).
    pub fn mapped_by_board_build(self) -> Entry {
        Entry { synthesis_in_tests: TestSynthesis::MappedByBoardBuild, ..self }
    }
    /// This entry with at most `cycles` cycles replayed on its Verilog in the test run.
    pub fn with_replay_cycles_in_tests(self, cycles: usize) -> Entry {
        Entry { replay_cycles_in_tests: Some(cycles), ..self }
    }
    /// This entry with its differential run replayed on Verilator (see the field).
    pub fn replayed_on_verilator(self) -> Entry {
        Entry { replayed_on_verilator: true, ..self }
    }
    /// This entry with the Verilog it is equal to.
    pub fn with_reference(self, reference: Reference) -> Entry {
        Entry { reference: Some(reference), ..self }
    }
    /// The block's Verilog, header and ports, built on a thread with a large stack (the
    /// seed-size core takes more than a test thread's 2 MiB to build).
    pub fn export(&self) -> Result<ExportedBlock> {
        crate::sim::on_large_stack(|| (self.export)())?
    }
    /// The block against its model for `cycles` cycles of its stimulus from `seed` (a board top
    /// without a model: its own run, recorded).
    /// It runs on a thread with a large stack ([`crate::sim::on_large_stack`]).
    pub fn differential(&self, seed: u64, cycles: usize) -> Result<Recorded> {
        let run = self.differential;
        crate::sim::on_large_stack(move || run(seed, cycles))?
    }
    /// Its formal properties, if it has any.
    pub fn formal(&self) -> Option<FormalBlock> {
        self.properties.map(|p| p.of(self.module))
    }
}

/// An entry: `make` builds the block `block` of preset `B`, exported as `module` with `summary`
/// and the `header` lines; `differential` is its run against its model.
#[allow(clippy::too_many_arguments)] // one per column of the registry
pub fn entry<B: PresetSizes, D: Dut + 'static>(
    module: &'static str,
    block: &'static str,
    summary: &str,
    header: Vec<(&'static str, String)>,
    make: impl Fn() -> Result<D> + Send + Sync + 'static,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
) -> Entry {
    entry_at(B::PRESET, module, block, summary, header, make, differential, properties)
}

/// As [`entry`], its header stating the sizes of `preset` (the SIMT core's own, for the core
/// and the board top around it).
#[allow(clippy::too_many_arguments)] // one per column of the registry
pub fn entry_at<D: Dut + 'static>(
    preset: Preset,
    module: &'static str,
    block: &'static str,
    summary: &str,
    header: Vec<(&'static str, String)>,
    make: impl Fn() -> Result<D> + Send + Sync + 'static,
    differential: fn(u64, usize) -> Result<Recorded>,
    properties: Option<Properties>,
) -> Entry {
    let summary = summary.to_string();
    let export = move || export_new(&preset, &make, module, block, &summary, &header);
    Entry {
        module,
        export: Box::new(export),
        differential,
        properties,
        board_top: false,
        reference: None,
        quick_synthesis_proof: false,
        synthesis_in_tests: TestSynthesis::Mapped,
        replay_cycles_in_tests: None,
        replayed_on_verilator: false,
    }
}

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
    /// What the formal suite checks of them ([`crate::sim::Claim`]).
    pub claims: &'static [crate::sim::Claim],
    /// The broken variants of the Verilog they catch.
    pub mutants: &'static [crate::sim::Mutant],
}

impl Properties {
    /// The properties of the exported module `module`.
    pub fn of(self, module: &'static str) -> FormalBlock {
        let Properties { properties, text, wrapper, parameters, claims, mutants } = self;
        FormalBlock { module, properties, text, wrapper, parameters, claims, mutants }
    }
}

/// A run of a block against its model.
type Run = Box<dyn Fn(u64, usize) -> Result<Recorded> + Send + Sync>;
/// What a run's stimulus must have reached, given the run and its length.
type Coverage = Box<dyn Fn(&Recorded, usize) -> Result<()> + Send + Sync>;

/// One differential check of a block at a preset, as the differential suite runs each block
/// folder's (`tests/differential.rs`): the block against its model on its stimulus, in one of
/// its modes, and then what the stimulus must have reached (its corners, its misuse), an error
/// giving the counts when it fell short.
pub struct Check {
    /// What is checked (`scheduler fixed, round robin`), for the suite's lines and errors.
    pub name: String,
    /// The block's sizes follow the preset; a block of one size is checked at one preset only.
    pub per_preset: bool,
    run: Run,
    coverage: Coverage,
}

impl Check {
    /// The run `run` (seed, cycles), with no coverage asked of it.
    pub fn new(
        name: impl Into<String>,
        run: impl Fn(u64, usize) -> Result<Recorded> + Send + Sync + 'static,
    ) -> Check {
        let coverage: Coverage = Box::new(|_, _| Ok(()));
        Check { name: name.into(), per_preset: true, run: Box::new(run), coverage }
    }

    /// The same, its stimulus required to reach what `coverage` counts.
    pub fn covering(
        self,
        coverage: impl Fn(&Recorded, usize) -> Result<()> + Send + Sync + 'static,
    ) -> Check {
        Check { coverage: Box::new(coverage), ..self }
    }

    /// The same, for a block whose sizes do not follow the preset.
    pub fn one_size(self) -> Check {
        Check { per_preset: false, ..self }
    }

    /// Runs the check for `cycles` cycles from `seed` on a thread with a large stack
    /// ([`crate::sim::on_large_stack`]): the recording, or the first difference or shortfall.
    pub fn run(&self, seed: u64, cycles: usize) -> Result<Recorded> {
        crate::sim::on_large_stack(|| {
            let rec = (self.run)(seed, cycles)?;
            (self.coverage)(&rec, cycles)?;
            Ok(rec)
        })?
    }
}
