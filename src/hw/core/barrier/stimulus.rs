//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::hw::core::barrier::model::BarrierIn;
use crate::hw::BarrierModel;
use crate::sim::rng::{Rng, PHASE};
use crate::sim::PortStruct;

/// Stimulus for a barrier of `warps` warps, as the core drives it: running warps (present, not
/// waiting, not being released) arrive at `bar`, now and then diverged; warps end now and then
/// and come back; launch phases; the fill takes warp control at random; in misuse phases any
/// warp arrives, waiting or not. Rare resets.
pub fn barrier_stimulus(warps: usize) -> impl FnMut(&mut Rng, &BarrierModel, usize) -> Vec<u64> {
    let all = (1u64 << warps) - 1;
    let (mut present, mut arrive_rate, mut busy_rate, mut misuse) = (all, 30, 30, false);
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            arrive_rate = [5, 30, 80][rng.below(3) as usize];
            busy_rate = [0, 30, 90][rng.below(3) as usize];
            misuse = rng.chance(10);
        }
        // A running warp ends now and then; an ended one comes back.
        let w = rng.below(warps as u64);
        let running = present & !model.waiting & !model.releasing;
        if rng.chance(2) {
            if running >> w & 1 == 1 {
                present &= !(1 << w);
            } else if present >> w & 1 == 0 {
                present |= 1 << w;
            }
        }
        let candidates = if misuse { all } else { running };
        let arrive_warp = rng.below(warps as u64);
        let arrive = rng.chance(arrive_rate) && candidates >> arrive_warp & 1 == 1;
        BarrierIn {
            reset: (cycle == 0 || (rng.chance(1) && rng.chance(10))) as u64,
            arrive: arrive as u64,
            arrive_warp,
            diverged: (arrive && rng.chance(5)) as u64,
            present,
            launching: (cycle % PHASE < 8 || rng.chance(2)) as u64,
            ctl_busy: rng.chance(busy_rate) as u64,
        }
        .to_words()
    }
}
