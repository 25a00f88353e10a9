//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use super::model::{SchedIn, SchedOut};
use crate::export::entry::entry;
use crate::export::{differential_via_verilog, Check, Entry, Reference};
use crate::params::{FetchPolicy, PresetSizes, SchedulerMode};
use crate::sim::{Dut, PortStruct, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The block's type at this preset's sizes.
    type Scheduler: Dut + 'static;
    /// The same scheduler behind the seed's ports.
    type SeedScheduler: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn scheduler(mode: crate::params::SchedulerMode) -> Result<Self::Scheduler>;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn seed_scheduler() -> Result<Self::SeedScheduler>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::scheduler::warp_scheduler::preset::AtPreset for $B {
            type Scheduler = $crate::sized_warp_scheduler!($S);
            type SeedScheduler = $crate::sized_seed_warp_scheduler!($S);
            fn scheduler(
                mode: $crate::params::SchedulerMode,
            ) -> $crate::__anyhow::Result<Self::Scheduler> {
                <$crate::sized_warp_scheduler!($S)>::new(mode)
            }
            fn seed_scheduler() -> $crate::__anyhow::Result<Self::SeedScheduler> {
                <$crate::sized_seed_warp_scheduler!($S)>::new()
            }
        }
    };
}
pub(crate) use at_preset;

/// The warp scheduler in fixed and registered mode, and in the seed's own ports.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    let registered = SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy);
    let seed_mode = SchedulerMode::SeedCompatible;
    vec![
        entry::<B, _>("warp_scheduler", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode)", vec![("Mode", fixed.name())],
            move || B::scheduler(fixed), |s, c| differential::<B>(SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy), s, c), Some(super::PROPERTIES))
            .replayed_on_verilator(),
        entry::<B, _>("warp_scheduler_registered", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode, commands registered: they act a cycle after they are offered)", vec![("Mode", registered.name())],
            move || B::scheduler(registered), |s, c| differential::<B>(SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy), s, c), None)
            .replayed_on_verilator(),
        entry::<B, _>("WarpScheduler", "SeedWarpScheduler",
            "the seed's WarpScheduler (003): seed-compatible mode behind the seed's ports", vec![("Mode", seed_mode.name())],
            B::seed_scheduler, |s, c| seed_differential::<B>(true, s, c), None)
            .with_reference(seed_reference::<B>())
            .replayed_on_verilator(),
    ]
}

/// The seed's own `WarpScheduler` (003, `sim/seed/seed_warp_scheduler.v`, verbatim): measured by
/// `report` at the preset's sizes and at the seed's defaults (8 warps, 32 threads, 32-bit pc,
/// depth 8, and cut to depth 2), and driven beside the exported seed-port scheduler with
/// stimulus that keeps pushes off full stacks (the seed's stack has no overflow check).
pub fn seed_reference<B: AtPreset>() -> Reference {
    Reference {
        name: "seed 003 WarpScheduler",
        source: "sim/seed/seed_warp_scheduler.v",
        text: include_str!("../../../../sim/seed/seed_warp_scheduler.v"),
        top: "WarpScheduler",
        designs: |preset| {
            let s = preset.scheduler;
            let mut sizes = vec![(s.warps, s.threads, s.pc_width, s.stack_depth)];
            for defaults in [(8, 32, 32, 8), (8, 32, 32, 2)] {
                if !sizes.contains(&defaults) {
                    sizes.push(defaults);
                }
            }
            // chparam derives renamed modules; the top gets its name back.
            let setup = |(w, t, a, d)| {
                format!(
                    "chparam -set DEPTH {d} SIMTStack; chparam -set WarpNum {w} -set ThreadNum {t} -set AddrWidth {a} WarpScheduler; \
                     hierarchy -top WarpScheduler; rename -top WarpScheduler"
                )
            };
            sizes
                .into_iter()
                .map(|(w, t, a, d)| (format!("{w}x{t}, pc {a}, depth {d}"), setup((w, t, a, d))))
                .collect()
        },
        run: |seed, cycles| seed_differential::<B>(false, seed, cycles),
    }
}

/// The scheduler at preset `B` in `mode` against its model.
pub fn differential<B: AtPreset>(
    mode: SchedulerMode,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::WarpSchedulerModel::new(p, mode);
    let name = format!("scheduler_{}_{}", B::PRESET.name, mode.name().replace([' ', ','], "_"));
    let stimulus = super::stimulus::scheduler_stimulus(p, true);
    differential_via_verilog(
        &name,
        || B::scheduler(mode).unwrap(),
        &mut model,
        seed,
        cycles,
        stimulus,
    )
}

/// The seed-port scheduler; `allow_overflow` false keeps pushes off full stacks (for the
/// comparison with the seed, whose stack has no overflow check).
pub fn seed_differential<B: AtPreset>(
    allow_overflow: bool,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = super::model::SeedWarpSchedulerModel::new(p);
    let name = format!("seed_scheduler_{}", B::PRESET.name);
    let stimulus = super::stimulus::seed_scheduler_stimulus(p, allow_overflow);
    differential_via_verilog(
        &name,
        || B::seed_scheduler().unwrap(),
        &mut model,
        seed,
        cycles,
        stimulus,
    )
}

/// The differential suite's checks: every mode, each reaching its corners and its misuse; and
/// the seed-port wrapper.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    let modes = [
        SchedulerMode::SeedCompatible,
        SchedulerMode::Fixed(FetchPolicy::RoundRobin),
        SchedulerMode::Fixed(FetchPolicy::LowestIndex),
        SchedulerMode::Fixed(FetchPolicy::HighestIndex),
        SchedulerMode::Registered(FetchPolicy::RoundRobin),
    ];
    let mut list: Vec<Check> = modes
        .map(|mode| {
            Check::new(format!("scheduler {}", mode.name()), move |s, c| {
                differential::<B>(mode, s, c)
            })
            .covering(|rec, cycles| {
                coverage(rec, cycles)?;
                misuse_coverage(rec)
            })
        })
        .into();
    list.push(Check::new("seed-port wrapper", |s, c| seed_differential::<B>(true, s, c)));
    list
}

/// Commands while every warp is busy, pushes on full stacks, every warp busy at once, and
/// fetches on a tenth of the cycles.
fn coverage(rec: &Recorded, cycles: usize) -> Result<()> {
    let (mut busy_cmd, mut overflow, mut all_busy, mut fetches) = (0, 0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (SchedIn::from_words(i), SchedOut::from_words(o));
        busy_cmd += (i.warp_cmd_valid == 1 && o.warp_cmd_ready == 0 && i.reset == 0) as usize;
        overflow += (i.branch_ctl_valid == 1 && o.stack_full >> i.branch_ctl_wid & 1 == 1) as usize;
        all_busy += (o.idle_mask == 0) as usize;
        fetches += (o.inst_fetch_valid == 1 && i.inst_fetch_ready == 1) as usize;
    }
    anyhow::ensure!(
        busy_cmd > 10 && overflow > 10 && all_busy > 100 && fetches > cycles / 10,
        "coverage: command while all busy {busy_cmd}, push on full {overflow}, all busy {all_busy}, fetches {fetches}"
    );
    Ok(())
}

/// The runtime misuse the random stimulus drives on purpose, each compared with the model on
/// every cycle (so its behaviour is the model's, defined one): a command's valid dropped or its
/// data changed while not ready, reset while warps run, and every error flag raised, then
/// cleared by a reset after which the scheduler fetches again.
fn misuse_coverage(rec: &Recorded) -> Result<()> {
    let ins: Vec<SchedIn> = rec.inputs.iter().map(|w| SchedIn::from_words(w)).collect();
    let outs: Vec<SchedOut> = rec.outputs.iter().map(|w| SchedOut::from_words(w)).collect();
    let (mut dropped, mut changed, mut reset_busy) = (0, 0, 0);
    for t in 0..ins.len().saturating_sub(1) {
        let (i, o, next) = (&ins[t], &outs[t], &ins[t + 1]);
        let waiting = i.warp_cmd_valid == 1 && o.warp_cmd_ready == 0 && i.reset == 0;
        dropped += (waiting && next.warp_cmd_valid == 0) as usize;
        changed += (waiting
            && next.warp_cmd_valid == 1
            && (next.warp_cmd_pc, next.warp_cmd_mask) != (i.warp_cmd_pc, i.warp_cmd_mask))
            as usize;
        reset_busy += (i.reset == 1 && o.active_mask != 0) as usize;
    }
    type Flag = fn(&SchedOut) -> u64;
    let flags: [(&str, Flag); 6] = [
        ("err_overflow", |o| o.err_overflow),
        ("err_underflow", |o| o.err_underflow),
        ("err_end_idle", |o| o.err_end_idle),
        ("err_branch_idle", |o| o.err_branch_idle),
        ("err_pop_idle", |o| o.err_pop_idle),
        ("err_ctl_idle", |o| o.err_ctl_idle),
    ];
    for (name, flag) in flags {
        flag_recovers(name, flag, &ins, &outs)?;
    }
    anyhow::ensure!(
        dropped > 10 && changed > 10 && reset_busy > 10,
        "misuse: command dropped {dropped}, changed {changed} while not ready; resets with warps active {reset_busy}"
    );
    Ok(())
}

/// The error flag `flag` was raised, cleared by the reset after it, and followed by a fetch
/// before it rose again, more than 10 times.
fn flag_recovers(
    name: &str,
    flag: fn(&SchedOut) -> u64,
    ins: &[SchedIn],
    outs: &[SchedOut],
) -> Result<()> {
    let (mut raised, mut recovered, mut cleared) = (0, 0, false);
    for t in 1..outs.len() {
        raised += (flag(&outs[t - 1]) == 0 && flag(&outs[t]) != 0) as usize;
        if flag(&outs[t - 1]) != 0 && ins[t - 1].reset == 1 {
            anyhow::ensure!(flag(&outs[t]) == 0, "{name} survived a reset at cycle {}", t - 1);
            cleared = true;
        }
        if cleared
            && flag(&outs[t]) == 0
            && outs[t].inst_fetch_valid == 1
            && ins[t].inst_fetch_ready == 1
        {
            recovered += 1;
            cleared = false;
        }
    }
    anyhow::ensure!(
        raised > 10 && recovered > 10,
        "{name}: raised {raised} times, fetching again after the reset {recovered} times"
    );
    Ok(())
}
