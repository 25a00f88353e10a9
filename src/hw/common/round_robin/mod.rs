//! RoundRobinArbiter: grants one requester, with priority rotating past the last grant.
//!
//! The requester after the last one granted (cyclically) has the highest priority. The priority
//! moves only when a grant is taken (`advance` high while `valid`), so a requester that is
//! granted but not served keeps its grant. After reset requester 0 has the highest priority.
//! Starvation bound: a requester that keeps its request is granted within `N` taken grants.
//!
//! Two timings, fixed at construction: [`new`](RoundRobinArbiter::new) chooses combinationally
//! from this cycle's `req`; [`lookahead`](RoundRobinArbiter::lookahead) is given the *next*
//! cycle's requests and shows its choice from registers, the same choice a step later (for a user
//! whose next requests are known in time, so that no path runs from its state through the
//! choice back into its state). It is given them twice, for either outcome of this cycle's grant
//! (`req` if it is not taken, `req_taken` if it is), and makes both choices: `advance` only
//! selects between them, so a late `advance` is not followed by the choice's carry chains.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, clog2, MAX_PORT_BITS};
use crate::sim::{Claim, Mutant};

/// `N` requesters; `NW = clog2(N)` is the width of `index`.
#[derive(LogicBlock)]
pub struct RoundRobinArbiter<const N: usize, const NW: usize> {
    /// Clock; the priority pointer changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: requester 0 gets the highest priority.
    pub reset: Signal<In, Bit>,
    // Request
    /// One request bit per requester (lookahead: the next cycle's if the grant shown is not taken).
    pub req: Signal<In, Bits<N>>,
    /// Lookahead only: the next cycle's requests if the grant shown is taken (`advance`).
    pub req_taken: Signal<In, Bits<N>>,
    /// The current grant is taken this cycle: rotate priority past it.
    pub advance: Signal<In, Bit>,
    // Result (combinational from `req` and the pointer)
    /// Some request bit is set.
    pub valid: Signal<Out, Bit>,
    /// Binary index of the granted requester; 0 when `valid` is low.
    pub index: Signal<Out, Bits<NW>>,
    /// One-hot grant; 0 when `valid` is low.
    pub grant: Signal<Out, Bits<N>>,
    /// The requesters with a higher index than the last grant taken: `above[i] = i > last`.
    above: DFF<Bits<N>>,
    /// Lookahead timing: the choice, registered.
    lookahead: Constant<Bit>,
    grant_q: DFF<Bits<N>>,
    /// The grant shown, one-hot: `one_hot`, or with lookahead `grant_q`.
    shown: Signal<Local, Bits<N>>,
    /// The priority the choice from `req` uses: `above` (with lookahead: the priority after this
    /// cycle if the grant shown is not taken; after reset, reset's).
    above_now: Signal<Local, Bits<N>>,
    above_at_reset: Constant<Bits<N>>,
    /// Requests after the last grant, and the lowest of them (`x & -x`, on the carry chain).
    req_above: Signal<Local, Bits<N>>,
    grant_above: Signal<Local, Bits<N>>,
    /// The lowest request of all (used when no request lies after the last grant).
    grant_low: Signal<Local, Bits<N>>,
    one_hot: Signal<Local, Bits<N>>,
    /// Lookahead: the grant shown is taken, the priority after it, and the choice then (as
    /// above, from `req_taken`).
    taken: Signal<Local, Bit>,
    above_taken: Signal<Local, Bits<N>>,
    req_above_taken: Signal<Local, Bits<N>>,
    grant_above_taken: Signal<Local, Bits<N>>,
    grant_low_taken: Signal<Local, Bits<N>>,
    one_hot_taken: Signal<Local, Bits<N>>,
    pick: Signal<Local, Bits<NW>>,
}

/// [`RoundRobinArbiter`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_round_robin_arbiter {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::RoundRobinArbiter] $s; W, WW)
    };
}

impl<const N: usize, const NW: usize> RoundRobinArbiter<N, NW> {
    /// Checks `N` (2..=32) and `NW = clog2(N)`; after reset requester 0 has the highest priority.
    pub fn new() -> Result<Self> {
        Self::starting_after(N - 1)
    }

    /// As [`new`](Self::new) with lookahead timing: `req` are the requests of the next cycle;
    /// `valid`, `index` and `grant` are registered and show the choice `new` would make from the
    /// requests given in the last cycle (with reset high then, after reset); `advance` takes the
    /// grant shown.
    pub fn lookahead() -> Result<Self> {
        let mut arbiter = Self::new()?;
        arbiter.lookahead = Constant::new(true);
        Ok(arbiter)
    }

    /// The `above` mask after a grant to `last`: every requester with a higher index.
    fn above(last: usize) -> u64 {
        (u64::MAX << (last + 1)) & ((1u64 << N) - 1)
    }

    /// As [`new`](Self::new), but after reset the requester after `last` has the highest
    /// priority (GPGPU-Sim's `dispatch_unit_t` starts with `m_last_cu = 0`).
    pub fn starting_after(last: usize) -> Result<Self> {
        check_range("requesters (N)", N, 2, MAX_PORT_BITS)?;
        check_range("last requester at reset", last, 0, N - 1)?;
        check_derived("NW", NW, "clog2(N)", clog2(N))?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            req: Default::default(),
            req_taken: Default::default(),
            advance: Default::default(),
            valid: Default::default(),
            index: Default::default(),
            grant: Default::default(),
            above: Default::default(),
            lookahead: Constant::new(false),
            shown: Default::default(),
            grant_q: Default::default(),
            above_now: Default::default(),
            above_at_reset: Constant::new(Self::above(last).to_bits()),
            req_above: Default::default(),
            grant_above: Default::default(),
            grant_low: Default::default(),
            one_hot: Default::default(),
            taken: Default::default(),
            above_taken: Default::default(),
            req_above_taken: Default::default(),
            grant_above_taken: Default::default(),
            grant_low_taken: Default::default(),
            one_hot_taken: Default::default(),
            pick: Default::default(),
        })
    }
}

impl<const N: usize, const NW: usize> Logic for RoundRobinArbiter<N, NW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, above, grant_q);
        // With lookahead the choice is for the next cycle: from `req` and the priority as it is
        // if the grant shown is not taken (after reset: reset's), from `req_taken` and the
        // priority past that grant if it is.
        self.above_now.next = self.above.q.val();
        if self.lookahead.val() & self.reset.val() {
            self.above_now.next = self.above_at_reset.val();
        }
        self.taken.next = self.lookahead.val()
            & self.advance.val()
            & self.grant_q.q.val().any()
            & !self.reset.val();
        self.above_taken.next = !(self.grant_q.q.val() | (self.grant_q.q.val() - 1));
        self.req_above_taken.next = self.req_taken.val() & self.above_taken.val();
        self.grant_above_taken.next =
            self.req_above_taken.val() & (!self.req_above_taken.val() + 1);
        self.grant_low_taken.next = self.req_taken.val() & (!self.req_taken.val() + 1);
        self.one_hot_taken.next = self.grant_low_taken.val();
        if self.req_above_taken.val().any() {
            self.one_hot_taken.next = self.grant_above_taken.val();
        }
        // The lowest request after the last grant, else the lowest request: no chain of
        // comparisons, two lowest-set-bit isolations on the carry chain and one 2:1 mux.
        self.req_above.next = self.req.val() & self.above_now.val();
        self.grant_above.next = self.req_above.val() & (!self.req_above.val() + 1);
        self.grant_low.next = self.req.val() & (!self.req.val() + 1);
        self.one_hot.next = self.grant_low.val();
        if self.req_above.val().any() {
            self.one_hot.next = self.grant_above.val();
        }
        // Binary index of the one-hot grant shown: bit b is the OR of the grants whose index has
        // bit b (with lookahead, of the registered grant: the encoding is not on the choice's path).
        self.shown.next = self.one_hot.val();
        if self.lookahead.val() {
            self.shown.next = self.grant_q.q.val();
        }
        self.pick.next = 0.into();
        for i in 1..N {
            if self.shown.val().get_bit(i) {
                self.pick.next = self.pick.val() | i.to_bits();
            }
        }
        // Each output is written once per pass: an output written twice with different values
        // glitches in an event-driven simulator, and with a parent that does the same to this
        // block's inputs, iverilog ping-pongs the glitches forever at one time step.
        self.index.next = self.pick.val();
        self.grant_q.d.next = self.one_hot.val();
        if self.taken.val() {
            self.grant_q.d.next = self.one_hot_taken.val();
        }
        if self.lookahead.val() {
            self.valid.next = self.shown.val().any();
            self.grant.next = self.grant_q.q.val();
        } else {
            self.valid.next = self.req.val().any();
            self.grant.next = self.one_hot.val();
        }
        // Past the grant: not the granted bit nor any below it.
        if self.lookahead.val() {
            self.above.d.next = self.above_now.val();
            if self.taken.val() {
                self.above.d.next = self.above_taken.val();
            }
        } else if self.reset.val() {
            self.above.d.next = self.above_at_reset.val();
        } else if self.advance.val() & self.req.val().any() {
            self.above.d.next = !(self.one_hot.val() | (self.one_hot.val() - 1));
        }
    }
}

impl<const N: usize, const NW: usize> crate::sim::Dut for RoundRobinArbiter<N, NW> {
    crate::dut_ports!(clock: clock, inputs: [reset, req, req_taken, advance], outputs: [valid, index, grant]);
}

/// The formal properties (`round_robin_arbiter.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/common/round_robin/round_robin_arbiter.sv",
    text: include_str!("round_robin_arbiter.sv"),
    wrapper: "round_robin_arbiter_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![("N", s.warps), ("NW", s.warp_id_width())]
    },
    claims: &[Claim::cu(&[
        "grant_is_one_requester",
        "index_names_the_grant",
        "steady_request_granted_within_n_grants",
    ])],
    // The seed's PriorityEncoder back in place of the rotation: the lowest request always wins.
    mutants: &[Mutant::cu(
        "fixed_priority",
        "req_above = req & above_now;",
        "req_above = 4'h0;",
        &["steady_request_granted_within_n_grants"],
    )],
};
