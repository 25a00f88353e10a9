//! Reference model of the SIMT core: the blocks' own models joined into seed 001's pipeline, one
//! clock edge per [`step`](SimtCoreModel::step). It defines the core's micro-architecture
//! cycle by cycle; what a program computes is defined by the ISA's interpreter
//! ([`crate::isa::interp`]), and the model must leave every register and every local-data-share
//! word as the interpreter does.
//!
//! The pipeline (each stage reads the state before the clock edge):
//! - **launch**: after `start`, one warp command per cycle (pc 0, every lane) until every warp runs.
//! - **fetch**: the [`WarpScheduler`](crate::hw::WarpScheduler) offers an active warp (round
//!   robin); it is taken when that warp's I-buffer has space. The scheduler advances the warp's
//!   pc and deactivates it; the instruction memory (block RAM) is read at the edge.
//! - **fill**: the word read lands in the warp's [`IBuffer`](crate::hw::IBuffer). A warp whose
//!   fetched instruction is not control flow (`bz bnz join jmp bany exit`) is re-activated (warp
//!   control), so it fetches ahead while its I-buffer has space; after control flow it waits for
//!   the branch to resolve.
//! - **issue**: the policy ([`IssuePolicy`]) picks one warp with an instruction; its head is
//!   decoded and issues unless the [`Scoreboard`](crate::hw::Scoreboard) sees a RAW/WAW
//!   hazard, the collector has no free unit, or (`join`, `jmp`) the branch port is taken this
//!   cycle. Issue reserves `rd`. ALU instructions, `bz bnz bany` go to collector unit type 0,
//!   `st ld` to type 1; `nop` ends at issue; `join` pops the warp's stack and sets its pc and
//!   mask from the entry, without the warp's exited lanes (an empty stack: the pop is flagged
//!   and the warp goes on after the `join`); `jmp` sets the pc; `exit` (or an instruction
//!   fetched with no lane left) adds the active lanes to the exited ones and pops as `join`
//!   does, or ends the warp when its stack is empty.
//! - **operand collector** ([`OperandCollector`](crate::hw::OperandCollector)): reads `ra`,
//!   `rb` from the banked register file.
//! - **execute, type 0**: the [`LaneAlu`](crate::hw::LaneAlu) (operand b by the decoder's
//!   `b_sel`); taken when no load writes back this cycle and no branch holds the branch port.
//!   ALU results write back at once. Branches resolve on the ALU's `zero` mask: push
//!   `{mask, reconv + 1}`; when the warp splits, the next cycle pushes `{not taken, pc + 1}` and
//!   sets `{taken, target}`, else the same cycle sets the one path; `bany` sets the target or
//!   `pc + 1`. Setting re-activates the warp (the scheduler's warp set).
//! - **execute, type 1**: the [`LocalDataShare`](crate::hw::LocalDataShare) takes the
//!   request when ready; a load's data writes back the cycle `resp_valid` shows it (priority
//!   over the ALU's write-back).
//! - **write-back**: through the collector's write port (priority over reads of its bank), and
//!   releases the scoreboard entry the same cycle.
//!
//! The run is done when every warp has run `exit` and nothing is in flight.
//!
//! The pipelined timing (`CollectorTiming::Pipelined`, the `cu` core's) changes six steps: issue
//! checks the head selected last cycle while the policy selects the next among the other warps;
//! issue reaches the collector through the issue latch; the collector allocates only units free
//! before the cycle; write-back releases its register a cycle later; `join`, `jmp` and `exit`
//! pop, end and set their warp the cycle after they issue (execute type 0 waits that cycle);
//! and the local data share takes its requests from a register the collector fills when empty.

use crate::hw::collector::operand_collector::model::{Inst, OcInputs, WriteBack};
use crate::hw::core::decoder::{BSel, Kind};
use crate::hw::core::ibuffer::model::{IBufferIn, IBufferOut};
use crate::hw::core::lane_alu::model::LaneAluModel;
use crate::hw::core::lane_alu::ExecOp;
use crate::hw::core::scoreboard::model::{ScoreboardIn, ScoreboardOut};
use crate::hw::lds::local_data_share::model::LdsIn;
use crate::hw::scheduler::warp_scheduler::model::SchedIn;
use crate::hw::{
    DecoderModel, IBufferModel, LocalDataShareModel, OperandCollectorModel, RoundRobinModel,
    ScoreboardModel, WarpSchedulerModel,
};
use crate::params::{CoreParams, IssuePolicy, SchedulerMode};
use crate::port_struct;
use crate::sim::rng::mask;
use crate::sim::wide::Lanes;
use crate::sim::{CycleModel, PortNames, PortStruct};

pub use crate::params::ERROR_FLAGS;

port_struct! {
    /// Inputs of `SimtCore`, in port order.
    pub struct CoreIn { reset, start, imem_write_valid, imem_write_addr, imem_write_data }
}

/// What a run counted (the core's counter registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreCounters {
    /// Cycles from `start` to done.
    pub cycles: u64,
    /// Warp instructions issued (every instruction, `nop` and control flow included).
    pub issued: u64,
    /// Cycles whose chosen warp waited on the scoreboard.
    pub scoreboard_stalls: u64,
    /// Cycles whose chosen warp found no free collector unit or the branch port taken.
    pub structural_stalls: u64,
    /// Cycles some collector unit waited for a register bank (the collector's `count_stall`).
    pub bank_stalls: u64,
    /// Extra local-data-share cycles for bank conflicts.
    pub lds_conflict_cycles: u64,
    /// Branches that split a warp.
    pub divergent_branches: u64,
    /// Most SIMT-stack entries any warp held.
    pub stack_high_water: u64,
    /// Cycles in which some warp waited at a barrier (the hardware's own count: the interpreter
    /// has no cycles).
    pub barrier_waits: u64,
}

impl CoreCounters {
    /// Instructions per cycle.
    pub fn ipc(&self) -> f64 {
        self.issued as f64 / self.cycles.max(1) as f64
    }
}

/// The second half of a divergent branch: push `{mask, pc}` and set `{set_mask, set_pc}`.
#[derive(Clone, Copy, Debug)]
struct Divergence {
    warp: usize,
    mask: u64,
    pc: u64,
    set_mask: u64,
    set_pc: u64,
}

/// What a `join`, `jmp` or `exit` does to its warp: pop its stack, end it, set it to the popped
/// entry's pc and lanes without `mask` and the exited lanes (`from_stack`) or to `{mask, pc}`.
#[derive(Clone, Copy, Debug, Default)]
struct Control {
    warp: usize,
    pop: bool,
    end: bool,
    set: bool,
    from_stack: bool,
    mask: u64,
    pc: u64,
}

/// An I-buffer head: its warp, instruction word and instruction index.
#[derive(Clone, Copy, Debug)]
struct Head {
    warp: usize,
    inst: u64,
    pc: u64,
}

/// The access the local data share works on: a load writes `rd` back.
#[derive(Clone, Copy, Debug, Default)]
struct LdsTag {
    load: bool,
    warp: usize,
    rd: usize,
    mask: u64,
}

/// The core's state.
#[derive(Clone, Debug)]
pub struct SimtCoreModel {
    /// The core's parameters.
    pub params: CoreParams,
    /// The instruction memory.
    pub imem: Vec<u32>,
    /// The warp scheduler.
    pub sched: WarpSchedulerModel,
    /// The I-buffer.
    pub ibuf: IBufferModel,
    /// The scoreboard.
    pub sb: ScoreboardModel,
    /// The operand collector.
    pub oc: OperandCollectorModel,
    /// The local data share.
    pub lds: LocalDataShareModel,
    alu: LaneAluModel,
    /// The fetch in flight: warp, byte pc and the word the instruction memory read at the edge.
    fetch: Option<(usize, u64, u32)>,
    /// Each warp's lane mask, as the fetch of its instructions saw it (control flow waits, so
    /// every instruction in the I-buffer runs with it).
    wmask: Vec<u64>,
    /// Each warp's lanes that ran `exit` (cleared when the warp ends).
    exited: Vec<u64>,
    /// Each warp's branch in flight: its instruction index.
    branch_pc: Vec<u64>,
    divergence: Option<Divergence>,
    lds_tag: LdsTag,
    resp_tag: LdsTag,
    /// Local-data-share accesses taken and not yet answered.
    lds_open: u64,
    /// Pipelined: the `st` / `ld` in the port's register, with its operand `a`.
    lds_held: Option<(Inst, Lanes, Lanes)>,
    rr: RoundRobinModel,
    greedy: Option<usize>,
    launching: bool,
    launched: usize,
    running: bool,
    /// SIMT-stack entries per warp.
    depth: Vec<u64>,
    /// The counters the core's ports show.
    pub counters: CoreCounters,
    /// Sticky: an instruction word with an unused opcode issued (it ran as a `nop`).
    pub err_illegal: bool,
    /// Warps waiting at a barrier, and the warps the barrier releases (one a cycle, through
    /// warp control, when the fill does not use it).
    bar_waiting: u64,
    bar_releasing: u64,
    /// Sticky: a warp reached `bar` diverged (it waits as the others do).
    pub err_barrier: bool,
    /// Pipelined: the instruction issued last cycle or earlier and not yet taken by a collector
    /// unit (the issue latch).
    latch: Option<Inst>,
    /// Pipelined: the head selected last cycle, checked and issued (or dropped) this cycle.
    selected: Option<Head>,
    /// Pipelined: last cycle's write-back, whose register the scoreboard releases this cycle.
    release: Option<(usize, usize)>,
    /// Pipelined: what last cycle's `join`, `jmp` or `exit` does to its warp this cycle.
    control: Option<Control>,
}

/// One cycle's decisions, before the edge.
struct Cycle {
    sched: SchedIn,
    ibuf: IBufferIn,
    sb: ScoreboardIn,
    oc: OcInputs,
    lds: LdsIn,
    /// The instruction issued: its warp and instruction index.
    issued: Option<(usize, u64)>,
    hazard: bool,
    structural: bool,
    divergence: Option<Divergence>,
    divergent: bool,
    lds_resp: bool,
    fetch: Option<(usize, u64, u32)>,
    illegal: bool,
    pushed: Option<usize>,
    popped: Option<usize>,
    ended: Option<usize>,
    /// Warp `.0`'s active lanes ran `exit` (`.1`: its stack was empty, and it ended).
    exits: Option<(usize, bool)>,
    /// The policy's candidate among `heads`: the warps with an instruction in their I-buffer
    /// (pipelined: but the one selected last cycle).
    candidate: Option<usize>,
    heads: u64,
    /// Pipelined: the head selected for next cycle; the control to act on next cycle.
    select: Option<Head>,
    control: Option<Control>,
    branch_issue: Option<(usize, u64)>,
    lds_ready: bool,
    lds_new: Option<LdsTag>,
    /// Pipelined: the port's register after this cycle.
    lds_held: Option<(Inst, Lanes, Lanes)>,
    /// The issue latch: issued into it this cycle; its instruction taken this cycle.
    to_latch: Option<Inst>,
    latch_taken: bool,
    /// A `bar` issued: its warp, and whether the warp was diverged.
    bar_arrive: Option<(usize, bool)>,
    /// The barrier lets its waiting warps go (every warp that has not ended waits); the warp it
    /// re-activates this cycle.
    bar_release: bool,
    bar_reactivated: Option<usize>,
}

fn kind(k: u64) -> Kind {
    Kind::ALL[k as usize]
}

/// The scheduler's warp set: warp `w` goes on at `pc` with `mask`.
fn set_warp(s: &mut SchedIn, w: usize, mask: u64, pc: u64) {
    (s.warp_set_valid, s.warp_set_wid, s.warp_set_mask, s.warp_set_pc) = (1, w as u64, mask, pc);
}

/// `value` in every lane.
fn replicate(value: u64, lanes: usize, bits: usize) -> Lanes {
    Lanes::splat((value & mask(bits)) as u32, lanes)
}

impl SimtCoreModel {
    /// A core at power-up with `program` in its instruction memory (unused words 0) and the
    /// local data share holding `lds_init` from word 0. `params` must be valid.
    /// The decoder of the core's instruction set.
    fn decoder(&self) -> DecoderModel {
        DecoderModel { isa: self.params.isa }
    }

    /// The model of core `params` after reset, its instruction memory holding `program` and its local data share `lds_init` from word 0.
    pub fn new(params: CoreParams, program: &[u32], lds_init: &[u32]) -> Self {
        let p = params;
        let sp = p.scheduler();
        let mut imem = vec![0; p.imem_words];
        imem[..program.len()].copy_from_slice(program);
        let mut lds = LocalDataShareModel::new(p.threads, p.lane_bits, p.lds_banks, p.lds_rows)
            .with_scatter(p.isa.stx)
            .with_atomics(p.isa.atomic);
        for (a, &v) in lds_init.iter().enumerate() {
            lds.mem[a % p.lds_banks][a / p.lds_banks] = v as u64 & mask(p.lane_bits);
        }
        SimtCoreModel {
            params,
            imem,
            sched: WarpSchedulerModel::new(sp, SchedulerMode::Fixed(sp.fetch_policy)),
            ibuf: IBufferModel::new(p.warps),
            sb: ScoreboardModel::new(p.warps),
            oc: OperandCollectorModel::new(p.collector(), p.warps, p.threads),
            lds,
            alu: LaneAluModel { lanes: p.threads, lane_bits: p.lane_bits, isa: p.isa },
            fetch: None,
            wmask: vec![0; p.warps],
            exited: vec![0; p.warps],
            branch_pc: vec![0; p.warps],
            divergence: None,
            lds_tag: LdsTag::default(),
            resp_tag: LdsTag::default(),
            lds_open: 0,
            lds_held: None,
            rr: RoundRobinModel::new(p.warps),
            greedy: None,
            launching: false,
            launched: 0,
            running: false,
            depth: vec![0; p.warps],
            counters: CoreCounters::default(),
            err_illegal: false,
            bar_waiting: 0,
            bar_releasing: 0,
            err_barrier: false,
            latch: None,
            selected: None,
            release: None,
            control: None,
        }
    }

    /// A run is in progress (the `running` port).
    pub fn running(&self) -> bool {
        self.running
    }

    /// Every warp has exited and nothing is in flight.
    pub fn done(&self) -> bool {
        let all = mask(self.params.warps);
        !self.launching
            && self.sched.idle_bits() == all
            && self.fetch.is_none()
            && (0..self.params.collector_units).all(|c| !self.oc.busy(c))
            && self.oc.out.iter().all(|o| !o.valid)
            && self.lds_open == 0
            && self.lds_held.is_none()
            && self.control.is_none()
            && self.divergence.is_none()
            && self.sb.reg_table.iter().all(|t| t.is_empty())
            && self.latch.is_none()
    }

    /// The pipelined core: issue selects its head a cycle ahead and reaches the collector
    /// through a register.
    fn pipelined(&self) -> bool {
        self.params.collector_timing == crate::params::CollectorTiming::Pipelined
    }

    /// Register `r` of `lane` of `warp`.
    pub fn reg(&self, warp: usize, lane: usize, r: usize) -> u32 {
        let (bank, row) = self.oc.locate(warp, r);
        self.oc.rf.mem[bank][row][lane]
    }

    /// Every register, in the interpreter's order (`(warp x threads + lane) x 16 + r`).
    pub fn regs(&self) -> Vec<u32> {
        let p = self.params;
        let mut v = vec![];
        for w in 0..p.warps {
            for l in 0..p.threads {
                v.extend((0..crate::isa::REGISTERS).map(|r| self.reg(w, l, r)));
            }
        }
        v
    }

    /// The local data share's words, flat (word `a` is bank `a mod lds_banks`, row
    /// `a / lds_banks`).
    pub fn lds_words(&self) -> Vec<u32> {
        let b = self.params.lds_banks;
        (0..self.params.lds_words()).map(|a| self.lds.mem[a % b][a / b] as u32).collect()
    }

    /// The sticky error flags of the blocks and the core (`errors` port): bit 0 SIMT stack
    /// overflow, 1 `join` on an empty stack, 2 warp control, set, pop or end aimed at an idle warp,
    /// 3 scoreboard misuse, 4 I-buffer misuse, 5 an illegal instruction issued, 6 collector
    /// misuse (unknown unit type, queue overflow), 7 `bar` in a diverged warp.
    pub fn error_bits(&self) -> u64 {
        let o = self.sched.outputs_for(&SchedIn::default());
        [
            o.err_overflow != 0,
            o.err_underflow != 0,
            o.err_end_idle | o.err_branch_idle | o.err_pop_idle | o.err_ctl_idle != 0,
            self.sb.double_reserve || self.sb.release_free,
            self.ibuf.fill_full || self.ibuf.issue_empty,
            self.err_illegal,
            self.oc.err_unit || self.oc.arbiter.overflow || self.oc.err_source,
            self.err_barrier,
        ]
        .iter()
        .enumerate()
        .fold(0, |m, (k, &set)| m | (set as u64) << k)
    }

    /// The raised error flags, by name.
    pub fn errors(&self) -> Vec<&'static str> {
        const NAMES: [&str; ERROR_FLAGS] = [
            "SIMT stack overflow",
            "`join` with an empty SIMT stack",
            "warp control aimed at an idle warp",
            "scoreboard misuse",
            "I-buffer misuse",
            "illegal instruction",
            "operand-collector misuse",
            "`bar` in a diverged warp",
        ];
        let bits = self.error_bits();
        (0..ERROR_FLAGS).filter(|k| bits >> k & 1 == 1).map(|k| NAMES[k]).collect()
    }

    /// The issue candidate by the policy, among warps with an instruction.
    fn candidate(&self, heads: u64) -> Option<usize> {
        match self.params.policy {
            IssuePolicy::LooseRoundRobin => {
                let g = self.rr.grant(heads);
                (g.valid == 1).then_some(g.index as usize)
            }
            IssuePolicy::GreedyThenOldest => self
                .greedy
                .filter(|&g| heads >> g & 1 == 1)
                .or_else(|| (0..self.params.warps).find(|&w| heads >> w & 1 == 1)),
        }
    }

    /// The inputs every block gets this cycle, and what the core does with them: the pipeline's
    /// stages in the hardware's order, each writing its part of `c`.
    fn decide(&self, reset: bool, start: bool) -> Cycle {
        let t = self.params.threads;
        let mut c = Cycle {
            sched: SchedIn { reset: reset as u64, ..Default::default() },
            ibuf: IBufferIn { reset: reset as u64, ..Default::default() },
            sb: ScoreboardIn { reset: reset as u64, ..Default::default() },
            oc: OcInputs {
                reset,
                ports: vec![(false, Inst::default())],
                out_ready: vec![false; 2],
                wb: None,
            },
            lds: LdsIn { reset, addr: vec![0; t], data: vec![0; t], ..Default::default() },
            issued: None,
            hazard: false,
            structural: false,
            divergence: None,
            divergent: false,
            lds_resp: false,
            fetch: None,
            illegal: false,
            pushed: None,
            popped: None,
            ended: None,
            exits: None,
            candidate: None,
            heads: 0,
            select: None,
            control: None,
            branch_issue: None,
            lds_ready: false,
            lds_new: None,
            lds_held: None,
            to_latch: None,
            latch_taken: false,
            bar_arrive: None,
            bar_release: false,
            bar_reactivated: None,
        };
        // The issue latch offers its instruction to the collector.
        if let Some(inst) = self.latch {
            c.oc.ports[0] = (true, inst);
            c.latch_taken = self.oc.decide(&c.oc).in_ready[0];
        }
        let io = self.launch_fetch_fill(&mut c, start);
        // The local data share's answer, then execute type 0.
        let lds_o = self.lds.outputs(&[]);
        let (lds_ready, resp_valid) = (lds_o[0] == 1, lds_o[1] == 1);
        if resp_valid && self.resp_tag.load {
            let (r, bits) = (self.resp_tag, self.params.lane_bits);
            let data = Lanes::from_fn(t, |l| (lds_o[2 + l] & mask(bits)) as u32);
            c.oc.wb = Some(WriteBack { warp: r.warp, reg: r.rd, mask: r.mask, data });
        }
        c.lds_resp = resp_valid;
        if let Some(ctl) = self.control {
            self.act(&mut c, ctl);
        }
        let branch_port = self.execute_alu(&mut c);
        self.execute_lds(&mut c, reset, lds_ready);
        // Write-back releases its register (pipelined: the next cycle).
        let release =
            if self.pipelined() { self.release } else { c.oc.wb.map(|wb| (wb.warp, wb.reg)) };
        if let Some((warp, reg)) = release {
            (c.sb.release_valid, c.sb.release_warp, c.sb.release_reg) =
                (1, warp as u64, reg as u64);
        }
        self.issue(&mut c, &io, branch_port);
        self.barrier(&mut c);
        c
    }

    /// The barrier: when every warp that has not ended waits (and no warp command is offered:
    /// the launch is over), all waiting warps are to be released; one released warp a cycle is
    /// re-activated through warp control, when the fill does not use it this cycle.
    fn barrier(&self, c: &mut Cycle) {
        let present = !self.sched.idle_bits() & mask(self.params.warps);
        let launching = c.sched.warp_cmd_valid == 1;
        c.bar_release = !launching && self.bar_waiting != 0 && present & !self.bar_waiting == 0;
        if self.bar_releasing != 0 && c.sched.warp_ctl_valid == 0 {
            let w = self.bar_releasing.trailing_zeros() as usize;
            (c.sched.warp_ctl_valid, c.sched.warp_ctl_wid, c.sched.warp_ctl_active) =
                (1, w as u64, 1);
            c.bar_reactivated = Some(w);
        }
    }

    /// Launch (one warp command a cycle after `start`), fetch (the scheduler's offer, taken
    /// when its warp has I-buffer space) and fill (last cycle's fetch into the I-buffer): the
    /// I-buffer's outputs before this cycle's issue.
    fn launch_fetch_fill(&self, c: &mut Cycle, start: bool) -> IBufferOut {
        let p = self.params;
        let t = p.threads;
        // Launch.
        let so = self.sched.outputs_for(&c.sched);
        c.sched.warp_cmd_valid = (self.launching || start) as u64;
        c.sched.warp_cmd_mask = mask(t);
        // Fetch.
        let io = IBufferOut::from_words(&self.ibuf.outputs(&c.ibuf.to_words()));
        if so.inst_fetch_valid == 1 && io.space >> so.inst_fetch_wid & 1 == 1 {
            c.sched.inst_fetch_ready = 1;
            let word = self.imem[(so.inst_fetch_pc >> 2) as usize % p.imem_words];
            c.fetch = Some((so.inst_fetch_wid as usize, so.inst_fetch_pc, word));
        }
        // Fill.
        if let Some((w, pc, word)) = self.fetch {
            (c.ibuf.fill_valid, c.ibuf.fill_warp, c.ibuf.fill_inst, c.ibuf.fill_pc) =
                (1, w as u64, word as u64, pc >> 2);
            if self.decoder().decode(word).control == 0 && self.wmask[w] != 0 {
                (c.sched.warp_ctl_valid, c.sched.warp_ctl_wid, c.sched.warp_ctl_active) =
                    (1, w as u64, 1);
            }
        }
        io
    }

    /// Execute type 0: a divergent branch's second push, else the ALU's instruction (its
    /// write-back, or its branch into the SIMT stacks). Whether the branch port is in use.
    fn execute_alu(&self, c: &mut Cycle) -> bool {
        let p = self.params;
        let (t, bits) = (p.threads, p.lane_bits);
        let pc_mask = mask(p.scheduler().pc_width);
        let out0 = self.oc.out[0];
        let mut branch_port = self.divergence.is_some();
        if let Some(d) = self.divergence {
            (
                c.sched.branch_ctl_valid,
                c.sched.branch_ctl_wid,
                c.sched.branch_ctl_mask,
                c.sched.branch_ctl_pc,
            ) = (1, d.warp as u64, d.mask, d.pc);
            set_warp(&mut c.sched, d.warp, d.set_mask, d.set_pc);
            c.pushed = Some(d.warp);
        } else if out0.valid && c.oc.wb.is_none() && self.control.is_none() {
            c.oc.out_ready[0] = true;
            let d = self.decoder().decode(out0.inst.tag as u32);
            let w = out0.inst.warp;
            let b = match d.b_sel {
                x if x == BSel::Immediate as u64 => replicate(d.imm, t, bits),
                x if x == BSel::Warp as u64 => replicate(w as u64, t, bits),
                x if x == BSel::Threads as u64 => replicate(t as u64, t, bits),
                _ => out0.ops[1],
            };
            let ao = self.alu.compute(self.alu.code(d.exec_op, d.exec_op_high), &out0.ops[0], &b);
            let m = out0.inst.mask;
            let next = ((self.branch_pc[w] + 1) << 2) & pc_mask;
            let target = (d.target << 2) & pc_mask;
            match kind(d.kind) {
                Kind::Alu => {
                    c.oc.wb =
                        Some(WriteBack { warp: w, reg: d.rd as usize, mask: m, data: ao.result })
                }
                Kind::Branch => {
                    let zero = ao.zero & m;
                    let taken = if d.if_zero == 1 { zero } else { m & !zero };
                    let fall = m & !taken;
                    branch_port = true;
                    (
                        c.sched.branch_ctl_valid,
                        c.sched.branch_ctl_wid,
                        c.sched.branch_ctl_mask,
                        c.sched.branch_ctl_pc,
                    ) = (1, w as u64, m, ((d.reconv + 1) << 2) & pc_mask);
                    c.pushed = Some(w);
                    if taken != 0 && fall != 0 {
                        c.divergence = Some(Divergence {
                            warp: w,
                            mask: fall,
                            pc: next,
                            set_mask: taken,
                            set_pc: target,
                        });
                        c.divergent = true;
                    } else {
                        set_warp(&mut c.sched, w, m, if taken != 0 { target } else { next });
                    }
                }
                Kind::Bany => {
                    branch_port = true;
                    set_warp(&mut c.sched, w, m, if m & !ao.zero != 0 { target } else { next });
                }
                _ => {}
            }
        }
        branch_port
    }

    /// Execute type 1: the local data share takes the collector's `st` / `ld` when it is ready
    /// (pipelined: the port's register takes it when empty, and the share takes the register's).
    fn execute_lds(&self, c: &mut Cycle, reset: bool, lds_ready: bool) {
        let t = self.params.threads;
        let out1 = self.oc.out[1];
        let offered = out1.valid.then_some((out1.inst, out1.ops[0], out1.ops[1]));
        let request = if self.pipelined() {
            c.lds_held = self.lds_held;
            if self.lds_held.is_none() && offered.is_some() {
                c.oc.out_ready[1] = true;
                c.lds_held = offered;
            }
            self.lds_held
        } else {
            c.oc.out_ready[1] = out1.valid && lds_ready;
            offered
        };
        if let Some((inst, a, b)) = request {
            let d = self.decoder().decode(inst.tag as u32);
            // `st` stores operand `a` to its own words; `stx` and the atomics take operand `b`
            // at the words in `a` (plus the offset, `ld`/`stx rb, imm(ra)`).
            let scatter = kind(d.kind) == Kind::Stx;
            let atomic = kind(d.kind) == Kind::Atomic;
            let data = if scatter || atomic { b } else { a };
            let offset = if d.lds_offset == 1 { d.imm } else { 0 };
            let vm = mask(self.params.lane_bits);
            c.lds = LdsIn {
                reset,
                valid: true,
                write: kind(d.kind) == Kind::St || scatter,
                scatter,
                atomic,
                exchange: d.exec_op == ExecOp::PassB.code(),
                mask: inst.mask,
                warp: inst.warp as u64,
                index: d.st_index,
                stride: d.st_stride,
                addr: (0..t).map(|l| (u64::from(a[l]) + offset) & vm).collect(),
                data: (0..t).map(|l| u64::from(data[l])).collect(),
            };
            if lds_ready {
                c.lds_new = Some(LdsTag {
                    load: kind(d.kind) == Kind::Ld || atomic,
                    warp: inst.warp,
                    rd: d.rd as usize,
                    mask: inst.mask,
                });
                if self.pipelined() {
                    c.lds_held = None;
                }
            }
        }
        c.lds_ready = lds_ready;
    }

    /// The head issue checks this cycle: the policy's candidate's; pipelined, the head selected
    /// last cycle, while the policy selects next cycle's among the other warps (their heads
    /// stay: only the checked warp's can issue).
    fn checked_head(&self, c: &mut Cycle, io: &IBufferOut) -> Option<Head> {
        let others = io.head_valid & !self.selected.map_or(0, |h| 1 << h.warp);
        c.heads = others;
        c.candidate = self.candidate(others);
        let head = c.candidate.map(|w| {
            c.ibuf.head_warp = w as u64;
            let o = IBufferOut::from_words(&self.ibuf.outputs(&c.ibuf.to_words()));
            Head { warp: w, inst: o.head_inst, pc: o.head_pc }
        });
        if self.pipelined() {
            c.select = head;
            self.selected
        } else {
            head
        }
    }

    /// Issue: the checked head, unless the scoreboard sees a hazard or its unit (or, for `join`
    /// and `jmp`, the branch port) is busy; what an issued instruction does at once.
    fn issue(&self, c: &mut Cycle, io: &IBufferOut, branch_port: bool) {
        let pc_mask = mask(self.params.scheduler().pc_width);
        if let Some(head) = self.checked_head(c, io) {
            let w = head.warp;
            c.ibuf.issue_warp = w as u64;
            let d = self.decoder().decode(head.inst as u32);
            let k = kind(d.kind);
            (c.sb.check_warp, c.sb.check_src0, c.sb.check_src1, c.sb.check_src_valid) =
                (w as u64, d.ra, d.rb, d.src_valid);
            (c.sb.check_dst, c.sb.check_dst_valid) = (d.rd, d.rd_valid);
            let hazard = ScoreboardOut::from_words(&self.sb.outputs(&c.sb.to_words())).hazard == 1;
            let unit = match k {
                Kind::Alu | Kind::Branch | Kind::Bany => Some(0),
                Kind::St | Kind::Ld | Kind::Stx | Kind::Atomic => Some(1),
                _ => None,
            };
            let inst = Inst {
                warp: w,
                unit: unit.unwrap_or(0),
                tag: head.inst,
                dst: d.rd as usize,
                mask: self.wmask[w],
                src_valid: d.src_valid as u8,
                src: [d.ra as usize, d.rb as usize, 0],
            };
            // A collector unit now, or (pipelined) room in the issue latch.
            let oc_ready = if self.pipelined() {
                self.latch.is_none() || c.latch_taken
            } else {
                c.oc.ports[0].1 = inst;
                self.oc.decide(&c.oc).in_ready[0]
            };
            // `exit`, or a warp with no lane left: the active lanes end (the warp too, when its
            // stack is empty).
            let ends = k == Kind::Exit || self.wmask[w] == 0;
            let ends_warp = ends && self.sched.outputs_for(&c.sched).stack_empty >> w & 1 == 1;
            let blocked = match k {
                _ if ends => branch_port && !ends_warp,
                Kind::Join | Kind::Jmp => branch_port,
                _ => unit.is_some() && !oc_ready,
            };
            c.hazard = hazard;
            c.structural = !hazard && blocked;
            if !hazard && !blocked {
                c.issued = Some((w, head.pc));
                c.ibuf.issue_valid = 1;
                c.illegal = d.legal == 0;
                (c.sb.reserve_valid, c.sb.reserve_warp, c.sb.reserve_reg) =
                    (d.rd_valid & !ends as u64, w as u64, d.rd);
                let mut ctl = Control { warp: w, mask: self.wmask[w], ..Default::default() };
                if ends {
                    // The warp ends, or pops and goes on without the lanes that exit.
                    c.exits = Some((w, ends_warp));
                    (ctl.end, ctl.pop, ctl.set, ctl.from_stack) =
                        (ends_warp, !ends_warp, !ends_warp, true);
                }
                if matches!(k, Kind::Branch | Kind::Bany) {
                    c.branch_issue = Some((w, head.pc));
                }
                match k {
                    _ if ends => {}
                    Kind::Alu
                    | Kind::Branch
                    | Kind::Bany
                    | Kind::St
                    | Kind::Ld
                    | Kind::Stx
                    | Kind::Atomic => {
                        if self.pipelined() {
                            c.to_latch = Some(inst);
                        } else {
                            c.oc.ports[0].0 = true;
                        }
                    }
                    Kind::Exit => unreachable!("`exit` ends lanes above"),
                    Kind::Join => {
                        // An empty stack: the pop is flagged, the warp goes on after the `join`.
                        let empty = self.sched.outputs_for(&c.sched).stack_empty >> w & 1 == 1;
                        (ctl.pop, ctl.set, ctl.from_stack) = (true, true, !empty);
                        (ctl.mask, ctl.pc) = if empty {
                            (self.wmask[w], ((head.pc + 1) << 2) & pc_mask)
                        } else {
                            (0, 0)
                        };
                    }
                    Kind::Jmp => (ctl.set, ctl.pc) = (true, (d.target << 2) & pc_mask),
                    Kind::Bar => {
                        let live = mask(self.params.threads) & !self.exited[w];
                        c.bar_arrive = Some((w, self.wmask[w] != live));
                    }
                    Kind::Nop => {}
                }
                if ctl.pop || ctl.end || ctl.set {
                    if self.pipelined() {
                        c.control = Some(ctl);
                    } else {
                        self.act(c, ctl);
                    }
                }
            }
        }
    }

    /// What a `join`, `jmp` or `exit` does to its warp: the scheduler's pop, end and warp set.
    fn act(&self, c: &mut Cycle, ctl: Control) {
        let w = ctl.warp;
        c.sched.warp_pop_wid = w as u64;
        if ctl.pop {
            c.sched.warp_pop_valid = 1;
            c.popped = Some(w);
        }
        if ctl.end {
            (c.sched.end_ctl_valid, c.sched.end_ctl_wid, c.ended) = (1, w as u64, Some(w));
        }
        if ctl.set {
            let top = self.sched.outputs_for(&c.sched);
            let (m, pc) = if ctl.from_stack {
                (top.pop_data_mask & !(self.exited[w] | ctl.mask), top.pop_data_pc)
            } else {
                (ctl.mask, ctl.pc)
            };
            set_warp(&mut c.sched, w, m, pc);
        }
    }

    /// One clock edge. `start` launches every warp (taken while the core is not running).
    pub fn step(&mut self, reset: bool, start: bool) {
        self.step_with(&CoreIn { reset: reset as u64, start: start as u64, ..Default::default() });
    }

    /// One clock edge with every input.
    pub fn step_with(&mut self, i: &CoreIn) {
        let reset = i.reset == 1;
        let c = self.decide(reset, i.start == 1 && !self.running);
        let p = self.params;
        let finished = self.finished();
        let barrier_wait = self.bar_waiting != 0;
        if i.imem_write_valid == 1 {
            self.imem[i.imem_write_addr as usize % p.imem_words] = i.imem_write_data as u32;
        }
        let so = self.sched.outputs_for(&c.sched);
        let launched_now = c.sched.warp_cmd_valid == 1 && so.warp_cmd_ready == 1;
        self.sched.step_with(&c.sched);
        self.ibuf.step(&c.ibuf.to_words());
        self.sb.step(&c.sb.to_words());
        self.oc.step_with(&c.oc);
        let lds_in = self.lds.encode(&c.lds);
        self.lds.step(&lds_in);
        if reset {
            let fresh = SimtCoreModel::new(p, &[], &[]);
            *self = SimtCoreModel {
                imem: std::mem::take(&mut self.imem),
                sched: self.sched.clone(),
                ibuf: self.ibuf.clone(),
                sb: self.sb.clone(),
                oc: self.oc.clone(),
                lds: self.lds.clone(),
                ..fresh
            };
            return;
        }
        self.rr.step_with(false, c.heads, c.candidate.is_some());
        self.greedy = match p.policy {
            IssuePolicy::GreedyThenOldest => c.issued.map(|(w, _)| w),
            IssuePolicy::LooseRoundRobin => None,
        };
        if let Some((w, ends_warp)) = c.exits {
            self.exited[w] = if ends_warp { 0 } else { self.exited[w] | self.wmask[w] };
        }
        if let Some((w, _, _)) = c.fetch {
            self.wmask[w] = so.inst_fetch_mask;
        }
        self.fetch = c.fetch;
        if c.to_latch.is_some() || c.latch_taken {
            self.latch = c.to_latch;
        }
        self.selected = c.select;
        self.control = c.control;
        self.lds_held = c.lds_held;
        self.release = c.oc.wb.map(|wb| (wb.warp, wb.reg)).filter(|_| self.pipelined());
        if let Some((w, pc)) = c.branch_issue {
            self.branch_pc[w] = pc;
        }
        self.divergence = c.divergence;
        // The answered access's tag: an access ends in a cycle the share is ready, and its answer
        // shows the next cycle.
        if c.lds_ready {
            self.resp_tag = self.lds_tag;
        }
        if let Some(tag) = c.lds_new {
            self.lds_tag = tag;
        }
        self.lds_open = self.lds_open + c.lds_new.is_some() as u64 - c.lds_resp as u64;
        self.counters.divergent_branches += c.divergent as u64;
        self.err_illegal |= c.illegal;
        self.step_barrier(&c);
        for w in 0..p.warps {
            // The mark follows the depths a cycle late (the hardware's is off the issue path).
            self.counters.stack_high_water = self.counters.stack_high_water.max(self.depth[w]);
            let push = c.pushed == Some(w);
            let pop = c.popped == Some(w);
            self.depth[w] = if c.ended == Some(w) {
                0
            } else if push && !pop {
                (self.depth[w] + 1).min(p.stack_depth as u64)
            } else if pop && !push {
                self.depth[w].saturating_sub(1)
            } else {
                self.depth[w]
            };
        }
        let active = (self.running && !finished) || launched_now;
        if launched_now {
            self.launched = if self.running { self.launched + 1 } else { 1 };
            self.launching = self.launched < p.warps;
        }
        if active {
            self.counters.barrier_waits += barrier_wait as u64;
            self.counters.cycles += 1;
            self.counters.issued += c.issued.is_some() as u64;
            self.counters.scoreboard_stalls += c.hazard as u64;
            self.counters.structural_stalls += c.structural as u64;
        }
        self.running = active;
        self.counters.bank_stalls = self.oc.count_stall as u64;
        self.counters.lds_conflict_cycles = self.lds.conflict_cycles;
    }

    /// The barrier's registers at the edge: a release moves the waiting warps to the released
    /// ones, a `bar` issued adds its warp to the waiting ones.
    fn step_barrier(&mut self, c: &Cycle) {
        if let Some(w) = c.bar_reactivated {
            self.bar_releasing &= !(1 << w);
        }
        if c.bar_release {
            self.bar_releasing |= self.bar_waiting;
            self.bar_waiting = 0;
        }
        if let Some((w, diverged)) = c.bar_arrive {
            self.bar_waiting |= 1 << w;
            self.err_barrier |= diverged;
        }
    }

    /// Running, every warp launched and exited, and nothing in flight: the run ends this cycle.
    fn finished(&self) -> bool {
        self.running && !self.launching && self.done()
    }

    /// Resets, starts, and runs until done: the counters, or an error when the core is not done
    /// within `max_cycles` or raised an error flag.
    pub fn run(&mut self, max_cycles: u64) -> anyhow::Result<CoreCounters> {
        self.step(true, false);
        self.step(false, true);
        let mut n = 1;
        while self.running {
            if n >= max_cycles {
                anyhow::bail!("the core did not finish within {max_cycles} cycles");
            }
            self.step(false, false);
            n += 1;
        }
        let errors = self.errors();
        if !errors.is_empty() {
            anyhow::bail!("the core raised error flags: {}", errors.join(", "));
        }
        Ok(self.counters)
    }
}

impl CycleModel for SimtCoreModel {
    fn ports(&self) -> PortNames {
        PortNames::default()
            .inputs(CoreIn::NAMES)
            .outputs(&["running", "issue_valid", "issue_warp", "issue_pc"])
            .outputs(&["wb_valid", "wb_warp", "wb_reg", "wb_mask"])
            .output_array("wb_data", self.params.threads)
            .outputs(&["count_cycles", "count_issued", "count_scoreboard_stalls"])
            .outputs(&["count_structural_stalls", "count_bank_stalls", "count_lds_conflicts"])
            .outputs(&["count_divergent", "count_barrier_waits", "stack_high_water", "errors"])
    }
    /// running; issue_valid, issue_warp, issue_pc; wb_valid, wb_warp, wb_reg, wb_mask,
    /// wb_data\[threads\]; the counters (32 bits, wrapping); errors.
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = CoreIn::from_words(inputs);
        let c = self.decide(i.reset == 1, i.start == 1 && !self.running);
        let p = self.params;
        let mut o = vec![self.running as u64];
        let (warp, pc) = c.issued.unwrap_or_default();
        o.extend([c.issued.is_some() as u64, warp as u64, pc]);
        let wb = c.oc.wb.unwrap_or_default();
        o.extend([c.oc.wb.is_some() as u64, wb.warp as u64, wb.reg as u64, wb.mask]);
        o.extend((0..p.threads).map(|l| u64::from(wb.data[l])));
        let k = self.counters;
        o.extend(
            [
                k.cycles,
                k.issued,
                k.scoreboard_stalls,
                k.structural_stalls,
                k.bank_stalls,
                k.lds_conflict_cycles,
                k.divergent_branches,
                k.barrier_waits,
            ]
            .map(|v| v & mask(32)),
        );
        o.push(k.stack_high_water);
        o.push(self.error_bits());
        o
    }
    fn step(&mut self, inputs: &[u64]) {
        self.step_with(&CoreIn::from_words(inputs));
    }
}
