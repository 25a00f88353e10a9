//! LdsPort: the [`SimtCore`](super::SimtCore)'s execution unit of type 1, the
//! [`LocalDataShare`] behind the collector's second output. An `st`, `ld`, `stx` or atomic
//! leaving the collector is taken in a cycle the share is ready; each access ends in a cycle the
//! share is ready, and its answer shows in the next cycle: a load's or an atomic's lanes then go
//! to write-back (which they win over the ALU's). `busy` counts accesses taken whose answer has
//! not shown. With extension `offset`, `ld rd, imm(ra)` and `stx rb, imm(ra)` address each lane's
//! `ra + imm` (an adder per lane).
//!
//! Registered (the pipelined core), the instruction goes first into a register that the share
//! takes it from, and the collector sees the port ready when that register is empty: no path
//! runs from the share's bank-conflict logic into the collector's dispatch. The share then gets
//! at most one access every two cycles.

use anyhow::Result;
use rust_hdl::prelude::*;

use super::RRW;
use crate::hw::core::decoder::Kind;
use crate::hw::core::lane_alu::ExecOp;
use crate::hw::{Decoder, LocalDataShare};

/// `T` lanes of `DW` bits (`TD = T DW`), `WW` warp-id bits, `2^LRW` rows of `LB` banks
/// (`LBW = clog2(LB)`).
#[derive(LogicBlock)]
pub struct LdsPort<
    const T: usize,
    const WW: usize,
    const DW: usize,
    const TD: usize,
    const LRW: usize,
    const LB: usize,
    const LBW: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The collector's output of type 1: an instruction, its warp, lanes and operand `a`.
    pub req_valid: Signal<In, Bit>,
    pub req_inst: Signal<In, Bits<32>>,
    pub req_warp: Signal<In, Bits<WW>>,
    pub req_mask: Signal<In, Bits<T>>,
    pub req_src: Signal<In, Bits<TD>>,
    /// Operand `b`: what `stx` stores (at the addresses in `a`).
    pub req_src_b: Signal<In, Bits<TD>>,
    /// The instruction is taken this cycle (registered: into the port's register).
    pub req_taken: Signal<Out, Bit>,
    /// A load's answer, to write back this cycle.
    pub wb_valid: Signal<Out, Bit>,
    pub wb_warp: Signal<Out, Bits<WW>>,
    pub wb_reg: Signal<Out, Bits<RRW>>,
    pub wb_mask: Signal<Out, Bits<T>>,
    pub wb_data: Signal<Out, Bits<TD>>,
    /// Some access has been taken (or is held) and has not answered.
    pub busy: Signal<Out, Bit>,
    /// The share's bank-conflict cycles.
    pub conflict_cycles: Signal<Out, Bits<32>>,
    lds: LocalDataShare<T, WW, DW, LRW, LB, LBW>,
    dec: Decoder,
    /// Registered: the instruction held for the share.
    held: DFF<Bit>,
    held_inst: DFF<Bits<32>>,
    held_warp: DFF<Bits<WW>>,
    held_mask: DFF<Bits<T>>,
    held_src: DFF<Bits<TD>>,
    held_src_b: DFF<Bits<TD>>,
    registered: Constant<Bit>,
    lds_load: DFF<Bit>,
    lds_warp: DFF<Bits<WW>>,
    lds_rd: DFF<Bits<RRW>>,
    lds_mask: DFF<Bits<T>>,
    resp_load: DFF<Bit>,
    resp_warp: DFF<Bits<WW>>,
    resp_rd: DFF<Bits<RRW>>,
    resp_mask: DFF<Bits<T>>,
    open: DFF<Bits<2>>,
    lane_bits: Constant<Bits<8>>,
    top_lane: Constant<Bits<16>>,
    k_st: Constant<Bits<4>>,
    k_ld: Constant<Bits<4>>,
    k_stx: Constant<Bits<4>>,
    k_atomic: Constant<Bits<4>>,
    /// An atomic's exec op for exchange (`PassB`; `Add` adds).
    k_exchange: Constant<Bits<4>>,
    /// Built with `stx` (extension `stx`).
    has_stx: Constant<Bit>,
    /// Built with atomics (extension `atomic`) and with base + offset addressing (`offset`).
    has_atomic: Constant<Bit>,
    has_offset: Constant<Bit>,
    /// The request is an atomic; it answers (a load or an atomic).
    atomic: Signal<Local, Bit>,
    answers: Signal<Local, Bit>,
    /// The offset added to each lane's address (0 but for the base + offset forms).
    offset: Signal<Local, Bits<DW>>,
    /// The request the share sees: the collector's, or (registered) the one held.
    r_valid: Signal<Local, Bit>,
    r_inst: Signal<Local, Bits<32>>,
    r_warp: Signal<Local, Bits<WW>>,
    r_mask: Signal<Local, Bits<T>>,
    taken: Signal<Local, Bit>,
    src: Signal<Local, Bits<TD>>,
    /// What the lanes store: operand `a` (`st`), or `b` (`stx`).
    data: Signal<Local, Bits<TD>>,
    scatter: Signal<Local, Bit>,
    resp_lane: Signal<Local, Bits<DW>>,
    lane_word: Signal<Local, Bits<TD>>,
    resp_word: Signal<Local, Bits<TD>>,
    open_next: Signal<Local, Bits<2>>,
}

impl<
        const T: usize,
        const WW: usize,
        const DW: usize,
        const TD: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
    > LdsPort<T, WW, DW, TD, LRW, LB, LBW>
{
    /// A share for `warps` warps holding `words` from word 0; `registered`: behind a register.
    pub fn with_contents(
        warps: usize,
        words: &[u32],
        registered: bool,
        isa: crate::isa::Extensions,
    ) -> Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_inst: Default::default(),
            req_warp: Default::default(),
            req_mask: Default::default(),
            req_src: Default::default(),
            req_src_b: Default::default(),
            req_taken: Default::default(),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            busy: Default::default(),
            conflict_cycles: Default::default(),
            lds: LocalDataShare::with_contents(warps, words)?
                .with_scatter(isa.stx)
                .with_atomics(isa.atomic),
            dec: Decoder::new(isa)?,
            held: Default::default(),
            held_inst: Default::default(),
            held_warp: Default::default(),
            held_mask: Default::default(),
            held_src: Default::default(),
            held_src_b: Default::default(),
            registered: Constant::new(registered),
            lds_load: Default::default(),
            lds_warp: Default::default(),
            lds_rd: Default::default(),
            lds_mask: Default::default(),
            resp_load: Default::default(),
            resp_warp: Default::default(),
            resp_rd: Default::default(),
            resp_mask: Default::default(),
            open: Default::default(),
            lane_bits: Constant::new(DW.to_bits()),
            top_lane: Constant::new((TD - DW).to_bits()),
            k_st: Constant::new((Kind::St as u64).to_bits()),
            k_ld: Constant::new((Kind::Ld as u64).to_bits()),
            k_stx: Constant::new((Kind::Stx as u64).to_bits()),
            k_atomic: Constant::new((Kind::Atomic as u64).to_bits()),
            k_exchange: Constant::new((ExecOp::PassB.code() & 0xF).to_bits()),
            has_stx: Constant::new(isa.stx),
            has_atomic: Constant::new(isa.atomic),
            has_offset: Constant::new(isa.offset),
            atomic: Default::default(),
            answers: Default::default(),
            offset: Default::default(),
            r_valid: Default::default(),
            r_inst: Default::default(),
            r_warp: Default::default(),
            r_mask: Default::default(),
            taken: Default::default(),
            src: Default::default(),
            data: Default::default(),
            scatter: Default::default(),
            resp_lane: Default::default(),
            lane_word: Default::default(),
            resp_word: Default::default(),
            open_next: Default::default(),
        })
    }
}

impl<
        const T: usize,
        const WW: usize,
        const DW: usize,
        const TD: usize,
        const LRW: usize,
        const LB: usize,
        const LBW: usize,
    > Logic for LdsPort<T, WW, DW, TD, LRW, LB, LBW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, held, held_inst, held_warp, held_mask, held_src, held_src_b, lds_load,
            lds_warp, lds_rd, lds_mask, resp_load, resp_warp, resp_rd, resp_mask, open
        );
        self.lds.clock.next = self.clock.val();
        self.lds.reset.next = self.reset.val();
        // The request: the collector's, or (registered) the one held
        self.held.d.next = self.held.q.val();
        if self.registered.val() {
            self.r_valid.next = self.held.q.val();
            self.r_inst.next = self.held_inst.q.val();
            self.r_warp.next = self.held_warp.q.val();
            self.r_mask.next = self.held_mask.q.val();
            self.src.next = self.held_src.q.val();
            self.data.next = self.held_src_b.q.val();
        } else {
            self.r_valid.next = self.req_valid.val();
            self.r_inst.next = self.req_inst.val();
            self.r_warp.next = self.req_warp.val();
            self.r_mask.next = self.req_mask.val();
            self.src.next = self.req_src.val();
            self.data.next = self.req_src_b.val();
        }
        // Lane l's address (and `st`'s data) is lane l of operand `a` (plus the offset);
        // `stx` and the atomics take operand `b`
        self.dec.inst.next = self.r_inst.val();
        self.scatter.next = self.has_stx.val() & (self.dec.kind.val() == self.k_stx.val());
        self.atomic.next = self.has_atomic.val() & (self.dec.kind.val() == self.k_atomic.val());
        self.answers.next = (self.dec.kind.val() == self.k_ld.val()) | self.atomic.val();
        if !self.scatter.val() & !self.atomic.val() {
            self.data.next = self.src.val();
        }
        self.offset.next = 0.into();
        if self.has_offset.val() & self.dec.lds_offset.val() {
            self.offset.next = bit_cast::<DW, 32>(self.dec.imm.val());
        }
        self.lds.req_valid.next = self.r_valid.val();
        self.lds.req_write.next = (self.dec.kind.val() == self.k_st.val()) | self.scatter.val();
        self.lds.req_scatter.next = self.scatter.val();
        self.lds.req_atomic.next = self.atomic.val();
        self.lds.req_exchange.next = self.dec.exec_op.val() == self.k_exchange.val();
        self.lds.req_mask.next = self.r_mask.val();
        self.lds.req_warp.next = self.r_warp.val();
        self.lds.req_index.next = self.dec.st_index.val();
        self.lds.req_stride.next = self.dec.st_stride.val();
        for l in 0..T {
            self.lds.req_addr[l].next = bit_cast::<DW, TD>(self.src.val()) + self.offset.val();
            self.lds.req_data[l].next = bit_cast::<DW, TD>(self.data.val());
            self.src.next = self.src.val() >> self.lane_bits.val();
            self.data.next = self.data.val() >> self.lane_bits.val();
        }
        self.taken.next = self.r_valid.val() & self.lds.req_ready.val();
        if self.registered.val() {
            self.req_taken.next = self.req_valid.val() & !self.held.q.val();
            if self.taken.val() {
                self.held.d.next = false;
            }
            if self.req_taken.val() {
                self.held.d.next = true;
                self.held_inst.d.next = self.req_inst.val();
                self.held_warp.d.next = self.req_warp.val();
                self.held_mask.d.next = self.req_mask.val();
                self.held_src.d.next = self.req_src.val();
                self.held_src_b.d.next = self.req_src_b.val();
            }
        } else {
            self.req_taken.next = self.taken.val();
        }
        if self.taken.val() {
            self.lds_load.d.next = self.answers.val();
            self.lds_warp.d.next = self.r_warp.val();
            self.lds_rd.d.next = self.dec.rd.val();
            self.lds_mask.d.next = self.r_mask.val();
        }
        // An access ends in a cycle the share is ready; its answer shows the next cycle
        if self.lds.req_ready.val() {
            self.resp_load.d.next = self.lds_load.q.val();
            self.resp_warp.d.next = self.lds_warp.q.val();
            self.resp_rd.d.next = self.lds_rd.q.val();
            self.resp_mask.d.next = self.lds_mask.q.val();
        }
        self.open_next.next = self.open.q.val();
        if self.taken.val() & !self.lds.resp_valid.val() {
            self.open_next.next = self.open.q.val() + 1;
        }
        if !self.taken.val() & self.lds.resp_valid.val() {
            self.open_next.next = self.open.q.val() - 1;
        }
        self.open.d.next = self.open_next.val();
        // The answer: a load's lanes, packed
        self.resp_word.next = 0.into();
        for l in 0..T {
            self.resp_lane.next = self.lds.resp_data[l].val();
            self.lane_word.next = bit_cast::<TD, DW>(self.resp_lane.val());
            self.resp_word.next = (self.resp_word.val() >> self.lane_bits.val())
                | (self.lane_word.val() << self.top_lane.val());
        }
        self.wb_valid.next = self.lds.resp_valid.val() & self.resp_load.q.val();
        self.wb_warp.next = self.resp_warp.q.val();
        self.wb_reg.next = self.resp_rd.q.val();
        self.wb_mask.next = self.resp_mask.q.val();
        self.wb_data.next = self.resp_word.val();
        self.busy.next = self.open.q.val().any() | self.held.q.val();
        self.conflict_cycles.next = self.lds.conflict_cycles.val();
        if self.reset.val() {
            self.held.d.next = false;
            self.open.d.next = 0.into();
            self.resp_load.d.next = false;
            self.lds_load.d.next = false;
        }
    }
}
