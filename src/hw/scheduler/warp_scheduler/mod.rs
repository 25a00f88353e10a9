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

pub mod model;
pub mod seed;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{Order, PriorityEncoder, RoundRobinArbiter, SimtStackRam};
use crate::params::{check_derived, check_range, check_warps, clog2, FetchPolicy, SchedulerMode};

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
    // Sub-blocks and state
    /// Every warp's SIMT stack, in block RAM ([`SimtStackRam`]).
    stacks: SimtStackRam<W, WW, T, A, D, SPW>,
    idle_enc: PriorityEncoder<W, WW>,
    fetch_enc: PriorityEncoder<W, WW>,
    fetch_rr: RoundRobinArbiter<W, WW>,
    idle: DFF<Bits<W>>,
    active: DFF<Bits<W>>,
    pc: [DFF<Bits<A>>; W],
    /// Fixed and registered modes: the warps fetched in the last cycle, whose pc advances by 4
    /// at this edge (the fetch decision is late in its cycle; the warp is inactive meanwhile).
    advance: DFF<Bits<W>>,
    /// Each warp's `pc + 4`, registered: what an advance loads (the adder is off the paths
    /// that choose a warp's next pc).
    pc_plus4: [DFF<Bits<A>>; W],
    mask: [DFF<Bits<T>>; W],
    end_idle_q: DFF<Bits<W>>,
    branch_idle_q: DFF<Bits<W>>,
    pop_idle_q: DFF<Bits<W>>,
    ctl_idle_q: DFF<Bits<W>>,
    // The command stage ([`SchedulerMode::Registered`]; in the other modes it stays empty and
    // synthesis removes it). Each command's warp one-hot, and its data.
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
    /// Where each warp's pc and mask come from at the next edge, decided when the commands are
    /// staged (from the idle bits and empty stacks they will meet), one-hot: the warp set, the
    /// pop, the command; `stage_writes` when any of them or an `end` writes them.
    stage_sel_set: DFF<Bits<W>>,
    stage_sel_pop: DFF<Bits<W>>,
    stage_sel_cmd: DFF<Bits<W>>,
    stage_writes: DFF<Bits<W>>,
    // Elaboration-time configuration
    registered: Constant<Bit>,
    seed_quirks: Constant<Bit>,
    round_robin: Constant<Bit>,
    all_warps: Constant<Bits<W>>,
    // Combinational temporaries
    /// The commands offered now, one-hot by warp (the command: in the warp it lands in).
    new_cmd: Signal<Local, Bits<W>>,
    new_ctl: Signal<Local, Bits<W>>,
    new_branch: Signal<Local, Bits<W>>,
    new_end: Signal<Local, Bits<W>>,
    new_pop: Signal<Local, Bits<W>>,
    new_set: Signal<Local, Bits<W>>,
    /// The commands acted on now: those offered now, or in registered mode the stage's.
    act_cmd: Signal<Local, Bits<W>>,
    act_cmd_pc: Signal<Local, Bits<A>>,
    act_cmd_mask: Signal<Local, Bits<T>>,
    act_ctl: Signal<Local, Bits<W>>,
    act_ctl_active: Signal<Local, Bit>,
    act_branch: Signal<Local, Bits<W>>,
    act_branch_wid: Signal<Local, Bits<WW>>,
    act_branch_mask: Signal<Local, Bits<T>>,
    act_branch_pc: Signal<Local, Bits<A>>,
    act_end: Signal<Local, Bits<W>>,
    act_pop: Signal<Local, Bits<W>>,
    act_pop_wid: Signal<Local, Bits<WW>>,
    act_set: Signal<Local, Bits<W>>,
    act_set_pc: Signal<Local, Bits<A>>,
    act_set_mask: Signal<Local, Bits<T>>,
    /// Fixed and registered modes: the idle bits and empty stacks the commands offered now meet
    /// when they act (now, or at the next edge in registered mode), the selections made from
    /// them, the selections acting now (the stage's in registered mode), and each warp's pc and
    /// mask from each source (zero unless selected), ORed.
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
    fetch_any: Signal<Local, Bit>,
    fetch_wid: Signal<Local, Bits<WW>>,
    /// The fetch choice one-hot: per-warp decisions use it without decoding `fetch_wid`.
    fetch_grant: Signal<Local, Bits<W>>,
    fetch_fire: Signal<Local, Bit>,
    is_idle: Signal<Local, Bit>,
    hit_cmd: Signal<Local, Bit>,
    hit_end: Signal<Local, Bit>,
    hit_ctl: Signal<Local, Bit>,
    hit_pop: Signal<Local, Bit>,
    hit_branch: Signal<Local, Bit>,
    hit_fetch: Signal<Local, Bit>,
    hit_set: Signal<Local, Bit>,
    w_idle: Signal<Local, Bit>,
    /// The warp's fetch advances its pc (at the next edge, [`Self::advance`]).
    w_advance: Signal<Local, Bit>,
    advance_next: Signal<Local, Bits<W>>,
    w_active: Signal<Local, Bit>,
    /// The warp's active bit after the edge if it is fetched (`w_active`: if it is not).
    w_active_fetched: Signal<Local, Bit>,
    /// The warp's active bit after the edge if the fetch choice shown is taken.
    w_active_taken: Signal<Local, Bit>,
    /// The active bits after the edge if no warp is fetched, and if the choice shown is.
    active_unfetched: Signal<Local, Bits<W>>,
    active_taken: Signal<Local, Bits<W>>,
    idle_next: Signal<Local, Bits<W>>,
    active_next: Signal<Local, Bits<W>>,
    end_idle_next: Signal<Local, Bits<W>>,
    branch_idle_next: Signal<Local, Bits<W>>,
    pop_idle_next: Signal<Local, Bits<W>>,
    ctl_idle_next: Signal<Local, Bits<W>>,
    do_push: Signal<Local, Bit>,
    do_pop: Signal<Local, Bit>,
    do_clear: Signal<Local, Bit>,
    f_pc: Signal<Local, Bits<A>>,
    f_mask: Signal<Local, Bits<T>>,
    p_mask: Signal<Local, Bits<T>>,
    p_pc: Signal<Local, Bits<A>>,
    pushes: Signal<Local, Bits<W>>,
    pops: Signal<Local, Bits<W>>,
    clears: Signal<Local, Bits<W>>,
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
    // Long because a rust-hdl block is built field by field: its arrays of signals and
    // sub-blocks have no Default to fill the rest.
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
            idle: Default::default(),
            active: Default::default(),
            pc: std::array::from_fn(|_| Default::default()),
            advance: Default::default(),
            pc_plus4: std::array::from_fn(|_| Default::default()),
            mask: std::array::from_fn(|_| Default::default()),
            end_idle_q: Default::default(),
            branch_idle_q: Default::default(),
            pop_idle_q: Default::default(),
            ctl_idle_q: Default::default(),
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
            stage_sel_set: Default::default(),
            stage_sel_pop: Default::default(),
            stage_sel_cmd: Default::default(),
            stage_writes: Default::default(),
            registered: Constant::new(mode.registered()),
            seed_quirks: Constant::new(mode.seed_quirks()),
            round_robin: Constant::new(mode.fetch_policy() == FetchPolicy::RoundRobin),
            all_warps: Constant::new(Bits::<W>::mask()),
            new_cmd: Default::default(),
            new_ctl: Default::default(),
            new_branch: Default::default(),
            new_end: Default::default(),
            new_pop: Default::default(),
            new_set: Default::default(),
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
            fetch_any: Default::default(),
            fetch_wid: Default::default(),
            fetch_grant: Default::default(),
            fetch_fire: Default::default(),
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
            advance_next: Default::default(),
            w_active: Default::default(),
            w_active_fetched: Default::default(),
            w_active_taken: Default::default(),
            active_unfetched: Default::default(),
            active_taken: Default::default(),
            idle_next: Default::default(),
            active_next: Default::default(),
            end_idle_next: Default::default(),
            branch_idle_next: Default::default(),
            pop_idle_next: Default::default(),
            ctl_idle_next: Default::default(),
            do_push: Default::default(),
            do_pop: Default::default(),
            do_clear: Default::default(),
            f_pc: Default::default(),
            f_mask: Default::default(),
            p_mask: Default::default(),
            p_pc: Default::default(),
            pushes: Default::default(),
            pops: Default::default(),
            clears: Default::default(),
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
    // Not split: an #[hdl_gen] body admits no method calls or free functions, so a split means
    // sub-blocks, a new Verilog hierarchy to prove equal (scripts/equiv.sh); not done yet.
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks, and "keep" as the default next state
        dff_setup!(
            self,
            clock,
            idle,
            active,
            advance,
            end_idle_q,
            branch_idle_q,
            pop_idle_q,
            ctl_idle_q
        );
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
            stage_set_mask,
            stage_sel_set,
            stage_sel_pop,
            stage_sel_cmd,
            stage_writes
        );
        self.fetch_rr.clock.next = self.clock.val();
        self.fetch_rr.reset.next = self.reset.val();
        for i in 0..W {
            self.pc[i].clock.next = self.clock.val();
            self.pc[i].d.next = self.pc[i].q.val();
            self.mask[i].clock.next = self.clock.val();
            self.mask[i].d.next = self.mask[i].q.val();
            self.pc_plus4[i].clock.next = self.clock.val();
            self.pc_plus4[i].d.next = self.pc[i].q.val() + 4;
        }
        self.stacks.clock.next = self.clock.val();
        self.stacks.reset.next = self.reset.val();
        self.stacks.top_wid.next = self.warp_pop_wid.val();

        // Warp selection: an idle warp for a command (not the one a staged command lands in),
        // an active warp for fetch
        self.idle_enc.req.next = self.idle.q.val() & !self.stage_cmd.q.val();
        self.fetch_enc.req.next = self.active.q.val();
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

        // The commands offered now, one-hot by warp
        self.new_cmd.next = 0.into();
        if self.warp_cmd_valid.val() {
            self.new_cmd.next = self.idle_enc.grant.val();
        }
        self.new_ctl.next = 0.into();
        self.new_branch.next = 0.into();
        self.new_end.next = 0.into();
        self.new_pop.next = 0.into();
        self.new_set.next = 0.into();
        for i in 0..W {
            self.new_ctl.next = self
                .new_ctl
                .val()
                .replace_bit(i, self.warp_ctl_valid.val() & (self.warp_ctl_wid.val().index() == i));
            self.new_branch.next = self.new_branch.val().replace_bit(
                i,
                self.branch_ctl_valid.val() & (self.branch_ctl_wid.val().index() == i),
            );
            self.new_end.next = self
                .new_end
                .val()
                .replace_bit(i, self.end_ctl_valid.val() & (self.end_ctl_wid.val().index() == i));
            self.new_pop.next = self
                .new_pop
                .val()
                .replace_bit(i, self.warp_pop_valid.val() & (self.warp_pop_wid.val().index() == i));
            self.new_set.next = self
                .new_set
                .val()
                .replace_bit(i, self.warp_set_valid.val() & (self.warp_set_wid.val().index() == i));
        }
        // The commands acted on now: those offered, or in registered mode the stage's (which
        // takes the offered ones; reset empties it)
        self.act_cmd.next = self.new_cmd.val();
        self.act_cmd_pc.next = self.warp_cmd_pc.val();
        self.act_cmd_mask.next = self.warp_cmd_mask.val();
        self.act_ctl.next = self.new_ctl.val();
        self.act_ctl_active.next = self.warp_ctl_active.val();
        self.act_branch.next = self.new_branch.val();
        self.act_branch_wid.next = self.branch_ctl_wid.val();
        self.act_branch_mask.next = self.branch_ctl_mask.val();
        self.act_branch_pc.next = self.branch_ctl_pc.val();
        self.act_end.next = self.new_end.val();
        self.act_pop.next = self.new_pop.val();
        self.act_pop_wid.next = self.warp_pop_wid.val();
        self.act_set.next = self.new_set.val();
        self.act_set_pc.next = self.warp_set_pc.val();
        self.act_set_mask.next = self.warp_set_mask.val();
        self.stage_cmd.d.next = 0.into();
        self.stage_ctl.d.next = 0.into();
        self.stage_branch.d.next = 0.into();
        self.stage_end.d.next = 0.into();
        self.stage_pop.d.next = 0.into();
        self.stage_set.d.next = 0.into();
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
            if !self.reset.val() {
                self.stage_cmd.d.next = self.new_cmd.val();
                self.stage_ctl.d.next = self.new_ctl.val();
                self.stage_branch.d.next = self.new_branch.val();
                self.stage_end.d.next = self.new_end.val();
                self.stage_pop.d.next = self.new_pop.val();
                self.stage_set.d.next = self.new_set.val();
            }
            self.stage_cmd_pc.d.next = self.warp_cmd_pc.val();
            self.stage_cmd_mask.d.next = self.warp_cmd_mask.val();
            self.stage_ctl_active.d.next = self.warp_ctl_active.val();
            self.stage_branch_wid.d.next = self.branch_ctl_wid.val();
            self.stage_branch_mask.d.next = self.branch_ctl_mask.val();
            self.stage_branch_pc.d.next = self.branch_ctl_pc.val();
            self.stage_pop_wid.d.next = self.warp_pop_wid.val();
            self.stage_set_pc.d.next = self.warp_set_pc.val();
            self.stage_set_mask.d.next = self.warp_set_mask.val();
        }
        self.stacks.push_wid.next = self.act_branch_wid.val();
        self.stacks.push_mask.next = self.act_branch_mask.val();
        self.stacks.push_pc.next = self.act_branch_pc.val();
        self.stacks.pop_wid.next = self.act_pop_wid.val();

        // Outputs
        self.warp_cmd_ready.next = self.idle_enc.valid.val();
        self.warp_cmd_wid.next = self.idle_enc.index.val();
        self.warp_ctl_ready.next = true;
        self.branch_ctl_ready.next = true;
        self.end_ctl_ready.next = true;
        // Every output and every child input is written once per pass: values are built in
        // locals first (a port written twice glitches, and iverilog can loop between modules).
        self.f_pc.next = 0.into();
        self.f_mask.next = 0.into();
        self.p_mask.next = self.stacks.top_mask.val();
        self.p_pc.next = self.stacks.top_pc.val();
        for i in 0..W {
            if self.fetch_grant.val().get_bit(i) {
                self.f_pc.next = self.pc[i].q.val();
                self.f_mask.next = self.mask[i].q.val();
            }
        }
        self.inst_fetch_valid.next = self.fetch_any.val();
        self.inst_fetch_wid.next = self.fetch_wid.val();
        self.inst_fetch_pc.next = self.f_pc.val();
        self.inst_fetch_mask.next = self.f_mask.val();
        self.pop_data_mask.next = self.p_mask.val();
        self.pop_data_pc.next = self.p_pc.val();
        self.stack_empty.next = self.stacks.empty.val();
        self.stack_full.next = self.stacks.full.val();
        self.err_overflow.next = self.stacks.overflow.val();
        self.err_underflow.next = self.stacks.underflow.val();
        self.idle_mask.next = self.idle.q.val();
        self.active_mask.next = self.active.q.val();
        self.err_end_idle.next = self.end_idle_q.q.val();
        self.err_branch_idle.next = self.branch_idle_q.q.val();
        self.err_pop_idle.next = self.pop_idle_q.q.val();
        self.err_ctl_idle.next = self.ctl_idle_q.q.val();

        // Next state, one warp at a time
        self.idle_next.next = self.idle.q.val();
        self.active_next.next = self.active.q.val();
        self.active_unfetched.next = self.active.q.val();
        self.active_taken.next = self.active.q.val();
        self.end_idle_next.next = self.end_idle_q.q.val();
        self.branch_idle_next.next = self.branch_idle_q.q.val();
        self.pop_idle_next.next = self.pop_idle_q.q.val();
        self.ctl_idle_next.next = self.ctl_idle_q.q.val();
        self.advance_next.next = 0.into();
        self.pushes.next = 0.into();
        self.pops.next = 0.into();
        self.clears.next = 0.into();
        for i in 0..W {
            self.is_idle.next = self.idle.q.val().get_bit(i);
            self.hit_cmd.next = self.act_cmd.val().get_bit(i);
            self.hit_end.next = self.act_end.val().get_bit(i);
            self.hit_ctl.next = self.act_ctl.val().get_bit(i);
            self.hit_pop.next = self.act_pop.val().get_bit(i);
            self.hit_branch.next = self.act_branch.val().get_bit(i);
            self.hit_fetch.next = self.fetch_fire.val() & self.fetch_grant.val().get_bit(i);
            self.hit_set.next = self.act_set.val().get_bit(i);
            self.w_idle.next = self.is_idle.val();
            self.w_active.next = self.active.q.val().get_bit(i);
            self.w_active_fetched.next = false;
            self.w_advance.next = false;
            self.do_push.next = false;
            self.do_pop.next = false;
            self.do_clear.next = false;
            // Misuse flags (every mode)
            if self.hit_end.val() & self.is_idle.val() {
                self.end_idle_next.next = self.end_idle_next.val().replace_bit(i, true);
            }
            if self.hit_branch.val() & self.is_idle.val() {
                self.branch_idle_next.next = self.branch_idle_next.val().replace_bit(i, true);
            }
            if self.hit_pop.val() & self.is_idle.val() {
                self.pop_idle_next.next = self.pop_idle_next.val().replace_bit(i, true);
            }
            if (self.hit_ctl.val() & self.act_ctl_active.val() | self.hit_set.val())
                & self.is_idle.val()
            {
                self.ctl_idle_next.next = self.ctl_idle_next.val().replace_bit(i, true);
            }
            if self.seed_quirks.val() {
                // The seed's statement order: command, end, control, pop, fetch; later wins.
                if self.hit_cmd.val() {
                    self.w_idle.next = false;
                    self.w_active.next = true;
                    self.pc[i].d.next = self.act_cmd_pc.val();
                    self.mask[i].d.next = self.act_cmd_mask.val();
                }
                if self.hit_end.val() {
                    self.w_idle.next = true;
                }
                if self.hit_ctl.val() {
                    self.w_active.next = self.act_ctl_active.val();
                }
                if self.hit_pop.val() {
                    self.pc[i].d.next = self.stacks.tops_pc[i].val();
                    self.mask[i].d.next = self.stacks.tops_mask[i].val();
                }
                if self.hit_fetch.val() {
                    self.pc[i].d.next = self.pc[i].q.val() + 4;
                }
                if self.hit_set.val() & !self.is_idle.val() {
                    self.w_active.next = true;
                    self.w_active_fetched.next = true;
                    self.pc[i].d.next = self.act_set_pc.val();
                    self.mask[i].d.next = self.act_set_mask.val();
                }
                self.do_push.next = self.hit_branch.val();
                self.do_pop.next = self.hit_pop.val() & !self.hit_branch.val();
            } else {
                // Fixed and registered modes (their pc and mask below): command, control, fetch,
                // pop, set, end; the later wins.
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
                if self.hit_pop.val() & !self.is_idle.val() & !self.stacks.empty.val().get_bit(i) {
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
            self.pushes.next = self.pushes.val().replace_bit(i, self.do_push.val());
            self.pops.next = self.pops.val().replace_bit(i, self.do_pop.val());
            self.clears.next = self.clears.val().replace_bit(i, self.do_clear.val());
            self.idle_next.next = self.idle_next.val().replace_bit(i, self.w_idle.val());
            // A fetch clears the active bit, after command and control, before set and end: the
            // bit is `w_active_fetched` if the warp is fetched, `w_active` if not.
            self.active_unfetched.next =
                self.active_unfetched.val().replace_bit(i, self.w_active.val());
            self.w_active_taken.next = self.w_active.val();
            if self.fetch_grant.val().get_bit(i) {
                self.w_active_taken.next = self.w_active_fetched.val();
            }
            self.active_taken.next =
                self.active_taken.val().replace_bit(i, self.w_active_taken.val());
            if self.hit_fetch.val() {
                self.w_active.next = self.w_active_fetched.val();
            }
            self.active_next.next = self.active_next.val().replace_bit(i, self.w_active.val());
            self.advance_next.next = self.advance_next.val().replace_bit(i, self.w_advance.val());
        }
        self.advance.d.next = self.advance_next.val();
        // The round-robin choice: from the active warps; registered mode gives it the next
        // cycle's (lookahead), for either outcome of this cycle's fetch, so no path runs from a
        // warp's state, nor from `inst_fetch_ready`, through the choice back into it.
        self.fetch_rr.req.next = self.active.q.val();
        self.fetch_rr.req_taken.next = 0.into();
        if self.registered.val() {
            self.fetch_rr.req.next = self.active_unfetched.val();
            self.fetch_rr.req_taken.next = self.active_taken.val();
            if self.reset.val() {
                self.fetch_rr.req.next = 0.into();
                self.fetch_rr.req_taken.next = 0.into();
            }
        }
        self.stacks.push.next = self.pushes.val();
        self.stacks.pop.next = self.pops.val();
        self.stacks.clear.next = self.clears.val();
        // Fixed and registered modes: where each warp's pc and mask come from when the commands
        // offered now act, decided from the idle bits and empty stacks they meet then (now, or
        // at the next edge in registered mode). The order is the fixed mode's above: command,
        // pop, set, end, the later winning; a command lands in a warp that is idle then, where
        // pop, set and end are dropped; an end writes zeros.
        self.meet_idle.next = self.idle.q.val();
        self.meet_empty.next = self.stacks.empty.val();
        if self.registered.val() {
            self.meet_idle.next = self.idle_next.val();
            self.meet_empty.next = self.stacks.empty_next.val();
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
        // Each warp's next pc and mask, an OR of exclusive sources (two logic levels instead of
        // a priority chain): kept (or advanced by a fetch), or a command's, a pop's, a set's.
        if !self.seed_quirks.val() {
            for i in 0..W {
                self.from_keep_pc.next = self.pc[i].q.val();
                self.from_keep_mask.next = self.mask[i].q.val();
                if self.advance.q.val().get_bit(i) {
                    self.from_keep_pc.next = self.pc_plus4[i].q.val();
                }
                if self.now_writes.val().get_bit(i) {
                    self.from_keep_pc.next = 0.into();
                    self.from_keep_mask.next = 0.into();
                }
                self.from_pop_pc.next = 0.into();
                self.from_pop_mask.next = 0.into();
                // (Registered mode: the staged pop's entry, read from the stack RAM while it
                // waited in the stage, [`TopStorage::Ram`]).
                if self.now_pop.val().get_bit(i) {
                    self.from_pop_pc.next = self.stacks.tops_pc[i].val();
                    self.from_pop_mask.next = self.stacks.tops_mask[i].val();
                    if self.registered.val() {
                        self.from_pop_pc.next = self.stacks.top_pc.val();
                        self.from_pop_mask.next = self.stacks.top_mask.val();
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
                self.pc[i].d.next = self.from_keep_pc.val()
                    | self.from_pop_pc.val()
                    | self.from_set_pc.val()
                    | self.from_cmd_pc.val();
                self.mask[i].d.next = self.from_keep_mask.val()
                    | self.from_pop_mask.val()
                    | self.from_set_mask.val()
                    | self.from_cmd_mask.val();
            }
        }
        self.idle.d.next = self.idle_next.val();
        self.active.d.next = self.active_next.val();
        self.end_idle_q.d.next = self.end_idle_next.val();
        self.branch_idle_q.d.next = self.branch_idle_next.val();
        self.pop_idle_q.d.next = self.pop_idle_next.val();
        self.ctl_idle_q.d.next = self.ctl_idle_next.val();
        if self.reset.val() {
            self.idle.d.next = self.all_warps.val();
            self.active.d.next = 0.into();
            self.advance.d.next = 0.into();
            self.end_idle_q.d.next = 0.into();
            self.branch_idle_q.d.next = 0.into();
            self.pop_idle_q.d.next = 0.into();
            self.ctl_idle_q.d.next = 0.into();
            for i in 0..W {
                self.pc[i].d.next = 0.into();
                self.mask[i].d.next = 0.into();
            }
        }
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
    wrapper: "warp_scheduler_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![("W", s.warps), ("WW", s.warp_id_width()), ("T", s.threads), ("A", s.pc_width)]
    },
};
