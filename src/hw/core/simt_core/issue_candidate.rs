//! IssueCandidate: the [`IssueStage`](super::IssueStage)'s choice of the warp whose I-buffer head
//! is checked next: loose round robin over the warps with a head, or greedy then oldest (the
//! last warp issued while it has a head, else the lowest). A warp named by `exclude` (pipelined:
//! the one whose head is checked now) is not a candidate.

use rust_hdl::prelude::*;

use crate::hw::{Order, PriorityEncoder, RoundRobinArbiter};

/// `W` warps (`WW` bits).
#[derive(LogicBlock)]
pub struct IssueCandidate<const W: usize, const WW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The warps with a head, and the one that is not a candidate (when `exclude_valid`).
    pub head_valid: Signal<In, Bits<W>>,
    pub exclude_valid: Signal<In, Bit>,
    pub exclude_warp: Signal<In, Bits<WW>>,
    /// The warp whose instruction issued last cycle (greedy keeps to it), registered by the
    /// parent (an input here that reached only a register would still be a loop to rust-hdl's
    /// check: issue's decision reads the candidate).
    pub greedy_valid: Signal<In, Bit>,
    pub greedy: Signal<In, Bits<WW>>,
    /// The candidate.
    pub valid: Signal<Out, Bit>,
    pub warp: Signal<Out, Bits<WW>>,
    rr: RoundRobinArbiter<W, WW>,
    oldest: PriorityEncoder<W, WW>,
    gto: Constant<Bit>,
    req: Signal<Local, Bits<W>>,
    cand: Signal<Local, Bits<WW>>,
}

impl<const W: usize, const WW: usize> IssueCandidate<W, WW> {
    /// `gto`: greedy then oldest (else loose round robin).
    pub fn new(gto: bool) -> anyhow::Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            head_valid: Default::default(),
            exclude_valid: Default::default(),
            exclude_warp: Default::default(),
            greedy_valid: Default::default(),
            greedy: Default::default(),
            valid: Default::default(),
            warp: Default::default(),
            rr: RoundRobinArbiter::new()?,
            oldest: PriorityEncoder::new(Order::LowestFirst)?,
            gto: Constant::new(gto),
            req: Default::default(),
            cand: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize> Logic for IssueCandidate<W, WW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rr.clock.next = self.clock.val();
        self.rr.reset.next = self.reset.val();
        self.req.next = self.head_valid.val();
        for w in 0..W {
            if self.exclude_valid.val() & (self.exclude_warp.val().index() == w) {
                self.req.next = self.req.val().replace_bit(w, false);
            }
        }
        self.rr.req.next = self.req.val();
        self.rr.advance.next = self.rr.valid.val();
        self.rr.req_taken.next = 0.into(); // (read by a lookahead arbiter only)
        self.oldest.req.next = self.req.val();
        if self.gto.val() {
            self.valid.next = self.oldest.valid.val();
            self.cand.next = self.oldest.index.val();
            for w in 0..W {
                if self.greedy_valid.val()
                    & (self.greedy.val().index() == w)
                    & self.req.val().get_bit(w)
                {
                    self.cand.next = self.greedy.val();
                }
            }
        } else {
            self.valid.next = self.rr.valid.val();
            self.cand.next = self.rr.index.val();
        }
        self.warp.next = self.cand.val();
    }
}
