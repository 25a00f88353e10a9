//! WarpStatus: every warp's idle, active and advance bits and its sticky misuse flags in the
//! [`WarpScheduler`](super::WarpScheduler), and the stack commands (push, pop, clear) its
//! commands make. One warp at a time, in the order of its mode (see the scheduler's module doc):
//! the seed's (command, end, control, pop, fetch; the later wins) or the fixed and registered
//! modes' (command, control, fetch, pop, set, end; the later wins).

use rust_hdl::prelude::*;

/// `W` warps (checked by the scheduler).
#[derive(LogicBlock)]
pub struct WarpStatus<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The commands acted on now, one-hot by warp ([`CommandStage`](super::CommandStage)).
    pub act_cmd: Signal<In, Bits<W>>,
    pub act_ctl: Signal<In, Bits<W>>,
    pub act_ctl_active: Signal<In, Bit>,
    pub act_branch: Signal<In, Bits<W>>,
    pub act_end: Signal<In, Bits<W>>,
    pub act_pop: Signal<In, Bits<W>>,
    pub act_set: Signal<In, Bits<W>>,
    /// A fetch is taken, and the warp it takes (one-hot).
    pub fetch_fire: Signal<In, Bit>,
    pub fetch_grant: Signal<In, Bits<W>>,
    /// Warps whose SIMT stack is empty.
    pub stack_empty: Signal<In, Bits<W>>,
    /// The state: idle and active warps, and those whose pc advances by 4 at this edge
    /// (fetched in the last cycle; fixed and registered modes).
    pub idle: Signal<Out, Bits<W>>,
    pub active: Signal<Out, Bits<W>>,
    pub advance: Signal<Out, Bits<W>>,
    /// The idle bits after this edge.
    pub idle_next: Signal<Out, Bits<W>>,
    /// The active bits after this edge if no warp is fetched, and if the choice shown is.
    pub active_unfetched: Signal<Out, Bits<W>>,
    pub active_taken: Signal<Out, Bits<W>>,
    /// The stack commands.
    pub pushes: Signal<Out, Bits<W>>,
    pub pops: Signal<Out, Bits<W>>,
    pub clears: Signal<Out, Bits<W>>,
    /// Sticky misuse flags: end, branch or pop of an idle warp; activation of an idle warp.
    pub err_end_idle: Signal<Out, Bits<W>>,
    pub err_branch_idle: Signal<Out, Bits<W>>,
    pub err_pop_idle: Signal<Out, Bits<W>>,
    pub err_ctl_idle: Signal<Out, Bits<W>>,
    idle_q: DFF<Bits<W>>,
    active_q: DFF<Bits<W>>,
    advance_q: DFF<Bits<W>>,
    end_idle_q: DFF<Bits<W>>,
    branch_idle_q: DFF<Bits<W>>,
    pop_idle_q: DFF<Bits<W>>,
    ctl_idle_q: DFF<Bits<W>>,
    seed_quirks: Constant<Bit>,
    all_warps: Constant<Bits<W>>,
    is_idle: Signal<Local, Bit>,
    hit_cmd: Signal<Local, Bit>,
    hit_end: Signal<Local, Bit>,
    hit_ctl: Signal<Local, Bit>,
    hit_pop: Signal<Local, Bit>,
    hit_branch: Signal<Local, Bit>,
    hit_fetch: Signal<Local, Bit>,
    hit_set: Signal<Local, Bit>,
    w_idle: Signal<Local, Bit>,
    /// The warp's fetch advances its pc (at the next edge).
    w_advance: Signal<Local, Bit>,
    w_active: Signal<Local, Bit>,
    /// The warp's active bit after the edge if it is fetched (`w_active`: if it is not).
    w_active_fetched: Signal<Local, Bit>,
    /// The warp's active bit after the edge if the fetch choice shown is taken.
    w_active_taken: Signal<Local, Bit>,
    do_push: Signal<Local, Bit>,
    do_pop: Signal<Local, Bit>,
    do_clear: Signal<Local, Bit>,
    idle_n: Signal<Local, Bits<W>>,
    active_n: Signal<Local, Bits<W>>,
    unfetched_n: Signal<Local, Bits<W>>,
    taken_n: Signal<Local, Bits<W>>,
    advance_n: Signal<Local, Bits<W>>,
    pushes_n: Signal<Local, Bits<W>>,
    pops_n: Signal<Local, Bits<W>>,
    clears_n: Signal<Local, Bits<W>>,
    end_idle_n: Signal<Local, Bits<W>>,
    branch_idle_n: Signal<Local, Bits<W>>,
    pop_idle_n: Signal<Local, Bits<W>>,
    ctl_idle_n: Signal<Local, Bits<W>>,
}

impl<const W: usize> WarpStatus<W> {
    /// `seed_quirks`: the seed's order and quirks.
    pub fn new(seed_quirks: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            act_cmd: Default::default(),
            act_ctl: Default::default(),
            act_ctl_active: Default::default(),
            act_branch: Default::default(),
            act_end: Default::default(),
            act_pop: Default::default(),
            act_set: Default::default(),
            fetch_fire: Default::default(),
            fetch_grant: Default::default(),
            stack_empty: Default::default(),
            idle: Default::default(),
            active: Default::default(),
            advance: Default::default(),
            idle_next: Default::default(),
            active_unfetched: Default::default(),
            active_taken: Default::default(),
            pushes: Default::default(),
            pops: Default::default(),
            clears: Default::default(),
            err_end_idle: Default::default(),
            err_branch_idle: Default::default(),
            err_pop_idle: Default::default(),
            err_ctl_idle: Default::default(),
            idle_q: Default::default(),
            active_q: Default::default(),
            advance_q: Default::default(),
            end_idle_q: Default::default(),
            branch_idle_q: Default::default(),
            pop_idle_q: Default::default(),
            ctl_idle_q: Default::default(),
            seed_quirks: Constant::new(seed_quirks),
            all_warps: Constant::new(Bits::<W>::mask()),
            is_idle: Default::default(),
            hit_cmd: Default::default(),
            hit_end: Default::default(),
            hit_ctl: Default::default(),
            hit_pop: Default::default(),
            hit_branch: Default::default(),
            hit_fetch: Default::default(),
            hit_set: Default::default(),
            w_idle: Default::default(),
            w_advance: Default::default(),
            w_active: Default::default(),
            w_active_fetched: Default::default(),
            w_active_taken: Default::default(),
            do_push: Default::default(),
            do_pop: Default::default(),
            do_clear: Default::default(),
            idle_n: Default::default(),
            active_n: Default::default(),
            unfetched_n: Default::default(),
            taken_n: Default::default(),
            advance_n: Default::default(),
            pushes_n: Default::default(),
            pops_n: Default::default(),
            clears_n: Default::default(),
            end_idle_n: Default::default(),
            branch_idle_n: Default::default(),
            pop_idle_n: Default::default(),
            ctl_idle_n: Default::default(),
        }
    }
}

impl<const W: usize> Logic for WarpStatus<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, idle_q, active_q, advance_q);
        dff_setup!(self, clock, end_idle_q, branch_idle_q, pop_idle_q, ctl_idle_q);
        self.idle_n.next = self.idle_q.q.val();
        self.active_n.next = self.active_q.q.val();
        self.unfetched_n.next = self.active_q.q.val();
        self.taken_n.next = self.active_q.q.val();
        self.end_idle_n.next = self.end_idle_q.q.val();
        self.branch_idle_n.next = self.branch_idle_q.q.val();
        self.pop_idle_n.next = self.pop_idle_q.q.val();
        self.ctl_idle_n.next = self.ctl_idle_q.q.val();
        self.advance_n.next = 0.into();
        self.pushes_n.next = 0.into();
        self.pops_n.next = 0.into();
        self.clears_n.next = 0.into();
        for i in 0..W {
            self.is_idle.next = self.idle_q.q.val().get_bit(i);
            self.hit_cmd.next = self.act_cmd.val().get_bit(i);
            self.hit_end.next = self.act_end.val().get_bit(i);
            self.hit_ctl.next = self.act_ctl.val().get_bit(i);
            self.hit_pop.next = self.act_pop.val().get_bit(i);
            self.hit_branch.next = self.act_branch.val().get_bit(i);
            self.hit_fetch.next = self.fetch_fire.val() & self.fetch_grant.val().get_bit(i);
            self.hit_set.next = self.act_set.val().get_bit(i);
            self.w_idle.next = self.is_idle.val();
            self.w_active.next = self.active_q.q.val().get_bit(i);
            self.w_active_fetched.next = false;
            self.w_advance.next = false;
            self.do_push.next = false;
            self.do_pop.next = false;
            self.do_clear.next = false;
            // Misuse flags (every mode)
            if self.hit_end.val() & self.is_idle.val() {
                self.end_idle_n.next = self.end_idle_n.val().replace_bit(i, true);
            }
            if self.hit_branch.val() & self.is_idle.val() {
                self.branch_idle_n.next = self.branch_idle_n.val().replace_bit(i, true);
            }
            if self.hit_pop.val() & self.is_idle.val() {
                self.pop_idle_n.next = self.pop_idle_n.val().replace_bit(i, true);
            }
            if (self.hit_ctl.val() & self.act_ctl_active.val() | self.hit_set.val())
                & self.is_idle.val()
            {
                self.ctl_idle_n.next = self.ctl_idle_n.val().replace_bit(i, true);
            }
            if self.seed_quirks.val() {
                // The seed's statement order: command, end, control, pop, fetch; later wins.
                if self.hit_cmd.val() {
                    self.w_idle.next = false;
                    self.w_active.next = true;
                }
                if self.hit_end.val() {
                    self.w_idle.next = true;
                }
                if self.hit_ctl.val() {
                    self.w_active.next = self.act_ctl_active.val();
                }
                if self.hit_set.val() & !self.is_idle.val() {
                    self.w_active.next = true;
                    self.w_active_fetched.next = true;
                }
                self.do_push.next = self.hit_branch.val();
                self.do_pop.next = self.hit_pop.val() & !self.hit_branch.val();
            } else {
                // Fixed and registered modes: command, control, fetch, pop, set, end; the
                // later wins.
                if self.hit_cmd.val() {
                    self.w_idle.next = false;
                    self.w_active.next = true;
                }
                if self.hit_ctl.val() & !self.is_idle.val() {
                    self.w_active.next = self.act_ctl_active.val();
                }
                // The fetch's `pc + 4` lands at the next edge (`advance`): the warp is inactive
                // until then, so nothing sees its pc in between.
                if self.hit_fetch.val() {
                    self.w_advance.next = true;
                }
                if self.hit_pop.val() & !self.is_idle.val() & !self.stack_empty.val().get_bit(i) {
                    self.w_advance.next = false;
                }
                if self.hit_set.val() & !self.is_idle.val() {
                    self.w_active.next = true;
                    self.w_active_fetched.next = true;
                    self.w_advance.next = false;
                }
                self.do_pop.next = self.hit_pop.val() & !self.is_idle.val();
                self.do_push.next = self.hit_branch.val() & !self.is_idle.val();
                if self.hit_end.val() & !self.is_idle.val() {
                    self.w_idle.next = true;
                    self.w_active.next = false;
                    self.w_active_fetched.next = false;
                    self.do_clear.next = true;
                    self.w_advance.next = false;
                }
            }
            self.pushes_n.next = self.pushes_n.val().replace_bit(i, self.do_push.val());
            self.pops_n.next = self.pops_n.val().replace_bit(i, self.do_pop.val());
            self.clears_n.next = self.clears_n.val().replace_bit(i, self.do_clear.val());
            self.idle_n.next = self.idle_n.val().replace_bit(i, self.w_idle.val());
            // A fetch clears the active bit, after command and control, before set and end: the
            // bit is `w_active_fetched` if the warp is fetched, `w_active` if not.
            self.unfetched_n.next = self.unfetched_n.val().replace_bit(i, self.w_active.val());
            self.w_active_taken.next = self.w_active.val();
            if self.fetch_grant.val().get_bit(i) {
                self.w_active_taken.next = self.w_active_fetched.val();
            }
            self.taken_n.next = self.taken_n.val().replace_bit(i, self.w_active_taken.val());
            if self.hit_fetch.val() {
                self.w_active.next = self.w_active_fetched.val();
            }
            self.active_n.next = self.active_n.val().replace_bit(i, self.w_active.val());
            self.advance_n.next = self.advance_n.val().replace_bit(i, self.w_advance.val());
        }
        // Outputs, each written once
        self.idle.next = self.idle_q.q.val();
        self.active.next = self.active_q.q.val();
        self.advance.next = self.advance_q.q.val();
        self.idle_next.next = self.idle_n.val();
        self.active_unfetched.next = self.unfetched_n.val();
        self.active_taken.next = self.taken_n.val();
        self.pushes.next = self.pushes_n.val();
        self.pops.next = self.pops_n.val();
        self.clears.next = self.clears_n.val();
        self.err_end_idle.next = self.end_idle_q.q.val();
        self.err_branch_idle.next = self.branch_idle_q.q.val();
        self.err_pop_idle.next = self.pop_idle_q.q.val();
        self.err_ctl_idle.next = self.ctl_idle_q.q.val();
        // Next state; reset: every warp idle and inactive, flags clear
        self.idle_q.d.next = self.idle_n.val();
        self.active_q.d.next = self.active_n.val();
        self.advance_q.d.next = self.advance_n.val();
        self.end_idle_q.d.next = self.end_idle_n.val();
        self.branch_idle_q.d.next = self.branch_idle_n.val();
        self.pop_idle_q.d.next = self.pop_idle_n.val();
        self.ctl_idle_q.d.next = self.ctl_idle_n.val();
        if self.reset.val() {
            self.idle_q.d.next = self.all_warps.val();
            self.active_q.d.next = 0.into();
            self.advance_q.d.next = 0.into();
            self.end_idle_q.d.next = 0.into();
            self.branch_idle_q.d.next = 0.into();
            self.pop_idle_q.d.next = 0.into();
            self.ctl_idle_q.d.next = 0.into();
        }
    }
}
