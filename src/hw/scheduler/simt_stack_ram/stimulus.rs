//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::hw::scheduler::simt_stack_ram::model::StackRamIn;
use crate::params::SchedulerParams;
use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::PortStruct;

/// Stimulus for [`SimtStackRam`](crate::hw::SimtStackRam): as for one stack, with at most
/// one warp pushed and one popped per cycle (its contract), the same warp now and then, a clear
/// of any warps, and any warp's top shown.
pub fn stack_ram_stimulus(
    p: SchedulerParams,
) -> impl FnMut(&mut Rng, &crate::hw::SimtStackRamModel, usize) -> Vec<u64> {
    let mut push_rate = 50;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [15, 50, 85][rng.below(3) as usize];
        }
        let push_wid = rng.below(p.warps as u64);
        let pop_wid = if rng.chance(20) { push_wid } else { rng.below(p.warps as u64) };
        StackRamIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(20)) as u64,
            push: (rng.chance(push_rate) as u64) << push_wid,
            push_wid,
            push_mask: rng.bits(p.threads),
            push_pc: rng.bits(p.pc_width),
            pop: (rng.chance(100 - push_rate) as u64) << pop_wid,
            pop_wid,
            clear: if rng.chance(2) { rng.bits(p.warps) } else { 0 },
            top_wid: if rng.chance(50) { pop_wid } else { rng.below(p.warps as u64) },
        }
        .to_words()
    }
}
