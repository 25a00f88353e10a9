//! IBuffer: every warp's instruction buffer of two slots, between decode and issue (GPGPU-Sim's
//! `ibuffer_fill` / `ibuffer_next_inst` / `ibuffer_step` / `ibuffer_flush`, seed 001).
//!
//! Each warp holds up to two instructions with their pcs, oldest first. Per cycle:
//! - **fill** appends one instruction to one warp's buffer (fetch and decode deliver one a
//!   cycle); `space[w]` says warp `w` has a free slot;
//! - **issue** removes the oldest instruction of `issue_warp`; `head_inst`/`head_pc` show the
//!   oldest instruction of `head_warp` (combinational; a core that issues the head it shows ties
//!   the two together, a core that picks its next instruction while issuing the last one does
//!   not); `head_valid[w]` says warp `w` has one;
//! - **flush** empties one warp's buffer (a control hazard: the SIMT stack's pc is not the
//!   buffered one).
//!
//! Order within a cycle: issue takes the old head, then the fill lands, so a full warp can issue
//! and be filled in the same cycle; last, a flush empties the warp (a fill of that warp in that
//! cycle is lost; its issue still took the head). Misuse is dropped and flagged (sticky until
//! reset), also in a cycle that flushes: a fill of a buffer that is full after the cycle's issue
//! sets `err_fill_full`; an issue of an empty buffer sets `err_issue_empty`. Reset (synchronous,
//! active high) empties every buffer and clears the flags.

pub mod model;
pub mod preset;
mod ram;
pub mod stimulus;

pub use ram::IBufferRam;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, check_warps, clog2};
use crate::sim::{Claim, Mutant};

/// `W` warps (`WW = clog2 W`), `A`-bit pcs, 32-bit instructions, two slots per warp.
#[derive(LogicBlock)]
pub struct IBuffer<const W: usize, const WW: usize, const A: usize> {
    /// Clock: fills, issues and flushes take effect at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    // Fill (from fetch and decode)
    /// Add `fill_inst` at `fill_pc` to warp `fill_warp`'s buffer at this edge.
    pub fill_valid: Signal<In, Bit>,
    /// The warp filled.
    pub fill_warp: Signal<In, Bits<WW>>,
    /// The instruction word.
    pub fill_inst: Signal<In, Bits<32>>,
    /// Its pc.
    pub fill_pc: Signal<In, Bits<A>>,
    /// Bit `w`: warp `w` has a free slot.
    pub space: Signal<Out, Bits<W>>,
    // Issue
    /// Bit `w`: warp `w` has an instruction.
    pub head_valid: Signal<Out, Bits<W>>,
    /// The warp whose oldest instruction `head_inst`/`head_pc` show (0 when it has none).
    pub head_warp: Signal<In, Bits<WW>>,
    /// Warp `head_warp`'s oldest instruction.
    pub head_inst: Signal<Out, Bits<32>>,
    /// Its pc.
    pub head_pc: Signal<Out, Bits<A>>,
    /// The warp whose oldest instruction `issue_valid` takes.
    pub issue_warp: Signal<In, Bits<WW>>,
    /// Remove warp `issue_warp`'s oldest instruction at this edge.
    pub issue_valid: Signal<In, Bit>,
    // Flush
    /// Empty warp `flush_warp`'s buffer at this edge.
    pub flush_valid: Signal<In, Bit>,
    /// The warp flushed.
    pub flush_warp: Signal<In, Bits<WW>>,
    // Errors (sticky)
    /// Sticky: a fill found its warp's buffer full.
    pub err_fill_full: Signal<Out, Bit>,
    /// Sticky: an issue found its warp's buffer empty.
    pub err_issue_empty: Signal<Out, Bit>,
    /// Per warp: slot 0 is the oldest; `count` is 0, 1 or 2.
    inst0: [DFF<Bits<32>>; W],
    pc0: [DFF<Bits<A>>; W],
    inst1: [DFF<Bits<32>>; W],
    pc1: [DFF<Bits<A>>; W],
    count: [DFF<Bits<2>>; W],
    fill_full: DFF<Bit>,
    issue_empty: DFF<Bit>,
    /// This warp's count after the issue, before the fill.
    left: Signal<Local, Bits<2>>,
}

/// [`IBuffer`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_ibuffer {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::IBuffer] $s; W, WW, A)
    };
}

impl<const W: usize, const WW: usize, const A: usize> IBuffer<W, WW, A> {
    /// Checks `W` (a power of two, 2..=32), `WW = clog2(W)` and `A` (1..=32).
    pub fn new() -> Result<Self> {
        check_warps("warps (W)", W)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
        check_range("pc_width (A)", A, 1, 32)?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            fill_valid: Default::default(),
            fill_warp: Default::default(),
            fill_inst: Default::default(),
            fill_pc: Default::default(),
            space: Default::default(),
            head_valid: Default::default(),
            head_warp: Default::default(),
            head_inst: Default::default(),
            head_pc: Default::default(),
            issue_warp: Default::default(),
            issue_valid: Default::default(),
            flush_valid: Default::default(),
            flush_warp: Default::default(),
            err_fill_full: Default::default(),
            err_issue_empty: Default::default(),
            inst0: std::array::from_fn(|_| Default::default()),
            pc0: std::array::from_fn(|_| Default::default()),
            inst1: std::array::from_fn(|_| Default::default()),
            pc1: std::array::from_fn(|_| Default::default()),
            count: std::array::from_fn(|_| Default::default()),
            fill_full: Default::default(),
            issue_empty: Default::default(),
            left: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const A: usize> Logic for IBuffer<W, WW, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill_full, issue_empty);
        self.space.next = 0.into();
        self.head_valid.next = 0.into();
        self.head_inst.next = 0.into();
        self.head_pc.next = 0.into();
        for w in 0..W {
            self.inst0[w].clock.next = self.clock.val();
            self.pc0[w].clock.next = self.clock.val();
            self.inst1[w].clock.next = self.clock.val();
            self.pc1[w].clock.next = self.clock.val();
            self.count[w].clock.next = self.clock.val();
            self.inst0[w].d.next = self.inst0[w].q.val();
            self.pc0[w].d.next = self.pc0[w].q.val();
            self.inst1[w].d.next = self.inst1[w].q.val();
            self.pc1[w].d.next = self.pc1[w].q.val();
            self.count[w].d.next = self.count[w].q.val();
            if self.count[w].q.val() != 2 {
                self.space.next = self.space.val().replace_bit(w, true);
            }
            if self.count[w].q.val() != 0 {
                self.head_valid.next = self.head_valid.val().replace_bit(w, true);
            }
            if (self.head_warp.val().index() == w) & (self.count[w].q.val() != 0) {
                self.head_inst.next = self.inst0[w].q.val();
                self.head_pc.next = self.pc0[w].q.val();
            }
            // Issue: the second slot moves up.
            self.left.next = self.count[w].q.val();
            if self.issue_valid.val() & (self.issue_warp.val().index() == w) {
                if self.count[w].q.val() == 0 {
                    self.issue_empty.d.next = true;
                } else {
                    self.left.next = self.count[w].q.val() - 1;
                    self.inst0[w].d.next = self.inst1[w].q.val();
                    self.pc0[w].d.next = self.pc1[w].q.val();
                }
            }
            self.count[w].d.next = self.left.val();
            // Fill: into the first free slot after the issue.
            if self.fill_valid.val() & (self.fill_warp.val().index() == w) {
                if self.left.val() == 2 {
                    self.fill_full.d.next = true;
                } else {
                    self.count[w].d.next = self.left.val() + 1;
                    if self.left.val() == 0 {
                        self.inst0[w].d.next = self.fill_inst.val();
                        self.pc0[w].d.next = self.fill_pc.val();
                    } else {
                        self.inst1[w].d.next = self.fill_inst.val();
                        self.pc1[w].d.next = self.fill_pc.val();
                    }
                }
            }
            if (self.flush_valid.val() & (self.flush_warp.val().index() == w)) | self.reset.val() {
                self.count[w].d.next = 0.into();
            }
        }
        self.err_fill_full.next = self.fill_full.q.val();
        self.err_issue_empty.next = self.issue_empty.q.val();
        if self.reset.val() {
            self.fill_full.d.next = false;
            self.issue_empty.d.next = false;
        }
    }
}

impl<const W: usize, const WW: usize, const A: usize> crate::sim::Dut for IBuffer<W, WW, A> {
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, fill_valid, fill_warp, fill_inst, fill_pc, head_warp, issue_warp, issue_valid, flush_valid, flush_warp],
        outputs: [space, head_valid, head_inst, head_pc, err_fill_full, err_issue_empty]
    );
}

/// The formal properties (`ibuffer.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/core/ibuffer/ibuffer.sv",
    text: include_str!("ibuffer.sv"),
    wrapper: "ibuffer_props",
    parameters: |p| {
        vec![
            ("W", p.scheduler.warps),
            ("WW", p.scheduler.warp_id_width()),
            ("A", p.scheduler.pc_width),
        ]
    },
    claims: &[Claim::cu(&[
        "at_most_two_per_warp",
        "space_and_head_as_counted",
        "filled_into_empty_warp_is_the_head",
        "empty_warp_shows_no_instruction",
    ])],
    mutants: &[
        Mutant::cu(
            "flush_ignored",
            "if ((flush_valid & (flush_warp == 0)) | reset) begin",
            "if (reset) begin",
            &["space_and_head_as_counted"],
        ),
        // Warp 0's instruction filled into an empty buffer lands in the second slot.
        Mutant::cu(
            "wrong_slot",
            "inst0$0$d = fill_inst;",
            "inst1$0$d = fill_inst;",
            &["filled_into_empty_warp_is_the_head"],
        ),
        // Warp 0's head shown when warp 0 issues, not when it is the warp asked for.
        Mutant::cu(
            "head_of_issued_warp",
            "if ((head_warp == 0) & (count$0$q != 32'h0)) begin",
            "if ((issue_warp == 0) & (count$0$q != 32'h0)) begin",
            &["filled_into_empty_warp_is_the_head"],
        ),
    ],
};

/// The formal properties of [`IBufferRam`] (`ibuffer_ram.sv` beside this file), with the same
/// parameters.
pub const RAM_PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/core/ibuffer/ibuffer_ram.sv",
    text: include_str!("ibuffer_ram.sv"),
    wrapper: "ibuffer_ram_props",
    parameters: PROPERTIES.parameters,
    // The counts close by induction; the head is checked from reset to depth 10 (enough for a
    // warp's ring of four rows to wrap): its RAM of 128 rows makes each step of the bounded
    // check slow (step 10 takes minutes where the counts' take none).
    claims: &[Claim::cu(&["at_most_two_per_warp", "space_and_head_as_counted"]).depth(10)],
    mutants: &[
        // Warp 0's head read from the row after its oldest.
        Mutant::cu(
            "ram_head_next_row",
            "read_slot = oldest$0$q;",
            "read_slot = oldest$0$q + 1'b1;",
            &["head_is_the_named_warps_oldest"],
        ),
        // Warp 0's fills all written over its oldest row.
        Mutant::cu(
            "ram_fill_over_oldest",
            "write_slot = oldest$0$q + count$0$q;",
            "write_slot = oldest$0$q;",
            &["head_is_the_named_warps_oldest"],
        ),
        // Warp 0 named while empty shows what its oldest row held.
        Mutant::cu(
            "ram_stale_head",
            "shown$d = count$0$q != 32'h0;",
            "shown$d = 1'b1;",
            &["head_is_the_named_warps_oldest"],
        ),
    ],
};
