//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::hw::scheduler::warp_scheduler::model::{
    SchedIn, SeedIn, SeedWarpSchedulerModel, WarpSchedulerModel,
};
use crate::params::SchedulerParams;
use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::PortStruct;

/// Rates (percent per cycle) of each scheduler input.
#[derive(Clone, Copy, Debug)]
struct Profile {
    cmd: u64,
    ctl: u64,
    branch: u64,
    end: u64,
    pop: u64,
    set: u64,
    fetch: u64,
}

const PROFILES: [Profile; 4] = [
    // Balanced traffic.
    Profile { cmd: 30, ctl: 40, branch: 20, end: 10, pop: 20, set: 15, fetch: 60 },
    // Launch-heavy: every warp busy, commands while none is idle.
    Profile { cmd: 80, ctl: 50, branch: 10, end: 3, pop: 10, set: 10, fetch: 70 },
    // Divergence-heavy: stacks fill to full and past it.
    Profile { cmd: 40, ctl: 30, branch: 70, end: 2, pop: 15, set: 25, fetch: 50 },
    // Reconvergence-heavy: pops of empty stacks, ends of idle warps.
    Profile { cmd: 15, ctl: 30, branch: 20, end: 25, pop: 60, set: 20, fetch: 50 },
];

/// Stimulus for the warp scheduler. With `allow_overflow` false, no push is aimed at a stack the
/// model says is full (the seed's stack has no such check, so the seed comparison avoids it).
pub fn scheduler_stimulus(
    p: SchedulerParams,
    allow_overflow: bool,
) -> impl FnMut(&mut Rng, &WarpSchedulerModel, usize) -> Vec<u64> {
    let mut prof = PROFILES[0];
    let ww = p.warp_id_width();
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            prof = PROFILES[rng.below(PROFILES.len() as u64) as usize];
        }
        let mut i = SchedIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(10)) as u64,
            warp_cmd_valid: rng.chance(prof.cmd) as u64,
            warp_cmd_pc: rng.bits(p.pc_width),
            warp_cmd_mask: rng.bits(p.threads),
            warp_ctl_valid: rng.chance(prof.ctl) as u64,
            warp_ctl_wid: rng.bits(ww),
            warp_ctl_active: rng.chance(75) as u64,
            branch_ctl_valid: rng.chance(prof.branch) as u64,
            branch_ctl_wid: rng.bits(ww),
            branch_ctl_mask: rng.bits(p.threads),
            branch_ctl_pc: rng.bits(p.pc_width),
            end_ctl_valid: rng.chance(prof.end) as u64,
            end_ctl_wid: rng.bits(ww),
            warp_pop_valid: rng.chance(prof.pop) as u64,
            warp_pop_wid: rng.bits(ww),
            warp_set_valid: rng.chance(prof.set) as u64,
            warp_set_wid: rng.bits(ww),
            warp_set_pc: rng.bits(p.pc_width),
            warp_set_mask: rng.bits(p.threads),
            inst_fetch_ready: rng.chance(prof.fetch) as u64,
        };
        if !allow_overflow
            && i.branch_ctl_valid == 1
            && model.stacks[i.branch_ctl_wid as usize].is_full()
        {
            i.branch_ctl_valid = 0;
        }
        i.to_words()
    }
}

/// The seed-port form of a scheduler input: `branch_ctl_data = {mask, pc}`.
pub fn seed_inputs(i: &SchedIn, p: &SchedulerParams) -> SeedIn {
    SeedIn {
        reset: i.reset,
        warp_cmd_valid: i.warp_cmd_valid,
        warp_cmd_pc: i.warp_cmd_pc,
        warp_cmd_mask: i.warp_cmd_mask,
        warp_ctl_valid: i.warp_ctl_valid,
        warp_ctl_wid: i.warp_ctl_wid,
        warp_ctl_active: i.warp_ctl_active,
        branch_ctl_valid: i.branch_ctl_valid,
        branch_ctl_wid: i.branch_ctl_wid,
        branch_ctl_data: (i.branch_ctl_mask << p.pc_width) | i.branch_ctl_pc,
        end_ctl_valid: i.end_ctl_valid,
        end_ctl_wid: i.end_ctl_wid,
        warp_pop_valid: i.warp_pop_valid,
        warp_pop_wid: i.warp_pop_wid,
        inst_fetch_ready: i.inst_fetch_ready,
    }
}

/// Stimulus for the seed-port scheduler (see [`scheduler_stimulus`]).
pub fn seed_scheduler_stimulus(
    p: SchedulerParams,
    allow_overflow: bool,
) -> impl FnMut(&mut Rng, &SeedWarpSchedulerModel, usize) -> Vec<u64> {
    let mut inner = scheduler_stimulus(p, allow_overflow);
    move |rng, model, cycle| {
        let words = inner(rng, &model.core, cycle);
        seed_inputs(&SchedIn::from_words(&words), &p).to_words()
    }
}
