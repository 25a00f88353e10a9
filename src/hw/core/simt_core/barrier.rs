//! Barrier: the [`SimtCore`](super::SimtCore)'s one barrier. A warp that issues `bar` waits
//! (it fetched nothing after it, so it has nothing to issue): its bit is set in `waiting`. When
//! every warp that has not ended waits (and the launch is over), the waiting warps are released:
//! they move to `releasing`, and one a cycle, the lowest first, is re-activated through the
//! scheduler's warp control, in the cycles the fill does not use it. A warp that reaches `bar`
//! diverged (its active lanes are not all its lanes that have not exited) waits as the others
//! do, and raises the sticky `err_diverged`.

use rust_hdl::prelude::*;

use crate::hw::{Order, PriorityEncoder};

/// `W` warps (`WW` bits).
#[derive(LogicBlock)]
pub struct Barrier<const W: usize, const WW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Warp `arrive_warp` issues `bar` (`diverged`: not with all its live lanes).
    pub arrive: Signal<In, Bit>,
    pub arrive_warp: Signal<In, Bits<WW>>,
    pub diverged: Signal<In, Bit>,
    /// The warps that have not ended (launched, not idle); warps are still being launched.
    pub present: Signal<In, Bits<W>>,
    pub launching: Signal<In, Bit>,
    /// The fill uses warp control this cycle.
    pub ctl_busy: Signal<In, Bit>,
    /// Re-activate warp `ctl_wid`.
    pub ctl_valid: Signal<Out, Bit>,
    pub ctl_wid: Signal<Out, Bits<WW>>,
    /// Some warp waits.
    pub any_waiting: Signal<Out, Bit>,
    /// Sticky: a warp reached `bar` diverged.
    pub err_diverged: Signal<Out, Bit>,
    waiting: DFF<Bits<W>>,
    releasing: DFF<Bits<W>>,
    err: DFF<Bit>,
    next_out: PriorityEncoder<W, WW>,
    let_go: Signal<Local, Bit>,
    reactivate: Signal<Local, Bit>,
    waiting_next: Signal<Local, Bits<W>>,
    releasing_next: Signal<Local, Bits<W>>,
}

impl<const W: usize, const WW: usize> Barrier<W, WW> {
    pub fn new() -> anyhow::Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            arrive: Default::default(),
            arrive_warp: Default::default(),
            diverged: Default::default(),
            present: Default::default(),
            launching: Default::default(),
            ctl_busy: Default::default(),
            ctl_valid: Default::default(),
            ctl_wid: Default::default(),
            any_waiting: Default::default(),
            err_diverged: Default::default(),
            waiting: Default::default(),
            releasing: Default::default(),
            err: Default::default(),
            next_out: PriorityEncoder::new(Order::LowestFirst)?,
            let_go: Default::default(),
            reactivate: Default::default(),
            waiting_next: Default::default(),
            releasing_next: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize> Logic for Barrier<W, WW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, waiting, releasing, err);
        // Every warp that has not ended waits: release them all
        self.let_go.next = !self.launching.val()
            & self.waiting.q.val().any()
            & !(self.present.val() & !self.waiting.q.val()).any();
        // One released warp a cycle, when the fill leaves warp control free
        self.next_out.req.next = self.releasing.q.val();
        self.reactivate.next = self.next_out.valid.val() & !self.ctl_busy.val();
        self.ctl_valid.next = self.reactivate.val();
        self.ctl_wid.next = self.next_out.index.val();
        self.releasing_next.next = self.releasing.q.val();
        self.waiting_next.next = self.waiting.q.val();
        for w in 0..W {
            if self.reactivate.val() & (self.next_out.index.val().index() == w) {
                self.releasing_next.next = self.releasing.q.val().replace_bit(w, false);
            }
        }
        if self.let_go.val() {
            self.releasing_next.next = self.releasing_next.val() | self.waiting.q.val();
            self.waiting_next.next = 0.into();
        }
        for w in 0..W {
            if self.arrive.val() & (self.arrive_warp.val().index() == w) {
                self.waiting_next.next = self.waiting_next.val().replace_bit(w, true);
            }
        }
        self.releasing.d.next = self.releasing_next.val();
        self.waiting.d.next = self.waiting_next.val();
        if self.arrive.val() & self.diverged.val() {
            self.err.d.next = true;
        }
        self.any_waiting.next = self.waiting.q.val().any();
        self.err_diverged.next = self.err.q.val();
        if self.reset.val() {
            self.waiting.d.next = 0.into();
            self.releasing.d.next = 0.into();
            self.err.d.next = false;
        }
    }
}
