//! UartRx: the serial receiver of the board's host link, 8N1 (see [`UartTx`](crate::hw::UartTx)),
//! `clocks_per_bit` cycles per bit.
//!
//! The line passes two synchronising flip-flops (it comes from another clock domain). A low line
//! while idle starts a frame; each bit is sampled once, in its middle: half a bit after the
//! start was seen, then every `clocks_per_bit` cycles. A start bit that is high again at its
//! middle was a glitch: the receiver goes back to idle. A stop bit that is low is a framing
//! error: the byte is dropped and `err_frame` set. A good byte is on `data` with a one-cycle
//! `data_valid` pulse, the cycle after its stop bit's middle.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::check_range;

#[derive(LogicBlock)]
/// The serial receiver, 8N1 (the module's header).
pub struct UartRx {
    /// Clock: all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, flags cleared.
    pub reset: Signal<In, Bit>,
    /// The serial line (idle high), asynchronous.
    pub rx: Signal<In, Bit>,
    /// A byte arrived: `data` holds it for this cycle.
    pub data_valid: Signal<Out, Bit>,
    /// The byte received.
    pub data: Signal<Out, Bits<8>>,
    /// Sticky: a frame's stop bit was low (the byte was dropped).
    pub err_frame: Signal<Out, Bit>,
    /// The line through two flip-flops, inverted (0 at power-up is an idle line).
    sync1_n: DFF<Bit>,
    sync2_n: DFF<Bit>,
    /// A frame is being received: the next sample is of bit `index` (0: start, 9: stop), in
    /// `count + 1` cycles.
    busy: DFF<Bit>,
    index: DFF<Bits<4>>,
    count: DFF<Bits<16>>,
    shift: DFF<Bits<8>>,
    valid: DFF<Bit>,
    frame_err: DFF<Bit>,
    last: Constant<Bits<16>>,
    half: Constant<Bits<16>>,
    top_bit: Constant<Bits<8>>,
    line: Signal<Local, Bit>,
}

impl UartRx {
    /// `clocks_per_bit`: cycles per bit, 4 to 65,536.
    pub fn new(clocks_per_bit: usize) -> Result<Self> {
        check_range("clocks_per_bit", clocks_per_bit, 4, 1 << 16)?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            data_valid: Default::default(),
            data: Default::default(),
            err_frame: Default::default(),
            sync1_n: Default::default(),
            sync2_n: Default::default(),
            busy: Default::default(),
            index: Default::default(),
            count: Default::default(),
            shift: Default::default(),
            valid: Default::default(),
            frame_err: Default::default(),
            last: Constant::new((clocks_per_bit as u64 - 1).to_bits()),
            half: Constant::new((clocks_per_bit as u64 / 2 - 1).to_bits()),
            top_bit: Constant::new(0x80u64.to_bits()),
            line: Default::default(),
        })
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sync1_n, sync2_n, busy, index, count, shift, valid, frame_err);
        self.data_valid.next = self.valid.q.val();
        self.data.next = self.shift.q.val();
        self.err_frame.next = self.frame_err.q.val();
        self.sync1_n.d.next = !self.rx.val();
        self.sync2_n.d.next = self.sync1_n.q.val();
        self.line.next = !self.sync2_n.q.val();
        self.valid.d.next = false;
        if self.reset.val() {
            self.busy.d.next = false;
            self.frame_err.d.next = false;
        } else if !self.busy.q.val() {
            if !self.line.val() {
                self.busy.d.next = true;
                self.index.d.next = 0.into();
                self.count.d.next = self.half.val();
            }
        } else if self.count.q.val() != 0 {
            self.count.d.next = self.count.q.val() - 1;
        } else {
            // The middle of bit `index`.
            self.count.d.next = self.last.val();
            self.index.d.next = self.index.q.val() + 1;
            if self.index.q.val() == 0 {
                if self.line.val() {
                    self.busy.d.next = false;
                }
            } else if self.index.q.val() == 9 {
                self.busy.d.next = false;
                if self.line.val() {
                    self.valid.d.next = true;
                } else {
                    self.frame_err.d.next = true;
                }
            } else {
                // Data bits arrive least significant first.
                if self.line.val() {
                    self.shift.d.next = (self.shift.q.val() >> 1) | self.top_bit.val();
                } else {
                    self.shift.d.next = self.shift.q.val() >> 1;
                }
            }
        }
    }
}

impl crate::sim::Dut for UartRx {
    crate::dut_ports!(clock: clock, inputs: [reset, rx], outputs: [data_valid, data, err_frame]);
}
