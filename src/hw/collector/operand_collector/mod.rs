//! OperandCollector: GPGPU-Sim's operand-collector-based register file unit (`opndcoll_rfu_t`,
//! seeds 000 and 002): a banked [`RegisterFile`], the [`BankArbiter`], `N` collector units and
//! `U` dispatch units, between the issue stage (ID_OC, `P` input ports) and the execution
//! units (OC_EX, one output port per unit type).
//!
//! Each cycle does what `opndcoll_rfu_t::step()` does, in its order:
//! 1. `dispatch_ready_cu`: dispatch unit `d` (in order `0..U`) scans its collector units
//!    round-robin from its last pick (`find_ready`, a [`RoundRobinArbiter`] starting after unit
//!    0 as `m_last_cu = 0` does) and moves a ready unit's instruction with its three operands into
//!    the output register of the unit's type, freeing the collector unit. A unit is ready when it
//!    is busy, all its operands are collected, (with `in_order_per_warp`) no older instruction of
//!    its warp is still in a collector unit, and its output register is free: empty, drained by
//!    `out_ready` this cycle, and not filled by an earlier dispatch unit this cycle.
//! 2. `allocate_reads`: the arbiter grants at most one read per bank (a bank written back this
//!    cycle grants none); the granted operands count as collected at this clock edge.
//! 3. `allocate_cu` for each input port in order: the lowest free collector unit of the port's
//!    set (one generic set, or with `specialized` the set of the instruction's unit type) takes
//!    the instruction; units freed in step 1 are free. Its valid source operands are queued in
//!    operand order at their banks (`add_read_requests`).
//! 4. `process_banks`: nothing to keep; the write-back takes its bank for this cycle only.
//!
//! Read latency. GPGPU-Sim reads a granted operand in the cycle of the grant. The banks here are
//! synchronous block RAM: the row granted in cycle `t` is on the bank's output in `t + 1`. The
//! collector unit marks the operand collected at the end of `t` (as GPGPU-Sim does) and the
//! operand reaches the unit's buffer, and a dispatch in `t + 1`, through a bypass from the bank
//! output; so the cycle-level behaviour is GPGPU-Sim's, with no extra cycle. A read granted in
//! `t` sees every write-back presented up to `t - 1`.
//!
//! Pipelined timing ([`CollectorTiming::Pipelined`]): step 3 allocates only units free at the
//! start of the cycle, so a unit freed by dispatch is taken a cycle later, and no path runs from
//! dispatch through allocation into the bank queues (the book's collector page says why the
//! queues themselves get no pipeline register).
//!
//! Source operands: an instruction has three operand slots, of which the first `sources` may
//! be registers (GPGPU-Sim's 3; the core's ISA has 2, `ra` and `rb`). The bank queues hold
//! `sources x N` requests rounded up to a power of two, all that can be outstanding, so a core
//! that reads two operands pays for two. A register named in a higher slot is refused as
//! `err_source` says.
//!
//! Handshakes: an instruction on input port `p` is taken at the clock edge of a cycle with
//! `in_valid[p]` and `in_ready[p]` (`in_ready` does not depend on `in_valid[p]` itself, only on
//! earlier ports taking units). An output register holds its instruction (`out_valid[u]`) until a
//! cycle with `out_ready[u]`. A write-back (`wb_valid`) is always taken. Reset clears collector
//! units, queues, output registers, pointers, counters and flags, not the register file.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{BankArbiter, RegisterFile, RegisterMap, RoundRobinArbiter};
use crate::params::{check_derived, clog2, CollectorParams, CollectorTiming};
use crate::sim::{Claim, Mutant};

/// Sizes, all fixed by [`CollectorParams`] and checked by [`OperandCollector::new`]: `B` banks
/// (`BW` bits), `N` collector units (`NW`), `P` input ports, `K = 3P` request lanes, bank queue
/// depth `Q` (`QW`, `QCW`, `BQ = B Q`), `SQ = max(B, N)`, `RW` row bits, `WW` warp-id bits, `RRW`
/// register-number bits, `T` lanes of `DW` bits (`TD = T DW` bits per register), `U` unit types
/// (`UW` bits, at least 1), `G` tag bits.
#[derive(LogicBlock)]
pub struct OperandCollector<
    const B: usize,
    const BW: usize,
    const N: usize,
    const NW: usize,
    const P: usize,
    const K: usize,
    const Q: usize,
    const QW: usize,
    const QCW: usize,
    const BQ: usize,
    const SQ: usize,
    const RW: usize,
    const WW: usize,
    const RRW: usize,
    const T: usize,
    const DW: usize,
    const TD: usize,
    const U: usize,
    const UW: usize,
    const G: usize,
> {
    /// Clock: all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    // ID_OC input ports (issue -> collector), one instruction per port per cycle
    /// Port `p` offers an instruction.
    pub in_valid: [Signal<In, Bit>; P],
    /// Its warp.
    pub in_warp: [Signal<In, Bits<WW>>; P],
    /// The execution-unit type (output port) it goes to; a type `>= U` is never taken and sets
    /// `err_unit`.
    pub in_unit: [Signal<In, Bits<UW>>; P],
    /// Opaque tag, carried to the output.
    pub in_tag: [Signal<In, Bits<G>>; P],
    /// Destination register, carried to the output.
    pub in_dst: [Signal<In, Bits<RRW>>; P],
    /// Active lanes, carried to the output.
    pub in_mask: [Signal<In, Bits<T>>; P],
    /// Which of the three source operands are registers (bit `s` for operand `s`); only slots
    /// `0..sources` may be (see `err_source`).
    pub in_src_valid: [Signal<In, Bits<3>>; P],
    /// Source register numbers: port `p`'s operand `s` is `in_src[3 p + s]`.
    pub in_src: [Signal<In, Bits<RRW>>; K],
    /// A collector unit is free for port `p`'s instruction: taken at this edge if `in_valid[p]`.
    pub in_ready: [Signal<Out, Bit>; P],
    /// The collector unit port `p`'s instruction goes to (meaningful with `in_ready[p]`).
    pub in_cu: [Signal<Out, Bits<NW>>; P],
    // OC_EX output ports (collector -> execution units), one per unit type
    /// The execution unit takes output register `u` at this edge.
    pub out_ready: [Signal<In, Bit>; U],
    /// Output register `u` holds an instruction.
    pub out_valid: [Signal<Out, Bit>; U],
    /// Output register `u`'s warp.
    pub out_warp: [Signal<Out, Bits<WW>>; U],
    /// Its tag (the instruction word in the core).
    pub out_tag: [Signal<Out, Bits<G>>; U],
    /// Its destination register.
    pub out_dst: [Signal<Out, Bits<RRW>>; U],
    /// Its active lanes.
    pub out_mask: [Signal<Out, Bits<T>>; U],
    /// Bit `s`: its source operand `s` is a register.
    pub out_src_valid: [Signal<Out, Bits<3>>; U],
    /// Operand 0, 1, 2 (all lanes; 0 for a slot that is not a register).
    pub out_src0: [Signal<Out, Bits<TD>>; U],
    /// Operand 1.
    pub out_src1: [Signal<Out, Bits<TD>>; U],
    /// Operand 2.
    pub out_src2: [Signal<Out, Bits<TD>>; U],
    // Write-back (execution -> register file): always taken, priority over reads of its bank
    /// Write register `wb_reg` of warp `wb_warp`, lanes `wb_mask`, at this edge.
    pub wb_valid: Signal<In, Bit>,
    /// The written register's warp.
    pub wb_warp: Signal<In, Bits<WW>>,
    /// The written register.
    pub wb_reg: Signal<In, Bits<RRW>>,
    /// The lanes written.
    pub wb_mask: Signal<In, Bits<T>>,
    /// Lane `l` at bits `l * DW ..`.
    pub wb_data: Signal<In, Bits<TD>>,
    // Status and counters
    /// Collector units holding an instruction.
    pub busy: Signal<Out, Bits<N>>,
    /// Banks read this cycle.
    pub grant: Signal<Out, Bits<B>>,
    /// Collector units dispatched this cycle.
    pub dispatch: Signal<Out, Bits<N>>,
    /// Instructions taken since reset (wraps).
    pub count_alloc: Signal<Out, Bits<32>>,
    /// Instructions dispatched since reset.
    pub count_dispatch: Signal<Out, Bits<32>>,
    /// Bank-conflict stall cycles: cycles in which some collector unit waits for an operand that
    /// its bank does not read this cycle (queued behind another request or a write-back).
    pub count_stall: Signal<Out, Bits<32>>,
    /// Reads granted by bank `b` since reset.
    pub count_grant: [Signal<Out, Bits<32>>; B],
    /// Sticky: an instruction named a unit type `>= U`.
    pub err_unit: Signal<Out, Bit>,
    /// Sticky: a bank queue overflowed (cannot happen: see [`BankArbiter`]).
    pub err_overflow: Signal<Out, Bit>,
    /// Sticky: an instruction named a register source in a slot at or above `sources`; the slot
    /// is taken as not a register (not read, its operand 0, its `src_valid` bit clear).
    pub err_source: Signal<Out, Bit>,
    arbiter: BankArbiter<B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ>,
    rf: RegisterFile<B, BW, RW, T, DW, TD>,
    src_map: [RegisterMap<BW, RW, WW, RRW>; K],
    wb_map: RegisterMap<BW, RW, WW, RRW>,
    du: [RoundRobinArbiter<N, NW>; U],
    // Collector units
    cu_busy: DFF<Bits<N>>,
    cu_warp: [DFF<Bits<WW>>; N],
    cu_unit: [DFF<Bits<UW>>; N],
    cu_tag: [DFF<Bits<G>>; N],
    cu_dst: [DFF<Bits<RRW>>; N],
    cu_mask: [DFF<Bits<T>>; N],
    cu_src_valid: [DFF<Bits<3>>; N],
    cu_not_ready: [DFF<Bits<3>>; N],
    cu_older: [DFF<Bits<N>>; N],
    cu_op0: [DFF<Bits<TD>>; N],
    cu_op1: [DFF<Bits<TD>>; N],
    cu_op2: [DFF<Bits<TD>>; N],
    // Reads in flight: last cycle's grants, whose rows are on the bank outputs now
    rd_valid: DFF<Bits<B>>,
    rd_cu: [DFF<Bits<NW>>; B],
    rd_slot: [DFF<Bits<2>>; B],
    // Output registers (OC_EX)
    o_valid: [DFF<Bit>; U],
    o_warp: [DFF<Bits<WW>>; U],
    o_tag: [DFF<Bits<G>>; U],
    o_dst: [DFF<Bits<RRW>>; U],
    o_mask: [DFF<Bits<T>>; U],
    o_src_valid: [DFF<Bits<3>>; U],
    o_src0: [DFF<Bits<TD>>; U],
    o_src1: [DFF<Bits<TD>>; U],
    o_src2: [DFF<Bits<TD>>; U],
    n_alloc: DFF<Bits<32>>,
    n_dispatch: DFF<Bits<32>>,
    n_stall: DFF<Bits<32>>,
    n_grant: [DFF<Bits<32>>; B],
    unit_err: DFF<Bit>,
    source_err: DFF<Bit>,
    /// Collector units of unit type `u`'s set (all units in the generic configuration).
    set_mask: [Constant<Bits<N>>; U],
    in_order: Constant<Bit>,
    pipelined: Constant<Bit>,
    /// The slots that may hold a register source (`sources` ones).
    src_slots: Constant<Bits<3>>,
    op0_now: [Signal<Local, Bits<TD>>; N],
    op1_now: [Signal<Local, Bits<TD>>; N],
    op2_now: [Signal<Local, Bits<TD>>; N],
    port_free: Signal<Local, Bits<U>>,
    filled: Signal<Local, Bits<U>>,
    ready_base: Signal<Local, Bits<N>>,
    port_ok: Signal<Local, Bits<N>>,
    taken: Signal<Local, Bits<N>>,
    collected: [Signal<Local, Bits<3>>; N],
    stall: Signal<Local, Bit>,
    free: Signal<Local, Bits<N>>,
    live: Signal<Local, Bits<N>>,
    warp_now: [Signal<Local, Bits<WW>>; N],
    allowed: Signal<Local, Bits<N>>,
    unit_ok: Signal<Local, Bit>,
    src_ok: Signal<Local, Bits<3>>,
    found: Signal<Local, Bit>,
    pick: Signal<Local, Bits<NW>>,
    take: Signal<Local, Bit>,
    older_new: Signal<Local, Bits<N>>,
    allocs: Signal<Local, Bits<32>>,
    dispatches: Signal<Local, Bits<32>>,
}

/// [`OperandCollector`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_operand_collector {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::OperandCollector] $s; B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G)
    };
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const WW: usize,
        const RRW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    > OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
{
    /// Checks `c` against the const generics (each mismatch names the parameter and its rule)
    /// for `warps` warps of `threads` lanes.
    pub fn new(c: CollectorParams, warps: usize, threads: usize) -> Result<Self> {
        c.validate(warps)?;
        crate::params::check_warps("warps", warps)?;
        check_derived("B", B, "banks", c.banks)?;
        check_derived("N", N, "collector_units", c.collector_units)?;
        check_derived("P", P, "in_ports", c.in_ports)?;
        check_derived("K", K, "3 x in_ports", c.push_lanes())?;
        check_derived("Q", Q, "queue depth", c.queue_depth())?;
        check_derived("RW", RW, "clog2(rows per bank)", clog2(c.rows_per_bank(warps)))?;
        check_derived("WW", WW, "clog2(warps)", clog2(warps))?;
        check_derived("RRW", RRW, "clog2(regs_per_warp)", clog2(c.regs_per_warp))?;
        check_derived("T", T, "threads", threads)?;
        check_derived("DW", DW, "lane_bits", c.lane_bits)?;
        check_derived("TD", TD, "threads x lane_bits", threads * c.lane_bits)?;
        check_derived("U", U, "unit_types", c.unit_types)?;
        check_derived("UW", UW, "max(1, clog2(unit_types))", clog2(U).max(1))?;
        check_derived("G", G, "tag_bits", c.tag_bits)?;
        let per_set = N / U;
        let set_mask = |u: usize| -> u64 {
            if c.specialized {
                ((1u64 << per_set) - 1) << (u * per_set)
            } else {
                (1u64 << N) - 1
            }
        };
        // GPGPU-Sim's dispatch unit starts with m_last_cu = 0, local to its set.
        let first = |d: usize| if c.specialized { d * per_set } else { 0 };
        let du = (0..U)
            .map(|d| RoundRobinArbiter::starting_after(first(d)))
            .collect::<Result<Vec<_>>>()?;
        let src_map = (0..K)
            .map(|_| RegisterMap::new(c.banks, c.regs_per_warp, c.schedulers))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: std::array::from_fn(|_| Default::default()),
            in_warp: std::array::from_fn(|_| Default::default()),
            in_unit: std::array::from_fn(|_| Default::default()),
            in_tag: std::array::from_fn(|_| Default::default()),
            in_dst: std::array::from_fn(|_| Default::default()),
            in_mask: std::array::from_fn(|_| Default::default()),
            in_src_valid: std::array::from_fn(|_| Default::default()),
            in_src: std::array::from_fn(|_| Default::default()),
            in_ready: std::array::from_fn(|_| Default::default()),
            in_cu: std::array::from_fn(|_| Default::default()),
            out_ready: std::array::from_fn(|_| Default::default()),
            out_valid: std::array::from_fn(|_| Default::default()),
            out_warp: std::array::from_fn(|_| Default::default()),
            out_tag: std::array::from_fn(|_| Default::default()),
            out_dst: std::array::from_fn(|_| Default::default()),
            out_mask: std::array::from_fn(|_| Default::default()),
            out_src_valid: std::array::from_fn(|_| Default::default()),
            out_src0: std::array::from_fn(|_| Default::default()),
            out_src1: std::array::from_fn(|_| Default::default()),
            out_src2: std::array::from_fn(|_| Default::default()),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            busy: Default::default(),
            grant: Default::default(),
            dispatch: Default::default(),
            count_alloc: Default::default(),
            count_dispatch: Default::default(),
            count_stall: Default::default(),
            count_grant: std::array::from_fn(|_| Default::default()),
            err_unit: Default::default(),
            err_overflow: Default::default(),
            err_source: Default::default(),
            arbiter: BankArbiter::new(c.one_bank_per_cu, c.sources)?,
            rf: RegisterFile::new()?,
            src_map: src_map.try_into().unwrap_or_else(|_| unreachable!("K maps built")),
            wb_map: RegisterMap::new(c.banks, c.regs_per_warp, c.schedulers)?,
            du: du.try_into().unwrap_or_else(|_| unreachable!("U dispatch units built")),
            cu_busy: Default::default(),
            cu_warp: std::array::from_fn(|_| Default::default()),
            cu_unit: std::array::from_fn(|_| Default::default()),
            cu_tag: std::array::from_fn(|_| Default::default()),
            cu_dst: std::array::from_fn(|_| Default::default()),
            cu_mask: std::array::from_fn(|_| Default::default()),
            cu_src_valid: std::array::from_fn(|_| Default::default()),
            cu_not_ready: std::array::from_fn(|_| Default::default()),
            cu_older: std::array::from_fn(|_| Default::default()),
            cu_op0: std::array::from_fn(|_| Default::default()),
            cu_op1: std::array::from_fn(|_| Default::default()),
            cu_op2: std::array::from_fn(|_| Default::default()),
            rd_valid: Default::default(),
            rd_cu: std::array::from_fn(|_| Default::default()),
            rd_slot: std::array::from_fn(|_| Default::default()),
            o_valid: std::array::from_fn(|_| Default::default()),
            o_warp: std::array::from_fn(|_| Default::default()),
            o_tag: std::array::from_fn(|_| Default::default()),
            o_dst: std::array::from_fn(|_| Default::default()),
            o_mask: std::array::from_fn(|_| Default::default()),
            o_src_valid: std::array::from_fn(|_| Default::default()),
            o_src0: std::array::from_fn(|_| Default::default()),
            o_src1: std::array::from_fn(|_| Default::default()),
            o_src2: std::array::from_fn(|_| Default::default()),
            n_alloc: Default::default(),
            n_dispatch: Default::default(),
            n_stall: Default::default(),
            n_grant: std::array::from_fn(|_| Default::default()),
            unit_err: Default::default(),
            source_err: Default::default(),
            set_mask: std::array::from_fn(|u| Constant::new(set_mask(u).to_bits())),
            in_order: Constant::new(c.in_order_per_warp),
            pipelined: Constant::new(c.timing == CollectorTiming::Pipelined),
            src_slots: Constant::new((c.source_slots() as u64).to_bits()),
            op0_now: std::array::from_fn(|_| Default::default()),
            op1_now: std::array::from_fn(|_| Default::default()),
            op2_now: std::array::from_fn(|_| Default::default()),
            port_free: Default::default(),
            filled: Default::default(),
            ready_base: Default::default(),
            port_ok: Default::default(),
            taken: Default::default(),
            collected: std::array::from_fn(|_| Default::default()),
            stall: Default::default(),
            free: Default::default(),
            live: Default::default(),
            warp_now: std::array::from_fn(|_| Default::default()),
            allowed: Default::default(),
            unit_ok: Default::default(),
            src_ok: Default::default(),
            found: Default::default(),
            pick: Default::default(),
            take: Default::default(),
            older_new: Default::default(),
            allocs: Default::default(),
            dispatches: Default::default(),
        })
    }
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const WW: usize,
        const RRW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    > Logic
    for OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
{
    // One body for the four steps until the synthesis flow maps a split design as small as this
    // one (the book's design notes: what a split cost, and why the cost is the flow's).
    #[hdl_gen]
    fn update(&mut self) {
        // Keep: every flip-flop holds unless a step below changes it.
        dff_setup!(
            self, clock, cu_busy, rd_valid, n_alloc, n_dispatch, n_stall, unit_err, source_err
        );
        self.arbiter.clock.next = self.clock.val();
        self.rf.clock.next = self.clock.val();
        for n in 0..N {
            self.cu_warp[n].clock.next = self.clock.val();
            self.cu_warp[n].d.next = self.cu_warp[n].q.val();
            self.cu_unit[n].clock.next = self.clock.val();
            self.cu_unit[n].d.next = self.cu_unit[n].q.val();
            self.cu_tag[n].clock.next = self.clock.val();
            self.cu_tag[n].d.next = self.cu_tag[n].q.val();
            self.cu_dst[n].clock.next = self.clock.val();
            self.cu_dst[n].d.next = self.cu_dst[n].q.val();
            self.cu_mask[n].clock.next = self.clock.val();
            self.cu_mask[n].d.next = self.cu_mask[n].q.val();
            self.cu_src_valid[n].clock.next = self.clock.val();
            self.cu_src_valid[n].d.next = self.cu_src_valid[n].q.val();
            self.cu_not_ready[n].clock.next = self.clock.val();
            self.cu_older[n].clock.next = self.clock.val();
            self.cu_op0[n].clock.next = self.clock.val();
            self.cu_op1[n].clock.next = self.clock.val();
            self.cu_op2[n].clock.next = self.clock.val();
        }
        for b in 0..B {
            self.rd_cu[b].clock.next = self.clock.val();
            self.rd_slot[b].clock.next = self.clock.val();
            self.n_grant[b].clock.next = self.clock.val();
            self.n_grant[b].d.next = self.n_grant[b].q.val();
        }
        for u in 0..U {
            self.du[u].clock.next = self.clock.val();
            self.du[u].reset.next = self.reset.val();
            self.du[u].advance.next = true;
            self.du[u].req_taken.next = 0.into(); // (read by a lookahead arbiter only)
            self.o_valid[u].clock.next = self.clock.val();
            self.o_valid[u].d.next = self.o_valid[u].q.val();
            self.o_warp[u].clock.next = self.clock.val();
            self.o_warp[u].d.next = self.o_warp[u].q.val();
            self.o_tag[u].clock.next = self.clock.val();
            self.o_tag[u].d.next = self.o_tag[u].q.val();
            self.o_dst[u].clock.next = self.clock.val();
            self.o_dst[u].d.next = self.o_dst[u].q.val();
            self.o_mask[u].clock.next = self.clock.val();
            self.o_mask[u].d.next = self.o_mask[u].q.val();
            self.o_src_valid[u].clock.next = self.clock.val();
            self.o_src_valid[u].d.next = self.o_src_valid[u].q.val();
            self.o_src0[u].clock.next = self.clock.val();
            self.o_src0[u].d.next = self.o_src0[u].q.val();
            self.o_src1[u].clock.next = self.clock.val();
            self.o_src1[u].d.next = self.o_src1[u].q.val();
            self.o_src2[u].clock.next = self.clock.val();
            self.o_src2[u].d.next = self.o_src2[u].q.val();
        }

        // Operands read last cycle arrive from the banks (bypass into this cycle's dispatch).
        for n in 0..N {
            self.op0_now[n].next = self.cu_op0[n].q.val();
            self.op1_now[n].next = self.cu_op1[n].q.val();
            self.op2_now[n].next = self.cu_op2[n].q.val();
            for b in 0..B {
                if self.rd_valid.q.val().get_bit(b) & (self.rd_cu[b].q.val().index() == n) {
                    if self.rd_slot[b].q.val().index() == 0 {
                        self.op0_now[n].next = self.rf.read_data[b].val();
                    }
                    if self.rd_slot[b].q.val().index() == 1 {
                        self.op1_now[n].next = self.rf.read_data[b].val();
                    }
                    if self.rd_slot[b].q.val().index() == 2 {
                        self.op2_now[n].next = self.rf.read_data[b].val();
                    }
                }
            }
        }

        // 1. dispatch_ready_cu
        self.port_free.next = 0.into();
        for u in 0..U {
            if !self.o_valid[u].q.val() | self.out_ready[u].val() {
                self.port_free.next = self.port_free.val().replace_bit(u, true);
            }
        }
        self.ready_base.next = 0.into();
        for n in 0..N {
            if self.cu_busy.q.val().get_bit(n)
                & (self.cu_not_ready[n].q.val() == 0)
                & (!self.in_order.val() | (self.cu_older[n].q.val() == 0))
            {
                self.ready_base.next = self.ready_base.val().replace_bit(n, true);
            }
        }
        self.taken.next = 0.into();
        self.filled.next = 0.into();
        for d in 0..U {
            self.port_ok.next = 0.into();
            for n in 0..N {
                for u in 0..U {
                    if (self.cu_unit[n].q.val().index() == u)
                        & self.port_free.val().get_bit(u)
                        & !self.filled.val().get_bit(u)
                    {
                        self.port_ok.next = self.port_ok.val().replace_bit(n, true);
                    }
                }
            }
            self.du[d].req.next = self.ready_base.val()
                & self.set_mask[d].val()
                & self.port_ok.val()
                & !self.taken.val();
            for n in 0..N {
                if self.du[d].grant.val().get_bit(n) {
                    self.taken.next = self.taken.val().replace_bit(n, true);
                    for u in 0..U {
                        if self.cu_unit[n].q.val().index() == u {
                            self.filled.next = self.filled.val().replace_bit(u, true);
                            self.o_valid[u].d.next = true;
                            self.o_warp[u].d.next = self.cu_warp[n].q.val();
                            self.o_tag[u].d.next = self.cu_tag[n].q.val();
                            self.o_dst[u].d.next = self.cu_dst[n].q.val();
                            self.o_mask[u].d.next = self.cu_mask[n].q.val();
                            self.o_src_valid[u].d.next = self.cu_src_valid[n].q.val();
                            self.o_src0[u].d.next = self.op0_now[n].val();
                            self.o_src1[u].d.next = self.op1_now[n].val();
                            self.o_src2[u].d.next = self.op2_now[n].val();
                        }
                    }
                }
            }
        }
        for u in 0..U {
            if !self.filled.val().get_bit(u) & self.out_ready[u].val() {
                self.o_valid[u].d.next = false;
            }
        }

        // 2. allocate_reads: the arbiter's grants are collected at this edge.
        for n in 0..N {
            self.collected[n].next = 0.into();
        }
        for b in 0..B {
            self.rf.read_row[b].next = self.arbiter.grant_row[b].val();
            self.rd_cu[b].d.next = self.arbiter.grant_cu[b].val();
            self.rd_slot[b].d.next = self.arbiter.grant_slot[b].val();
            for n in 0..N {
                if self.arbiter.grant.val().get_bit(b)
                    & (self.arbiter.grant_cu[b].val().index() == n)
                {
                    for s in 0..3 {
                        if self.arbiter.grant_slot[b].val().index() == s {
                            self.collected[n].next = self.collected[n].val().replace_bit(s, true);
                        }
                    }
                }
            }
            if self.arbiter.grant.val().get_bit(b) {
                self.n_grant[b].d.next = self.n_grant[b].q.val() + 1;
            }
        }
        self.rd_valid.d.next = self.arbiter.grant.val();
        self.stall.next = false;
        for n in 0..N {
            self.cu_not_ready[n].d.next = self.cu_not_ready[n].q.val() & !self.collected[n].val();
            if (self.cu_not_ready[n].q.val() & !self.collected[n].val()).any() {
                self.stall.next = true;
            }
            self.cu_older[n].d.next = self.cu_older[n].q.val() & !self.taken.val();
            self.cu_op0[n].d.next = self.op0_now[n].val();
            self.cu_op1[n].d.next = self.op1_now[n].val();
            self.cu_op2[n].d.next = self.op2_now[n].val();
            self.warp_now[n].next = self.cu_warp[n].q.val();
        }

        // 3. allocate_cu, port by port: the lowest free unit of the port's set (pipelined: of
        // the units free before this cycle's dispatch).
        self.free.next = !self.cu_busy.q.val();
        if !self.pipelined.val() {
            self.free.next = self.free.val() | self.taken.val();
        }

        self.live.next = self.cu_busy.q.val() & !self.taken.val();
        self.allocs.next = self.n_alloc.q.val();
        for p in 0..P {
            self.allowed.next = 0.into();
            self.unit_ok.next = false;
            for u in 0..U {
                if self.in_unit[p].val().index() == u {
                    self.allowed.next = self.set_mask[u].val();
                    self.unit_ok.next = true;
                }
            }
            if self.in_valid[p].val() & !self.unit_ok.val() {
                self.unit_err.d.next = true;
            }
            self.src_ok.next = self.in_src_valid[p].val() & self.src_slots.val();
            if self.in_valid[p].val() & (self.src_ok.val() != self.in_src_valid[p].val()) {
                self.source_err.d.next = true;
            }
            self.found.next = false;
            self.pick.next = 0.into();
            for n in 0..N {
                if !self.found.val() & self.free.val().get_bit(n) & self.allowed.val().get_bit(n) {
                    self.pick.next = n.to_bits();
                    self.found.next = true;
                }
            }
            self.in_ready[p].next = self.found.val();
            self.in_cu[p].next = self.pick.val();
            self.take.next = self.in_valid[p].val() & self.found.val();
            // Older instructions of the same warp still in a unit (earlier ports are older).
            self.older_new.next = 0.into();
            for n in 0..N {
                if self.live.val().get_bit(n) & (self.warp_now[n].val() == self.in_warp[p].val()) {
                    self.older_new.next = self.older_new.val().replace_bit(n, true);
                }
            }
            for n in 0..N {
                if self.take.val() & (self.pick.val().index() == n) {
                    self.free.next = self.free.val().replace_bit(n, false);
                    self.live.next = self.live.val().replace_bit(n, true);
                    self.warp_now[n].next = self.in_warp[p].val();
                    self.cu_warp[n].d.next = self.in_warp[p].val();
                    self.cu_unit[n].d.next = self.in_unit[p].val();
                    self.cu_tag[n].d.next = self.in_tag[p].val();
                    self.cu_dst[n].d.next = self.in_dst[p].val();
                    self.cu_mask[n].d.next = self.in_mask[p].val();
                    self.cu_src_valid[n].d.next = self.src_ok.val();
                    self.cu_not_ready[n].d.next = self.src_ok.val();
                    self.cu_older[n].d.next = self.older_new.val();
                    self.cu_op0[n].d.next = 0.into();
                    self.cu_op1[n].d.next = 0.into();
                    self.cu_op2[n].d.next = 0.into();
                }
            }
            if self.take.val() {
                self.allocs.next = self.allocs.val() + 1;
            }
            // add_read_requests: the valid operands, in order, to their banks' queues.
            for s in 0..3 {
                self.src_map[p * 3 + s].warp.next = self.in_warp[p].val();
                self.src_map[p * 3 + s].regnum.next = self.in_src[p * 3 + s].val();
                self.arbiter.push_valid[p * 3 + s].next =
                    self.take.val() & self.src_ok.val().get_bit(s);
                self.arbiter.push_bank[p * 3 + s].next = self.src_map[p * 3 + s].bank.val();
                self.arbiter.push_row[p * 3 + s].next = self.src_map[p * 3 + s].row.val();
                self.arbiter.push_cu[p * 3 + s].next = self.pick.val();
                self.arbiter.push_slot[p * 3 + s].next = s.to_bits();
            }
        }
        self.cu_busy.d.next = self.live.val();

        // Write-back: its bank is taken for this cycle (no read there), lanes in wb_mask change.
        self.wb_map.warp.next = self.wb_warp.val();
        self.wb_map.regnum.next = self.wb_reg.val();
        self.arbiter.reset.next = self.reset.val();
        self.arbiter.write_valid.next = self.wb_valid.val();
        self.arbiter.write_bank.next = self.wb_map.bank.val();
        self.rf.write_valid.next = self.wb_valid.val();
        self.rf.write_bank.next = self.wb_map.bank.val();
        self.rf.write_row.next = self.wb_map.row.val();
        self.rf.write_mask.next = self.wb_mask.val();
        self.rf.write_data.next = self.wb_data.val();

        // Counters
        self.dispatches.next = self.n_dispatch.q.val();
        for n in 0..N {
            if self.taken.val().get_bit(n) {
                self.dispatches.next = self.dispatches.val() + 1;
            }
        }
        self.n_alloc.d.next = self.allocs.val();
        self.n_dispatch.d.next = self.dispatches.val();
        if self.stall.val() {
            self.n_stall.d.next = self.n_stall.q.val() + 1;
        }

        if self.reset.val() {
            self.cu_busy.d.next = 0.into();
            self.rd_valid.d.next = 0.into();
            self.n_alloc.d.next = 0.into();
            self.n_dispatch.d.next = 0.into();
            self.n_stall.d.next = 0.into();
            self.unit_err.d.next = false;
            self.source_err.d.next = false;
            for n in 0..N {
                self.cu_not_ready[n].d.next = 0.into();
                self.cu_older[n].d.next = 0.into();
            }
            for b in 0..B {
                self.n_grant[b].d.next = 0.into();
            }
            for u in 0..U {
                self.o_valid[u].d.next = false;
            }
        }

        // Outputs
        for u in 0..U {
            self.out_valid[u].next = self.o_valid[u].q.val();
            self.out_warp[u].next = self.o_warp[u].q.val();
            self.out_tag[u].next = self.o_tag[u].q.val();
            self.out_dst[u].next = self.o_dst[u].q.val();
            self.out_mask[u].next = self.o_mask[u].q.val();
            self.out_src_valid[u].next = self.o_src_valid[u].q.val();
            self.out_src0[u].next = self.o_src0[u].q.val();
            self.out_src1[u].next = self.o_src1[u].q.val();
            self.out_src2[u].next = self.o_src2[u].q.val();
        }
        for b in 0..B {
            self.count_grant[b].next = self.n_grant[b].q.val();
        }
        self.busy.next = self.cu_busy.q.val();
        self.grant.next = self.arbiter.grant.val();
        self.dispatch.next = self.taken.val();
        self.count_alloc.next = self.n_alloc.q.val();
        self.count_dispatch.next = self.n_dispatch.q.val();
        self.count_stall.next = self.n_stall.q.val();
        self.err_unit.next = self.unit_err.q.val();
        self.err_overflow.next = self.arbiter.err_overflow.val();
        self.err_source.next = self.source_err.q.val();
    }
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const WW: usize,
        const RRW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    > crate::sim::Dut
    for OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, in_valid, in_warp, in_unit, in_tag, in_dst, in_mask, in_src_valid, in_src, out_ready, wb_valid, wb_warp, wb_reg, wb_mask, wb_data],
        outputs: [
            in_ready, in_cu, out_valid, out_warp, out_tag, out_dst, out_mask, out_src_valid, out_src0, out_src1, out_src2, busy, grant, dispatch,
            count_alloc, count_dispatch, count_stall, count_grant, err_unit, err_overflow, err_source
        ]
    );
}

/// The module the collector with `timing` is exported as.
pub fn module_name(timing: CollectorTiming) -> &'static str {
    match timing {
        CollectorTiming::GpgpuSim => "operand_collector",
        CollectorTiming::Pipelined => "operand_collector_pipelined",
    }
}

/// The formal properties (`operand_collector.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/collector/operand_collector/operand_collector.sv",
    text: include_str!("operand_collector.sv"),
    wrapper: "operand_collector_props",
    parameters: |p| property_parameters(p, false),
    // The queue bound (`bank_queues_never_overflow`, with its invariant over the queues'
    // contents) closes by induction at tiny sizes (2 banks, 2 units, booksim's one bank per
    // unit: seconds on bitwuzla) and at cu's 4 banks in tens of seconds (`prove --block
    // operand_collector`), which is also what shows that `prove` stops at a time budget.
    claims: &[
        Claim::cu(&[
            "busy_is_taken_and_not_dispatched",
            "instruction_taken_into_a_free_unit",
            "each_dispatch_fills_one_output",
            "dispatched_operands_all_collected",
        ])
        .except(&["bank_queues_never_overflow"]),
        Claim::cu(&["bank_queues_never_overflow"]).only(&["bank_queues_never_overflow"]).at("tiny"),
        Claim::cu(&[]).only(&["bank_queues_never_overflow"]).times_out_within(3),
    ],
    mutants: &[
        // Unit 0 counts as free while it holds an instruction: a new one overwrites it.
        Mutant::cu(
            "unit_taken_while_busy",
            "if (~found & free[0] & allowed[0]) begin",
            "if (~found & allowed[0]) begin",
            &["instruction_taken_into_a_free_unit", "busy_is_taken_and_not_dispatched"],
        ),
        // Collector unit 0's dispatch into output register 0 leaves it empty: the instruction is
        // dropped.
        Mutant::cu(
            "dispatch_lost",
            "o_valid$0$d = 1'b1;",
            "o_valid$0$d = o_valid$0$q;",
            &["each_dispatch_fills_one_output"],
        ),
        // Collector unit 0 is ready without waiting for its operands' bank reads.
        Mutant::cu(
            "dispatch_before_collected",
            "if (cu_busy$q[0] & (cu_not_ready$0$q == 32'h0)",
            "if (cu_busy$q[0]",
            &["dispatched_operands_all_collected"],
        ),
        // The operands of an instruction that found no free unit are queued anyway, every cycle
        // it waits: requests nobody collects pile up until a queue overflows.
        Mutant::cu(
            "stalled_pushed",
            "arbiter$push_valid$0 = take & src_ok[0];",
            "arbiter$push_valid$0 = in_valid$0 & src_ok[0];",
            &["bank_queues_never_overflow"],
        )
        .at("tiny"),
    ],
};

/// The same properties of the pipelined collector, and those of its timing.
pub const PIPELINED_PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    parameters: |p| property_parameters(p, true),
    claims: &[
        Claim::cu(&[
            "busy_is_taken_and_not_dispatched",
            "instruction_taken_into_a_free_unit",
            "dispatched_operands_all_collected",
            "pipelined_gives_only_units_free_before",
        ])
        .except(&["bank_queues_never_overflow"]),
        Claim::cu(&["bank_queues_never_overflow"]).only(&["bank_queues_never_overflow"]).at("tiny"),
    ],
    // The GPGPU-Sim timing's allocation back in the pipelined block: a unit freed by this
    // cycle's dispatch is given out at once.
    mutants: &[Mutant::cu(
        "pipelined_unit_reused_at_once",
        "free = ~cu_busy$q;",
        "free = ~cu_busy$q | taken;",
        &["pipelined_gives_only_units_free_before"],
    )],
    ..PROPERTIES
};

fn property_parameters(p: &crate::params::Preset, pipelined: bool) -> Vec<(&'static str, usize)> {
    let c = p.collector;
    vec![
        ("B", c.banks),
        ("N", c.collector_units),
        ("NW", crate::params::clog2(c.collector_units)),
        ("P", c.in_ports),
        ("WW", p.scheduler.warp_id_width()),
        ("RRW", crate::params::clog2(c.regs_per_warp)),
        ("T", p.scheduler.threads),
        ("DW", c.lane_bits),
        ("U", c.unit_types),
        ("UW", crate::params::clog2(c.unit_types).max(1)),
        ("G", c.tag_bits),
        ("PIPELINED", pipelined as usize),
    ]
    .into_iter()
    .chain(super::queue_sizes(&c))
    .collect()
}

/// The header of the collector's parts (bank arbiter, register map, register file): the
/// collector's parameters.
pub fn parts_header(preset: &crate::params::Preset) -> Vec<(&'static str, String)> {
    vec![("Collector", collector_summary(preset))]
}

/// The collector's parameters, for a header line.
pub fn collector_summary(preset: &crate::params::Preset) -> String {
    let c = preset.collector;
    format!(
        "banks={} collector_units={} in_ports={} regs_per_warp={} rows_per_bank={} queue_depth={} allocator={} unit_types={} sets={} schedulers={} in_order_per_warp={} lane_bits={} tag_bits={}",
        c.banks, c.collector_units, c.in_ports, c.regs_per_warp, c.rows_per_bank(preset.scheduler.warps), c.queue_depth(),
        if c.one_bank_per_cu { "one bank per collector unit (booksim)" } else { "several banks per collector unit (GPGPU-Sim)" },
        c.unit_types, if c.specialized { "one per unit type" } else { "one generic" }, c.schedulers, c.in_order_per_warp, c.lane_bits, c.tag_bits
    )
}

/// How to drive the exported OperandCollector (also in the README and the manifest).
pub const COLLECTOR_INTERFACE: &str = "an input instruction on port p is taken at the rising edge of a cycle with in_valid$p and in_ready$p \
(in_ready$p never depends on in_valid$p; in_cu$p names the collector unit); out_valid$u is registered and holds until a cycle with out_ready$u; \
wb_valid is always taken at the edge, and a read granted in cycle t sees every write-back up to cycle t-1; register reads take one cycle \
(block RAM), bypassed so that an instruction whose last operand is granted in cycle t can be dispatched in t+1 and appears on out_valid in t+2; \
in_src[3p+s] is port p's source s; operand lanes are packed lane l at bits l*lane_bits; invalid source slots read 0";
