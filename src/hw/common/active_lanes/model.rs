//! Reference model of [`ActiveLanes`](crate::hw::ActiveLanes).

use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct ActiveLanesIn { mask }
}
port_struct! {
    /// Outputs, in port order.
    pub struct ActiveLanesOut { count, any, all }
}

/// The active lanes of the low `lanes` bits of `mask`.
pub fn active_lanes(mask: u64, lanes: usize) -> ActiveLanesOut {
    let all_lanes = crate::sim::rng::mask(lanes);
    let mask = mask & all_lanes;
    ActiveLanesOut {
        count: u64::from(mask.count_ones()),
        any: u64::from(mask != 0),
        all: u64::from(mask == all_lanes),
    }
}

/// The combinational block as a cycle model (no state).
pub struct ActiveLanesModel {
    /// Lanes.
    pub lanes: usize,
}

impl CycleModel for ActiveLanesModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<ActiveLanesIn, ActiveLanesOut>()
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        active_lanes(ActiveLanesIn::from_words(inputs).mask, self.lanes).to_words()
    }
    fn step(&mut self, _inputs: &[u64]) {}
}
