//! CommandStage: the [`WarpScheduler`](super::WarpScheduler)'s commands, one-hot by warp, and in
//! [`SchedulerMode::Registered`](crate::params::SchedulerMode::Registered) the stage that holds
//! them for a cycle. `new_*` are the commands offered now; `act_*` the commands acted on now:
//! those offered, or in registered mode the stage's (reset empties the stage). In the other
//! modes the stage stays empty and synthesis removes it.

use rust_hdl::prelude::*;

/// `W` warps (`WW` id bits), `T` threads, `A` pc bits (checked by the scheduler).
#[derive(LogicBlock)]
pub struct CommandStage<const W: usize, const WW: usize, const T: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // The scheduler's command ports, as offered; a warp command lands in the warp `cmd_grant`
    // names (the idle encoder's choice).
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_grant: Signal<In, Bits<W>>,
    pub cmd_pc: Signal<In, Bits<A>>,
    pub cmd_mask: Signal<In, Bits<T>>,
    pub ctl_valid: Signal<In, Bit>,
    pub ctl_wid: Signal<In, Bits<WW>>,
    pub ctl_active: Signal<In, Bit>,
    pub branch_valid: Signal<In, Bit>,
    pub branch_wid: Signal<In, Bits<WW>>,
    pub branch_mask: Signal<In, Bits<T>>,
    pub branch_pc: Signal<In, Bits<A>>,
    pub end_valid: Signal<In, Bit>,
    pub end_wid: Signal<In, Bits<WW>>,
    pub pop_valid: Signal<In, Bit>,
    pub pop_wid: Signal<In, Bits<WW>>,
    pub set_valid: Signal<In, Bit>,
    pub set_wid: Signal<In, Bits<WW>>,
    pub set_pc: Signal<In, Bits<A>>,
    pub set_mask: Signal<In, Bits<T>>,
    /// The commands offered now, one-hot by warp (those the pc selection stages).
    pub new_cmd: Signal<Out, Bits<W>>,
    pub new_end: Signal<Out, Bits<W>>,
    pub new_pop: Signal<Out, Bits<W>>,
    pub new_set: Signal<Out, Bits<W>>,
    /// The warp a staged command lands in (no new command may land there).
    pub staged_cmd: Signal<Out, Bits<W>>,
    /// The commands acted on now.
    pub act_cmd: Signal<Out, Bits<W>>,
    pub act_cmd_pc: Signal<Out, Bits<A>>,
    pub act_cmd_mask: Signal<Out, Bits<T>>,
    pub act_ctl: Signal<Out, Bits<W>>,
    pub act_ctl_active: Signal<Out, Bit>,
    pub act_branch: Signal<Out, Bits<W>>,
    pub act_branch_wid: Signal<Out, Bits<WW>>,
    pub act_branch_mask: Signal<Out, Bits<T>>,
    pub act_branch_pc: Signal<Out, Bits<A>>,
    pub act_end: Signal<Out, Bits<W>>,
    pub act_pop: Signal<Out, Bits<W>>,
    pub act_pop_wid: Signal<Out, Bits<WW>>,
    pub act_set: Signal<Out, Bits<W>>,
    pub act_set_pc: Signal<Out, Bits<A>>,
    pub act_set_mask: Signal<Out, Bits<T>>,
    // The stage: each command's warp one-hot, and its data.
    stage_cmd: DFF<Bits<W>>,
    stage_cmd_pc: DFF<Bits<A>>,
    stage_cmd_mask: DFF<Bits<T>>,
    stage_ctl: DFF<Bits<W>>,
    stage_ctl_active: DFF<Bit>,
    stage_branch: DFF<Bits<W>>,
    stage_branch_wid: DFF<Bits<WW>>,
    stage_branch_mask: DFF<Bits<T>>,
    stage_branch_pc: DFF<Bits<A>>,
    stage_end: DFF<Bits<W>>,
    stage_pop: DFF<Bits<W>>,
    stage_pop_wid: DFF<Bits<WW>>,
    stage_set: DFF<Bits<W>>,
    stage_set_pc: DFF<Bits<A>>,
    stage_set_mask: DFF<Bits<T>>,
    registered: Constant<Bit>,
    new_cmd_w: Signal<Local, Bits<W>>,
    new_ctl: Signal<Local, Bits<W>>,
    new_branch: Signal<Local, Bits<W>>,
    new_end_w: Signal<Local, Bits<W>>,
    new_pop_w: Signal<Local, Bits<W>>,
    new_set_w: Signal<Local, Bits<W>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize> CommandStage<W, WW, T, A> {
    /// `registered`: hold every command for a cycle (the registered mode).
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_grant: Default::default(),
            cmd_pc: Default::default(),
            cmd_mask: Default::default(),
            ctl_valid: Default::default(),
            ctl_wid: Default::default(),
            ctl_active: Default::default(),
            branch_valid: Default::default(),
            branch_wid: Default::default(),
            branch_mask: Default::default(),
            branch_pc: Default::default(),
            end_valid: Default::default(),
            end_wid: Default::default(),
            pop_valid: Default::default(),
            pop_wid: Default::default(),
            set_valid: Default::default(),
            set_wid: Default::default(),
            set_pc: Default::default(),
            set_mask: Default::default(),
            new_cmd: Default::default(),
            new_end: Default::default(),
            new_pop: Default::default(),
            new_set: Default::default(),
            staged_cmd: Default::default(),
            act_cmd: Default::default(),
            act_cmd_pc: Default::default(),
            act_cmd_mask: Default::default(),
            act_ctl: Default::default(),
            act_ctl_active: Default::default(),
            act_branch: Default::default(),
            act_branch_wid: Default::default(),
            act_branch_mask: Default::default(),
            act_branch_pc: Default::default(),
            act_end: Default::default(),
            act_pop: Default::default(),
            act_pop_wid: Default::default(),
            act_set: Default::default(),
            act_set_pc: Default::default(),
            act_set_mask: Default::default(),
            stage_cmd: Default::default(),
            stage_cmd_pc: Default::default(),
            stage_cmd_mask: Default::default(),
            stage_ctl: Default::default(),
            stage_ctl_active: Default::default(),
            stage_branch: Default::default(),
            stage_branch_wid: Default::default(),
            stage_branch_mask: Default::default(),
            stage_branch_pc: Default::default(),
            stage_end: Default::default(),
            stage_pop: Default::default(),
            stage_pop_wid: Default::default(),
            stage_set: Default::default(),
            stage_set_pc: Default::default(),
            stage_set_mask: Default::default(),
            registered: Constant::new(registered),
            new_cmd_w: Default::default(),
            new_ctl: Default::default(),
            new_branch: Default::default(),
            new_end_w: Default::default(),
            new_pop_w: Default::default(),
            new_set_w: Default::default(),
        }
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize> Logic
    for CommandStage<W, WW, T, A>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            stage_cmd,
            stage_cmd_pc,
            stage_cmd_mask,
            stage_ctl,
            stage_ctl_active,
            stage_branch,
            stage_branch_wid,
            stage_branch_mask,
            stage_branch_pc,
            stage_end,
            stage_pop,
            stage_pop_wid,
            stage_set,
            stage_set_pc,
            stage_set_mask
        );
        // The commands offered now, one-hot by warp
        self.new_cmd_w.next = 0.into();
        if self.cmd_valid.val() {
            self.new_cmd_w.next = self.cmd_grant.val();
        }
        self.new_ctl.next = 0.into();
        self.new_branch.next = 0.into();
        self.new_end_w.next = 0.into();
        self.new_pop_w.next = 0.into();
        self.new_set_w.next = 0.into();
        for i in 0..W {
            self.new_ctl.next = self
                .new_ctl
                .val()
                .replace_bit(i, self.ctl_valid.val() & (self.ctl_wid.val().index() == i));
            self.new_branch.next = self
                .new_branch
                .val()
                .replace_bit(i, self.branch_valid.val() & (self.branch_wid.val().index() == i));
            self.new_end_w.next = self
                .new_end_w
                .val()
                .replace_bit(i, self.end_valid.val() & (self.end_wid.val().index() == i));
            self.new_pop_w.next = self
                .new_pop_w
                .val()
                .replace_bit(i, self.pop_valid.val() & (self.pop_wid.val().index() == i));
            self.new_set_w.next = self
                .new_set_w
                .val()
                .replace_bit(i, self.set_valid.val() & (self.set_wid.val().index() == i));
        }
        self.new_cmd.next = self.new_cmd_w.val();
        self.new_end.next = self.new_end_w.val();
        self.new_pop.next = self.new_pop_w.val();
        self.new_set.next = self.new_set_w.val();
        self.staged_cmd.next = self.stage_cmd.q.val();
        // The stage takes the offered commands (reset empties it); in the other modes it stays
        // empty.
        self.stage_cmd.d.next = 0.into();
        self.stage_ctl.d.next = 0.into();
        self.stage_branch.d.next = 0.into();
        self.stage_end.d.next = 0.into();
        self.stage_pop.d.next = 0.into();
        self.stage_set.d.next = 0.into();
        if self.registered.val() {
            if !self.reset.val() {
                self.stage_cmd.d.next = self.new_cmd_w.val();
                self.stage_ctl.d.next = self.new_ctl.val();
                self.stage_branch.d.next = self.new_branch.val();
                self.stage_end.d.next = self.new_end_w.val();
                self.stage_pop.d.next = self.new_pop_w.val();
                self.stage_set.d.next = self.new_set_w.val();
            }
            self.stage_cmd_pc.d.next = self.cmd_pc.val();
            self.stage_cmd_mask.d.next = self.cmd_mask.val();
            self.stage_ctl_active.d.next = self.ctl_active.val();
            self.stage_branch_wid.d.next = self.branch_wid.val();
            self.stage_branch_mask.d.next = self.branch_mask.val();
            self.stage_branch_pc.d.next = self.branch_pc.val();
            self.stage_pop_wid.d.next = self.pop_wid.val();
            self.stage_set_pc.d.next = self.set_pc.val();
            self.stage_set_mask.d.next = self.set_mask.val();
        }
        // The commands acted on now: the stage's, or those offered
        if self.registered.val() {
            self.act_cmd.next = self.stage_cmd.q.val();
            self.act_cmd_pc.next = self.stage_cmd_pc.q.val();
            self.act_cmd_mask.next = self.stage_cmd_mask.q.val();
            self.act_ctl.next = self.stage_ctl.q.val();
            self.act_ctl_active.next = self.stage_ctl_active.q.val();
            self.act_branch.next = self.stage_branch.q.val();
            self.act_branch_wid.next = self.stage_branch_wid.q.val();
            self.act_branch_mask.next = self.stage_branch_mask.q.val();
            self.act_branch_pc.next = self.stage_branch_pc.q.val();
            self.act_end.next = self.stage_end.q.val();
            self.act_pop.next = self.stage_pop.q.val();
            self.act_pop_wid.next = self.stage_pop_wid.q.val();
            self.act_set.next = self.stage_set.q.val();
            self.act_set_pc.next = self.stage_set_pc.q.val();
            self.act_set_mask.next = self.stage_set_mask.q.val();
        } else {
            self.act_cmd.next = self.new_cmd_w.val();
            self.act_cmd_pc.next = self.cmd_pc.val();
            self.act_cmd_mask.next = self.cmd_mask.val();
            self.act_ctl.next = self.new_ctl.val();
            self.act_ctl_active.next = self.ctl_active.val();
            self.act_branch.next = self.new_branch.val();
            self.act_branch_wid.next = self.branch_wid.val();
            self.act_branch_mask.next = self.branch_mask.val();
            self.act_branch_pc.next = self.branch_pc.val();
            self.act_end.next = self.new_end_w.val();
            self.act_pop.next = self.new_pop_w.val();
            self.act_pop_wid.next = self.pop_wid.val();
            self.act_set.next = self.new_set_w.val();
            self.act_set_pc.next = self.set_pc.val();
            self.act_set_mask.next = self.set_mask.val();
        }
    }
}
