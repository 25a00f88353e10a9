//! Execute: the [`SimtCore`](super::SimtCore)'s execution units and write-back. Unit type 0:
//! the instruction in the collector's first output register is decoded, its operand `b` chosen
//! (the second register, or the immediate, the warp id or the lanes per warp, replicated over the
//! lanes) and the
//! [`LaneAlu`] computes; an ALU result writes back, and a branch goes to the [`BranchUnit`].
//! Unit type 1: the [`LdsPort`] takes loads and stores from the second output register. Unit 0
//! holds while a load answers (the load writes back first) and while a divergent branch's second
//! half waits. Write-back: the load's answer, else the ALU's.

use anyhow::Result;
use rust_hdl::prelude::*;

use super::{BranchUnit, LdsPort, RRW};
use crate::hw::core::decoder::Kind;
use crate::hw::{Decoder, LaneAlu};

/// `W` warps (`WW` bits), `T` lanes of `DW` bits (`TD = T DW`, `SW = clog2 DW`), `A`-bit byte
/// pcs over `IA`-bit instruction indices, `2^LRW` local-data-share rows of `LB` banks
/// (`LBW = clog2(LB)`).
#[derive(LogicBlock)]
pub struct Execute<
    const W: usize,
    const WW: usize,
    const T: usize,
    const DW: usize,
    const TD: usize,
    const SW: usize,
    const A: usize,
    const IA: usize,
    const LRW: usize,
    const LB: usize,
    const LBW: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The collector's output of type 0: an instruction, its warp, lanes and operands; taken
    /// when `out_ready`.
    pub out_valid: Signal<In, Bit>,
    pub out_inst: Signal<In, Bits<32>>,
    pub out_warp: Signal<In, Bits<WW>>,
    pub out_mask: Signal<In, Bits<T>>,
    pub out_a: Signal<In, Bits<TD>>,
    pub out_b: Signal<In, Bits<TD>>,
    pub out_ready: Signal<Out, Bit>,
    /// Issue holds the scheduler's warp-set port this cycle: type 0 waits.
    pub port_held: Signal<In, Bit>,
    /// The collector's output of type 1: a load or store, its warp, lanes and operand `a`;
    /// taken when `lds_ready`.
    pub lds_valid: Signal<In, Bit>,
    pub lds_inst: Signal<In, Bits<32>>,
    pub lds_warp: Signal<In, Bits<WW>>,
    pub lds_mask: Signal<In, Bits<T>>,
    pub lds_src: Signal<In, Bits<TD>>,
    /// Operand `b`: what `stx` stores.
    pub lds_src_b: Signal<In, Bits<TD>>,
    pub lds_ready: Signal<Out, Bit>,
    /// The local data share has an access in flight; its bank-conflict cycles.
    pub lds_busy: Signal<Out, Bit>,
    pub lds_conflicts: Signal<Out, Bits<32>>,
    /// This cycle's write-back.
    pub wb_valid: Signal<Out, Bit>,
    pub wb_warp: Signal<Out, Bits<WW>>,
    pub wb_reg: Signal<Out, Bits<RRW>>,
    pub wb_mask: Signal<Out, Bits<T>>,
    pub wb_data: Signal<Out, Bits<TD>>,
    /// The write-back's data, lane by lane.
    pub wb_lanes: [Signal<Out, Bits<DW>>; T],
    /// The branch unit: its inputs from issue and its outputs ([`BranchUnit`]).
    pub record_valid: Signal<In, Bit>,
    pub record_warp: Signal<In, Bits<WW>>,
    pub record_pc: Signal<In, Bits<IA>>,
    pub port_busy: Signal<Out, Bit>,
    pub pending: Signal<Out, Bit>,
    pub divergent: Signal<Out, Bit>,
    pub push_valid: Signal<Out, Bit>,
    pub push_warp: Signal<Out, Bits<WW>>,
    pub push_mask: Signal<Out, Bits<T>>,
    pub push_pc: Signal<Out, Bits<A>>,
    pub set_valid: Signal<Out, Bit>,
    pub set_warp: Signal<Out, Bits<WW>>,
    pub set_mask: Signal<Out, Bits<T>>,
    pub set_pc: Signal<Out, Bits<A>>,
    dec: Decoder,
    alu: LaneAlu<T, DW, SW, TD>,
    branch: BranchUnit<W, WW, T, A, IA>,
    lds: LdsPort<T, WW, DW, TD, LRW, LB, LBW>,
    lane_bits: Constant<Bits<8>>,
    k_alu: Constant<Bits<4>>,
    fire: Signal<Local, Bit>,
    alu_wb: Signal<Local, Bit>,
    imm_lane: Signal<Local, Bits<DW>>,
    warp_lane: Signal<Local, Bits<DW>>,
    lane_word: Signal<Local, Bits<TD>>,
    rep_imm: Signal<Local, Bits<TD>>,
    rep_warp: Signal<Local, Bits<TD>>,
    /// The lanes per warp (`threads`), cut to a lane, and in every lane.
    threads_lane: Constant<Bits<DW>>,
    rep_threads: Signal<Local, Bits<TD>>,
    wb_d: Signal<Local, Bits<TD>>,
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
        const SW: usize,
        const A: usize,
        const IA: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
    > Execute<W, WW, T, DW, TD, SW, A, IA, LRW, LB, LBW>
{
    /// The local data share of `warps` warps holds `lds` from word 0; `registered`: it takes
    /// its requests from a register ([`LdsPort`]).
    pub fn with_lds(
        warps: usize,
        lds: &[u32],
        registered: bool,
        isa: crate::isa::Extensions,
    ) -> Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            out_valid: Default::default(),
            out_inst: Default::default(),
            out_warp: Default::default(),
            out_mask: Default::default(),
            out_a: Default::default(),
            out_b: Default::default(),
            out_ready: Default::default(),
            port_held: Default::default(),
            lds_valid: Default::default(),
            lds_inst: Default::default(),
            lds_warp: Default::default(),
            lds_mask: Default::default(),
            lds_src: Default::default(),
            lds_src_b: Default::default(),
            lds_ready: Default::default(),
            lds_busy: Default::default(),
            lds_conflicts: Default::default(),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            wb_lanes: std::array::from_fn(|_| Default::default()),
            record_valid: Default::default(),
            record_warp: Default::default(),
            record_pc: Default::default(),
            port_busy: Default::default(),
            pending: Default::default(),
            divergent: Default::default(),
            push_valid: Default::default(),
            push_warp: Default::default(),
            push_mask: Default::default(),
            push_pc: Default::default(),
            set_valid: Default::default(),
            set_warp: Default::default(),
            set_mask: Default::default(),
            set_pc: Default::default(),
            dec: Decoder::new(isa)?,
            alu: LaneAlu::new(isa)?,
            branch: BranchUnit::default(),
            lds: LdsPort::with_contents(warps, lds, registered, isa)?,
            lane_bits: Constant::new(DW.to_bits()),
            k_alu: Constant::new((Kind::Alu as u64).to_bits()),
            fire: Default::default(),
            alu_wb: Default::default(),
            imm_lane: Default::default(),
            warp_lane: Default::default(),
            lane_word: Default::default(),
            rep_imm: Default::default(),
            rep_warp: Default::default(),
            threads_lane: Constant::new((T as u64 & crate::sim::rng::mask(DW)).to_bits()),
            rep_threads: Default::default(),
            wb_d: Default::default(),
        })
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
        const SW: usize,
        const A: usize,
        const IA: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
    > Logic for Execute<W, WW, T, DW, TD, SW, A, IA, LRW, LB, LBW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // The lane ALU: operand `b` is the second register, or the immediate, the warp id or
        // the lanes per warp in every lane
        self.dec.inst.next = self.out_inst.val();
        self.fire.next = self.out_valid.val()
            & !self.lds.wb_valid.val()
            & !self.branch.pending.val()
            & !self.port_held.val();
        self.out_ready.next = self.fire.val();
        self.imm_lane.next = bit_cast::<DW, 32>(self.dec.imm.val());
        self.warp_lane.next = bit_cast::<DW, WW>(self.out_warp.val());
        self.rep_imm.next = 0.into();
        self.rep_warp.next = 0.into();
        self.rep_threads.next = 0.into();
        for _l in 0..T {
            self.lane_word.next = bit_cast::<TD, DW>(self.imm_lane.val());
            self.rep_imm.next = (self.rep_imm.val() << self.lane_bits.val()) | self.lane_word.val();
            self.lane_word.next = bit_cast::<TD, DW>(self.warp_lane.val());
            self.rep_warp.next =
                (self.rep_warp.val() << self.lane_bits.val()) | self.lane_word.val();
            self.lane_word.next = bit_cast::<TD, DW>(self.threads_lane.val());
            self.rep_threads.next =
                (self.rep_threads.val() << self.lane_bits.val()) | self.lane_word.val();
        }
        self.alu.op.next = self.dec.exec_op.val();
        self.alu.op_high.next = self.dec.exec_op_high.val();
        self.alu.a.next = self.out_a.val();
        match self.dec.b_sel.val().index() {
            1 => self.alu.b.next = self.rep_imm.val(),
            2 => self.alu.b.next = self.rep_warp.val(),
            3 => self.alu.b.next = self.rep_threads.val(),
            _ => self.alu.b.next = self.out_b.val(),
        }
        self.alu_wb.next = self.fire.val() & (self.dec.kind.val() == self.k_alu.val());
        // Branch resolution
        self.branch.clock.next = self.clock.val();
        self.branch.reset.next = self.reset.val();
        self.branch.fire.next = self.fire.val();
        self.branch.kind.next = self.dec.kind.val();
        self.branch.if_zero.next = self.dec.if_zero.val();
        self.branch.target.next = self.dec.target.val();
        self.branch.reconv.next = self.dec.reconv.val();
        self.branch.warp.next = self.out_warp.val();
        self.branch.mask.next = self.out_mask.val();
        self.branch.zero.next = self.alu.zero.val();
        self.branch.record_valid.next = self.record_valid.val();
        self.branch.record_warp.next = self.record_warp.val();
        self.branch.record_pc.next = self.record_pc.val();
        self.port_busy.next = self.branch.port_busy.val();
        self.pending.next = self.branch.pending.val();
        self.divergent.next = self.branch.divergent.val();
        self.push_valid.next = self.branch.push_valid.val();
        self.push_warp.next = self.branch.push_warp.val();
        self.push_mask.next = self.branch.push_mask.val();
        self.push_pc.next = self.branch.push_pc.val();
        self.set_valid.next = self.branch.set_valid.val();
        self.set_warp.next = self.branch.set_warp.val();
        self.set_mask.next = self.branch.set_mask.val();
        self.set_pc.next = self.branch.set_pc.val();
        // The local data share
        self.lds.clock.next = self.clock.val();
        self.lds.reset.next = self.reset.val();
        self.lds.req_valid.next = self.lds_valid.val();
        self.lds.req_inst.next = self.lds_inst.val();
        self.lds.req_warp.next = self.lds_warp.val();
        self.lds.req_mask.next = self.lds_mask.val();
        self.lds.req_src.next = self.lds_src.val();
        self.lds.req_src_b.next = self.lds_src_b.val();
        self.lds_ready.next = self.lds.req_taken.val();
        self.lds_busy.next = self.lds.busy.val();
        self.lds_conflicts.next = self.lds.conflict_cycles.val();
        // Write-back: the load's, else the ALU's
        self.wb_valid.next = self.lds.wb_valid.val() | self.alu_wb.val();
        if self.lds.wb_valid.val() {
            self.wb_warp.next = self.lds.wb_warp.val();
            self.wb_reg.next = self.lds.wb_reg.val();
            self.wb_mask.next = self.lds.wb_mask.val();
            self.wb_d.next = self.lds.wb_data.val();
        } else if self.alu_wb.val() {
            self.wb_warp.next = self.out_warp.val();
            self.wb_reg.next = self.dec.rd.val();
            self.wb_mask.next = self.out_mask.val();
            self.wb_d.next = self.alu.result.val();
        } else {
            self.wb_warp.next = 0.into();
            self.wb_reg.next = 0.into();
            self.wb_mask.next = 0.into();
            self.wb_d.next = 0.into();
        }
        self.wb_data.next = self.wb_d.val();
        self.lane_word.next = self.wb_d.val();
        for l in 0..T {
            self.wb_lanes[l].next = bit_cast::<DW, TD>(self.lane_word.val());
            self.lane_word.next = self.lane_word.val() >> self.lane_bits.val();
        }
    }
}
