//! Reference model of [`RoundRobinArbiter`](crate::hw::RoundRobinArbiter).

use crate::hw::common::priority_encoder::model::EncoderOut;
use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct ArbiterIn { reset, req, req_taken, advance }
}

/// `n` requesters; `last` is the requester granted last (priority starts after it).
#[derive(Clone, Debug)]
pub struct RoundRobinModel {
    /// Requesters.
    pub n: usize,
    /// The requester granted last.
    pub last: usize,
}

impl RoundRobinModel {
    /// The state at power-up, before any reset: the hardware's `above` mask (the requesters
    /// after the last grant) starts at 0, so requester 0 comes first, as after a reset.
    pub fn new(n: usize) -> Self {
        RoundRobinModel { n, last: n - 1 }
    }
    /// The grant for `req`: the first requester after `last`, cyclically.
    pub fn grant(&self, req: u64) -> EncoderOut {
        (1..=self.n)
            .map(|k| (self.last + k) % self.n)
            .find(|&i| req >> i & 1 == 1)
            .map(|i| EncoderOut { valid: 1, index: i as u64, grant: 1 << i })
            .unwrap_or_default()
    }
    /// One clock edge.
    pub fn step_with(&mut self, reset: bool, req: u64, advance: bool) {
        let g = self.grant(req);
        if reset {
            self.last = self.n - 1;
        } else if advance && g.valid == 1 {
            self.last = g.index as usize;
        }
    }
}

impl CycleModel for RoundRobinModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(ArbiterIn::NAMES).outputs(&["valid", "index", "grant"])
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        self.grant(ArbiterIn::from_words(inputs).req).to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = ArbiterIn::from_words(inputs);
        self.step_with(i.reset == 1, i.req, i.advance == 1);
    }
}

/// Reference model of [`RoundRobinArbiter::lookahead`](crate::hw::RoundRobinArbiter::lookahead):
/// the same arbiter shown a cycle later, its `req` being the next cycle's requests (`req_taken`
/// when the grant shown is taken). It shows [`RoundRobinModel`]'s choice for the requests given
/// in the last cycle (none at power-up).
#[derive(Clone, Debug)]
pub struct LookaheadRoundRobinModel {
    /// The arbiter that chooses.
    pub arbiter: RoundRobinModel,
    /// The requests given in the last cycle: those the choice shown now is made from.
    pub last_req: u64,
}

impl LookaheadRoundRobinModel {
    /// The model of an arbiter over `n` requesters, after reset.
    pub fn new(n: usize) -> Self {
        LookaheadRoundRobinModel { arbiter: RoundRobinModel::new(n), last_req: 0 }
    }
}

impl CycleModel for LookaheadRoundRobinModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(ArbiterIn::NAMES).outputs(&["valid", "index", "grant"])
    }
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        self.arbiter.grant(self.last_req).to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = ArbiterIn::from_words(inputs);
        let taken = i.reset == 0 && i.advance == 1 && self.arbiter.grant(self.last_req).valid == 1;
        self.arbiter.step_with(i.reset == 1, self.last_req, i.advance == 1);
        self.last_req = if taken { i.req_taken } else { i.req };
    }
}
