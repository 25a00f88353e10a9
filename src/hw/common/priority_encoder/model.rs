//! Reference model of [`PriorityEncoder`](crate::hw::PriorityEncoder).

use crate::hw::Order;
use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct EncoderIn { req }
}
port_struct! {
    /// Outputs, in port order.
    pub struct EncoderOut { valid, index, grant }
}

/// Picks the lowest or highest set bit of the low `n` bits of `req`.
pub fn encode(req: u64, n: usize, order: Order) -> EncoderOut {
    let set = |i: &usize| req >> i & 1 == 1;
    let pick = match order {
        Order::LowestFirst => (0..n).find(set),
        Order::HighestFirst => (0..n).rev().find(set),
    };
    match pick {
        Some(i) => EncoderOut { valid: 1, index: i as u64, grant: 1 << i },
        None => EncoderOut::default(),
    }
}

/// The combinational encoder as a cycle model (no state).
pub struct PriorityEncoderModel {
    /// Requesters.
    pub n: usize,
    /// Which requester wins: the lowest or the highest.
    pub order: Order,
}

impl CycleModel for PriorityEncoderModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<EncoderIn, EncoderOut>()
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        encode(EncoderIn::from_words(inputs).req, self.n, self.order).to_words()
    }
    fn step(&mut self, _inputs: &[u64]) {}
}
