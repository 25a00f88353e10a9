//! Reference model of [`WarpScheduler`](crate::hw::WarpScheduler) and of the seed-port
//! wrapper [`SeedWarpScheduler`](crate::hw::SeedWarpScheduler), written from the seed's
//! `always` block (003): every update of a cycle reads the state before the clock edge, and
//! where several updates hit the same warp the later statement wins.

use crate::hw::common::priority_encoder::model::encode;
use crate::hw::common::round_robin::model::RoundRobinModel;
use crate::hw::scheduler::simt_stack::model::{Entry, SimtStackModel};
use crate::hw::Order;
use crate::params::{FetchPolicy, SchedulerMode, SchedulerParams};
use crate::port_struct;
use crate::sim::rng::mask;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs of `WarpScheduler`, in port order.
    pub struct SchedIn {
        reset,
        warp_cmd_valid, warp_cmd_pc, warp_cmd_mask,
        warp_ctl_valid, warp_ctl_wid, warp_ctl_active,
        branch_ctl_valid, branch_ctl_wid, branch_ctl_mask, branch_ctl_pc,
        end_ctl_valid, end_ctl_wid,
        warp_pop_valid, warp_pop_wid,
        warp_set_valid, warp_set_wid, warp_set_pc, warp_set_mask,
        inst_fetch_ready,
    }
}
port_struct! {
    /// Outputs of `WarpScheduler`, in port order.
    pub struct SchedOut {
        warp_cmd_ready, warp_cmd_wid, warp_ctl_ready, branch_ctl_ready, end_ctl_ready,
        pop_data_mask, pop_data_pc,
        inst_fetch_valid, inst_fetch_pc, inst_fetch_mask, inst_fetch_wid,
        idle_mask, active_mask, stack_empty, stack_full,
        err_overflow, err_underflow, err_end_idle, err_branch_idle, err_pop_idle, err_ctl_idle,
    }
}

/// One warp's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Warp {
    /// The warp is idle (not launched, or ended).
    pub idle: bool,
    /// The warp may fetch.
    pub active: bool,
    /// Its pc.
    pub pc: u64,
    /// Its lane mask.
    pub mask: u64,
}

/// Commands waiting a cycle in [`SchedulerMode::Registered`]: the inputs as offered, and the
/// warp the command lands in (chosen when it was offered).
#[derive(Clone, Copy, Debug, Default)]
pub struct Staged {
    /// The inputs as offered.
    pub inputs: SchedIn,
    /// The warp a launch command lands in.
    pub cmd: Option<usize>,
}

/// The scheduler's state.
#[derive(Clone, Debug)]
pub struct WarpSchedulerModel {
    /// The scheduler's sizes.
    pub params: SchedulerParams,
    /// Seed-compatible, GPGPU-Sim-style or registered timing.
    pub mode: SchedulerMode,
    /// Each warp's registers.
    pub warps: Vec<Warp>,
    /// Each warp's SIMT stack.
    pub stacks: Vec<SimtStackModel>,
    /// The fetch arbiter.
    pub rr: RoundRobinModel,
    /// Sticky misuse flags, one bit per warp.
    pub err_end_idle: u64,
    /// Sticky: a branch to an idle warp (bit per warp).
    pub err_branch_idle: u64,
    /// Sticky: a pop of an idle warp.
    pub err_pop_idle: u64,
    /// Sticky: a control of an idle warp.
    pub err_ctl_idle: u64,
    /// The commands offered in the last cycle (registered mode; else always empty).
    pub stage: Staged,
}

fn bitvec(n: usize, f: impl Fn(usize) -> bool) -> u64 {
    (0..n).filter(|&i| f(i)).fold(0, |v, i| v | 1 << i)
}

impl WarpSchedulerModel {
    /// The power-up state (all flip-flops 0: no warp idle until the first reset).
    pub fn new(params: SchedulerParams, mode: SchedulerMode) -> Self {
        WarpSchedulerModel {
            params,
            mode,
            warps: vec![Warp::default(); params.warps],
            stacks: vec![
                SimtStackModel::with_empty_top(params.stack_depth, mode.empty_top());
                params.warps
            ],
            rr: RoundRobinModel::new(params.warps),
            err_end_idle: 0,
            err_branch_idle: 0,
            err_pop_idle: 0,
            err_ctl_idle: 0,
            stage: Staged::default(),
        }
    }
    /// The idle warps, one bit per warp.
    pub fn idle_bits(&self) -> u64 {
        bitvec(self.warps.len(), |i| self.warps[i].idle)
    }
    /// The active warps, one bit per warp.
    pub fn active_bits(&self) -> u64 {
        bitvec(self.warps.len(), |i| self.warps[i].active)
    }
    /// The warp a command lands in: highest idle in the seed, lowest idle when fixed (not the
    /// one a staged command lands in).
    pub fn command_target(&self) -> Option<usize> {
        let order = if self.mode.seed_quirks() { Order::HighestFirst } else { Order::LowestFirst };
        let staged = self.stage.cmd.map_or(0, |w| 1u64 << w);
        let e = encode(self.idle_bits() & !staged, self.warps.len(), order);
        (e.valid == 1).then_some(e.index as usize)
    }
    /// The warp that fetches, by the fetch policy.
    pub fn fetch_choice(&self) -> Option<usize> {
        let active = self.active_bits();
        let e = match self.mode.fetch_policy() {
            FetchPolicy::HighestIndex => encode(active, self.warps.len(), Order::HighestFirst),
            FetchPolicy::LowestIndex => encode(active, self.warps.len(), Order::LowestFirst),
            FetchPolicy::RoundRobin => self.rr.grant(active),
        };
        (e.valid == 1).then_some(e.index as usize)
    }

    /// The outputs for this cycle's inputs `i`.
    pub fn outputs_for(&self, i: &SchedIn) -> SchedOut {
        let n = self.warps.len();
        let fetch = self.fetch_choice();
        // Registered mode: the top of the staged pop's warp (the stacks read it from their RAM
        // while the pop waits in the stage).
        let pop_wid =
            if self.mode.registered() { self.stage.inputs.warp_pop_wid } else { i.warp_pop_wid };
        let top = self.stacks[pop_wid as usize].top();
        SchedOut {
            warp_cmd_ready: self.command_target().is_some() as u64,
            warp_cmd_wid: self.command_target().unwrap_or(0) as u64,
            warp_ctl_ready: 1,
            branch_ctl_ready: 1,
            end_ctl_ready: 1,
            pop_data_mask: top.mask,
            pop_data_pc: top.pc,
            inst_fetch_valid: fetch.is_some() as u64,
            inst_fetch_pc: fetch.map_or(0, |w| self.warps[w].pc),
            inst_fetch_mask: fetch.map_or(0, |w| self.warps[w].mask),
            inst_fetch_wid: fetch.unwrap_or(0) as u64,
            idle_mask: self.idle_bits(),
            active_mask: self.active_bits(),
            stack_empty: bitvec(n, |w| self.stacks[w].is_empty()),
            stack_full: bitvec(n, |w| self.stacks[w].is_full()),
            err_overflow: bitvec(n, |w| self.stacks[w].overflow),
            err_underflow: bitvec(n, |w| self.stacks[w].underflow),
            err_end_idle: self.err_end_idle,
            err_branch_idle: self.err_branch_idle,
            err_pop_idle: self.err_pop_idle,
            err_ctl_idle: self.err_ctl_idle,
        }
    }

    /// One clock edge. In registered mode the commands of the last cycle act, with this cycle's
    /// reset and fetch handshake, and this cycle's commands wait in the stage (reset empties it).
    pub fn step_with(&mut self, i: &SchedIn) {
        let cmd = if i.warp_cmd_valid == 1 { self.command_target() } else { None };
        if !self.mode.registered() {
            return self.act(i, cmd);
        }
        let offered = Staged { inputs: *i, cmd };
        let acting =
            SchedIn { reset: i.reset, inst_fetch_ready: i.inst_fetch_ready, ..self.stage.inputs };
        self.act(&acting, self.stage.cmd);
        self.stage = if i.reset == 1 { Staged::default() } else { offered };
    }

    /// The edge's updates, the command landing in warp `cmd`.
    fn act(&mut self, i: &SchedIn, cmd: Option<usize>) {
        let p = self.params;
        let old = self.warps.clone();
        let fetch = if i.inst_fetch_ready == 1 { self.fetch_choice() } else { None };
        let hits = |valid: u64, wid: u64| (valid == 1).then_some(wid as usize);
        let end = hits(i.end_ctl_valid, i.end_ctl_wid);
        let ctl = hits(i.warp_ctl_valid, i.warp_ctl_wid);
        let pop = hits(i.warp_pop_valid, i.warp_pop_wid);
        let branch = hits(i.branch_ctl_valid, i.branch_ctl_wid);
        let set = hits(i.warp_set_valid, i.warp_set_wid);
        let pushed = Entry { mask: i.branch_ctl_mask, pc: i.branch_ctl_pc };
        self.rr.step_with(i.reset == 1, self.active_bits(), fetch.is_some());

        if i.reset == 1 {
            for w in self.warps.iter_mut() {
                *w = Warp { idle: true, active: false, pc: 0, mask: 0 };
            }
            for s in self.stacks.iter_mut() {
                s.step_with(true, false, false, false, pushed);
            }
            self.err_end_idle = 0;
            self.err_branch_idle = 0;
            self.err_pop_idle = 0;
            self.err_ctl_idle = 0;
            return;
        }
        // Misuse flags (both modes), from the state before the edge.
        let flag = |hit: Option<usize>, extra: bool| {
            hit.filter(|&w| old[w].idle && extra).map_or(0, |w| 1u64 << w)
        };
        self.err_end_idle |= flag(end, true);
        self.err_branch_idle |= flag(branch, true);
        self.err_pop_idle |= flag(pop, true);
        self.err_ctl_idle |= flag(ctl, i.warp_ctl_active == 1) | flag(set, true);
        // Warp set, in both modes: after control, fetch and pop; dropped on an idle warp.
        let set_to = set.filter(|&s| !old[s].idle).map(|s| {
            (s, Warp { idle: false, active: true, pc: i.warp_set_pc, mask: i.warp_set_mask })
        });

        let mut push = vec![false; p.warps];
        let mut popped = vec![false; p.warps];
        let mut clear = vec![false; p.warps];
        let tops: Vec<Entry> = self.stacks.iter().map(|s| s.top()).collect();
        let w = &mut self.warps;
        if self.mode.seed_quirks() {
            // The seed's statement order: command, end, control, pop, fetch.
            if let Some(c) = cmd {
                w[c] = Warp { idle: false, active: true, pc: i.warp_cmd_pc, mask: i.warp_cmd_mask };
            }
            if let Some(e) = end {
                w[e].idle = true;
            }
            if let Some(c) = ctl {
                w[c].active = i.warp_ctl_active == 1;
            }
            if let Some(q) = pop {
                w[q].pc = tops[q].pc;
                w[q].mask = tops[q].mask;
            }
            if let Some(f) = fetch {
                w[f].active = false;
                w[f].pc = (old[f].pc + 4) & mask(p.pc_width);
            }
            if let Some((s, warp)) = set_to {
                w[s] = Warp { idle: w[s].idle, ..warp };
            }
            // The seed's stack: a push wins over a pop of the same warp.
            if let Some(b) = branch {
                push[b] = true;
            }
            if let Some(q) = pop {
                popped[q] = branch != Some(q);
            }
        } else {
            if let Some(c) = cmd {
                w[c] = Warp { idle: false, active: true, pc: i.warp_cmd_pc, mask: i.warp_cmd_mask };
            }
            if let Some(c) = ctl.filter(|&c| !old[c].idle) {
                w[c].active = i.warp_ctl_active == 1;
            }
            if let Some(f) = fetch {
                w[f].active = false;
                w[f].pc = (old[f].pc + 4) & mask(p.pc_width);
            }
            if let Some(q) = pop.filter(|&q| !old[q].idle) {
                popped[q] = true;
                if !self.stacks[q].is_empty() {
                    w[q].pc = tops[q].pc;
                    w[q].mask = tops[q].mask;
                }
            }
            if let Some((s, warp)) = set_to {
                w[s] = warp;
            }
            if let Some(b) = branch.filter(|&b| !old[b].idle) {
                push[b] = true;
            }
            if let Some(e) = end.filter(|&e| !old[e].idle) {
                w[e] = Warp { idle: true, active: false, pc: 0, mask: 0 };
                clear[e] = true;
            }
        }
        for (k, s) in self.stacks.iter_mut().enumerate() {
            s.step_with(false, push[k], popped[k], clear[k], pushed);
        }
    }
}

impl CycleModel for WarpSchedulerModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<SchedIn, SchedOut>()
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        self.outputs_for(&SchedIn::from_words(inputs)).to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        self.step_with(&SchedIn::from_words(inputs));
    }
}

port_struct! {
    /// Inputs of the seed-port `WarpScheduler`, in port order.
    pub struct SeedIn {
        reset,
        warp_cmd_valid, warp_cmd_pc, warp_cmd_mask,
        warp_ctl_valid, warp_ctl_wid, warp_ctl_active,
        branch_ctl_valid, branch_ctl_wid, branch_ctl_data,
        end_ctl_valid, end_ctl_wid,
        warp_pop_valid, warp_pop_wid,
        inst_fetch_ready,
    }
}
port_struct! {
    /// Outputs of the seed-port `WarpScheduler`, in port order.
    pub struct SeedOut {
        warp_cmd_ready, warp_ctl_ready, branch_ctl_ready, end_ctl_ready,
        inst_fetch_valid, inst_fetch_pc, inst_fetch_mask, inst_fetch_wid,
        idle_id_out, active_id_out, pop_data_out,
    }
}

/// The seed-compatible scheduler model behind the seed's ports.
#[derive(Clone, Debug)]
pub struct SeedWarpSchedulerModel {
    /// The scheduler behind them.
    pub core: WarpSchedulerModel,
}

impl SeedWarpSchedulerModel {
    /// The model of the seed-compatible scheduler of `params`, after reset.
    pub fn new(params: SchedulerParams) -> Self {
        SeedWarpSchedulerModel {
            core: WarpSchedulerModel::new(params, SchedulerMode::SeedCompatible),
        }
    }
    /// The core's inputs for the seed's: `branch_ctl_data` is `{mask, pc}`.
    pub fn core_inputs(&self, s: &SeedIn) -> SchedIn {
        let a = self.core.params.pc_width;
        SchedIn {
            reset: s.reset,
            warp_cmd_valid: s.warp_cmd_valid,
            warp_cmd_pc: s.warp_cmd_pc,
            warp_cmd_mask: s.warp_cmd_mask,
            warp_ctl_valid: s.warp_ctl_valid,
            warp_ctl_wid: s.warp_ctl_wid,
            warp_ctl_active: s.warp_ctl_active,
            branch_ctl_valid: s.branch_ctl_valid,
            branch_ctl_wid: s.branch_ctl_wid,
            branch_ctl_mask: (s.branch_ctl_data >> a) & mask(self.core.params.threads),
            branch_ctl_pc: s.branch_ctl_data & mask(a),
            end_ctl_valid: s.end_ctl_valid,
            end_ctl_wid: s.end_ctl_wid,
            warp_pop_valid: s.warp_pop_valid,
            warp_pop_wid: s.warp_pop_wid,
            // The seed has no warp set.
            warp_set_valid: 0,
            warp_set_wid: 0,
            warp_set_pc: 0,
            warp_set_mask: 0,
            inst_fetch_ready: s.inst_fetch_ready,
        }
    }
}

impl CycleModel for SeedWarpSchedulerModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<SeedIn, SeedOut>()
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let o = self.core.outputs_for(&self.core_inputs(&SeedIn::from_words(inputs)));
        SeedOut {
            warp_cmd_ready: o.warp_cmd_ready,
            warp_ctl_ready: o.warp_ctl_ready,
            branch_ctl_ready: o.branch_ctl_ready,
            end_ctl_ready: o.end_ctl_ready,
            inst_fetch_valid: o.inst_fetch_valid,
            inst_fetch_pc: o.inst_fetch_pc,
            inst_fetch_mask: o.inst_fetch_mask,
            inst_fetch_wid: o.inst_fetch_wid,
            idle_id_out: o.idle_mask,
            active_id_out: o.active_mask,
            pop_data_out: (o.pop_data_mask << self.core.params.pc_width) | o.pop_data_pc,
        }
        .to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = self.core_inputs(&SeedIn::from_words(inputs));
        self.core.step_with(&i);
    }
}
