//! Reference model of [`Barrier`](crate::hw::Barrier): the warps that wait at `bar`, the warps
//! released and not yet re-activated, and the sticky diverged-arrival flag, as sets of warps.

use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct BarrierIn { reset, arrive, arrive_warp, diverged, present, launching, ctl_busy }
}

port_struct! {
    /// Outputs, in port order.
    pub struct BarrierOut { ctl_valid, ctl_wid, any_waiting, err_diverged }
}

#[derive(Clone, Debug, Default)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct BarrierModel {
    /// Warps waiting at the barrier, and warps released but not yet re-activated (bit per warp).
    pub waiting: u64,
    /// Warps released and not yet re-activated (bit per warp).
    pub releasing: u64,
    /// Sticky: a warp arrived diverged.
    pub err: bool,
}

impl BarrierModel {
    /// Every warp that has not ended waits, and the launch is over: the waiting warps go.
    pub fn lets_go(&self, i: &BarrierIn) -> bool {
        i.launching == 0 && self.waiting != 0 && i.present & !self.waiting == 0
    }
    /// The warp re-activated this cycle: the lowest released one, when the fill leaves warp
    /// control free.
    pub fn reactivated(&self, i: &BarrierIn) -> Option<u64> {
        (self.releasing != 0 && i.ctl_busy == 0).then(|| self.releasing.trailing_zeros() as u64)
    }
}

impl CycleModel for BarrierModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(BarrierIn::NAMES).outputs(BarrierOut::NAMES)
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = BarrierIn::from_words(inputs);
        let first = if self.releasing == 0 { 0 } else { self.releasing.trailing_zeros() as u64 };
        BarrierOut {
            ctl_valid: self.reactivated(&i).is_some() as u64,
            ctl_wid: first,
            any_waiting: (self.waiting != 0) as u64,
            err_diverged: self.err as u64,
        }
        .to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = BarrierIn::from_words(inputs);
        if i.reset == 1 {
            *self = BarrierModel::default();
            return;
        }
        let (mut waiting, mut releasing) = (self.waiting, self.releasing);
        if let Some(w) = self.reactivated(&i) {
            releasing &= !(1 << w);
        }
        if self.lets_go(&i) {
            releasing |= self.waiting;
            waiting = 0;
        }
        if i.arrive == 1 {
            waiting |= 1 << i.arrive_warp;
            self.err |= i.diverged == 1;
        }
        (self.waiting, self.releasing) = (waiting, releasing);
    }
}
