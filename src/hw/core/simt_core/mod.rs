//! SimtCore: the SIMT core, seed 001's pipeline as stages around the [`WarpScheduler`] (fetch,
//! SIMT stacks, warp state) and the [`OperandCollector`] (unit type 0: the lane ALU and
//! branches; type 1: the local data share), each stage a sub-block beside this file:
//! `FrontEnd` (instruction memory, fetch, fill, I-buffer), `IssueStage` (the issue policy,
//! decode, the scoreboard; `join`, `jmp`, `exit`), `Execute` (the lane ALU and
//! `BranchUnit`, the local data share's `LdsPort`, write-back through the collector's write
//! port), `RunControl` (launch, running, stack depths, counters) and [`Barrier`] (warps
//! waiting at `bar`, released together). This block joins them; it holds no state of its own.
//!
//! Its cycle-level definition, stage by stage, is the reference model
//! [`SimtCoreModel`](crate::hw::SimtCoreModel); what a program computes is the ISA's
//! interpreter's ([`crate::isa::interp`]).
//!
//! Interfaces, all sampled at the rising edge of `clock`:
//! - `imem_write_*`: the host writes the program, one word per cycle (the instruction memory has
//!   no reset);
//! - `start`: launches every warp at pc 0 with every lane (ignored while `running`); `running`
//!   falls when every warp has exited and nothing is in flight;
//! - trace: the instruction issued this cycle and the write-back this cycle (what the
//!   differential test compares, so the register file and local data share need no read port);
//! - counters since reset (32 bits, wrapping) and sticky error flags.

mod branch_unit;
mod execute;
mod exited_lanes;
mod front_end;
mod issue_candidate;
mod issue_latch;
mod issue_stage;
mod lds_port;
pub mod model;
pub mod preset;
mod run_control;
pub mod stimulus;
mod warp_action;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{OperandCollector, WarpScheduler};
use crate::params::ERROR_FLAGS;

/// The exported module (and file) name of the `cu` core (the pipelined timing); every exported
/// core's name starts with it.
pub const MODULE: &str = "simt_core";
pub use crate::hw::core::barrier::Barrier;
use crate::params::{
    check_derived, clog2, CollectorTiming, CoreParams, IssuePolicy, SchedulerMode,
};
pub(crate) use branch_unit::BranchUnit;
pub(crate) use execute::Execute;
pub(crate) use exited_lanes::ExitedLanes;
pub(crate) use front_end::FrontEnd;
pub(crate) use issue_candidate::IssueCandidate;
pub(crate) use issue_latch::IssueLatch;
pub(crate) use issue_stage::IssueStage;
pub(crate) use lds_port::LdsPort;
pub(crate) use run_control::RunControl;
pub(crate) use warp_action::WarpAction;

/// Register-number bits (16 registers per lane).
const RRW: usize = 4;

/// The core's signals for GTKWave, grouped by block (`simt-rtl run --vcd` writes them beside the
/// waveform as a `.gtkw` save file).
pub const WAVE_GROUPS: &[crate::sim::gtkw::Group] = {
    use crate::sim::gtkw::Group;
    &[
        Group {
            name: "core",
            scope: "uut",
            prefixes: &["clock", "reset", "start", "running", "issue_", "errors"],
        },
        Group { name: "fetch", scope: "uut.front", prefixes: &["fetch_", "ctl_"] },
        Group { name: "I-buffer", scope: "uut.front.ibuf", prefixes: &[] },
        Group { name: "issue", scope: "uut.issue", prefixes: &[] },
        Group { name: "issue scoreboard", scope: "uut.issue.sb", prefixes: &[] },
        Group {
            name: "collector",
            scope: "uut.oc",
            prefixes: &["in_", "out_", "busy", "grant", "dispatch", "err_"],
        },
        Group {
            name: "execute",
            scope: "uut.exec",
            prefixes: &["out_", "lds_", "record_", "push_", "set_", "fire"],
        },
        Group { name: "local data share", scope: "uut.exec.lds.lds", prefixes: &["req_", "resp_"] },
        Group { name: "write-back", scope: "uut", prefixes: &["wb_"] },
        Group {
            name: "stack",
            scope: "uut.sched.stacks",
            prefixes: &["push", "pop", "top_", "empty", "full", "overflow", "underflow"],
        },
    ]
};

/// Sizes, all fixed by [`CoreParams`] and checked by [`SimtCore::new`]: `W` warps (`WW` bits),
/// `T` lanes of `DW` bits (`TD = T DW`, `SW = clog2 DW`), `A`-bit byte pcs over `2^IA`
/// instruction words (`A = IA + 2`), stack depth `D` (`SPW` bits), the collector's `B` banks
/// (`BW`), `N` units (`NW`), queues of `Q` (`QW`, `QCW`, `BQ = B Q`), `SQ = max(B, N)`, `RW` row
/// bits; `2^LRW` local-data-share rows of `LB` banks (`LBW = clog2(LB)`); `LW = WW + 1`
/// launch-counter bits.
#[derive(LogicBlock)]
pub struct SimtCore<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const IA: usize,
    const D: usize,
    const SPW: usize,
    const B: usize,
    const BW: usize,
    const N: usize,
    const NW: usize,
    const Q: usize,
    const QW: usize,
    const QCW: usize,
    const BQ: usize,
    const SQ: usize,
    const RW: usize,
    const DW: usize,
    const TD: usize,
    const SW: usize,
    const LRW: usize,
    const LB: usize,
    const LBW: usize,
    const LW: usize,
> {
    /// Clock: all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: no warp runs, counters and flags clear; the instruction
    /// memory, register file and local data share keep their contents.
    pub reset: Signal<In, Bit>,
    // Host
    /// Launch every warp (taken while not `running`).
    pub start: Signal<In, Bit>,
    /// A run is in progress.
    pub running: Signal<Out, Bit>,
    /// Write `imem_write_data` to instruction word `imem_write_addr`.
    pub imem_write_valid: Signal<In, Bit>,
    /// The instruction word written.
    pub imem_write_addr: Signal<In, Bits<IA>>,
    /// The word.
    pub imem_write_data: Signal<In, Bits<32>>,
    // Trace
    /// An instruction issues this cycle: its warp and instruction index.
    pub issue_valid: Signal<Out, Bit>,
    /// The issuing warp.
    pub issue_warp: Signal<Out, Bits<WW>>,
    /// Its instruction index.
    pub issue_pc: Signal<Out, Bits<IA>>,
    /// A write-back this cycle: register `wb_reg` of warp `wb_warp`, lanes `wb_mask`.
    pub wb_valid: Signal<Out, Bit>,
    /// The warp written.
    pub wb_warp: Signal<Out, Bits<WW>>,
    /// The register written.
    pub wb_reg: Signal<Out, Bits<RRW>>,
    /// The lanes written.
    pub wb_mask: Signal<Out, Bits<T>>,
    /// Lane `l`'s value.
    pub wb_data: [Signal<Out, Bits<DW>>; T],
    // Counters since reset
    /// Cycles of runs.
    pub count_cycles: Signal<Out, Bits<32>>,
    /// Warp instructions issued.
    pub count_issued: Signal<Out, Bits<32>>,
    /// Cycles whose issue candidate waited on the scoreboard.
    pub count_scoreboard_stalls: Signal<Out, Bits<32>>,
    /// Cycles whose issue candidate found no collector unit or the branch port taken.
    pub count_structural_stalls: Signal<Out, Bits<32>>,
    /// The collector's register-bank stall cycles.
    pub count_bank_stalls: Signal<Out, Bits<32>>,
    /// The local data share's bank-conflict cycles.
    pub count_lds_conflicts: Signal<Out, Bits<32>>,
    /// Branches that split a warp.
    pub count_divergent: Signal<Out, Bits<32>>,
    /// Cycles in which some warp waited at a barrier.
    pub count_barrier_waits: Signal<Out, Bits<32>>,
    /// Most SIMT-stack entries any warp held.
    pub stack_high_water: Signal<Out, Bits<SPW>>,
    /// Sticky error flags (see [`SimtCoreModel::error_bits`](crate::hw::SimtCoreModel::error_bits)).
    pub errors: Signal<Out, Bits<ERROR_FLAGS>>,
    // The blocks it joins, and its stages
    sched: WarpScheduler<W, WW, T, A, D, SPW>,
    oc: OperandCollector<B, BW, N, NW, 1, 3, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, 2, 1, 32>,
    front: FrontEnd<W, WW, T, A, IA>,
    issue: IssueStage<W, WW, T, A, IA>,
    latch: IssueLatch<WW, T>,
    exec: Execute<W, WW, T, DW, TD, SW, A, IA, LRW, LB, LBW>,
    run: RunControl<W, WW, LW, D, SPW>,
    barrier: Barrier<W, WW>,
    // Elaboration-time constants
    all_warps: Constant<Bits<W>>,
    full_mask: Constant<Bits<T>>,
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const IA: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const DW: usize,
        const TD: usize,
        const SW: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
        const LW: usize,
    >
    SimtCore<
        W,
        WW,
        T,
        A,
        IA,
        D,
        SPW,
        B,
        BW,
        N,
        NW,
        Q,
        QW,
        QCW,
        BQ,
        SQ,
        RW,
        DW,
        TD,
        SW,
        LRW,
        LB,
        LBW,
        LW,
    >
{
    /// The core `params` describe; its generics must be the sizes they give.
    pub fn new(params: CoreParams) -> Result<Self> {
        Self::with_lds(params, &[])
    }
    /// As [`new`](Self::new), the local data share holding `lds` from word 0 (as a kernel's
    /// input; the board loads it through its host link).
    pub fn with_lds(params: CoreParams, lds: &[u32]) -> Result<Self> {
        params.validate()?;
        let p = params;
        let sp = p.scheduler();
        for (name, got, rule, want) in [
            ("W", W, "warps", p.warps),
            ("T", T, "threads", p.threads),
            ("DW", DW, "lane_bits", p.lane_bits),
            ("D", D, "stack_depth", p.stack_depth),
            ("B", B, "banks", p.banks),
            ("N", N, "collector_units", p.collector_units),
            ("A", A, "clog2(imem_words) + 2", sp.pc_width),
            ("IA", IA, "clog2(imem_words)", clog2(p.imem_words)),
            ("LRW", LRW, "clog2(lds_rows)", clog2(p.lds_rows)),
            ("LB", LB, "lds_banks", p.lds_banks),
            ("LBW", LBW, "clog2(lds_banks)", clog2(p.lds_banks)),
            ("LW", LW, "WW + 1", WW + 1),
        ] {
            check_derived(name, got, rule, want)?;
        }
        let c = p.collector();
        let pipelined = p.collector_timing == CollectorTiming::Pipelined;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            running: Default::default(),
            imem_write_valid: Default::default(),
            imem_write_addr: Default::default(),
            imem_write_data: Default::default(),
            issue_valid: Default::default(),
            issue_warp: Default::default(),
            issue_pc: Default::default(),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: std::array::from_fn(|_| Default::default()),
            count_cycles: Default::default(),
            count_issued: Default::default(),
            count_scoreboard_stalls: Default::default(),
            count_structural_stalls: Default::default(),
            count_bank_stalls: Default::default(),
            count_lds_conflicts: Default::default(),
            count_divergent: Default::default(),
            count_barrier_waits: Default::default(),
            stack_high_water: Default::default(),
            errors: Default::default(),
            sched: WarpScheduler::new(SchedulerMode::Fixed(sp.fetch_policy))?,
            oc: OperandCollector::new(c, p.warps, p.threads)?,
            front: FrontEnd::new(pipelined, p.isa)?,
            issue: IssueStage::new(p.policy == IssuePolicy::GreedyThenOldest, pipelined, p.isa)?,
            latch: IssueLatch::new(pipelined),
            exec: Execute::with_lds(p.warps, lds, pipelined, p.isa)?,
            run: RunControl::default(),
            barrier: Barrier::new()?,
            all_warps: Constant::new(Bits::<W>::mask()),
            full_mask: Constant::new(Bits::<T>::mask()),
        })
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const IA: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const DW: usize,
        const TD: usize,
        const SW: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
        const LW: usize,
    > Logic
    for SimtCore<
        W,
        WW,
        T,
        A,
        IA,
        D,
        SPW,
        B,
        BW,
        N,
        NW,
        Q,
        QW,
        QCW,
        BQ,
        SQ,
        RW,
        DW,
        TD,
        SW,
        LRW,
        LB,
        LBW,
        LW,
    >
{
    // Wiring only, one line per port between the eight sub-blocks; the logic is in them.
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and resets
        self.sched.clock.next = self.clock.val();
        self.sched.reset.next = self.reset.val();
        self.oc.clock.next = self.clock.val();
        self.oc.reset.next = self.reset.val();

        // Launch
        self.sched.warp_cmd_valid.next = self.run.cmd_valid.val();
        self.sched.warp_cmd_pc.next = 0.into();
        self.sched.warp_cmd_mask.next = self.full_mask.val();

        // Fetch and fill
        self.front.clock.next = self.clock.val();
        self.front.reset.next = self.reset.val();
        self.front.imem_write_valid.next = self.imem_write_valid.val();
        self.front.imem_write_addr.next = self.imem_write_addr.val();
        self.front.imem_write_data.next = self.imem_write_data.val();
        self.front.fetch_valid.next = self.sched.inst_fetch_valid.val();
        self.front.fetch_wid.next = self.sched.inst_fetch_wid.val();
        self.front.fetch_pc.next = self.sched.inst_fetch_pc.val();
        self.front.fetch_mask.next = self.sched.inst_fetch_mask.val();
        self.sched.inst_fetch_ready.next = self.front.fetch_ready.val();
        self.sched.warp_ctl_valid.next = self.front.ctl_valid.val() | self.barrier.ctl_valid.val();
        self.sched.warp_ctl_wid.next = self.front.ctl_wid.val();
        if self.barrier.ctl_valid.val() {
            self.sched.warp_ctl_wid.next = self.barrier.ctl_wid.val();
        }
        self.sched.warp_ctl_active.next = true;

        // The barrier: warps wait at `bar`, and are re-activated when every warp is there
        self.barrier.clock.next = self.clock.val();
        self.barrier.reset.next = self.reset.val();
        self.barrier.arrive.next = self.issue.bar.val();
        self.barrier.arrive_warp.next = self.issue.warp.val();
        self.barrier.diverged.next = self.issue.bar_diverged.val();
        self.barrier.present.next = !self.sched.idle_mask.val();
        self.barrier.launching.next = self.run.cmd_valid.val();
        self.barrier.ctl_busy.next = self.front.ctl_valid.val();

        // Execute: unit type 0 (the lane ALU and branches), type 1 (the local data share)
        self.exec.clock.next = self.clock.val();
        self.exec.reset.next = self.reset.val();
        self.exec.out_valid.next = self.oc.out_valid[0].val();
        self.exec.out_inst.next = self.oc.out_tag[0].val();
        self.exec.out_warp.next = self.oc.out_warp[0].val();
        self.exec.out_mask.next = self.oc.out_mask[0].val();
        self.exec.out_a.next = self.oc.out_src0[0].val();
        self.exec.out_b.next = self.oc.out_src1[0].val();
        self.oc.out_ready[0].next = self.exec.out_ready.val();
        self.exec.lds_valid.next = self.oc.out_valid[1].val();
        self.exec.lds_inst.next = self.oc.out_tag[1].val();
        self.exec.lds_warp.next = self.oc.out_warp[1].val();
        self.exec.lds_mask.next = self.oc.out_mask[1].val();
        self.exec.lds_src.next = self.oc.out_src0[1].val();
        self.exec.lds_src_b.next = self.oc.out_src1[1].val();
        self.oc.out_ready[1].next = self.exec.lds_ready.val();

        // Write-back: into the register file, and traced
        self.oc.wb_valid.next = self.exec.wb_valid.val();
        self.oc.wb_warp.next = self.exec.wb_warp.val();
        self.oc.wb_reg.next = self.exec.wb_reg.val();
        self.oc.wb_mask.next = self.exec.wb_mask.val();
        self.oc.wb_data.next = self.exec.wb_data.val();
        self.wb_valid.next = self.exec.wb_valid.val();
        self.wb_warp.next = self.exec.wb_warp.val();
        self.wb_reg.next = self.exec.wb_reg.val();
        self.wb_mask.next = self.exec.wb_mask.val();
        for l in 0..T {
            self.wb_data[l].next = self.exec.wb_lanes[l].val();
        }

        // Issue: the policy's candidate, its head decoded, checked and sent on
        self.issue.clock.next = self.clock.val();
        self.issue.reset.next = self.reset.val();
        self.issue.head_valid.next = self.front.head_valid.val();
        self.front.head_warp.next = self.issue.head_warp.val();
        self.issue.head_inst.next = self.front.head_inst.val();
        self.issue.head_pc.next = self.front.head_pc.val();
        for w in 0..W {
            self.issue.masks[w].next = self.front.masks[w].val();
        }
        self.issue.stack_empty.next = self.sched.stack_empty.val();
        self.issue.pop_mask.next = self.sched.pop_data_mask.val();
        self.issue.pop_pc.next = self.sched.pop_data_pc.val();
        self.issue.unit_ready.next = self.latch.ready.val();
        self.issue.port_busy.next = self.exec.port_busy.val();
        self.exec.port_held.next = self.issue.port_held.val();
        self.issue.release_valid.next = self.exec.wb_valid.val();
        self.issue.release_warp.next = self.exec.wb_warp.val();
        self.issue.release_reg.next = self.exec.wb_reg.val();
        self.front.issue_warp.next = self.issue.warp.val();
        self.front.issue_valid.next = self.issue.fire.val();
        // To the collector through the issue latch (a register with the pipelined collector)
        self.latch.clock.next = self.clock.val();
        self.latch.reset.next = self.reset.val();
        self.latch.in_valid.next = self.issue.to_unit.val();
        self.latch.in_warp.next = self.issue.warp.val();
        self.latch.in_unit.next = self.issue.unit.val();
        self.latch.in_tag.next = self.issue.inst.val();
        self.latch.in_dst.next = self.issue.dst.val();
        self.latch.in_mask.next = self.issue.mask.val();
        self.latch.in_src_valid.next = self.issue.src_valid.val();
        self.latch.in_src_a.next = self.issue.src_a.val();
        self.latch.in_src_b.next = self.issue.src_b.val();
        self.latch.oc_ready.next = self.oc.in_ready[0].val();
        self.oc.in_valid[0].next = self.latch.out_valid.val();
        self.oc.in_warp[0].next = self.latch.out_warp.val();
        self.oc.in_unit[0].next = self.latch.out_unit.val();
        self.oc.in_tag[0].next = self.latch.out_tag.val();
        self.oc.in_dst[0].next = self.latch.out_dst.val();
        self.oc.in_mask[0].next = self.latch.out_mask.val();
        self.oc.in_src_valid[0].next = self.latch.out_src_valid.val();
        self.oc.in_src[0].next = self.latch.out_src_a.val();
        self.oc.in_src[1].next = self.latch.out_src_b.val();
        self.oc.in_src[2].next = 0.into();
        self.exec.record_valid.next = self.issue.branch.val();
        self.exec.record_warp.next = self.issue.warp.val();
        self.exec.record_pc.next = self.issue.pc.val();
        // The scheduler: pop, end, push, and the warp set (issue's redirect, else the branch's)
        self.sched.warp_pop_valid.next = self.issue.pop.val();
        self.sched.warp_pop_wid.next = self.issue.warp_acted.val();
        self.sched.end_ctl_valid.next = self.issue.end_warp.val();
        self.sched.end_ctl_wid.next = self.issue.warp_acted.val();
        self.sched.branch_ctl_valid.next = self.exec.push_valid.val();
        self.sched.branch_ctl_wid.next = self.exec.push_warp.val();
        self.sched.branch_ctl_mask.next = self.exec.push_mask.val();
        self.sched.branch_ctl_pc.next = self.exec.push_pc.val();
        self.issue.branch_set_valid.next = self.exec.set_valid.val();
        self.issue.branch_set_warp.next = self.exec.set_warp.val();
        self.issue.branch_set_mask.next = self.exec.set_mask.val();
        self.issue.branch_set_pc.next = self.exec.set_pc.val();
        self.sched.warp_set_valid.next = self.issue.set_valid.val();
        self.sched.warp_set_wid.next = self.issue.set_warp.val();
        self.sched.warp_set_mask.next = self.issue.set_mask.val();
        self.sched.warp_set_pc.next = self.issue.set_pc.val();
        self.issue_valid.next = self.issue.fire.val();
        self.issue_warp.next = self.issue.trace_warp.val();
        self.issue_pc.next = self.issue.trace_pc.val();

        // The run: launch, running, stack depths, counters
        self.run.clock.next = self.clock.val();
        self.run.reset.next = self.reset.val();
        self.run.start.next = self.start.val();
        self.run.cmd_ready.next = self.sched.warp_cmd_ready.val();
        self.run.drained.next = (self.sched.idle_mask.val() == self.all_warps.val())
            & !self.front.busy.val()
            & !self.oc.busy.val().any()
            & !self.oc.out_valid[0].val()
            & !self.oc.out_valid[1].val()
            & !self.exec.lds_busy.val()
            & !self.exec.pending.val()
            & !self.issue.pending.val()
            & !self.latch.pending.val();
        self.run.push_valid.next = self.exec.push_valid.val();
        self.run.push_warp.next = self.exec.push_warp.val();
        self.run.pop.next = self.issue.pop.val();
        self.run.end_warp.next = self.issue.end_warp.val();
        self.run.warp.next = self.issue.warp_acted.val();
        self.run.fire.next = self.issue.fire.val();
        self.run.hazard.next = self.issue.hazard.val();
        self.run.struct_stall.next = self.issue.struct_stall.val();
        self.run.illegal.next = self.issue.illegal.val();
        self.run.divergent.next = self.exec.divergent.val();
        self.run.barrier_wait.next = self.barrier.any_waiting.val();
        self.running.next = self.run.running.val();
        self.count_cycles.next = self.run.count_cycles.val();
        self.count_issued.next = self.run.count_issued.val();
        self.count_scoreboard_stalls.next = self.run.count_scoreboard_stalls.val();
        self.count_structural_stalls.next = self.run.count_structural_stalls.val();
        self.count_bank_stalls.next = self.oc.count_stall.val();
        self.count_lds_conflicts.next = self.exec.lds_conflicts.val();
        self.count_divergent.next = self.run.count_divergent.val();
        self.count_barrier_waits.next = self.run.count_barrier_waits.val();
        self.stack_high_water.next = self.run.high_water.val();

        // Error flags
        self.run.err_stack_overflow.next = self.sched.err_overflow.val().any();
        self.run.err_stack_underflow.next = self.sched.err_underflow.val().any();
        self.run.err_idle.next = (self.sched.err_end_idle.val()
            | self.sched.err_branch_idle.val()
            | self.sched.err_pop_idle.val()
            | self.sched.err_ctl_idle.val())
        .any();
        self.run.err_scoreboard.next = self.issue.err_scoreboard.val();
        self.run.err_ibuf.next = self.front.err_ibuf.val();
        self.run.err_collector.next =
            self.oc.err_unit.val() | self.oc.err_overflow.val() | self.oc.err_source.val();
        self.run.err_barrier.next = self.barrier.err_diverged.val();
        self.errors.next = self.run.errors.val();
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const IA: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const DW: usize,
        const TD: usize,
        const SW: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
        const LW: usize,
    > crate::sim::Dut
    for SimtCore<
        W,
        WW,
        T,
        A,
        IA,
        D,
        SPW,
        B,
        BW,
        N,
        NW,
        Q,
        QW,
        QCW,
        BQ,
        SQ,
        RW,
        DW,
        TD,
        SW,
        LRW,
        LB,
        LBW,
        LW,
    >
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, start, imem_write_valid, imem_write_addr, imem_write_data],
        outputs: [
            running, issue_valid, issue_warp, issue_pc, wb_valid, wb_warp, wb_reg, wb_mask, wb_data,
            count_cycles, count_issued, count_scoreboard_stalls, count_structural_stalls, count_bank_stalls,
            count_lds_conflicts, count_divergent, count_barrier_waits, stack_high_water, errors,
        ]
    );
}

/// The core that the [`CoreParams`](crate::params::CoreParams) constant `$p` describes, every
/// const generic computed from its sizes (`CoreParams::sizes`); parameters that break a rule stop
/// the build (`CoreParams::valid`), and [`SimtCore::new`] and its blocks check them again.
#[macro_export]
macro_rules! sized_simt_core {
    ($p:expr) => {
        $crate::hw::SimtCore<
            { $crate::params::CoreParams::valid($p).sizes().W }, { $p.sizes().WW }, { $p.sizes().T }, { $p.sizes().A },
            { $crate::params::clog2($p.imem_words) }, { $p.sizes().D }, { $p.sizes().SPW }, { $p.sizes().B },
            { $p.sizes().BW }, { $p.sizes().N }, { $p.sizes().NW }, { $p.sizes().Q },
            { $p.sizes().QW }, { $p.sizes().QCW }, { $p.sizes().BQ }, { $p.sizes().SQ },
            { $p.sizes().RW }, { $p.sizes().DW }, { $p.sizes().TD }, { $p.sizes().SW },
            { $p.sizes().LRW }, { $p.sizes().LB }, { $p.sizes().LBW }, { $p.sizes().WW + 1 },
        >
    };
}

/// Every core size with a rust-hdl type, once: its type's name and its parameters. `explored`
/// holds the `cu` core (first) and the sizes `simt-rtl explore` measures beside it;
/// `seed_explored` the sizes `explore --preset seed-core` measures beside the seed core, whose
/// types only that command builds (they are not in [`with_simt_core!`](crate::with_simt_core)).
/// The list is handed to the macro named, after the arguments given (the type aliases,
/// [`EXPLORED`] and [`with_simt_core!`](crate::with_simt_core) are made from it).
#[doc(hidden)]
#[macro_export]
macro_rules! simt_core_sizes {
    ($($callback:ident)::+ { $($args:tt)* }) => {
        $($callback)::+! { $($args)*
            explored: [
                SimtCoreCu = CORE_CU,
                SimtCoreW4U4 = CORE_CU_W4_U4,
                SimtCoreW8U2 = CORE_CU_W8_U2,
                SimtCoreW8U4 = CORE_CU_W8_U4,
                SimtCoreL8 = CORE_CU_L8
            ]
            others: [SimtCoreTiny = CORE_TINY, SimtCoreSeed = CORE_SEED]
            seed_explored: [
                SimtCoreSeedU4 = CORE_SEED_U4,
                SimtCoreSeedB2 = CORE_SEED_B2,
                SimtCoreSeedB8 = CORE_SEED_B8,
                SimtCoreSeedL4 = CORE_SEED_L4
            ]
        }
    };
}

/// The core types and [`EXPLORED`], from [`simt_core_sizes!`](crate::simt_core_sizes).
macro_rules! simt_core_types {
    (explored: [$($e:ident = $ec:ident),+] others: [$($o:ident = $oc:ident),+]
     seed_explored: [$($s:ident = $sc:ident),+]) => {
        $(
            #[doc = concat!("The core at [`", stringify!($ec), "`](crate::params::", stringify!($ec), ").")]
            pub type $e = crate::sized_simt_core!(crate::params::$ec);
        )+
        $(
            #[doc = concat!("The core at [`", stringify!($oc), "`](crate::params::", stringify!($oc), ").")]
            pub type $o = crate::sized_simt_core!(crate::params::$oc);
        )+
        /// The `cu` core and the sizes `simt-rtl explore` measures beside it (none of them is
        /// exported to `rtl_out/` but the `cu` core).
        pub const EXPLORED: [CoreParams; [$(stringify!($e)),+].len()] = [$(crate::params::$ec),+];
        $(
            #[doc = concat!("The core at [`", stringify!($sc), "`](crate::params::", stringify!($sc), ").")]
            pub type $s = crate::sized_simt_core!(crate::params::$sc);
        )+
        /// The seed core and the sizes `simt-rtl explore --preset seed-core` measures beside it
        /// (their types are built for that command alone: see [`core_verilog`]).
        pub const SEED_EXPLORED: [CoreParams; 1 + [$(stringify!($s)),+].len()] =
            [crate::params::CORE_SEED, $(crate::params::$sc),+];

        /// Exports core `p` (one of [`EXPLORED`] or [`SEED_EXPLORED`], or any core with a type)
        /// as module `module`, with `header` above it.
        pub fn core_verilog(p: CoreParams, module: &str, header: &str) -> anyhow::Result<String> {
            let sizes = p.sizes();
            $(if sizes == crate::params::$sc.sizes() {
                type C = $s;
                return apart(|| crate::export_simt_core!(C, p, module, header));
            })+
            crate::with_simt_core!(p, C => crate::export_simt_core!(C, p, module, header))
        }
    };
}
crate::simt_core_sizes!(simt_core_types {});

/// Core type `$C` at sizes `$p` as Verilog module `$module` under `$header`.
#[doc(hidden)]
#[macro_export]
macro_rules! export_simt_core {
    ($C:ident, $p:expr, $module:expr, $header:expr) => {{
        let mut core = $C::new($p)?;
        rust_hdl::prelude::Block::connect_all(&mut core);
        $crate::export::verilog::export_module(&core, $module, $header)
    }};
}

/// [`with_simt_core!`](crate::with_simt_core)'s dispatch over the list of
/// [`simt_core_sizes!`](crate::simt_core_sizes).
#[doc(hidden)]
#[macro_export]
macro_rules! simt_core_dispatch {
    ($params:expr, $C:ident => $body:expr;
     explored: [$($e:ident = $ec:ident),+] others: [$($o:ident = $oc:ident),+]
     seed_explored: [$($s:ident = $sc:ident),+]) => {{
        let params: $crate::params::CoreParams = $params;
        let sizes = params.sizes();
        $(if sizes == $crate::params::$ec.sizes() {
            type $C = $crate::hw::core::simt_core::$e;
            $crate::hw::core::simt_core::apart(|| $body)
        } else)+ $(if sizes == $crate::params::$oc.sizes() {
            type $C = $crate::hw::core::simt_core::$o;
            $crate::hw::core::simt_core::apart(|| $body)
        } else)+ {
            Err($crate::__anyhow::anyhow!(
                "core `{}` has no rust-hdl type: only the cu, tiny and seed cores and the sizes `simt-rtl explore` measures are built",
                params.name
            ))
        }
    }};
}

/// Calls `f` in a frame of its own: each arm of [`with_simt_core!`](crate::with_simt_core)
/// builds a core of its size, and a frame holding every arm's temporaries would be as large as
/// the largest core's (the seed core's registers are 1,024 bits), on every run of any core.
#[doc(hidden)]
#[inline(never)]
pub fn apart<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `$body` with `$C` the rust-hdl core type that has `$params`' sizes (the `cu` core's, the
/// `tiny` core's, the `seed` core's, or one of the sizes `explore` measures); `$body` returns a `Result`, and
/// other sizes are an error that names the core.
#[macro_export]
macro_rules! with_simt_core {
    ($params:expr, $C:ident => $body:expr) => {
        $crate::simt_core_sizes!($crate::simt_core_dispatch { $params, $C => $body; })
    };
}

/// How to drive the exported SimtCore, for its header.
pub const CORE_INTERFACE: &str = "write the program with imem_write_valid/addr/data (one word per cycle), then pulse start: every warp starts at \
instruction 0 with every lane; running falls when every warp has exited and nothing is in flight; issue_* and wb_* show each cycle's issue and \
write-back; count_* count since reset; errors: bit 0 stack overflow, 1 join on an empty stack, 2 warp misuse, 3 scoreboard, 4 I-buffer, \
5 illegal instruction, 6 collector, 7 bar in a diverged warp";
