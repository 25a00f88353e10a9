//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry_at;
use crate::export::{differential_via_verilog, Check, Entry};
use crate::params::{CollectorTiming, CoreParams, Preset, PresetSizes, CORE_CU};
use crate::sim::Recorded;

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::core::simt_core::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The SIMT core of preset `B` ([`Preset::core`]), and the preset that states its sizes in the
/// headers of the core and the board top around it (`cu-core`: 4 lanes, not the `cu` blocks' 8).
pub fn core_preset<B: PresetSizes>() -> Option<(CoreParams, Preset)> {
    let core = B::PRESET.core?;
    let sizes = Preset {
        name: core.name,
        purpose: core.purpose,
        scheduler: core.scheduler(),
        collector: core.collector(),
        lds_rows: core.lds_rows,
        lds_banks: core.lds_banks,
        ..B::PRESET
    };
    Some((core, sizes))
}

/// The header lines of the core `core`.
fn header_of(core: CoreParams) -> Vec<(&'static str, String)> {
    vec![
        ("Core", format!(
            "warps={} threads={} lane_bits={} stack_depth={} lds_rows={} lds_banks={} banks={} collector_units={} imem_words={} issue_policy={}",
            core.warps, core.threads, core.lane_bits, core.stack_depth, core.lds_rows, core.lds_banks, core.banks, core.collector_units, core.imem_words, core.policy.name()
        )),
        ("Timing", match core.collector_timing {
            CollectorTiming::GpgpuSim => "GPGPU-Sim's one-cycle operand collector, issue in one cycle",
            CollectorTiming::Pipelined => "pipelined: head selected a cycle ahead, issue latch, pipelined collector, registered release, control and local-data-share request",
        }.into()),
        ("Extensions", core.isa.names()),
        ("Interface", super::CORE_INTERFACE.into()),
    ]
}

/// The entry of the core `core` as module `module`, its header stating the sizes `sizes`.
fn core_entry(
    (module, summary): (&'static str, &str),
    core: CoreParams,
    sizes: Preset,
    differential: fn(u64, usize) -> Result<Recorded>,
) -> Entry {
    let header = header_of(core);
    let built = crate::with_simt_core!(core, C => Ok(entry_at(sizes, module, "SimtCore", summary,
        header, move || C::new(core), differential, None)));
    built
        .expect("every preset's core has a rust-hdl type (with_simt_core!)")
        .replayed_on_verilator()
}

/// The preset's SIMT core (`cu`, `tiny` and `seed` have one; the seed's is checked for structure
/// only in the test run, as its collector is); the `cu-core` also in the GPGPU-Sim-exact
/// timing.
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    let Some((core, sizes)) = core_preset::<B>() else { return vec![] };
    let summary = "the SIMT core: fetch, I-buffer, scoreboarded issue, operand collector, lane ALU, local data share, branch resolution into the SIMT stacks";
    let entry = core_entry((super::MODULE, summary), core, sizes, differential::<B>);
    let mut entry = entry.structure_only_in_tests_without_board(&B::PRESET);
    if core.threads * core.lane_bits > 64 {
        // About 440 cycles per second on rust-hdl at 32 lanes x 32 bits: 5,000 cycles in the
        // test run (the long run: docs/src/results/soak-seed-core.md, by scripts/results.sh).
        entry = entry.with_replay_cycles_in_tests(5_000);
    }
    let mut list = vec![entry];
    if core == CORE_CU {
        let exact = CoreParams { collector_timing: CollectorTiming::GpgpuSim, ..core };
        let summary = "the SIMT core in the GPGPU-Sim-exact timing (the collector's one-cycle step, issue in one cycle)";
        list.push(core_entry(
            ("simt_core_gpgpu_sim", summary),
            exact,
            sizes,
            gpgpu_sim_differential::<B>,
        ));
    }
    list
}

/// The SIMT core of preset `B` against its model.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    run(core_of::<B>()?, seed, cycles).map(|(r, _)| r)
}

/// The SIMT core of preset `B` in the GPGPU-Sim-exact timing against its model.
pub fn gpgpu_sim_differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let core = CoreParams { collector_timing: CollectorTiming::GpgpuSim, ..core_of::<B>()? };
    run(core, seed, cycles).map(|(r, _)| r)
}

/// The SIMT core exported with preset `B`.
fn core_of<B: PresetSizes>() -> Result<CoreParams> {
    B::PRESET.core.ok_or_else(|| anyhow::anyhow!("preset `{}` has no SIMT core", B::PRESET.name))
}

/// The SIMT core `core` against its model, on random programs
/// ([`core_stimulus`](super::stimulus::core_stimulus)); also the number of runs that ended and
/// the error flags raised.
pub fn run(core: CoreParams, seed: u64, cycles: usize) -> Result<(Recorded, (u64, u64))> {
    let seen = std::rc::Rc::new(std::cell::Cell::new((0, 0)));
    let mut model = super::model::SimtCoreModel::new(core, &[], &[]);
    let stimulus = super::stimulus::core_stimulus(core, 20_000, seen.clone());
    let name =
        format!("simt_core_{}_{}_{}", core.name, core.policy.name(), core.collector_timing.name());
    let recorded = crate::with_simt_core!(core, C => {
        C::new(core)?;
        differential_via_verilog(&name, || C::new(core).unwrap(), &mut model, seed, cycles, stimulus)
    })?;
    Ok((recorded, seen.get()))
}

/// None in the differential suite: this block's differential runs are in `tests/simt_core.rs`, under both issue policies and timings, with its own cycle count (`SIMT_CORE_CYCLES`).
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    vec![]
}
