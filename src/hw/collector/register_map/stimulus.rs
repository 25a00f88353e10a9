//! This block's random stimulus.

use crate::sim::rng::Rng;

/// Any warp of `warps` and any register of `regs`, every cycle.
pub fn register_map_stimulus<M>(
    warps: usize,
    regs: usize,
) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    move |rng, _, _| vec![rng.below(warps as u64), rng.below(regs as u64)]
}
