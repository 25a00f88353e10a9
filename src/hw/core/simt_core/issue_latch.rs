//! IssueLatch: between the [`SimtCore`](super::SimtCore)'s issue stage and its operand
//! collector's input port. With GPGPU-Sim's collector it is a wire: an instruction issues in
//! the cycle a collector unit takes it. With the pipelined collector it is a register, so that
//! no path runs from the issue policy through decode and the scoreboard into the collector's
//! allocation and bank queues: the instruction issued in one cycle is offered to the collector
//! from the next, and issue sees room when the latch is empty or the collector takes its
//! instruction this cycle.

use rust_hdl::prelude::*;

use super::RRW;

/// `WW` warp-id bits, `T` lanes.
#[derive(LogicBlock)]
pub struct IssueLatch<const WW: usize, const T: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// From issue: an instruction for a collector unit, its warp, unit type, instruction word,
    /// destination, lanes and sources.
    pub in_valid: Signal<In, Bit>,
    pub in_warp: Signal<In, Bits<WW>>,
    pub in_unit: Signal<In, Bits<1>>,
    pub in_tag: Signal<In, Bits<32>>,
    pub in_dst: Signal<In, Bits<RRW>>,
    pub in_mask: Signal<In, Bits<T>>,
    pub in_src_valid: Signal<In, Bits<3>>,
    pub in_src_a: Signal<In, Bits<RRW>>,
    pub in_src_b: Signal<In, Bits<RRW>>,
    /// To issue: an instruction offered now is taken.
    pub ready: Signal<Out, Bit>,
    /// To the collector's input port, and its `in_ready`.
    pub out_valid: Signal<Out, Bit>,
    pub out_warp: Signal<Out, Bits<WW>>,
    pub out_unit: Signal<Out, Bits<1>>,
    pub out_tag: Signal<Out, Bits<32>>,
    pub out_dst: Signal<Out, Bits<RRW>>,
    pub out_mask: Signal<Out, Bits<T>>,
    pub out_src_valid: Signal<Out, Bits<3>>,
    pub out_src_a: Signal<Out, Bits<RRW>>,
    pub out_src_b: Signal<Out, Bits<RRW>>,
    pub oc_ready: Signal<In, Bit>,
    /// The latch holds an instruction (the run is not drained).
    pub pending: Signal<Out, Bit>,
    held: DFF<Bit>,
    warp: DFF<Bits<WW>>,
    unit: DFF<Bits<1>>,
    tag: DFF<Bits<32>>,
    dst: DFF<Bits<RRW>>,
    mask: DFF<Bits<T>>,
    src_valid: DFF<Bits<3>>,
    src_a: DFF<Bits<RRW>>,
    src_b: DFF<Bits<RRW>>,
    registered: Constant<Bit>,
}

impl<const WW: usize, const T: usize> IssueLatch<WW, T> {
    /// A register when `registered` (the pipelined collector), else a wire.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_warp: Default::default(),
            in_unit: Default::default(),
            in_tag: Default::default(),
            in_dst: Default::default(),
            in_mask: Default::default(),
            in_src_valid: Default::default(),
            in_src_a: Default::default(),
            in_src_b: Default::default(),
            ready: Default::default(),
            out_valid: Default::default(),
            out_warp: Default::default(),
            out_unit: Default::default(),
            out_tag: Default::default(),
            out_dst: Default::default(),
            out_mask: Default::default(),
            out_src_valid: Default::default(),
            out_src_a: Default::default(),
            out_src_b: Default::default(),
            oc_ready: Default::default(),
            pending: Default::default(),
            held: Default::default(),
            warp: Default::default(),
            unit: Default::default(),
            tag: Default::default(),
            dst: Default::default(),
            mask: Default::default(),
            src_valid: Default::default(),
            src_a: Default::default(),
            src_b: Default::default(),
            registered: Constant::new(registered),
        }
    }
}

impl<const WW: usize, const T: usize> Logic for IssueLatch<WW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held, warp, unit, tag, dst, mask, src_valid, src_a, src_b);
        if self.registered.val() {
            self.ready.next = !self.held.q.val() | self.oc_ready.val();
            self.held.d.next = self.held.q.val() & !self.oc_ready.val();
            if self.in_valid.val() {
                self.held.d.next = true;
                self.warp.d.next = self.in_warp.val();
                self.unit.d.next = self.in_unit.val();
                self.tag.d.next = self.in_tag.val();
                self.dst.d.next = self.in_dst.val();
                self.mask.d.next = self.in_mask.val();
                self.src_valid.d.next = self.in_src_valid.val();
                self.src_a.d.next = self.in_src_a.val();
                self.src_b.d.next = self.in_src_b.val();
            }
            self.out_valid.next = self.held.q.val();
            self.out_warp.next = self.warp.q.val();
            self.out_unit.next = self.unit.q.val();
            self.out_tag.next = self.tag.q.val();
            self.out_dst.next = self.dst.q.val();
            self.out_mask.next = self.mask.q.val();
            self.out_src_valid.next = self.src_valid.q.val();
            self.out_src_a.next = self.src_a.q.val();
            self.out_src_b.next = self.src_b.q.val();
        } else {
            self.ready.next = self.oc_ready.val();
            self.out_valid.next = self.in_valid.val();
            self.out_warp.next = self.in_warp.val();
            self.out_unit.next = self.in_unit.val();
            self.out_tag.next = self.in_tag.val();
            self.out_dst.next = self.in_dst.val();
            self.out_mask.next = self.in_mask.val();
            self.out_src_valid.next = self.in_src_valid.val();
            self.out_src_a.next = self.in_src_a.val();
            self.out_src_b.next = self.in_src_b.val();
        }
        self.pending.next = self.registered.val() & self.held.q.val();
        if self.reset.val() {
            self.held.d.next = false;
        }
    }
}
