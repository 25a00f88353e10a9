//! Barrier: the [`SimtCore`](crate::hw::SimtCore)'s one barrier. A warp that issues `bar` waits
//! (it fetched nothing after it, so it has nothing to issue): its bit is set in `waiting`. When
//! every warp that has not ended waits (and the launch is over), the waiting warps are released:
//! they move to `releasing`, and one a cycle, the lowest first, is re-activated through the
//! scheduler's warp control, in the cycles the fill does not use it. A warp that reaches `bar`
//! diverged (its active lanes are not all its lanes that have not exited) waits as the others
//! do, and raises the sticky `err_diverged`.

pub mod model;
pub mod preset;
pub mod stimulus;

use rust_hdl::prelude::*;

use crate::hw::{Order, PriorityEncoder};
use crate::params::{check_derived, check_range, clog2};

/// The exported module (and file) name.
pub const MODULE: &str = "barrier";

/// This block at the sizes `$s` (a [`Sizes`](crate::params::Sizes) const): `Barrier<W, WW>`.
#[macro_export]
macro_rules! sized_barrier {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::Barrier] $s; W, WW)
    };
}

/// `W` warps (`WW` bits).
#[derive(LogicBlock)]
pub struct Barrier<const W: usize, const WW: usize> {
    /// Arrivals and releases take effect at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Warp `arrive_warp` issues `bar` (`diverged`: not with all its live lanes).
    pub arrive: Signal<In, Bit>,
    /// The warp that arrives.
    pub arrive_warp: Signal<In, Bits<WW>>,
    /// It arrives diverged (an error: it waits as the others do).
    pub diverged: Signal<In, Bit>,
    /// The warps that have not ended (launched, not idle); warps are still being launched.
    pub present: Signal<In, Bits<W>>,
    /// Warps are still being launched: no release until they all are.
    pub launching: Signal<In, Bit>,
    /// The fill uses warp control this cycle.
    pub ctl_busy: Signal<In, Bit>,
    /// Re-activate warp `ctl_wid`.
    pub ctl_valid: Signal<Out, Bit>,
    /// The warp to re-activate.
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
    /// Checks `W` (2 to 32 warps) and `WW = clog2(W)`.
    pub fn new() -> anyhow::Result<Self> {
        check_range("warps (W)", W, 2, 32)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
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

impl<const W: usize, const WW: usize> crate::sim::Dut for Barrier<W, WW> {
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, arrive, arrive_warp, diverged, present, launching, ctl_busy],
        outputs: [ctl_valid, ctl_wid, any_waiting, err_diverged]
    );
}

/// The formal properties (`barrier.sv` beside this file).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/core/barrier/barrier.sv",
    text: include_str!("barrier.sv"),
    wrapper: "barrier_props",
    parameters: |p| vec![("W", p.scheduler.warps), ("WW", clog2(p.scheduler.warps))],
    claims: &[crate::sim::Claim::cu(PROVEN), crate::sim::Claim::cu(PROVEN).at("tiny")],
    // Released while a present warp still runs; released during the launch; a re-activation
    // that takes warp control from the fill.
    mutants: &[
        crate::sim::Mutant::cu(
            "release_with_a_warp_running",
            "let_go = ~launching & |waiting$q & ~|(present & ~waiting$q);",
            "let_go = ~launching & |waiting$q;",
            &["no_warp_leaves_before_every_present_warp_arrived"],
        ),
        crate::sim::Mutant::cu(
            "release_during_launch",
            "let_go = ~launching & |waiting$q & ~|(present & ~waiting$q);",
            "let_go = |waiting$q & ~|(present & ~waiting$q);",
            &["no_warp_leaves_before_every_present_warp_arrived"],
        ),
        crate::sim::Mutant::cu(
            "reactivate_over_the_fill",
            "reactivate = next_out$valid & ~ctl_busy;",
            "reactivate = next_out$valid;",
            &["reactivates_only_when_the_fill_leaves_control_free"],
        ),
    ],
};

/// Every property of `barrier.sv`, each proven by induction at `cu` (4 warps) and `tiny` (2).
const PROVEN: &[&str] = &[
    "reactivates_only_a_waiting_warp",
    "no_warp_leaves_before_every_present_warp_arrived",
    "reactivates_only_when_the_fill_leaves_control_free",
    "error_is_sticky_and_set_by_a_diverged_arrival",
];
