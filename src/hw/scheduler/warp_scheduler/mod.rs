//! WarpScheduler: hands out warps, keeps each warp's pc, thread mask and SIMT stack (all stacks in
//! one block RAM, [`SimtStackRam`]), and picks the warp that fetches next (the seed's
//! `WarpScheduler`, 003).
//!
//! Interfaces, all sampled at the rising edge of `clock`:
//! - warp command (`warp_cmd_*`): start a kernel on an idle warp with a start pc and thread mask;
//!   `warp_cmd_ready` is high while some warp is idle and `warp_cmd_wid` says which one it lands in.
//! - warp control (`warp_ctl_*`): set or clear a warp's active bit (re-activate it after a fetch).
//! - branch control (`branch_ctl_*`): push `{mask, pc}` onto a warp's SIMT stack.
//! - end control (`end_ctl_*`): end a warp.
//! - pop (`warp_pop_*`): pop a warp's SIMT stack, restoring its pc and mask from the top entry.
//! - warp set (`warp_set_*`): redirect a warp: set its pc and mask and activate it (the core's
//!   branch resolution: a taken branch or jump, or a `join` with the popped entry).
//! - instruction fetch (`inst_fetch_*`): combinational pc, mask and warp id of the chosen active
//!   warp; on `inst_fetch_valid & inst_fetch_ready` that warp's pc advances by 4 and it is
//!   deactivated until warp control re-activates it.
//!
//! Three modes, fixed at elaboration ([`SchedulerMode`]):
//! - **seed-compatible**: cycle-for-cycle the seed, quirks included. Highest-index idle warp takes a
//!   command, highest-index active warp fetches. Same-cycle updates of one warp resolve in the
//!   seed's statement order (command, end, control, pop, fetch: the later wins), so `end` of the
//!   warp a command lands in wins and leaves it idle but active, and fetch's `pc + 4` overwrites a
//!   popped pc. `end` sets the idle bit only (an ended warp that is active keeps fetching), warp
//!   control may activate an idle warp, pop restores pc and mask from the top entry even when the
//!   stack is empty (slot 0, stale), and a push and a pop of one warp in one cycle push only.
//! - **fixed**: lowest-index idle warp takes a command; the fetch policy is lowest index, highest
//!   index or round robin; `end` clears the warp fully (idle, inactive, pc 0, mask 0, stack
//!   emptied); warp control, branch, pop and end aimed at an idle warp are dropped and flagged;
//!   a pop of an empty stack leaves pc and mask as they are (the stack flags underflow, and
//!   `pop_data` reads zero); a pop
//!   and a fetch of one warp in one cycle restore the popped pc (the fetch's `pc + 4` is dropped);
//!   a push and a pop in one cycle replace the top entry (see [`SimtStack`](crate::hw::SimtStack)).
//! - **registered**: the fixed mode with every command (warp command, control, branch, end, pop,
//!   warp set) held for a cycle in a stage and acted on in the next, as the fixed mode acts on it
//!   then; fetch is not delayed. `warp_cmd_ready`/`warp_cmd_wid` skip the warp a staged command
//!   lands in; `pop_data_*` shows the top of the warp the staged pop names (`warp_pop_wid` a
//!   cycle ago), as it is now: the entry a staged pop restores. For speed and size: the
//!   round-robin choice is registered a cycle ahead ([`RoundRobinArbiter::lookahead`]), each
//!   warp's next pc and mask come from selections made when the commands were staged, as an OR
//!   of exclusive sources, and the stacks keep no top registers (`TopStorage::Ram`: the staged
//!   pop's entry is read from the stack RAM while it waits in the stage).
//!
//! In the fixed and registered modes a fetch's `pc + 4` lands an edge later (`advance`, from a
//! registered `pc + 4`): the fetched warp is inactive until then, so no output shows its pc in
//! between, and the fetch decision, late in its cycle, drives no pc register.
//!
//! Warp set, in every mode: it is applied after warp control, fetch and pop of the same warp
//! (its pc, mask and active bit win) and before `end`; aimed at an idle warp it is dropped and
//! flagged (`err_ctl_idle`, like an activation of an idle warp).
//!
//! Error flags (one bit per warp, sticky until reset) are kept in every mode: stack overflow and
//! underflow, end of an idle warp, branch or pop for an idle warp, activation of an idle warp.

mod command_stage;
pub mod model;
pub mod preset;
pub mod seed;
pub mod stimulus;
mod warp_pc;
mod warp_status;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{Order, PriorityEncoder, RoundRobinArbiter, SimtStackRam};
use crate::params::{check_derived, check_range, check_warps, clog2, FetchPolicy, SchedulerMode};
use crate::sim::{Claim, Mutant};
pub(crate) use command_stage::CommandStage;
pub(crate) use warp_pc::WarpPc;
pub(crate) use warp_status::WarpStatus;

/// `W` warps (`WW = clog2(W)` id bits), `T` threads, `A` pc bits, stack depth `D`
/// (`SPW = clog2(D + 1)`).
#[derive(LogicBlock)]
pub struct WarpScheduler<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const D: usize,
    const SPW: usize,
> {
    /// Clock; all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: every warp idle and inactive, pc and mask 0, stacks empty,
    /// error flags clear.
    pub reset: Signal<In, Bit>,
    // Warp command: start a warp
    /// A warp command is offered.
    pub warp_cmd_valid: Signal<In, Bit>,
    /// Some warp is idle: the command is taken this cycle if valid.
    pub warp_cmd_ready: Signal<Out, Bit>,
    /// Start pc.
    pub warp_cmd_pc: Signal<In, Bits<A>>,
    /// Start thread mask.
    pub warp_cmd_mask: Signal<In, Bits<T>>,
    /// The warp a command offered now lands in (meaningful while `warp_cmd_ready`).
    pub warp_cmd_wid: Signal<Out, Bits<WW>>,
    // Warp control: set a warp's active bit
    /// A warp control is offered.
    pub warp_ctl_valid: Signal<In, Bit>,
    /// Always high: warp control is taken every cycle.
    pub warp_ctl_ready: Signal<Out, Bit>,
    /// Warp to control.
    pub warp_ctl_wid: Signal<In, Bits<WW>>,
    /// New active bit.
    pub warp_ctl_active: Signal<In, Bit>,
    // Branch control: push onto a warp's SIMT stack
    /// A branch push is offered.
    pub branch_ctl_valid: Signal<In, Bit>,
    /// Always high.
    pub branch_ctl_ready: Signal<Out, Bit>,
    /// Warp whose stack is pushed.
    pub branch_ctl_wid: Signal<In, Bits<WW>>,
    /// Thread mask of the pushed entry.
    pub branch_ctl_mask: Signal<In, Bits<T>>,
    /// Pc of the pushed entry.
    pub branch_ctl_pc: Signal<In, Bits<A>>,
    // End control: end a warp
    /// An end is offered.
    pub end_ctl_valid: Signal<In, Bit>,
    /// Always high.
    pub end_ctl_ready: Signal<Out, Bit>,
    /// Warp to end.
    pub end_ctl_wid: Signal<In, Bits<WW>>,
    // Pop: restore pc and mask from a warp's stack top
    /// A pop is requested (no ready: always taken).
    pub warp_pop_valid: Signal<In, Bit>,
    /// Warp whose stack is popped.
    pub warp_pop_wid: Signal<In, Bits<WW>>,
    /// Top-of-stack mask of warp `warp_pop_wid` (the seed's `pop_data_out`, mask half; in
    /// registered mode of the `warp_pop_wid` of the last cycle).
    pub pop_data_mask: Signal<Out, Bits<T>>,
    /// Top-of-stack pc of warp `warp_pop_wid` (the seed's `pop_data_out`, pc half; in
    /// registered mode of the `warp_pop_wid` of the last cycle).
    pub pop_data_pc: Signal<Out, Bits<A>>,
    // Warp set: redirect a warp (always taken)
    /// A warp set is offered.
    pub warp_set_valid: Signal<In, Bit>,
    /// Warp to redirect.
    pub warp_set_wid: Signal<In, Bits<WW>>,
    /// Its new pc.
    pub warp_set_pc: Signal<In, Bits<A>>,
    /// Its new thread mask.
    pub warp_set_mask: Signal<In, Bits<T>>,
    // Instruction fetch
    /// Some warp is active.
    pub inst_fetch_valid: Signal<Out, Bit>,
    /// The fetch is taken: advance the chosen warp's pc by 4 and deactivate it.
    pub inst_fetch_ready: Signal<In, Bit>,
    /// Pc of the chosen warp (0 when not valid).
    pub inst_fetch_pc: Signal<Out, Bits<A>>,
    /// Thread mask of the chosen warp (0 when not valid).
    pub inst_fetch_mask: Signal<Out, Bits<T>>,
    /// The chosen warp (0 when not valid).
    pub inst_fetch_wid: Signal<Out, Bits<WW>>,
    // Status, one bit per warp
    /// Idle warps (the seed's `idle_id_out`).
    pub idle_mask: Signal<Out, Bits<W>>,
    /// Active warps (the seed's `active_id_out`).
    pub active_mask: Signal<Out, Bits<W>>,
    /// Warps whose SIMT stack is empty.
    pub stack_empty: Signal<Out, Bits<W>>,
    /// Warps whose SIMT stack is full.
    pub stack_full: Signal<Out, Bits<W>>,
    // Error flags, one bit per warp, sticky until reset
    /// A branch push was dropped: the warp's stack was full.
    pub err_overflow: Signal<Out, Bits<W>>,
    /// A pop found the warp's stack empty.
    pub err_underflow: Signal<Out, Bits<W>>,
    /// End control named an idle warp.
    pub err_end_idle: Signal<Out, Bits<W>>,
    /// Branch control named an idle warp.
    pub err_branch_idle: Signal<Out, Bits<W>>,
    /// A pop named an idle warp.
    pub err_pop_idle: Signal<Out, Bits<W>>,
    /// Warp control or a warp set tried to activate an idle warp.
    pub err_ctl_idle: Signal<Out, Bits<W>>,
    // Sub-blocks
    /// Every warp's SIMT stack, in block RAM ([`SimtStackRam`]).
    stacks: SimtStackRam<W, WW, T, A, D, SPW>,
    idle_enc: PriorityEncoder<W, WW>,
    fetch_enc: PriorityEncoder<W, WW>,
    fetch_rr: RoundRobinArbiter<W, WW>,
    /// The commands offered and acted on, and the registered mode's stage.
    commands: CommandStage<W, WW, T, A>,
    /// Idle, active and advance bits, misuse flags, and the stack commands.
    status: WarpStatus<W>,
    /// Each warp's pc and mask.
    warp_pc: WarpPc<W, T, A>,
    // Elaboration-time configuration
    registered: Constant<Bit>,
    round_robin: Constant<Bit>,
    // Combinational temporaries
    fetch_any: Signal<Local, Bit>,
    fetch_wid: Signal<Local, Bits<WW>>,
    /// The fetch choice one-hot: per-warp decisions use it without decoding `fetch_wid`.
    fetch_grant: Signal<Local, Bits<W>>,
    fetch_fire: Signal<Local, Bit>,
    f_pc: Signal<Local, Bits<A>>,
    f_mask: Signal<Local, Bits<T>>,
}

/// [`WarpScheduler`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_warp_scheduler {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::WarpScheduler] $s; W, WW, T, A, D, SPW)
    };
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
    > WarpScheduler<W, WW, T, A, D, SPW>
{
    /// Checks the parameters and their derived widths; `mode` fixes the behaviour.
    pub fn new(mode: SchedulerMode) -> Result<Self> {
        check_warps("warps (W)", W)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
        check_range("threads (T)", T, 1, crate::params::MAX_PORT_BITS)?;
        let fetch_order = match mode.fetch_policy() {
            FetchPolicy::HighestIndex => Order::HighestFirst,
            FetchPolicy::LowestIndex | FetchPolicy::RoundRobin => Order::LowestFirst,
        };
        let idle_order = if mode.seed_quirks() { Order::HighestFirst } else { Order::LowestFirst };
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            warp_cmd_valid: Default::default(),
            warp_cmd_ready: Default::default(),
            warp_cmd_pc: Default::default(),
            warp_cmd_mask: Default::default(),
            warp_cmd_wid: Default::default(),
            warp_ctl_valid: Default::default(),
            warp_ctl_ready: Default::default(),
            warp_ctl_wid: Default::default(),
            warp_ctl_active: Default::default(),
            branch_ctl_valid: Default::default(),
            branch_ctl_ready: Default::default(),
            branch_ctl_wid: Default::default(),
            branch_ctl_mask: Default::default(),
            branch_ctl_pc: Default::default(),
            end_ctl_valid: Default::default(),
            end_ctl_ready: Default::default(),
            end_ctl_wid: Default::default(),
            warp_pop_valid: Default::default(),
            warp_pop_wid: Default::default(),
            pop_data_mask: Default::default(),
            pop_data_pc: Default::default(),
            warp_set_valid: Default::default(),
            warp_set_wid: Default::default(),
            warp_set_pc: Default::default(),
            warp_set_mask: Default::default(),
            inst_fetch_valid: Default::default(),
            inst_fetch_ready: Default::default(),
            inst_fetch_pc: Default::default(),
            inst_fetch_mask: Default::default(),
            inst_fetch_wid: Default::default(),
            idle_mask: Default::default(),
            active_mask: Default::default(),
            stack_empty: Default::default(),
            stack_full: Default::default(),
            err_overflow: Default::default(),
            err_underflow: Default::default(),
            err_end_idle: Default::default(),
            err_branch_idle: Default::default(),
            err_pop_idle: Default::default(),
            err_ctl_idle: Default::default(),
            stacks: SimtStackRam::new(mode.empty_top(), mode.top_storage())?,
            idle_enc: PriorityEncoder::new(idle_order)?,
            fetch_enc: PriorityEncoder::new(fetch_order)?,
            fetch_rr: if mode.registered() {
                RoundRobinArbiter::lookahead()?
            } else {
                RoundRobinArbiter::new()?
            },
            commands: CommandStage::new(mode.registered()),
            status: WarpStatus::new(mode.seed_quirks()),
            warp_pc: WarpPc::new(mode.registered(), mode.seed_quirks()),
            registered: Constant::new(mode.registered()),
            round_robin: Constant::new(mode.fetch_policy() == FetchPolicy::RoundRobin),
            fetch_any: Default::default(),
            fetch_wid: Default::default(),
            fetch_grant: Default::default(),
            fetch_fire: Default::default(),
            f_pc: Default::default(),
            f_mask: Default::default(),
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
    > Logic for WarpScheduler<W, WW, T, A, D, SPW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and resets
        self.fetch_rr.clock.next = self.clock.val();
        self.fetch_rr.reset.next = self.reset.val();
        self.stacks.clock.next = self.clock.val();
        self.stacks.reset.next = self.reset.val();
        self.commands.clock.next = self.clock.val();
        self.commands.reset.next = self.reset.val();
        self.status.clock.next = self.clock.val();
        self.status.reset.next = self.reset.val();
        self.warp_pc.clock.next = self.clock.val();
        self.warp_pc.reset.next = self.reset.val();

        // Warp selection: an idle warp for a command (not the one a staged command lands in),
        // an active warp for fetch
        self.idle_enc.req.next = self.status.idle.val() & !self.commands.staged_cmd.val();
        self.fetch_enc.req.next = self.status.active.val();
        if self.round_robin.val() {
            self.fetch_any.next = self.fetch_rr.valid.val();
            self.fetch_wid.next = self.fetch_rr.index.val();
            self.fetch_grant.next = self.fetch_rr.grant.val();
        } else {
            self.fetch_any.next = self.fetch_enc.valid.val();
            self.fetch_wid.next = self.fetch_enc.index.val();
            self.fetch_grant.next = self.fetch_enc.grant.val();
        }
        self.fetch_fire.next = self.fetch_any.val() & self.inst_fetch_ready.val();
        self.fetch_rr.advance.next = self.fetch_fire.val();
        // The round-robin choice: from the active warps; registered mode gives it the next
        // cycle's (lookahead), for either outcome of this cycle's fetch, so no path runs from a
        // warp's state, nor from `inst_fetch_ready`, through the choice back into it.
        if self.registered.val() & !self.reset.val() {
            self.fetch_rr.req.next = self.status.active_unfetched.val();
            self.fetch_rr.req_taken.next = self.status.active_taken.val();
        } else if self.registered.val() {
            self.fetch_rr.req.next = 0.into();
            self.fetch_rr.req_taken.next = 0.into();
        } else {
            self.fetch_rr.req.next = self.status.active.val();
            self.fetch_rr.req_taken.next = 0.into();
        }

        // The commands
        self.commands.cmd_valid.next = self.warp_cmd_valid.val();
        self.commands.cmd_grant.next = self.idle_enc.grant.val();
        self.commands.cmd_pc.next = self.warp_cmd_pc.val();
        self.commands.cmd_mask.next = self.warp_cmd_mask.val();
        self.commands.ctl_valid.next = self.warp_ctl_valid.val();
        self.commands.ctl_wid.next = self.warp_ctl_wid.val();
        self.commands.ctl_active.next = self.warp_ctl_active.val();
        self.commands.branch_valid.next = self.branch_ctl_valid.val();
        self.commands.branch_wid.next = self.branch_ctl_wid.val();
        self.commands.branch_mask.next = self.branch_ctl_mask.val();
        self.commands.branch_pc.next = self.branch_ctl_pc.val();
        self.commands.end_valid.next = self.end_ctl_valid.val();
        self.commands.end_wid.next = self.end_ctl_wid.val();
        self.commands.pop_valid.next = self.warp_pop_valid.val();
        self.commands.pop_wid.next = self.warp_pop_wid.val();
        self.commands.set_valid.next = self.warp_set_valid.val();
        self.commands.set_wid.next = self.warp_set_wid.val();
        self.commands.set_pc.next = self.warp_set_pc.val();
        self.commands.set_mask.next = self.warp_set_mask.val();

        // Each warp's status and the stack commands it makes
        self.status.act_cmd.next = self.commands.act_cmd.val();
        self.status.act_ctl.next = self.commands.act_ctl.val();
        self.status.act_ctl_active.next = self.commands.act_ctl_active.val();
        self.status.act_branch.next = self.commands.act_branch.val();
        self.status.act_end.next = self.commands.act_end.val();
        self.status.act_pop.next = self.commands.act_pop.val();
        self.status.act_set.next = self.commands.act_set.val();
        self.status.fetch_fire.next = self.fetch_fire.val();
        self.status.fetch_grant.next = self.fetch_grant.val();
        self.status.stack_empty.next = self.stacks.empty.val();
        self.stacks.top_wid.next = self.warp_pop_wid.val();
        self.stacks.push.next = self.status.pushes.val();
        self.stacks.pop.next = self.status.pops.val();
        self.stacks.clear.next = self.status.clears.val();
        self.stacks.push_wid.next = self.commands.act_branch_wid.val();
        self.stacks.push_mask.next = self.commands.act_branch_mask.val();
        self.stacks.push_pc.next = self.commands.act_branch_pc.val();
        self.stacks.pop_wid.next = self.commands.act_pop_wid.val();

        // Each warp's pc and mask
        self.warp_pc.new_cmd.next = self.commands.new_cmd.val();
        self.warp_pc.new_end.next = self.commands.new_end.val();
        self.warp_pc.new_pop.next = self.commands.new_pop.val();
        self.warp_pc.new_set.next = self.commands.new_set.val();
        self.warp_pc.act_cmd.next = self.commands.act_cmd.val();
        self.warp_pc.act_pop.next = self.commands.act_pop.val();
        self.warp_pc.act_set.next = self.commands.act_set.val();
        self.warp_pc.act_cmd_pc.next = self.commands.act_cmd_pc.val();
        self.warp_pc.act_cmd_mask.next = self.commands.act_cmd_mask.val();
        self.warp_pc.act_set_pc.next = self.commands.act_set_pc.val();
        self.warp_pc.act_set_mask.next = self.commands.act_set_mask.val();
        self.warp_pc.fetch_fire.next = self.fetch_fire.val();
        self.warp_pc.fetch_grant.next = self.fetch_grant.val();
        self.warp_pc.idle.next = self.status.idle.val();
        self.warp_pc.idle_next.next = self.status.idle_next.val();
        self.warp_pc.advance.next = self.status.advance.val();
        self.warp_pc.stack_empty.next = self.stacks.empty.val();
        self.warp_pc.stack_empty_next.next = self.stacks.empty_next.val();
        self.warp_pc.top_pc.next = self.stacks.top_pc.val();
        self.warp_pc.top_mask.next = self.stacks.top_mask.val();
        for i in 0..W {
            self.warp_pc.tops_pc[i].next = self.stacks.tops_pc[i].val();
            self.warp_pc.tops_mask[i].next = self.stacks.tops_mask[i].val();
        }

        // Outputs, each written once (values built in locals first: a port written twice
        // glitches, and iverilog can loop between modules)
        self.warp_cmd_ready.next = self.idle_enc.valid.val();
        self.warp_cmd_wid.next = self.idle_enc.index.val();
        self.warp_ctl_ready.next = true;
        self.branch_ctl_ready.next = true;
        self.end_ctl_ready.next = true;
        self.f_pc.next = 0.into();
        self.f_mask.next = 0.into();
        for i in 0..W {
            if self.fetch_grant.val().get_bit(i) {
                self.f_pc.next = self.warp_pc.pc[i].val();
                self.f_mask.next = self.warp_pc.mask[i].val();
            }
        }
        self.inst_fetch_valid.next = self.fetch_any.val();
        self.inst_fetch_wid.next = self.fetch_wid.val();
        self.inst_fetch_pc.next = self.f_pc.val();
        self.inst_fetch_mask.next = self.f_mask.val();
        self.pop_data_mask.next = self.stacks.top_mask.val();
        self.pop_data_pc.next = self.stacks.top_pc.val();
        self.stack_empty.next = self.stacks.empty.val();
        self.stack_full.next = self.stacks.full.val();
        self.err_overflow.next = self.stacks.overflow.val();
        self.err_underflow.next = self.stacks.underflow.val();
        self.idle_mask.next = self.status.idle.val();
        self.active_mask.next = self.status.active.val();
        self.err_end_idle.next = self.status.err_end_idle.val();
        self.err_branch_idle.next = self.status.err_branch_idle.val();
        self.err_pop_idle.next = self.status.err_pop_idle.val();
        self.err_ctl_idle.next = self.status.err_ctl_idle.val();
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
    > crate::sim::Dut for WarpScheduler<W, WW, T, A, D, SPW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [
            reset,
            warp_cmd_valid, warp_cmd_pc, warp_cmd_mask,
            warp_ctl_valid, warp_ctl_wid, warp_ctl_active,
            branch_ctl_valid, branch_ctl_wid, branch_ctl_mask, branch_ctl_pc,
            end_ctl_valid, end_ctl_wid,
            warp_pop_valid, warp_pop_wid,
            warp_set_valid, warp_set_wid, warp_set_pc, warp_set_mask,
            inst_fetch_ready,
        ],
        outputs: [
            warp_cmd_ready, warp_cmd_wid, warp_ctl_ready, branch_ctl_ready, end_ctl_ready,
            pop_data_mask, pop_data_pc,
            inst_fetch_valid, inst_fetch_pc, inst_fetch_mask, inst_fetch_wid,
            idle_mask, active_mask, stack_empty, stack_full,
            err_overflow, err_underflow, err_end_idle, err_branch_idle, err_pop_idle, err_ctl_idle,
        ]
    );
}

/// The formal properties (`warp_scheduler.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/scheduler/warp_scheduler/warp_scheduler.sv",
    text: include_str!("warp_scheduler.sv"),
    wrapper: "warp_scheduler_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![("W", s.warps), ("WW", s.warp_id_width()), ("T", s.threads), ("A", s.pc_width)]
    },
    claims: &[Claim::cu(&[
        "idle_warp_is_never_active",
        "fetch_only_an_active_warp",
        "never_idle_and_fetched",
        "command_lands_in_an_idle_warp",
        "idle_changes_only_by_command_and_end",
    ])],
    // The seed's quirks put back into the fixed mode (warp 0 only).
    mutants: &[
        Mutant::cu(
            "ctl_activates_idle",
            "if (hit_ctl & ~is_idle) begin",
            "if (hit_ctl) begin",
            &["idle_warp_is_never_active", "active_changes_only_as_commanded"],
        ),
        Mutant::cu(
            "end_keeps_active",
            "                w_idle = 1'b1;\n                w_active = 1'b0;",
            "                w_idle = 1'b1;",
            &["idle_warp_is_never_active", "active_changes_only_as_commanded"],
        ),
        // A command offered while no warp is idle lands in a running warp.
        Mutant::cu(
            "cmd_without_idle",
            "new_cmd_w = cmd_grant;",
            "new_cmd_w = cmd_grant | {3'h0, ~(|cmd_grant)};",
            &["active_changes_only_as_commanded"],
        ),
    ],
};
