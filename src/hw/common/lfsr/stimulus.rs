//! The LFSR's and the MISR's random stimulus.

use crate::sim::rng::Rng;

/// A reset at the start and rarely after; the register steps 80% of the cycles.
pub fn lfsr_stimulus<M>() -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    |rng, _, c| vec![(c == 0 || (rng.chance(1) && rng.chance(20))) as u64, rng.chance(80) as u64]
}

/// As [`lfsr_stimulus`], each step taking a random 32-bit word.
pub fn misr_stimulus<M>() -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    |rng, _, c| {
        vec![
            (c == 0 || (rng.chance(1) && rng.chance(20))) as u64,
            rng.chance(80) as u64,
            rng.bits(32),
        ]
    }
}
