//! This block's random stimulus.

use super::model::EncoderIn;
use crate::sim::rng::{requests, Rng};
use crate::sim::PortStruct;

/// Random request vectors over `n` requesters (each bit set about half the time, now and then
/// none or all: [`requests`]).
pub fn encoder_stimulus<M>(n: usize) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    move |rng, _, _| EncoderIn { req: requests(rng, n) }.to_words()
}
