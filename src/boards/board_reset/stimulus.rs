//! This block's random stimulus.

use crate::sim::rng::Rng;

/// The reset button (active low): held for a few cycles now and then, and bouncing.
pub fn button_stimulus<M>() -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    |rng, _, _| vec![!(rng.chance(2) || (rng.chance(10) && rng.chance(30))) as u64]
}
