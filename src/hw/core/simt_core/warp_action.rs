//! WarpAction: what a `join`, `jmp` or `exit` issued by the [`IssueStage`](super::IssueStage)
//! does to its warp, through the scheduler: pop its SIMT stack, end it, and set its pc and
//! lanes, either to the popped entry (its lanes without the instruction's lanes and the warp's
//! exited lanes) or to the lanes and the pc after it (`jmp`: its target). A `join` on an empty
//! stack is flagged by the stack, and the warp goes on after the `join`. The warp-set port is
//! its set, else the branch unit's (the two never meet). A wire in the GPGPU-Sim-exact timing
//! (it acts in the cycle the instruction issues); a register in the pipelined one (it acts the
//! next cycle, reading the stack's top and the exited lanes then), so that no path runs from
//! issue into the SIMT stacks. While it holds an action, `pending` is high: the branch unit
//! leaves the warp-set port to it, and the run is not drained.

use rust_hdl::prelude::*;

use super::ExitedLanes;

/// `W` warps (`WW` bits), `T` lanes, `A`-bit byte pcs over `IA`-bit instruction indices.
#[derive(LogicBlock)]
pub struct WarpAction<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const IA: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The instruction checked at issue: it issues (`fire`), is a `join` or a `jmp` (its
    /// target), or acts as `exit` (`ends`; `ends_warp`: and its warp's stack is empty), for
    /// warp `in_warp` with active lanes `in_mask`, at index `in_pc`.
    pub fire: Signal<In, Bit>,
    pub kind_join: Signal<In, Bit>,
    pub kind_jmp: Signal<In, Bit>,
    pub target: Signal<In, Bits<11>>,
    pub ends: Signal<In, Bit>,
    pub ends_warp: Signal<In, Bit>,
    pub stack_empty: Signal<In, Bit>,
    pub in_warp: Signal<In, Bits<WW>>,
    pub in_mask: Signal<In, Bits<T>>,
    pub in_pc: Signal<In, Bits<IA>>,
    /// The branch unit's redirect this cycle.
    pub branch_set_valid: Signal<In, Bit>,
    pub branch_set_warp: Signal<In, Bits<WW>>,
    pub branch_set_mask: Signal<In, Bits<T>>,
    pub branch_set_pc: Signal<In, Bits<A>>,
    /// The top of warp `warp`'s stack.
    pub pop_mask: Signal<In, Bits<T>>,
    pub pop_pc: Signal<In, Bits<A>>,
    /// Warp `in_warp`'s lanes that have not exited.
    pub in_live: Signal<Out, Bits<T>>,
    /// The action done this cycle, to warp `warp`.
    pub pop: Signal<Out, Bit>,
    pub end_warp: Signal<Out, Bit>,
    pub warp: Signal<Out, Bits<WW>>,
    /// The warp-set port: this action's set, else the branch unit's.
    pub set_valid: Signal<Out, Bit>,
    pub set_warp: Signal<Out, Bits<WW>>,
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
    /// Each warp's lanes that ran `exit`, left out of every mask a pop restores.
    exited: ExitedLanes<W, WW, T>,
    registered: Constant<Bit>,
    two: Constant<Bits<8>>,
    /// The action decided at issue: pop, end, set to the popped entry (without `a_mask` and the
    /// exited lanes) or to `{a_mask, a_pc}`.
    is_join: Signal<Local, Bit>,
    is_jmp: Signal<Local, Bit>,
    a_pop: Signal<Local, Bit>,
    a_end: Signal<Local, Bit>,
    a_set: Signal<Local, Bit>,
    a_from_stack: Signal<Local, Bit>,
    a_mask: Signal<Local, Bits<T>>,
    pc_wide: Signal<Local, Bits<A>>,
    a_pc: Signal<Local, Bits<A>>,
    /// The action done this cycle.
    set: Signal<Local, Bit>,
    from_stack: Signal<Local, Bit>,
    mask: Signal<Local, Bits<T>>,
    pc: Signal<Local, Bits<A>>,
    exited_lanes: Signal<Local, Bits<T>>,
    live: Signal<Local, Bits<T>>,
    act_mask: Signal<Local, Bits<T>>,
    act_pc: Signal<Local, Bits<A>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize>
    WarpAction<W, WW, T, A, IA>
{
    /// A register when `registered` (the pipelined timing), else a wire.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            fire: Default::default(),
            kind_join: Default::default(),
            kind_jmp: Default::default(),
            target: Default::default(),
            ends: Default::default(),
            ends_warp: Default::default(),
            stack_empty: Default::default(),
            in_warp: Default::default(),
            in_mask: Default::default(),
            in_pc: Default::default(),
            branch_set_valid: Default::default(),
            branch_set_warp: Default::default(),
            branch_set_mask: Default::default(),
            branch_set_pc: Default::default(),
            pop_mask: Default::default(),
            pop_pc: Default::default(),
            in_live: Default::default(),
            pop: Default::default(),
            end_warp: Default::default(),
            warp: Default::default(),
            set_valid: Default::default(),
            set_warp: Default::default(),
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
            exited: Default::default(),
            registered: Constant::new(registered),
            two: Constant::new(2u64.to_bits()),
            is_join: Default::default(),
            is_jmp: Default::default(),
            a_pop: Default::default(),
            a_end: Default::default(),
            a_set: Default::default(),
            a_from_stack: Default::default(),
            a_mask: Default::default(),
            pc_wide: Default::default(),
            a_pc: Default::default(),
            set: Default::default(),
            from_stack: Default::default(),
            mask: Default::default(),
            pc: Default::default(),
            exited_lanes: Default::default(),
            live: Default::default(),
            act_mask: Default::default(),
            act_pc: Default::default(),
        }
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Logic
    for WarpAction<W, WW, T, A, IA>
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
        // The action decided at issue
        self.is_join.next = self.kind_join.val() & !self.ends.val();
        self.is_jmp.next = self.kind_jmp.val() & !self.ends.val();
        self.a_pop.next =
            self.fire.val() & !self.ends_warp.val() & (self.is_join.val() | self.ends.val());
        self.a_end.next = self.fire.val() & self.ends_warp.val();
        self.a_set.next = self.a_pop.val() | (self.fire.val() & self.is_jmp.val());
        self.a_from_stack.next = self.ends.val() | (self.is_join.val() & !self.stack_empty.val());
        self.a_mask.next = self.in_mask.val();
        if self.is_join.val() & !self.stack_empty.val() {
            self.a_mask.next = 0.into();
        }
        self.pc_wide.next = bit_cast::<A, IA>(self.in_pc.val()) + 1;
        if self.is_jmp.val() {
            self.pc_wide.next = bit_cast::<A, 11>(self.target.val());
        }
        self.a_pc.next = self.pc_wide.val() << self.two.val();
        // ... done at once, or the next cycle
        self.held_pop.d.next = self.a_pop.val();
        self.held_end.d.next = self.a_end.val();
        self.held_set.d.next = self.a_set.val();
        self.held_from_stack.d.next = self.a_from_stack.val();
        self.held_warp.d.next = self.in_warp.val();
        self.held_mask.d.next = self.a_mask.val();
        self.held_pc.d.next = self.a_pc.val();
        if self.registered.val() {
            self.pop.next = self.held_pop.q.val();
            self.end_warp.next = self.held_end.q.val();
            self.set.next = self.held_set.q.val();
            self.from_stack.next = self.held_from_stack.q.val();
            self.warp.next = self.held_warp.q.val();
            self.mask.next = self.held_mask.q.val();
            self.pc.next = self.held_pc.q.val();
        } else {
            self.pop.next = self.a_pop.val();
            self.end_warp.next = self.a_end.val();
            self.set.next = self.a_set.val();
            self.from_stack.next = self.a_from_stack.val();
            self.warp.next = self.in_warp.val();
            self.mask.next = self.a_mask.val();
            self.pc.next = self.a_pc.val();
        }
        self.exited.clock.next = self.clock.val();
        self.exited.reset.next = self.reset.val();
        self.exited.exit_valid.next = self.fire.val() & self.ends.val();
        self.exited.whole_warp.next = self.ends_warp.val();
        self.exited.warp.next = self.in_warp.val();
        self.exited.mask.next = self.in_mask.val();
        self.exited_lanes.next = 0.into();
        self.live.next = 0.into();
        for w in 0..W {
            if self.warp.val().index() == w {
                self.exited_lanes.next = self.exited.lanes[w].val();
            }
            if self.in_warp.val().index() == w {
                self.live.next = !self.exited.lanes[w].val();
            }
        }
        self.in_live.next = self.live.val();
        if self.from_stack.val() {
            self.act_mask.next = self.pop_mask.val() & !(self.exited_lanes.val() | self.mask.val());
            self.act_pc.next = self.pop_pc.val();
        } else {
            self.act_mask.next = self.mask.val();
            self.act_pc.next = self.pc.val();
        }
        if self.set.val() {
            self.set_valid.next = true;
            self.set_warp.next = self.warp.val();
            self.set_mask.next = self.act_mask.val();
            self.set_pc.next = self.act_pc.val();
        } else {
            self.set_valid.next = self.branch_set_valid.val();
            self.set_warp.next = self.branch_set_warp.val();
            self.set_mask.next = self.branch_set_mask.val();
            self.set_pc.next = self.branch_set_pc.val();
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
