//! CollectorSelfTest: the [`OperandCollector`] under on-chip pseudo-random traffic, its outputs
//! folded into one registered 32-bit word per cycle; the operand-collector half of the board's
//! [`SelfTest`](crate::boards::SelfTest).
//!
//! Four 32-bit [`Lfsr`]s drive every input with traffic of the kind the collector's random tests
//! use: on each input port an instruction about three cycles in four, with a random warp, unit
//! type, tag, destination, lane mask, source registers (all three valid one cycle in two,
//! otherwise a random subset); write-backs one cycle in two with random lanes and data; each
//! output register drained three cycles in four. Registers spread over all banks, so the
//! operands of one instruction often meet in a bank and queue.
//!
//! Every output (handshakes, allocations, the dispatched instructions with their operand
//! values, grants, counters and error flags) is XORed into `fold`, rotated by 5 bits before each
//! term so that no two outputs cancel, and `fold` is registered: the signature logic adds no
//! path to the collector's.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{Lfsr, OperandCollector};
use crate::params::CollectorParams;
use crate::params::TAPS_32;

/// The collector's sizes, as [`OperandCollector`]'s const generics.
#[derive(LogicBlock)]
pub struct CollectorSelfTest<
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
    /// Synchronous reset, active high: the collector and the traffic start over.
    pub reset: Signal<In, Bit>,
    /// Every output of the collector of the previous cycle, folded into 32 bits.
    pub fold: Signal<Out, Bits<32>>,
    /// An error flag of the collector is raised (`err_unit` or `err_overflow`, both sticky).
    pub error: Signal<Out, Bit>,
    oc: OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>,
    traffic_a: Lfsr<32>,
    traffic_b: Lfsr<32>,
    traffic_c: Lfsr<32>,
    traffic_d: Lfsr<32>,
    fold_q: DFF<Bits<32>>,
    ra: Signal<Local, Bits<32>>,
    rb: Signal<Local, Bits<32>>,
    rc: Signal<Local, Bits<32>>,
    rd: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    srcs: Signal<Local, Bits<32>>,
    flags: Signal<Local, Bits<32>>,
    term: Signal<Local, Bits<32>>,
    mix: Signal<Local, Bits<32>>,
    // One output of an indexed port at a time (hdl_gen takes no indexed expression inside
    // `bit_cast`).
    cu_of: Signal<Local, Bits<NW>>,
    warp_of: Signal<Local, Bits<WW>>,
    tag_of: Signal<Local, Bits<G>>,
    reg_of: Signal<Local, Bits<RRW>>,
    src_valid_of: Signal<Local, Bits<3>>,
    mask_of: Signal<Local, Bits<T>>,
    operand_of: Signal<Local, Bits<TD>>,
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
    > CollectorSelfTest<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
{
    /// The collector of `params` serving `warps` warps of `threads` lanes (checked as
    /// [`OperandCollector::new`] checks them).
    pub fn new(params: CollectorParams, warps: usize, threads: usize) -> Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            fold: Default::default(),
            error: Default::default(),
            oc: OperandCollector::new(params, warps, threads)?,
            traffic_a: Lfsr::new(TAPS_32, 0x2545_F491)?,
            traffic_b: Lfsr::new(TAPS_32, 0x6A09_E667)?,
            traffic_c: Lfsr::new(TAPS_32, 0xBB67_AE85)?,
            traffic_d: Lfsr::new(TAPS_32, 0x3C6E_F372)?,
            fold_q: Default::default(),
            ra: Default::default(),
            rb: Default::default(),
            rc: Default::default(),
            rd: Default::default(),
            shifted: Default::default(),
            srcs: Default::default(),
            flags: Default::default(),
            term: Default::default(),
            mix: Default::default(),
            cu_of: Default::default(),
            warp_of: Default::default(),
            tag_of: Default::default(),
            reg_of: Default::default(),
            src_valid_of: Default::default(),
            mask_of: Default::default(),
            operand_of: Default::default(),
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
    for CollectorSelfTest<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fold_q);
        self.oc.clock.next = self.clock.val();
        self.traffic_a.clock.next = self.clock.val();
        self.traffic_b.clock.next = self.clock.val();
        self.traffic_c.clock.next = self.clock.val();
        self.traffic_d.clock.next = self.clock.val();
        self.traffic_a.reset.next = self.reset.val();
        self.traffic_b.reset.next = self.reset.val();
        self.traffic_c.reset.next = self.reset.val();
        self.traffic_d.reset.next = self.reset.val();
        self.traffic_a.enable.next = true;
        self.traffic_b.enable.next = true;
        self.traffic_c.enable.next = true;
        self.traffic_d.enable.next = true;
        self.oc.reset.next = self.reset.val();
        self.ra.next = self.traffic_a.value.val();
        self.rb.next = self.traffic_b.value.val();
        self.rc.next = self.traffic_c.value.val();
        self.rd.next = self.traffic_d.value.val();
        // Instructions: port p is offered one when bit p or bit 8 of `ra` is set.
        self.shifted.next = self.ra.val() >> 20;
        for p in 0..P {
            self.oc.in_valid[p].next = self.ra.val().get_bit(p) | self.ra.val().get_bit(8);
            self.oc.in_warp[p].next = bit_cast::<WW, 32>(self.rb.val());
            self.oc.in_unit[p].next = bit_cast::<UW, 32>(self.shifted.val());
            self.shifted.next = self.ra.val() >> 24;
            self.oc.in_tag[p].next = bit_cast::<G, 32>(self.shifted.val());
            self.shifted.next = self.rb.val() >> 8;
            self.oc.in_dst[p].next = bit_cast::<RRW, 32>(self.shifted.val());
            self.oc.in_mask[p].next = bit_cast::<T, 32>(self.rc.val());
            self.shifted.next = self.ra.val() >> 12;
            self.oc.in_src_valid[p].next = bit_cast::<3, 32>(self.shifted.val());
            if self.ra.val().get_bit(9) {
                self.oc.in_src_valid[p].next = 7.into();
            }
        }
        // Source registers: 5 bits of `rd` each.
        self.srcs.next = self.rd.val();
        for k in 0..K {
            self.oc.in_src[k].next = bit_cast::<RRW, 32>(self.srcs.val());
            self.srcs.next = self.srcs.val() >> 5;
        }
        // Output registers drained unless both of two bits of `rb` are clear.
        self.shifted.next = self.rb.val() >> 16;
        for u in 0..U {
            self.oc.out_ready[u].next = self.shifted.val().get_bit(u) | self.rb.val().get_bit(30);
        }
        // Write-backs
        self.oc.wb_valid.next = self.rb.val().get_bit(24);
        self.shifted.next = self.rc.val() >> 8;
        self.oc.wb_warp.next = bit_cast::<WW, 32>(self.shifted.val());
        self.shifted.next = self.rc.val() >> 12;
        self.oc.wb_reg.next = bit_cast::<RRW, 32>(self.shifted.val());
        self.shifted.next = self.rc.val() >> 20;
        self.oc.wb_mask.next = bit_cast::<T, 32>(self.shifted.val());
        self.oc.wb_data.next = bit_cast::<TD, 32>(self.rd.val() ^ self.rc.val());
        // Fold every output: mix = rotate-left-5(mix) ^ term, one term per output.
        self.flags.next = 0.into();
        self.flags.next = self.flags.val().replace_bit(0, self.oc.err_unit.val());
        self.flags.next = self.flags.val().replace_bit(1, self.oc.err_overflow.val());
        self.term.next = bit_cast::<32, N>(self.oc.busy.val());
        self.flags.next = self.flags.val() ^ (self.term.val() << 2);
        self.term.next = bit_cast::<32, N>(self.oc.dispatch.val());
        self.flags.next = self.flags.val() ^ (self.term.val() << 11);
        self.term.next = bit_cast::<32, B>(self.oc.grant.val());
        self.flags.next = self.flags.val() ^ (self.term.val() << 20);
        self.mix.next = self.flags.val();
        for p in 0..P {
            self.cu_of.next = self.oc.in_cu[p].val();
            self.term.next = bit_cast::<32, NW>(self.cu_of.val()) << 1;
            self.term.next = self.term.val().replace_bit(0, self.oc.in_ready[p].val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
        }
        for u in 0..U {
            self.warp_of.next = self.oc.out_warp[u].val();
            self.term.next = bit_cast::<32, WW>(self.warp_of.val()) << 4;
            self.term.next = self.term.val().replace_bit(0, self.oc.out_valid[u].val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.tag_of.next = self.oc.out_tag[u].val();
            self.term.next = bit_cast::<32, G>(self.tag_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.reg_of.next = self.oc.out_dst[u].val();
            self.term.next = bit_cast::<32, RRW>(self.reg_of.val()) << 3;
            self.src_valid_of.next = self.oc.out_src_valid[u].val();
            self.term.next = self.term.val() ^ bit_cast::<32, 3>(self.src_valid_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.mask_of.next = self.oc.out_mask[u].val();
            self.term.next = bit_cast::<32, T>(self.mask_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.operand_of.next = self.oc.out_src0[u].val();
            self.term.next = bit_cast::<32, TD>(self.operand_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.operand_of.next = self.oc.out_src1[u].val();
            self.term.next = bit_cast::<32, TD>(self.operand_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
            self.operand_of.next = self.oc.out_src2[u].val();
            self.term.next = bit_cast::<32, TD>(self.operand_of.val());
            self.mix.next = ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.term.val();
        }
        self.mix.next =
            ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.oc.count_alloc.val();
        self.mix.next =
            ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.oc.count_dispatch.val();
        self.mix.next =
            ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.oc.count_stall.val();
        for b in 0..B {
            self.mix.next =
                ((self.mix.val() << 5) | (self.mix.val() >> 27)) ^ self.oc.count_grant[b].val();
        }
        self.fold_q.d.next = self.mix.val();
        self.fold.next = self.fold_q.q.val();
        self.error.next = self.oc.err_unit.val() | self.oc.err_overflow.val();
    }
}
