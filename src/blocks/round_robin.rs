//! RoundRobinArbiter: grants one requester, with priority rotating past the last grant.
//!
//! The requester after the last one granted (cyclically) has the highest priority. The priority
//! moves only when a grant is taken (`advance` high while `valid`), so a requester that is
//! granted but not served keeps its grant. After reset requester 0 has the highest priority.
//! Starvation bound: a requester that keeps its request is granted within `N` taken grants.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, clog2, MAX_PORT_BITS};

/// `N` requesters; `NW = clog2(N)` is the width of `index`.
#[derive(LogicBlock)]
pub struct RoundRobinArbiter<const N: usize, const NW: usize> {
    /// Clock; the priority pointer changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: requester 0 gets the highest priority.
    pub reset: Signal<In, Bit>,
    // Request
    /// One request bit per requester.
    pub req: Signal<In, Bits<N>>,
    /// The current grant is taken this cycle: rotate priority past it.
    pub advance: Signal<In, Bit>,
    // Result (combinational from `req` and the pointer)
    /// Some request bit is set.
    pub valid: Signal<Out, Bit>,
    /// Binary index of the granted requester; 0 when `valid` is low.
    pub index: Signal<Out, Bits<NW>>,
    /// One-hot grant; 0 when `valid` is low.
    pub grant: Signal<Out, Bits<N>>,
    last: DFF<Bits<NW>>,
    last_at_reset: Constant<Bits<NW>>,
    found: Signal<Local, Bit>,
    pick: Signal<Local, Bits<NW>>,
    one_hot: Signal<Local, Bits<N>>,
}

impl<const N: usize, const NW: usize> RoundRobinArbiter<N, NW> {
    /// Checks `N` (2..=32) and `NW = clog2(N)`; after reset requester 0 has the highest priority.
    pub fn new() -> Result<Self> {
        Self::starting_after(N - 1)
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
            advance: Default::default(),
            valid: Default::default(),
            index: Default::default(),
            grant: Default::default(),
            last: Default::default(),
            last_at_reset: Constant::new(last.to_bits()),
            found: Default::default(),
            pick: Default::default(),
            one_hot: Default::default(),
        })
    }
}

impl<const N: usize, const NW: usize> Logic for RoundRobinArbiter<N, NW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last);
        // Outputs are computed in locals and written once (see PriorityEncoder).
        self.pick.next = 0.into();
        self.found.next = false;
        // First the requesters above the last grant, lowest first (requester 0 never is) ...
        for i in 1..N {
            if !self.found.val() & self.req.val().get_bit(i) & (self.last.q.val().index() < i) {
                self.pick.next = i.to_bits();
                self.found.next = true;
            }
        }
        // ... then wrap around to the lowest requester.
        for i in 0..N {
            if !self.found.val() & self.req.val().get_bit(i) {
                self.pick.next = i.to_bits();
                self.found.next = true;
            }
        }
        self.one_hot.next = 0.into();
        for i in 0..N {
            if self.req.val().any() & (self.pick.val().index() == i) {
                self.one_hot.next = self.one_hot.val().replace_bit(i, true);
            }
        }
        self.valid.next = self.req.val().any();
        self.index.next = self.pick.val();
        self.grant.next = self.one_hot.val();
        if self.reset.val() {
            self.last.d.next = self.last_at_reset.val();
        } else if self.advance.val() & self.req.val().any() {
            self.last.d.next = self.pick.val();
        }
    }
}

impl<const N: usize, const NW: usize> crate::verify::Dut for RoundRobinArbiter<N, NW> {
    crate::dut_ports!(clock: clock, inputs: [reset, req, advance], outputs: [valid, index, grant]);
}
