//! This block's random stimulus.

use super::model::ArbiterIn;
use crate::sim::rng::{requests, Rng};
use crate::sim::PortStruct;

/// The arbiter's stimulus: random requests, taken grants (70%), resets now and then.
pub fn arbiter_stimulus<M>(n: usize) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    move |rng, _, c| {
        ArbiterIn {
            reset: (c == 0 || rng.chance(1)) as u64,
            req: requests(rng, n),
            req_taken: requests(rng, n),
            advance: rng.chance(70) as u64,
        }
        .to_words()
    }
}
