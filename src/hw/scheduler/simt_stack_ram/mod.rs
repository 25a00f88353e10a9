//! SimtStackRam: the SIMT stacks of all `W` warps in one block RAM, each warp's top of stack in
//! registers: what [`WarpScheduler`](crate::hw::WarpScheduler) keeps its stacks in.
//!
//! Each warp's stack behaves exactly as a [`SimtStack`](crate::hw::SimtStack) (same model,
//! `crate::hw::scheduler::simt_stack::model`): push when full dropped with the sticky overflow flag, pop when
//! empty dropped with underflow, push with pop replaces the top, `clear` empties, `reset` empties
//! and clears the flags, and an empty stack's top reads slot 0 or zero ([`EmptyTop`], chosen at
//! construction). What changes is the storage, so that deep stacks cost block RAM instead of
//! `W x D x (T + A)` flip-flops:
//! - every entry is written through to a RAM (mask and pc halves); warp `wid`'s slots start at
//!   `wid * D'`, with `D'` the depth rounded up to a power of two, so an address is the warp id
//!   and the slot side by side (no adder on the address paths);
//! - each warp keeps its top entry (`top`) in registers, and with [`EmptyTop::SlotZero`] its
//!   slot 0 too (`bottom`, for `clear`/`reset`, after which the top is slot 0; with
//!   [`EmptyTop::Zero`] those registers are unused and synthesis removes them);
//! - a pop that uncovers slot `sp - 2` reads it from the RAM; the entry arrives one cycle later
//!   (read latency 1) and is the warp's top during that cycle (`refills`), then lands in `top`.
//!   One pop per cycle needs one read per cycle; one push per cycle one write.
//!
//! With [`TopStorage::Ram`] there are no top registers at all: every entry lives only in the
//! RAM, and the read port serves `top_wid` instead. Each cycle it reads the slot that will be
//! warp `top_wid`'s top after the edge (`sp - 1`, or `sp - 2` under a pop), so `top_*` shows
//! that top one cycle later; when the edge pushes onto that warp, the pushed entry is shown
//! from a register instead (the RAM's read and write of one slot at one edge are never used
//! together). The [`WarpScheduler`](crate::hw::WarpScheduler)'s registered mode stores its stacks
//! this way: its pops wait a cycle in a stage anyway, and at the seed's sizes the per-warp top
//! registers and their multiplexers are a large share of its logic (measured in the book's
//! design notes).
//!
//! At most one warp is pushed and one popped per cycle: `push` and `pop` have at most one bit
//! set, the warp named by `push_wid` and `pop_wid`.

pub mod model;
pub mod preset;
pub mod stimulus;

use crate::sim::{Claim, Mutant};
use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{
    check_derived, check_range, check_stack_ram, check_warps, clog2, stack_ptr_width, EmptyTop,
    TopStorage, MAX_PORT_BITS,
};

/// Address bits of the stack RAM: all warps' stacks share 256 entries.
pub use crate::params::STACK_RAM_ADDR_BITS;

/// `W` warps (`WW = clog2(W)`), `T` threads, `A` pc bits, `D` entries per stack
/// (`SPW = clog2(D + 1)`); `W * D <= 256`, so `W * D' <= 256` too (`W` and `256 / W` are powers
/// of two).
#[derive(LogicBlock)]
pub struct SimtStackRam<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const D: usize,
    const SPW: usize,
> {
    /// Clock; every stack changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: every stack empty, flags clear (entries are kept).
    pub reset: Signal<In, Bit>,
    // Commands (at most one warp each)
    /// Push `{push_mask, push_pc}` onto the stack of the warp whose bit is set (`push_wid`).
    pub push: Signal<In, Bits<W>>,
    /// The pushed warp.
    pub push_wid: Signal<In, Bits<WW>>,
    /// Thread mask of the entry to push.
    pub push_mask: Signal<In, Bits<T>>,
    /// Pc of the entry to push.
    pub push_pc: Signal<In, Bits<A>>,
    /// Pop the stack of the warp whose bit is set (`pop_wid`).
    pub pop: Signal<In, Bits<W>>,
    /// The popped warp.
    pub pop_wid: Signal<In, Bits<WW>>,
    /// Empty these warps' stacks (wins over push and pop; flags are kept).
    pub clear: Signal<In, Bits<W>>,
    // Top of stack of one warp (combinational with [`TopStorage::Registers`]; with
    // [`TopStorage::Ram`] registered: the top warp `top_wid` had after the last edge)
    /// The warp whose top is shown.
    pub top_wid: Signal<In, Bits<WW>>,
    /// Thread mask of warp `top_wid`'s top entry (when empty: slot 0 or zero, [`EmptyTop`]).
    pub top_mask: Signal<Out, Bits<T>>,
    /// Pc of warp `top_wid`'s top entry (when empty: slot 0 or zero, [`EmptyTop`]).
    pub top_pc: Signal<Out, Bits<A>>,
    // Every warp's top of stack (combinational; zero with [`TopStorage::Ram`]), for logic that
    // acts on several warps at once
    /// Thread mask of each warp's top entry (as `top_mask` when `top_wid` names the warp).
    pub tops_mask: [Signal<Out, Bits<T>>; W],
    /// Pc of each warp's top entry (as `top_pc` when `top_wid` names the warp).
    pub tops_pc: [Signal<Out, Bits<A>>; W],
    // Status, one bit per warp
    /// Empty stacks.
    pub empty: Signal<Out, Bits<W>>,
    /// The stacks that are empty after this cycle's edge (what `empty` shows next).
    pub empty_next: Signal<Out, Bits<W>>,
    /// Full stacks.
    pub full: Signal<Out, Bits<W>>,
    /// Sticky: a push was dropped because the stack was full.
    pub overflow: Signal<Out, Bits<W>>,
    /// Sticky: a pop found the stack empty.
    pub underflow: Signal<Out, Bits<W>>,
    mask_ram: RAM<Bits<T>, STACK_RAM_ADDR_BITS>,
    pc_ram: RAM<Bits<A>, STACK_RAM_ADDR_BITS>,
    sp: [DFF<Bits<SPW>>; W],
    /// The stacks empty after the edge: each `sp`'s next value is 0.
    empties_next: Signal<Local, Bits<W>>,
    top_mask_q: [DFF<Bits<T>>; W],
    top_pc_q: [DFF<Bits<A>>; W],
    bottom_mask_q: [DFF<Bits<T>>; W],
    bottom_pc_q: [DFF<Bits<A>>; W],
    overflow_q: DFF<Bits<W>>,
    underflow_q: DFF<Bits<W>>,
    /// The warp whose uncovered entry the RAM shows this cycle (one-hot; zero when none).
    refills: DFF<Bits<W>>,
    depth: Constant<Bits<SPW>>,
    /// [`EmptyTop::SlotZero`]: an empty stack's top reads slot 0 (else zero).
    slot0_when_empty: Constant<Bit>,
    /// `w * D'`: where warp `w`'s stack starts in the RAM (zeros in the slot's bits).
    base: [Constant<Bits<STACK_RAM_ADDR_BITS>>; W],
    /// 2 (mod `2^SPW`): a pop reads slot `sp - two`.
    two: Constant<Bits<SPW>>,
    /// [`TopStorage::Ram`]: no top registers; the read port reads `top_wid`'s next top.
    top_in_ram: Constant<Bit>,
    // [`TopStorage::Ram`]'s registered top: where it comes from (the RAM's read data, or the
    // entry pushed at the edge, kept here; neither: zero, an empty stack)
    next_top_from_ram: DFF<Bit>,
    next_top_pushed: DFF<Bit>,
    pushed_mask_q: DFF<Bits<T>>,
    pushed_pc_q: DFF<Bits<A>>,
    // Combinational temporaries
    w_push: Signal<Local, Bit>,
    w_pop: Signal<Local, Bit>,
    w_clear: Signal<Local, Bit>,
    w_empty: Signal<Local, Bit>,
    w_full: Signal<Local, Bit>,
    w_refill: Signal<Local, Bit>,
    /// Reset or clear: the stack empties.
    w_clr: Signal<Local, Bit>,
    /// The pushed entry becomes the top (a push that is not dropped, or a push with a pop).
    w_put: Signal<Local, Bit>,
    /// A pop empties the stack and the empty top reads zero.
    w_zero: Signal<Local, Bit>,
    /// The pushed entry lands in slot 0 ([`EmptyTop::SlotZero`] keeps it in `bottom`).
    w_bottom: Signal<Local, Bit>,
    w_sp: Signal<Local, Bits<SPW>>,
    w_sp8: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    t_mask: Signal<Local, Bits<T>>,
    t_pc: Signal<Local, Bits<A>>,
    empties: Signal<Local, Bits<W>>,
    fulls: Signal<Local, Bits<W>>,
    overflow_next: Signal<Local, Bits<W>>,
    underflow_next: Signal<Local, Bits<W>>,
    write: Signal<Local, Bit>,
    /// The pushed warp's pointer and its RAM base; whether that warp is also popped.
    write_sp: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    write_base: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    write_replace: Signal<Local, Bit>,
    write_slot: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    read: Signal<Local, Bit>,
    /// The popped warp's RAM base and the slot it reads, `sp - 2` (each warp's worked out
    /// before the selection, so no subtraction follows it).
    read_slot: Signal<Local, Bits<SPW>>,
    read_base: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    /// [`TopStorage::Ram`]: the slot of each warp's top after the edge (when it is not the
    /// pushed entry and the stack is not empty), and the one of warp `top_wid`, with its base.
    w_next_top_slot: Signal<Local, Bits<SPW>>,
    next_top_slot: Signal<Local, Bits<SPW>>,
    next_top_base: Signal<Local, Bits<STACK_RAM_ADDR_BITS>>,
    from_ram_next: Signal<Local, Bit>,
    pushed_next: Signal<Local, Bit>,
}

/// [`SimtStackRam`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_simt_stack_ram {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::SimtStackRam] $s; W, WW, T, A, D, SPW)
    };
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
    > SimtStackRam<W, WW, T, A, D, SPW>
{
    /// Checks the sizes, their derived widths, `W * D <= 256`, and that [`TopStorage::Ram`]
    /// comes with [`EmptyTop::Zero`].
    pub fn new(empty_top: EmptyTop, top_storage: TopStorage) -> Result<Self> {
        check_warps("warps (W)", W)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
        check_range("threads (T)", T, 1, MAX_PORT_BITS)?;
        check_range("pc_width (A)", A, 3, MAX_PORT_BITS)?;
        check_range("stack_depth (D)", D, 1, 64)?;
        check_derived("SPW", SPW, "clog2(D + 1)", stack_ptr_width(D))?;
        check_stack_ram(W, D)?;
        if top_storage == TopStorage::Ram && empty_top != EmptyTop::Zero {
            anyhow::bail!(
                "parameter `top_storage` = Ram needs `empty_top` = Zero, not {empty_top:?}: an empty stack's slot 0 may never have been written to the RAM"
            );
        }
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_wid: Default::default(),
            push_mask: Default::default(),
            push_pc: Default::default(),
            pop: Default::default(),
            pop_wid: Default::default(),
            clear: Default::default(),
            top_wid: Default::default(),
            top_mask: Default::default(),
            top_pc: Default::default(),
            tops_mask: std::array::from_fn(|_| Default::default()),
            tops_pc: std::array::from_fn(|_| Default::default()),
            empty: Default::default(),
            empty_next: Default::default(),
            full: Default::default(),
            overflow: Default::default(),
            underflow: Default::default(),
            mask_ram: Default::default(),
            pc_ram: Default::default(),
            sp: std::array::from_fn(|_| Default::default()),
            empties_next: Default::default(),
            top_mask_q: std::array::from_fn(|_| Default::default()),
            top_pc_q: std::array::from_fn(|_| Default::default()),
            bottom_mask_q: std::array::from_fn(|_| Default::default()),
            bottom_pc_q: std::array::from_fn(|_| Default::default()),
            overflow_q: Default::default(),
            underflow_q: Default::default(),
            refills: Default::default(),
            depth: Constant::new(D.to_bits()),
            slot0_when_empty: Constant::new(empty_top == EmptyTop::SlotZero),
            base: std::array::from_fn(|w| Constant::new((w * D.next_power_of_two()).to_bits())),
            two: Constant::new((2 % (1u64 << SPW)).to_bits()),
            top_in_ram: Constant::new(top_storage == TopStorage::Ram),
            next_top_from_ram: Default::default(),
            next_top_pushed: Default::default(),
            pushed_mask_q: Default::default(),
            pushed_pc_q: Default::default(),
            w_push: Default::default(),
            w_pop: Default::default(),
            w_clear: Default::default(),
            w_empty: Default::default(),
            w_full: Default::default(),
            w_refill: Default::default(),
            w_clr: Default::default(),
            w_put: Default::default(),
            w_zero: Default::default(),
            w_bottom: Default::default(),
            w_sp: Default::default(),
            w_sp8: Default::default(),
            t_mask: Default::default(),
            t_pc: Default::default(),
            empties: Default::default(),
            fulls: Default::default(),
            overflow_next: Default::default(),
            underflow_next: Default::default(),
            write: Default::default(),
            write_sp: Default::default(),
            write_base: Default::default(),
            write_replace: Default::default(),
            write_slot: Default::default(),
            read: Default::default(),
            read_slot: Default::default(),
            read_base: Default::default(),
            w_next_top_slot: Default::default(),
            next_top_slot: Default::default(),
            next_top_base: Default::default(),
            from_ram_next: Default::default(),
            pushed_next: Default::default(),
        })
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
    > Logic for SimtStackRam<W, WW, T, A, D, SPW>
{
    // One loop over the warps until the synthesis flow maps a split design as small as this one
    // (the book's design notes: what a split cost, and why the cost is the flow's).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            overflow_q,
            underflow_q,
            refills,
            next_top_from_ram,
            next_top_pushed,
            pushed_mask_q,
            pushed_pc_q
        );
        self.mask_ram.read_clock.next = self.clock.val();
        self.mask_ram.write_clock.next = self.clock.val();
        self.pc_ram.read_clock.next = self.clock.val();
        self.pc_ram.write_clock.next = self.clock.val();
        // Defaults: no RAM access, no refill, flags kept
        self.write.next = false;
        self.read.next = false;
        self.overflow_next.next = self.overflow_q.q.val();
        self.underflow_next.next = self.underflow_q.q.val();
        self.empties.next = 0.into();
        self.empties_next.next = 0.into();
        self.fulls.next = 0.into();
        self.t_mask.next = 0.into();
        self.t_pc.next = 0.into();
        self.write_base.next = 0.into();
        self.write_sp.next = 0.into();
        self.read_base.next = 0.into();
        self.read_slot.next = 0.into();
        self.next_top_slot.next = 0.into();
        self.next_top_base.next = 0.into();
        self.from_ram_next.next = false;
        self.pushed_next.next = false;
        for i in 0..W {
            self.sp[i].clock.next = self.clock.val();
            self.sp[i].d.next = self.sp[i].q.val();
            self.top_mask_q[i].clock.next = self.clock.val();
            self.top_pc_q[i].clock.next = self.clock.val();
            self.bottom_mask_q[i].clock.next = self.clock.val();
            self.bottom_mask_q[i].d.next = self.bottom_mask_q[i].q.val();
            self.bottom_pc_q[i].clock.next = self.clock.val();
            self.bottom_pc_q[i].d.next = self.bottom_pc_q[i].q.val();
            self.w_push.next = self.push.val().get_bit(i);
            self.w_pop.next = self.pop.val().get_bit(i);
            self.w_clear.next = self.clear.val().get_bit(i);
            self.w_sp.next = self.sp[i].q.val();
            self.w_sp8.next = bit_cast::<STACK_RAM_ADDR_BITS, SPW>(self.w_sp.val());
            self.w_empty.next = self.sp[i].q.val() == 0;
            self.w_full.next = self.sp[i].q.val() == self.depth.val();
            self.empties.next = self.empties.val().replace_bit(i, self.w_empty.val());
            self.fulls.next = self.fulls.val().replace_bit(i, self.w_full.val());
            // RAM addresses: plain selections by warp id, outside the command logic below.
            if self.push_wid.val().index() == i {
                self.write_base.next = self.base[i].val();
                self.write_sp.next = self.w_sp8.val();
            }
            if self.pop_wid.val().index() == i {
                self.read_base.next = self.base[i].val();
                self.read_slot.next = self.sp[i].q.val() - self.two.val();
            }
            // This warp's top: its registers, or in the cycle after a pop uncovered an entry the
            // RAM's output; also shown on `top_*` when `top_wid` names the warp. Written once per
            // pass, as every output (see RoundRobinArbiter: a port written twice glitches).
            self.w_refill.next = self.refills.q.val().get_bit(i);
            if self.top_in_ram.val() {
                self.tops_mask[i].next = 0.into();
                self.tops_pc[i].next = 0.into();
            } else if self.w_refill.val() {
                self.tops_mask[i].next = self.mask_ram.read_data.val();
                self.tops_pc[i].next = self.pc_ram.read_data.val();
            } else {
                self.tops_mask[i].next = self.top_mask_q[i].q.val();
                self.tops_pc[i].next = self.top_pc_q[i].q.val();
            }
            if self.top_wid.val().index() == i {
                self.t_mask.next = self.tops_mask[i].val();
                self.t_pc.next = self.tops_pc[i].val();
            }
            // The top's next state as flat conditions, each a plain `if` of its own, the hold
            // first: yosys then maps the registers to flip-flops with a clock enable and a
            // synchronous reset (a nested `if`, or a hold value shared with another use, keeps
            // it from finding the enable and costs a LUT per bit).
            self.w_clr.next = self.reset.val() | self.w_clear.val();
            self.w_put.next =
                !self.w_clr.val() & self.w_push.val() & (self.w_pop.val() | !self.w_full.val());
            // (Reset and clear zero the top too, so `w_zero` need not exclude them.)
            self.w_zero.next = !self.w_push.val()
                & self.w_pop.val()
                & !self.w_empty.val()
                & (self.sp[i].q.val() < 2)
                & !self.slot0_when_empty.val();
            self.w_bottom.next = !self.w_clr.val()
                & self.w_push.val()
                & ((self.w_pop.val() & (self.sp[i].q.val() < 2))
                    | (!self.w_pop.val() & self.w_empty.val()));
            self.top_mask_q[i].d.next = self.top_mask_q[i].q.val();
            self.top_pc_q[i].d.next = self.top_pc_q[i].q.val();
            if self.w_refill.val() {
                self.top_mask_q[i].d.next = self.mask_ram.read_data.val();
                self.top_pc_q[i].d.next = self.pc_ram.read_data.val();
            }
            if self.w_put.val() {
                self.top_mask_q[i].d.next = self.push_mask.val();
                self.top_pc_q[i].d.next = self.push_pc.val();
            }
            if self.w_zero.val() | (self.w_clr.val() & !self.slot0_when_empty.val()) {
                self.top_mask_q[i].d.next = 0.into();
                self.top_pc_q[i].d.next = 0.into();
            }
            if self.w_clr.val() & self.slot0_when_empty.val() {
                self.top_mask_q[i].d.next = self.bottom_mask_q[i].q.val();
                self.top_pc_q[i].d.next = self.bottom_pc_q[i].q.val();
            }
            if self.w_bottom.val() {
                self.bottom_mask_q[i].d.next = self.push_mask.val();
                self.bottom_pc_q[i].d.next = self.push_pc.val();
            }
            // Pointer, flags and RAM accesses, in SimtStack's order
            if self.w_clr.val() {
                self.sp[i].d.next = 0.into();
                if self.reset.val() {
                    self.overflow_next.next = self.overflow_next.val().replace_bit(i, false);
                    self.underflow_next.next = self.underflow_next.val().replace_bit(i, false);
                }
            } else if self.w_push.val() & self.w_pop.val() {
                // Pop, then push: replace the top entry (on an empty stack, slot 0).
                self.write.next = true;
                if self.w_empty.val() {
                    self.underflow_next.next = self.underflow_next.val().replace_bit(i, true);
                    self.sp[i].d.next = 1.into();
                }
            } else if self.w_push.val() {
                if self.w_full.val() {
                    self.overflow_next.next = self.overflow_next.val().replace_bit(i, true);
                } else {
                    self.write.next = true;
                    self.sp[i].d.next = self.sp[i].q.val() + 1;
                }
            } else if self.w_pop.val() {
                if self.w_empty.val() {
                    self.underflow_next.next = self.underflow_next.val().replace_bit(i, true);
                } else {
                    self.sp[i].d.next = self.sp[i].q.val() - 1;
                    // Slot sp - 2 becomes the top (from sp = 1 the top is slot 0 or zero, above).
                    if self.sp[i].q.val() >= 2 {
                        self.read.next = true;
                    }
                }
            }
            self.empties_next.next =
                self.empties_next.val().replace_bit(i, self.sp[i].d.val() == 0);
            // [`TopStorage::Ram`]: no top registers (held at zero, so synthesis removes them);
            // the top after the edge is the pushed entry, or the entry below the popped one,
            // or the top as it is.
            if self.top_in_ram.val() {
                self.top_mask_q[i].d.next = 0.into();
                self.top_pc_q[i].d.next = 0.into();
                self.bottom_mask_q[i].d.next = 0.into();
                self.bottom_pc_q[i].d.next = 0.into();
            }
            self.w_next_top_slot.next = self.sp[i].q.val() - 1;
            if self.w_pop.val() & !self.w_push.val() {
                self.w_next_top_slot.next = self.sp[i].q.val() - self.two.val();
            }
            if self.top_wid.val().index() == i {
                self.next_top_base.next = self.base[i].val();
                self.next_top_slot.next = self.w_next_top_slot.val();
                self.pushed_next.next = self.w_put.val();
                self.from_ram_next.next = !self.w_put.val() & (self.sp[i].d.val() != 0);
            }
        }
        self.overflow_q.d.next = self.overflow_next.val();
        self.underflow_q.d.next = self.underflow_next.val();
        // The popped warp (`pop` is one-hot) when its pop reads the RAM.
        self.refills.d.next = 0.into();
        if self.read.val() & !self.top_in_ram.val() {
            self.refills.d.next = self.pop.val();
        }
        self.next_top_from_ram.d.next = self.from_ram_next.val() & self.top_in_ram.val();
        self.next_top_pushed.d.next = self.pushed_next.val() & self.top_in_ram.val();
        self.pushed_mask_q.d.next = 0.into();
        self.pushed_pc_q.d.next = 0.into();
        if self.top_in_ram.val() {
            self.pushed_mask_q.d.next = self.push_mask.val();
            self.pushed_pc_q.d.next = self.push_pc.val();
        }
        // A push writes slot sp; a push with a pop replaces slot sp - 1 (slot 0 when empty).
        self.write_replace.next = (self.pop.val() & self.push.val()).any();
        self.write_slot.next = self.write_sp.val();
        if self.write_replace.val() & (self.write_sp.val() != 0) {
            self.write_slot.next = self.write_sp.val() - 1;
        }
        self.mask_ram.write_enable.next = self.write.val();
        // In every address the warp id and the slot sit side by side (the base has zeros where
        // the slot goes).
        self.mask_ram.write_address.next = self.write_base.val() | self.write_slot.val();
        self.mask_ram.write_data.next = self.push_mask.val();
        self.pc_ram.write_enable.next = self.write.val();
        self.pc_ram.write_address.next = self.write_base.val() | self.write_slot.val();
        self.pc_ram.write_data.next = self.push_pc.val();
        if self.top_in_ram.val() {
            self.read_base.next = self.next_top_base.val();
            self.read_slot.next = self.next_top_slot.val();
            self.t_mask.next = 0.into();
            self.t_pc.next = 0.into();
            if self.next_top_from_ram.q.val() {
                self.t_mask.next = self.mask_ram.read_data.val();
                self.t_pc.next = self.pc_ram.read_data.val();
            }
            if self.next_top_pushed.q.val() {
                self.t_mask.next = self.pushed_mask_q.q.val();
                self.t_pc.next = self.pushed_pc_q.q.val();
            }
        }
        self.mask_ram.read_address.next =
            self.read_base.val() | bit_cast::<STACK_RAM_ADDR_BITS, SPW>(self.read_slot.val());
        self.pc_ram.read_address.next =
            self.read_base.val() | bit_cast::<STACK_RAM_ADDR_BITS, SPW>(self.read_slot.val());
        self.top_mask.next = self.t_mask.val();
        self.top_pc.next = self.t_pc.val();
        self.empty.next = self.empties.val();
        self.empty_next.next = self.empties_next.val();
        self.full.next = self.fulls.val();
        self.overflow.next = self.overflow_q.q.val();
        self.underflow.next = self.underflow_q.q.val();
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
    > crate::sim::Dut for SimtStackRam<W, WW, T, A, D, SPW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, push, push_wid, push_mask, push_pc, pop, pop_wid, clear, top_wid],
        outputs: [top_mask, top_pc, empty, full, overflow, underflow, tops_mask, tops_pc, empty_next]
    );
}

/// The formal properties (`simt_stack_ram.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/scheduler/simt_stack_ram/simt_stack_ram.sv",
    text: include_str!("simt_stack_ram.sv"),
    wrapper: "simt_stack_ram_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![
            ("W", s.warps),
            ("WW", s.warp_id_width()),
            ("T", s.threads),
            ("A", s.pc_width),
            ("D", s.stack_depth),
            ("SPW", s.stack_ptr_width()),
            ("DP", s.stack_depth.next_power_of_two()),
        ]
    },
    // Its RAM's words are peeked (mapped to flip-flops): about 30 s at cu sizes.
    claims: &[Claim::cu(&[
        "top_is_last_pushed_not_popped",
        "empty_and_full_flags",
        "empty_top_is_zero",
        "sticky_flags_as_contract",
        "full_push_sets_overflow",
        "full_push_keeps_the_stack_full",
        "empty_pop_sets_underflow",
    ])],
    mutants: &[
        // Warp 0's push on its full stack is dropped without raising the flag.
        Mutant::cu(
            "ram_no_overflow_flag",
            "overflow_next = (overflow_next & ~(1 << (0)) | ((1'b1) << (0)));",
            "overflow_next = overflow_next;",
            &["full_push_sets_overflow"],
        ),
        // In the cycle after a pop uncovered an entry of warp 0, its top shows the stale
        // register instead of the entry read from the RAM. The shortest run: reset (cycle 0),
        // two pushes (1, 2; the entry below the top is in the RAM), a pop (3), and the top shown
        // in cycle 4.
        Mutant::cu(
            "ram_top_not_refilled",
            "tops_mask$0 = mask_ram$read_data;\n            tops_pc$0 = pc_ram$read_data;",
            "tops_mask$0 = top_mask_q$0$q;\n            tops_pc$0 = top_pc_q$0$q;",
            &["top_is_last_pushed_not_popped"],
        )
        .at_step(4),
    ],
};
