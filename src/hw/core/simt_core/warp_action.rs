//! WarpAction: what a `join`, `jmp` or `exit` issued by the [`IssueStage`](super::IssueStage)
//! does to its warp, through the scheduler: pop its SIMT stack, end it, and set its pc and
//! lanes, either to the popped entry (its lanes without `mask` and the warp's exited lanes) or
//! to `{mask, pc}`. A wire in the GPGPU-Sim-exact timing (it acts in the cycle the instruction
//! issues); a register in the pipelined one (it acts the next cycle, reading the stack's top and
//! the exited lanes then), so that no path runs from issue into the SIMT stacks. While it holds
//! an action, `pending` is high: the branch unit leaves the warp-set port to it, and the run is
//! not drained.

use rust_hdl::prelude::*;

/// `W` warps (`WW` bits), `T` lanes, `A`-bit byte pcs.
#[derive(LogicBlock)]
pub struct WarpAction<const W: usize, const WW: usize, const T: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The action decided at issue, for warp `in_warp`.
    pub in_pop: Signal<In, Bit>,
    pub in_end: Signal<In, Bit>,
    pub in_set: Signal<In, Bit>,
    pub in_from_stack: Signal<In, Bit>,
    pub in_warp: Signal<In, Bits<WW>>,
    pub in_mask: Signal<In, Bits<T>>,
    pub in_pc: Signal<In, Bits<A>>,
    /// The top of warp `warp`'s stack, and each warp's exited lanes.
    pub pop_mask: Signal<In, Bits<T>>,
    pub pop_pc: Signal<In, Bits<A>>,
    pub exited: [Signal<In, Bits<T>>; W],
    /// The action done this cycle, to warp `warp`.
    pub pop: Signal<Out, Bit>,
    pub end_warp: Signal<Out, Bit>,
    pub warp: Signal<Out, Bits<WW>>,
    pub set_valid: Signal<Out, Bit>,
    pub set_mask: Signal<Out, Bits<T>>,
    pub set_pc: Signal<Out, Bits<A>>,
    /// Registered: an action is held for this cycle.
    pub pending: Signal<Out, Bit>,
    held_pop: DFF<Bit>,
    held_end: DFF<Bit>,
    held_set: DFF<Bit>,
    held_from_stack: DFF<Bit>,
    held_warp: DFF<Bits<WW>>,
    held_mask: DFF<Bits<T>>,
    held_pc: DFF<Bits<A>>,
    registered: Constant<Bit>,
    from_stack: Signal<Local, Bit>,
    mask: Signal<Local, Bits<T>>,
    pc: Signal<Local, Bits<A>>,
    exited_lanes: Signal<Local, Bits<T>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize> WarpAction<W, WW, T, A> {
    /// A register when `registered` (the pipelined timing), else a wire.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_pop: Default::default(),
            in_end: Default::default(),
            in_set: Default::default(),
            in_from_stack: Default::default(),
            in_warp: Default::default(),
            in_mask: Default::default(),
            in_pc: Default::default(),
            pop_mask: Default::default(),
            pop_pc: Default::default(),
            exited: std::array::from_fn(|_| Default::default()),
            pop: Default::default(),
            end_warp: Default::default(),
            warp: Default::default(),
            set_valid: Default::default(),
            set_mask: Default::default(),
            set_pc: Default::default(),
            pending: Default::default(),
            held_pop: Default::default(),
            held_end: Default::default(),
            held_set: Default::default(),
            held_from_stack: Default::default(),
            held_warp: Default::default(),
            held_mask: Default::default(),
            held_pc: Default::default(),
            registered: Constant::new(registered),
            from_stack: Default::default(),
            mask: Default::default(),
            pc: Default::default(),
            exited_lanes: Default::default(),
        }
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize> Logic
    for WarpAction<W, WW, T, A>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            held_pop,
            held_end,
            held_set,
            held_from_stack,
            held_warp,
            held_mask,
            held_pc
        );
        self.held_pop.d.next = self.in_pop.val();
        self.held_end.d.next = self.in_end.val();
        self.held_set.d.next = self.in_set.val();
        self.held_from_stack.d.next = self.in_from_stack.val();
        self.held_warp.d.next = self.in_warp.val();
        self.held_mask.d.next = self.in_mask.val();
        self.held_pc.d.next = self.in_pc.val();
        if self.registered.val() {
            self.pop.next = self.held_pop.q.val();
            self.end_warp.next = self.held_end.q.val();
            self.set_valid.next = self.held_set.q.val();
            self.from_stack.next = self.held_from_stack.q.val();
            self.warp.next = self.held_warp.q.val();
            self.mask.next = self.held_mask.q.val();
            self.pc.next = self.held_pc.q.val();
        } else {
            self.pop.next = self.in_pop.val();
            self.end_warp.next = self.in_end.val();
            self.set_valid.next = self.in_set.val();
            self.from_stack.next = self.in_from_stack.val();
            self.warp.next = self.in_warp.val();
            self.mask.next = self.in_mask.val();
            self.pc.next = self.in_pc.val();
        }
        self.exited_lanes.next = 0.into();
        for w in 0..W {
            if self.warp.val().index() == w {
                self.exited_lanes.next = self.exited[w].val();
            }
        }
        if self.from_stack.val() {
            self.set_mask.next = self.pop_mask.val() & !(self.exited_lanes.val() | self.mask.val());
            self.set_pc.next = self.pop_pc.val();
        } else {
            self.set_mask.next = self.mask.val();
            self.set_pc.next = self.pc.val();
        }
        self.pending.next = self.registered.val()
            & (self.held_pop.q.val() | self.held_end.q.val() | self.held_set.q.val());
        if self.reset.val() {
            self.held_pop.d.next = false;
            self.held_end.d.next = false;
            self.held_set.d.next = false;
        }
    }
}
