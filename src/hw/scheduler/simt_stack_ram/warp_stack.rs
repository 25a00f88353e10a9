//! WarpStack: one warp's part of a [`SimtStackRam`](super::SimtStackRam): its stack pointer,
//! its top (and bottom) entry registers, its flags' changes and the RAM accesses its commands
//! ask for. The stack RAM shares one write and one read port between the warps; the parent
//! block selects the addresses by warp id and ORs the requests.

use rust_hdl::prelude::*;

use crate::params::{EmptyTop, TopStorage};

/// One warp's stack state: `T` threads, `A` pc bits, `SPW` pointer bits.
#[derive(LogicBlock)]
pub struct WarpStack<const T: usize, const A: usize, const SPW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// This warp's commands: push, pop, clear.
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub push_mask: Signal<In, Bits<T>>,
    pub push_pc: Signal<In, Bits<A>>,
    /// The RAM shows the entry this warp's last pop uncovered.
    pub refill: Signal<In, Bit>,
    pub ram_mask: Signal<In, Bits<T>>,
    pub ram_pc: Signal<In, Bits<A>>,
    /// The stack pointer (entries on the stack).
    pub sp: Signal<Out, Bits<SPW>>,
    pub empty: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    /// Empty after this cycle's edge.
    pub empty_next: Signal<Out, Bit>,
    /// The top entry (zero with [`TopStorage::Ram`]).
    pub top_mask: Signal<Out, Bits<T>>,
    pub top_pc: Signal<Out, Bits<A>>,
    /// This cycle's command writes the pushed entry to the RAM / reads the uncovered one.
    pub write: Signal<Out, Bit>,
    pub read: Signal<Out, Bit>,
    /// Flag changes: reset clears both; a dropped push sets overflow, a pop of an empty stack
    /// underflow.
    pub clear_flags: Signal<Out, Bit>,
    pub set_overflow: Signal<Out, Bit>,
    pub set_underflow: Signal<Out, Bit>,
    /// [`TopStorage::Ram`]: the pushed entry becomes the top; else the top after the edge is
    /// in the RAM (`from_ram`, stack not empty) at slot `next_top_slot`.
    pub put: Signal<Out, Bit>,
    pub from_ram: Signal<Out, Bit>,
    pub next_top_slot: Signal<Out, Bits<SPW>>,
    sp_q: DFF<Bits<SPW>>,
    top_mask_q: DFF<Bits<T>>,
    top_pc_q: DFF<Bits<A>>,
    bottom_mask_q: DFF<Bits<T>>,
    bottom_pc_q: DFF<Bits<A>>,
    depth: Constant<Bits<SPW>>,
    /// [`EmptyTop::SlotZero`]: an empty stack's top reads slot 0 (else zero).
    slot0_when_empty: Constant<Bit>,
    /// 2 (mod `2^SPW`): a pop reads slot `sp - two`.
    two: Constant<Bits<SPW>>,
    /// [`TopStorage::Ram`]: no top registers.
    top_in_ram: Constant<Bit>,
    /// Reset or clear: the stack empties.
    clr: Signal<Local, Bit>,
    /// A pop empties the stack and the empty top reads zero.
    zero: Signal<Local, Bit>,
    /// The pushed entry lands in slot 0 ([`EmptyTop::SlotZero`] keeps it in `bottom`).
    bottom: Signal<Local, Bit>,
    is_empty: Signal<Local, Bit>,
    is_full: Signal<Local, Bit>,
    /// The pushed entry becomes the top (a push that is not dropped, or a push with a pop).
    puts: Signal<Local, Bit>,
}

impl<const T: usize, const A: usize, const SPW: usize> WarpStack<T, A, SPW> {
    /// A stack of `depth` entries (checked by the parent).
    pub fn new(depth: usize, empty_top: EmptyTop, top_storage: TopStorage) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            clear: Default::default(),
            push_mask: Default::default(),
            push_pc: Default::default(),
            refill: Default::default(),
            ram_mask: Default::default(),
            ram_pc: Default::default(),
            sp: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            empty_next: Default::default(),
            top_mask: Default::default(),
            top_pc: Default::default(),
            write: Default::default(),
            read: Default::default(),
            clear_flags: Default::default(),
            set_overflow: Default::default(),
            set_underflow: Default::default(),
            put: Default::default(),
            from_ram: Default::default(),
            next_top_slot: Default::default(),
            sp_q: Default::default(),
            top_mask_q: Default::default(),
            top_pc_q: Default::default(),
            bottom_mask_q: Default::default(),
            bottom_pc_q: Default::default(),
            depth: Constant::new(depth.to_bits()),
            slot0_when_empty: Constant::new(empty_top == EmptyTop::SlotZero),
            two: Constant::new((2 % (1u64 << SPW)).to_bits()),
            top_in_ram: Constant::new(top_storage == TopStorage::Ram),
            clr: Default::default(),
            zero: Default::default(),
            bottom: Default::default(),
            is_empty: Default::default(),
            is_full: Default::default(),
            puts: Default::default(),
        }
    }
}

impl<const T: usize, const A: usize, const SPW: usize> Logic for WarpStack<T, A, SPW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sp_q, top_mask_q, top_pc_q, bottom_mask_q, bottom_pc_q);
        self.sp.next = self.sp_q.q.val();
        self.is_empty.next = self.sp_q.q.val() == 0;
        self.is_full.next = self.sp_q.q.val() == self.depth.val();
        self.empty.next = self.is_empty.val();
        self.full.next = self.is_full.val();
        // The top: its registers, or in the cycle after a pop uncovered an entry the RAM's
        // output.
        if self.top_in_ram.val() {
            self.top_mask.next = 0.into();
            self.top_pc.next = 0.into();
        } else if self.refill.val() {
            self.top_mask.next = self.ram_mask.val();
            self.top_pc.next = self.ram_pc.val();
        } else {
            self.top_mask.next = self.top_mask_q.q.val();
            self.top_pc.next = self.top_pc_q.q.val();
        }
        // The top's next state as flat conditions, each a plain `if` of its own, the hold
        // first: yosys then maps the registers to flip-flops with a clock enable and a
        // synchronous reset (a nested `if`, or a hold value shared with another use, keeps
        // it from finding the enable and costs a LUT per bit).
        self.clr.next = self.reset.val() | self.clear.val();
        self.puts.next = !self.clr.val() & self.push.val() & (self.pop.val() | !self.is_full.val());
        // (Reset and clear zero the top too, so `zero` need not exclude them.)
        self.zero.next = !self.push.val()
            & self.pop.val()
            & !self.is_empty.val()
            & (self.sp_q.q.val() < 2)
            & !self.slot0_when_empty.val();
        self.bottom.next = !self.clr.val()
            & self.push.val()
            & ((self.pop.val() & (self.sp_q.q.val() < 2))
                | (!self.pop.val() & self.is_empty.val()));
        if self.refill.val() {
            self.top_mask_q.d.next = self.ram_mask.val();
            self.top_pc_q.d.next = self.ram_pc.val();
        }
        if self.puts.val() {
            self.top_mask_q.d.next = self.push_mask.val();
            self.top_pc_q.d.next = self.push_pc.val();
        }
        if self.zero.val() | (self.clr.val() & !self.slot0_when_empty.val()) {
            self.top_mask_q.d.next = 0.into();
            self.top_pc_q.d.next = 0.into();
        }
        if self.clr.val() & self.slot0_when_empty.val() {
            self.top_mask_q.d.next = self.bottom_mask_q.q.val();
            self.top_pc_q.d.next = self.bottom_pc_q.q.val();
        }
        if self.bottom.val() {
            self.bottom_mask_q.d.next = self.push_mask.val();
            self.bottom_pc_q.d.next = self.push_pc.val();
        }
        // Pointer, flags and RAM accesses, in SimtStack's order
        self.write.next = false;
        self.read.next = false;
        self.clear_flags.next = false;
        self.set_overflow.next = false;
        self.set_underflow.next = false;
        if self.clr.val() {
            self.sp_q.d.next = 0.into();
            self.clear_flags.next = self.reset.val();
        } else if self.push.val() & self.pop.val() {
            // Pop, then push: replace the top entry (on an empty stack, slot 0).
            self.write.next = true;
            if self.is_empty.val() {
                self.set_underflow.next = true;
                self.sp_q.d.next = 1.into();
            }
        } else if self.push.val() {
            if self.is_full.val() {
                self.set_overflow.next = true;
            } else {
                self.write.next = true;
                self.sp_q.d.next = self.sp_q.q.val() + 1;
            }
        } else if self.pop.val() {
            if self.is_empty.val() {
                self.set_underflow.next = true;
            } else {
                self.sp_q.d.next = self.sp_q.q.val() - 1;
                // Slot sp - 2 becomes the top (from sp = 1 the top is slot 0 or zero, above).
                if self.sp_q.q.val() >= 2 {
                    self.read.next = true;
                }
            }
        }
        self.empty_next.next = self.sp_q.d.val() == 0;
        // [`TopStorage::Ram`]: no top registers (held at zero, so synthesis removes them);
        // the top after the edge is the pushed entry, or the entry below the popped one, or
        // the top as it is.
        if self.top_in_ram.val() {
            self.top_mask_q.d.next = 0.into();
            self.top_pc_q.d.next = 0.into();
            self.bottom_mask_q.d.next = 0.into();
            self.bottom_pc_q.d.next = 0.into();
        }
        self.next_top_slot.next = self.sp_q.q.val() - 1;
        if self.pop.val() & !self.push.val() {
            self.next_top_slot.next = self.sp_q.q.val() - self.two.val();
        }
        self.put.next = self.puts.val();
        self.from_ram.next = !self.puts.val() & (self.sp_q.d.val() != 0);
    }
}
