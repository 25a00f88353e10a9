//! WarpPc: every warp's pc and thread mask in the [`WarpScheduler`](super::WarpScheduler).
//!
//! - Seed-compatible mode: the seed's statement order (command, pop, fetch's `pc + 4`, set; the
//!   later wins).
//! - Fixed and registered modes: where each warp's pc and mask come from is decided when the
//!   commands are offered, from the idle bits and empty stacks they meet when they act (now, or
//!   at the next edge in registered mode, where the decision waits in a stage of its own). The
//!   order is command, pop, set, end, the later winning; a command lands in a warp that is idle
//!   then, where pop, set and end are dropped; an end writes zeros. The next pc and mask are an
//!   OR of exclusive sources (two logic levels instead of a priority chain): kept (or advanced
//!   by last cycle's fetch, from a registered `pc + 4`), a command's, a pop's, a set's.

use rust_hdl::prelude::*;

/// `W` warps, `T` threads, `A` pc bits (checked by the scheduler).
#[derive(LogicBlock)]
pub struct WarpPc<const W: usize, const T: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The commands offered now, one-hot by warp ([`CommandStage`](super::CommandStage)).
    pub new_cmd: Signal<In, Bits<W>>,
    pub new_end: Signal<In, Bits<W>>,
    pub new_pop: Signal<In, Bits<W>>,
    pub new_set: Signal<In, Bits<W>>,
    /// The commands acted on now, and their pcs and masks.
    pub act_cmd: Signal<In, Bits<W>>,
    pub act_pop: Signal<In, Bits<W>>,
    pub act_set: Signal<In, Bits<W>>,
    pub act_cmd_pc: Signal<In, Bits<A>>,
    pub act_cmd_mask: Signal<In, Bits<T>>,
    pub act_set_pc: Signal<In, Bits<A>>,
    pub act_set_mask: Signal<In, Bits<T>>,
    /// A fetch is taken, and the warp it takes (one-hot).
    pub fetch_fire: Signal<In, Bit>,
    pub fetch_grant: Signal<In, Bits<W>>,
    /// The warps' status ([`WarpStatus`](super::WarpStatus)) and their stacks' emptiness, now
    /// and after this edge.
    pub idle: Signal<In, Bits<W>>,
    pub idle_next: Signal<In, Bits<W>>,
    pub advance: Signal<In, Bits<W>>,
    pub stack_empty: Signal<In, Bits<W>>,
    pub stack_empty_next: Signal<In, Bits<W>>,
    /// Each warp's stack top, and the top the stack RAM shows (registered mode: the staged
    /// pop's entry, read while it waited in the stage).
    pub tops_pc: [Signal<In, Bits<A>>; W],
    pub tops_mask: [Signal<In, Bits<T>>; W],
    pub top_pc: Signal<In, Bits<A>>,
    pub top_mask: Signal<In, Bits<T>>,
    /// Each warp's pc and mask.
    pub pc: [Signal<Out, Bits<A>>; W],
    pub mask: [Signal<Out, Bits<T>>; W],
    pc_q: [DFF<Bits<A>>; W],
    /// Each warp's `pc + 4`, registered: what an advance loads (the adder is off the paths
    /// that choose a warp's next pc).
    pc_plus4: [DFF<Bits<A>>; W],
    mask_q: [DFF<Bits<T>>; W],
    /// Registered mode: the selections made when the commands were staged, one-hot: the warp
    /// set, the pop, the command; `stage_writes` when any of them or an `end` writes them.
    stage_sel_set: DFF<Bits<W>>,
    stage_sel_pop: DFF<Bits<W>>,
    stage_sel_cmd: DFF<Bits<W>>,
    stage_writes: DFF<Bits<W>>,
    registered: Constant<Bit>,
    seed_quirks: Constant<Bit>,
    meet_idle: Signal<Local, Bits<W>>,
    meet_empty: Signal<Local, Bits<W>>,
    sel_set: Signal<Local, Bits<W>>,
    sel_pop: Signal<Local, Bits<W>>,
    sel_cmd: Signal<Local, Bits<W>>,
    writes: Signal<Local, Bits<W>>,
    now_set: Signal<Local, Bits<W>>,
    now_pop: Signal<Local, Bits<W>>,
    now_cmd: Signal<Local, Bits<W>>,
    now_writes: Signal<Local, Bits<W>>,
    from_keep_pc: Signal<Local, Bits<A>>,
    from_pop_pc: Signal<Local, Bits<A>>,
    from_set_pc: Signal<Local, Bits<A>>,
    from_cmd_pc: Signal<Local, Bits<A>>,
    from_keep_mask: Signal<Local, Bits<T>>,
    from_pop_mask: Signal<Local, Bits<T>>,
    from_set_mask: Signal<Local, Bits<T>>,
    from_cmd_mask: Signal<Local, Bits<T>>,
}

impl<const W: usize, const T: usize, const A: usize> WarpPc<W, T, A> {
    /// `registered`: the registered mode's stage; `seed_quirks`: the seed's order.
    pub fn new(registered: bool, seed_quirks: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            new_cmd: Default::default(),
            new_end: Default::default(),
            new_pop: Default::default(),
            new_set: Default::default(),
            act_cmd: Default::default(),
            act_pop: Default::default(),
            act_set: Default::default(),
            act_cmd_pc: Default::default(),
            act_cmd_mask: Default::default(),
            act_set_pc: Default::default(),
            act_set_mask: Default::default(),
            fetch_fire: Default::default(),
            fetch_grant: Default::default(),
            idle: Default::default(),
            idle_next: Default::default(),
            advance: Default::default(),
            stack_empty: Default::default(),
            stack_empty_next: Default::default(),
            tops_pc: std::array::from_fn(|_| Default::default()),
            tops_mask: std::array::from_fn(|_| Default::default()),
            top_pc: Default::default(),
            top_mask: Default::default(),
            pc: std::array::from_fn(|_| Default::default()),
            mask: std::array::from_fn(|_| Default::default()),
            pc_q: std::array::from_fn(|_| Default::default()),
            pc_plus4: std::array::from_fn(|_| Default::default()),
            mask_q: std::array::from_fn(|_| Default::default()),
            stage_sel_set: Default::default(),
            stage_sel_pop: Default::default(),
            stage_sel_cmd: Default::default(),
            stage_writes: Default::default(),
            registered: Constant::new(registered),
            seed_quirks: Constant::new(seed_quirks),
            meet_idle: Default::default(),
            meet_empty: Default::default(),
            sel_set: Default::default(),
            sel_pop: Default::default(),
            sel_cmd: Default::default(),
            writes: Default::default(),
            now_set: Default::default(),
            now_pop: Default::default(),
            now_cmd: Default::default(),
            now_writes: Default::default(),
            from_keep_pc: Default::default(),
            from_pop_pc: Default::default(),
            from_set_pc: Default::default(),
            from_cmd_pc: Default::default(),
            from_keep_mask: Default::default(),
            from_pop_mask: Default::default(),
            from_set_mask: Default::default(),
            from_cmd_mask: Default::default(),
        }
    }
}

impl<const W: usize, const T: usize, const A: usize> Logic for WarpPc<W, T, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, stage_sel_set, stage_sel_pop, stage_sel_cmd, stage_writes);
        for i in 0..W {
            self.pc_q[i].clock.next = self.clock.val();
            self.pc_q[i].d.next = self.pc_q[i].q.val();
            self.mask_q[i].clock.next = self.clock.val();
            self.mask_q[i].d.next = self.mask_q[i].q.val();
            self.pc_plus4[i].clock.next = self.clock.val();
            self.pc_plus4[i].d.next = self.pc_q[i].q.val() + 4;
            self.pc[i].next = self.pc_q[i].q.val();
            self.mask[i].next = self.mask_q[i].q.val();
        }
        // Fixed and registered modes: the selections, from the idle bits and empty stacks the
        // commands offered now meet when they act.
        self.meet_idle.next = self.idle.val();
        self.meet_empty.next = self.stack_empty.val();
        if self.registered.val() {
            self.meet_idle.next = self.idle_next.val();
            self.meet_empty.next = self.stack_empty_next.val();
        }
        self.sel_cmd.next = self.new_cmd.val();
        self.sel_pop.next = self.new_pop.val() & !self.meet_idle.val() & !self.meet_empty.val();
        self.sel_set.next = self.new_set.val() & !self.meet_idle.val();
        self.writes.next = self.sel_cmd.val()
            | self.sel_pop.val()
            | self.sel_set.val()
            | (self.new_end.val() & !self.meet_idle.val());
        self.sel_pop.next = self.sel_pop.val() & !(self.new_set.val() | self.new_end.val());
        self.sel_set.next = self.sel_set.val() & !self.new_end.val();
        // The selections acting now: those just made, or in registered mode the stage's.
        self.now_cmd.next = self.sel_cmd.val();
        self.now_pop.next = self.sel_pop.val();
        self.now_set.next = self.sel_set.val();
        self.now_writes.next = self.writes.val();
        self.stage_sel_set.d.next = 0.into();
        self.stage_sel_pop.d.next = 0.into();
        self.stage_sel_cmd.d.next = 0.into();
        self.stage_writes.d.next = 0.into();
        if self.registered.val() {
            self.now_cmd.next = self.stage_sel_cmd.q.val();
            self.now_pop.next = self.stage_sel_pop.q.val();
            self.now_set.next = self.stage_sel_set.q.val();
            self.now_writes.next = self.stage_writes.q.val();
            if !self.reset.val() {
                self.stage_sel_set.d.next = self.sel_set.val();
                self.stage_sel_pop.d.next = self.sel_pop.val();
                self.stage_sel_cmd.d.next = self.sel_cmd.val();
                self.stage_writes.d.next = self.writes.val();
            }
        }
        for i in 0..W {
            if self.seed_quirks.val() {
                // The seed's order: command, pop, fetch, set; the later wins.
                if self.act_cmd.val().get_bit(i) {
                    self.pc_q[i].d.next = self.act_cmd_pc.val();
                    self.mask_q[i].d.next = self.act_cmd_mask.val();
                }
                if self.act_pop.val().get_bit(i) {
                    self.pc_q[i].d.next = self.tops_pc[i].val();
                    self.mask_q[i].d.next = self.tops_mask[i].val();
                }
                if self.fetch_fire.val() & self.fetch_grant.val().get_bit(i) {
                    self.pc_q[i].d.next = self.pc_q[i].q.val() + 4;
                }
                if self.act_set.val().get_bit(i) & !self.idle.val().get_bit(i) {
                    self.pc_q[i].d.next = self.act_set_pc.val();
                    self.mask_q[i].d.next = self.act_set_mask.val();
                }
            } else {
                // Each warp's next pc and mask, an OR of exclusive sources.
                self.from_keep_pc.next = self.pc_q[i].q.val();
                self.from_keep_mask.next = self.mask_q[i].q.val();
                if self.advance.val().get_bit(i) {
                    self.from_keep_pc.next = self.pc_plus4[i].q.val();
                }
                if self.now_writes.val().get_bit(i) {
                    self.from_keep_pc.next = 0.into();
                    self.from_keep_mask.next = 0.into();
                }
                self.from_pop_pc.next = 0.into();
                self.from_pop_mask.next = 0.into();
                if self.now_pop.val().get_bit(i) {
                    self.from_pop_pc.next = self.tops_pc[i].val();
                    self.from_pop_mask.next = self.tops_mask[i].val();
                    if self.registered.val() {
                        self.from_pop_pc.next = self.top_pc.val();
                        self.from_pop_mask.next = self.top_mask.val();
                    }
                }
                self.from_set_pc.next = 0.into();
                self.from_set_mask.next = 0.into();
                if self.now_set.val().get_bit(i) {
                    self.from_set_pc.next = self.act_set_pc.val();
                    self.from_set_mask.next = self.act_set_mask.val();
                }
                self.from_cmd_pc.next = 0.into();
                self.from_cmd_mask.next = 0.into();
                if self.now_cmd.val().get_bit(i) {
                    self.from_cmd_pc.next = self.act_cmd_pc.val();
                    self.from_cmd_mask.next = self.act_cmd_mask.val();
                }
                self.pc_q[i].d.next = self.from_keep_pc.val()
                    | self.from_pop_pc.val()
                    | self.from_set_pc.val()
                    | self.from_cmd_pc.val();
                self.mask_q[i].d.next = self.from_keep_mask.val()
                    | self.from_pop_mask.val()
                    | self.from_set_mask.val()
                    | self.from_cmd_mask.val();
            }
            if self.reset.val() {
                self.pc_q[i].d.next = 0.into();
                self.mask_q[i].d.next = 0.into();
            }
        }
    }
}
