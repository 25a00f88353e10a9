//! This block's random stimulus.

use super::model::ActiveLanesIn;
use crate::sim::rng::{requests, Rng};
use crate::sim::PortStruct;

/// Random masks over `lanes` lanes (each lane active about half the time, now and then none or
/// all: [`requests`]).
pub fn active_lanes_stimulus<M>(lanes: usize) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    move |rng, _, _| ActiveLanesIn { mask: requests(rng, lanes) }.to_words()
}
