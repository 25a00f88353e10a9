//! SIMTStack: one warp's reconvergence stack of `{thread mask, pc}` entries.
//!
//! Unlike the seed's stack it never corrupts itself:
//! - a push when full is dropped and sets the sticky `overflow` flag;
//! - a pop when empty is dropped and sets the sticky `underflow` flag;
//! - a push and a pop in the same cycle mean *pop, then push*: the top entry is replaced and the
//!   occupancy is unchanged (on an empty stack the pop underflows and the push still lands);
//! - `clear` empties the stack and wins over push and pop; `reset` empties it and clears the
//!   flags (the stored entries are kept, as in the seed).
//!
//! The top of stack is combinational from the state. When the stack is empty, `top_*` shows the
//! entry in slot 0 (stale data), which is what the seed's `stack_mem[sp > 0 ? sp - 1 : 0]` reads.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, stack_ptr_width, MAX_PORT_BITS};
use crate::sim::{Claim, Mutant};

/// The exported module (and file) name.
pub const MODULE: &str = "simt_stack";

/// `T` threads (mask width), `A` pc width, `D` entries; `SPW = clog2(D + 1)` counts `0..=D`.
#[derive(LogicBlock)]
pub struct SimtStack<const T: usize, const A: usize, const D: usize, const SPW: usize> {
    /// Clock; the stack changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the stack and clears both flags.
    pub reset: Signal<In, Bit>,
    // Commands (sampled at the rising edge)
    /// Push `{push_mask, push_pc}`.
    pub push: Signal<In, Bit>,
    /// Pop the top entry.
    pub pop: Signal<In, Bit>,
    /// Empty the stack (wins over push and pop; flags are kept).
    pub clear: Signal<In, Bit>,
    /// Thread mask of the entry to push.
    pub push_mask: Signal<In, Bits<T>>,
    /// Pc of the entry to push.
    pub push_pc: Signal<In, Bits<A>>,
    // Top of stack (combinational from the state)
    /// Thread mask of the top entry (slot 0 when empty).
    pub top_mask: Signal<Out, Bits<T>>,
    /// Pc of the top entry (slot 0 when empty).
    pub top_pc: Signal<Out, Bits<A>>,
    // Status
    /// No entry is stored.
    pub empty: Signal<Out, Bit>,
    /// All `D` entries are in use.
    pub full: Signal<Out, Bit>,
    /// Number of entries stored, `0..=D`.
    pub occupancy: Signal<Out, Bits<SPW>>,
    /// Sticky: a push was dropped because the stack was full.
    pub overflow: Signal<Out, Bit>,
    /// Sticky: a pop was dropped because the stack was empty.
    pub underflow: Signal<Out, Bit>,
    mask_mem: [DFF<Bits<T>>; D],
    pc_mem: [DFF<Bits<A>>; D],
    sp: DFF<Bits<SPW>>,
    overflow_q: DFF<Bit>,
    underflow_q: DFF<Bit>,
    depth: Constant<Bits<SPW>>,
    push_ok: Signal<Local, Bit>,
    replace_addr: Signal<Local, Bits<SPW>>,
    slot_sel: Signal<Local, Bit>,
    tos_mask: Signal<Local, Bits<T>>,
    tos_pc: Signal<Local, Bits<A>>,
}

/// [`SimtStack`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_simt_stack {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::SimtStack] $s; T, A, D, SPW)
    };
}

impl<const T: usize, const A: usize, const D: usize, const SPW: usize> SimtStack<T, A, D, SPW> {
    /// Checks `T`, `A` (at most 32 bits), `D` (1..=64) and `SPW = clog2(D + 1)`.
    pub fn new() -> Result<Self> {
        check_range("threads (T)", T, 1, MAX_PORT_BITS)?;
        check_range("pc_width (A)", A, 3, MAX_PORT_BITS)?;
        check_range("stack_depth (D)", D, 1, 64)?;
        check_derived("SPW", SPW, "clog2(D + 1)", stack_ptr_width(D))?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            clear: Default::default(),
            push_mask: Default::default(),
            push_pc: Default::default(),
            top_mask: Default::default(),
            top_pc: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            occupancy: Default::default(),
            overflow: Default::default(),
            underflow: Default::default(),
            mask_mem: std::array::from_fn(|_| Default::default()),
            pc_mem: std::array::from_fn(|_| Default::default()),
            sp: Default::default(),
            overflow_q: Default::default(),
            underflow_q: Default::default(),
            depth: Constant::new(D.to_bits()),
            push_ok: Default::default(),
            replace_addr: Default::default(),
            slot_sel: Default::default(),
            tos_mask: Default::default(),
            tos_pc: Default::default(),
        })
    }
}

impl<const T: usize, const A: usize, const D: usize, const SPW: usize> Logic
    for SimtStack<T, A, D, SPW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Keep
        for i in 0..D {
            self.mask_mem[i].clock.next = self.clock.val();
            self.mask_mem[i].d.next = self.mask_mem[i].q.val();
            self.pc_mem[i].clock.next = self.clock.val();
            self.pc_mem[i].d.next = self.pc_mem[i].q.val();
        }
        dff_setup!(self, clock, sp, overflow_q, underflow_q);
        // Status and top of stack
        self.empty.next = self.sp.q.val() == 0;
        self.full.next = self.sp.q.val() == self.depth.val();
        self.occupancy.next = self.sp.q.val();
        self.overflow.next = self.overflow_q.q.val();
        self.underflow.next = self.underflow_q.q.val();
        // Outputs are computed in locals and written once (see PriorityEncoder).
        self.tos_mask.next = self.mask_mem[0].q.val();
        self.tos_pc.next = self.pc_mem[0].q.val();
        for i in 0..D {
            if self.sp.q.val().index() == i + 1 {
                self.tos_mask.next = self.mask_mem[i].q.val();
                self.tos_pc.next = self.pc_mem[i].q.val();
            }
        }
        self.top_mask.next = self.tos_mask.val();
        self.top_pc.next = self.tos_pc.val();
        // Next state of the pointer and the flags
        if self.reset.val() {
            self.sp.d.next = 0.into();
            self.overflow_q.d.next = false;
            self.underflow_q.d.next = false;
        } else if self.clear.val() {
            self.sp.d.next = 0.into();
        } else if self.push.val() & self.pop.val() {
            // Pop, then push: replace the top entry (on an empty stack, slot 0).
            if self.empty.val() {
                self.underflow_q.d.next = true;
                self.sp.d.next = 1.into();
            }
        } else if self.push.val() {
            if self.full.val() {
                self.overflow_q.d.next = true;
            } else {
                self.sp.d.next = self.sp.q.val() + 1;
            }
        } else if self.pop.val() {
            if self.empty.val() {
                self.underflow_q.d.next = true;
            } else {
                self.sp.d.next = self.sp.q.val() - 1;
            }
        }
        // Entry writes. Each slot's write enable is a shallow function of the command and of
        // decodes of the pointer alone (it drives T + A flip-flop enables, the critical path):
        // a push writes slot `sp` (none when full), a push with a pop slot `max(sp, 1) - 1`.
        self.push_ok.next = self.push.val() & !self.reset.val() & !self.clear.val();
        self.replace_addr.next = self.sp.q.val() - 1;
        if self.empty.val() {
            self.replace_addr.next = 0.into();
        }
        for i in 0..D {
            self.slot_sel.next = (self.pop.val() & (self.replace_addr.val().index() == i))
                | (!self.pop.val() & (self.sp.q.val().index() == i));
            if self.push_ok.val() & self.slot_sel.val() {
                self.mask_mem[i].d.next = self.push_mask.val();
                self.pc_mem[i].d.next = self.push_pc.val();
            }
        }
    }
}

impl<const T: usize, const A: usize, const D: usize, const SPW: usize> crate::sim::Dut
    for SimtStack<T, A, D, SPW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, push, pop, clear, push_mask, push_pc],
        outputs: [top_mask, top_pc, empty, full, occupancy, overflow, underflow]
    );
}

/// The formal properties (`simt_stack.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/scheduler/simt_stack/simt_stack.sv",
    text: include_str!("simt_stack.sv"),
    wrapper: "simt_stack_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![
            ("T", s.threads),
            ("A", s.pc_width),
            ("D", s.stack_depth),
            ("SPW", s.stack_ptr_width()),
        ]
    },
    claims: &[Claim::cu(&[
        "occupancy_within_depth",
        "occupancy_is_pushes_minus_pops",
        "top_is_last_pushed_not_popped",
        "sticky_flags_as_contract",
    ])],
    mutants: &[
        Mutant::cu(
            "no_overflow_flag",
            "overflow_q$d = 1'b1;",
            "overflow_q$d = overflow_q$q;",
            &["full_push_sets_overflow"],
        ),
        // The first violation: the push on a full stack moves the pointer.
        Mutant::cu(
            "no_full_check",
            "            if (full) begin\n                overflow_q$d = 1'b1;\n            end\n            else begin\n                sp$d = sp$q + 32'h1;\n            end",
            "            sp$d = sp$q + 32'h1;",
            &["full_push_changes_no_entry"],
        ),
        // Two entries on the stack, and the top's mask is read from slot 0 instead of slot 1.
        Mutant::cu(
            "top_wrong_slot",
            "tos_mask = mask_mem$1$q;",
            "tos_mask = mask_mem$0$q;",
            &["top_is_last_pushed_not_popped"],
        ),
    ],
};
