//! UartTx: the serial transmitter of the board's host link: 8 data bits, no parity, 1 stop bit
//! (8N1), least significant bit first, each bit held for `clocks_per_bit` cycles
//! (100 MHz / 1 Mbaud = 100 on the Alchitry Cu).
//!
//! The frame being sent sits inverted in a 10-bit shift register whose bit 0 drives `tx` through
//! an inverter from a flip-flop (no glitch on the pin); all zeros, the power-up state, is an idle
//! (high) line. `data_ready` is high while idle: a
//! byte offered with `data_valid` is taken at that edge and its start bit is on the line from the
//! next cycle.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::check_range;

#[derive(LogicBlock)]
/// The serial transmitter, 8N1 (the module's header).
pub struct UartTx {
    /// Clock: all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the line goes idle (high) at once, a frame in progress is
    /// cut off.
    pub reset: Signal<In, Bit>,
    /// A byte to send, taken at this edge when `data_ready`.
    pub data_valid: Signal<In, Bit>,
    /// The byte to send.
    pub data: Signal<In, Bits<8>>,
    /// The transmitter is idle.
    pub data_ready: Signal<Out, Bit>,
    /// The serial line (idle high).
    pub tx: Signal<Out, Bit>,
    /// The frame, inverted: bit 0 is the complement of the line.
    frame_n: DFF<Bits<10>>,
    bits_left: DFF<Bits<4>>,
    count: DFF<Bits<16>>,
    last: Constant<Bits<16>>,
    /// The start bit, inverted.
    start_n: Constant<Bits<10>>,
    data_n: Signal<Local, Bits<8>>,
}

impl UartTx {
    /// `clocks_per_bit`: cycles per bit, 4 to 65,536 (the receiver samples at half a bit).
    pub fn new(clocks_per_bit: usize) -> Result<Self> {
        check_range("clocks_per_bit", clocks_per_bit, 4, 1 << 16)?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            data_valid: Default::default(),
            data: Default::default(),
            data_ready: Default::default(),
            tx: Default::default(),
            frame_n: Default::default(),
            bits_left: Default::default(),
            count: Default::default(),
            last: Constant::new((clocks_per_bit as u64 - 1).to_bits()),
            start_n: Constant::new(1u64.to_bits()),
            data_n: Default::default(),
        })
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, frame_n, bits_left, count);
        self.tx.next = !self.frame_n.q.val().get_bit(0);
        self.data_n.next = !self.data.val();
        self.data_ready.next = self.bits_left.q.val() == 0;
        if self.reset.val() {
            self.frame_n.d.next = 0.into();
            self.bits_left.d.next = 0.into();
            self.count.d.next = 0.into();
        } else if self.bits_left.q.val() == 0 {
            // Idle: the line stays high until a byte is taken.
            if self.data_valid.val() {
                // Stop bit (1), data, start bit (0, sent first), inverted.
                // (The complement through an 8-bit local: in Verilog `~data` inside the 10-bit
                // expression would be widened first and set the top bits.)
                self.frame_n.d.next =
                    (bit_cast::<10, 8>(self.data_n.val()) << 1) | self.start_n.val();
                self.bits_left.d.next = 10.into();
                self.count.d.next = self.last.val();
            }
        } else if self.count.q.val() == 0 {
            self.frame_n.d.next = self.frame_n.q.val() >> 1;
            self.bits_left.d.next = self.bits_left.q.val() - 1;
            self.count.d.next = self.last.val();
        } else {
            self.count.d.next = self.count.q.val() - 1;
        }
    }
}

impl crate::sim::Dut for UartTx {
    crate::dut_ports!(clock: clock, inputs: [reset, data_valid, data], outputs: [data_ready, tx]);
}
