//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::hw::scheduler::simt_stack::model::StackIn;
use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::PortStruct;

/// Stimulus for a SIMT stack: push-heavy, pop-heavy and balanced phases, rare clears and resets.
pub fn stack_stimulus(
    threads: usize,
    pc_width: usize,
) -> impl FnMut(&mut Rng, &crate::hw::SimtStackModel, usize) -> Vec<u64> {
    let mut push_rate = 50;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [15, 50, 85][rng.below(3) as usize];
        }
        StackIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(20)) as u64,
            push: rng.chance(push_rate) as u64,
            pop: rng.chance(100 - push_rate) as u64,
            clear: (rng.chance(1) && rng.chance(50)) as u64,
            push_mask: rng.bits(threads),
            push_pc: rng.bits(pc_width),
        }
        .to_words()
    }
}
