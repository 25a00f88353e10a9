//! The byte port of `run`'s Verilator engine: stand-ins for the board top's UART pair
//! ([`UartRx`](crate::hw::UartRx), [`UartTx`](crate::hw::UartTx)) with the same ports toward the
//! host link, whose line is a byte and its valid bit (bit 8) on a 9-bit port each way. The
//! engine's top ([`CoreEngine`](super::CoreEngine), [`CoreEngineSeed`](super::CoreEngineSeed))
//! is the board top with these in place of the UARTs: the host's bytes move one a cycle instead
//! of one in ten bits of 4 cycles, and everything from the link inward is the board's. The
//! serial path the board uses is checked apart: the board top's own Verilog, its read-back
//! bitstreams and `board run --sim` (`tests/core_board.rs`, `tests/board_build.rs`).

use anyhow::Result;
use rust_hdl::prelude::*;

/// The engine's line: bit 8 a byte is there this cycle, bits 7:0 the byte.
pub type ByteLine = Bits<9>;

#[derive(LogicBlock, Default)]
/// The engine's receiver: the byte on `rx` when its bit 8 is set, to the link that cycle.
pub struct ByteRx {
    /// Clock (unused: the receiver has no state; a port as the UART's).
    pub clock: Signal<In, Clock>,
    /// Reset (unused, as `clock`).
    pub reset: Signal<In, Bit>,
    /// The host's byte (bits 7:0) and whether it is there (bit 8).
    pub rx: Signal<In, ByteLine>,
    /// A byte is there this cycle.
    pub data_valid: Signal<Out, Bit>,
    /// The byte.
    pub data: Signal<Out, Bits<8>>,
    /// Never set: there are no frames to break.
    pub err_frame: Signal<Out, Bit>,
}

impl ByteRx {
    /// The receiver; `_clocks_per_bit` is the UART's argument, unused here.
    pub fn new(_clocks_per_bit: usize) -> Result<Self> {
        Ok(Self::default())
    }
}

impl Logic for ByteRx {
    #[hdl_gen]
    fn update(&mut self) {
        self.data_valid.next = self.rx.val().get_bit(8);
        self.data.next = self.rx.val().get_bits::<8>(0);
        self.err_frame.next = false;
    }
}

#[derive(LogicBlock, Default)]
/// The engine's transmitter: always ready, so the link's byte leaves the cycle it offers it, on
/// `tx` with bit 8 set.
pub struct ByteTx {
    /// Clock (unused, as the receiver's).
    pub clock: Signal<In, Clock>,
    /// Reset (unused).
    pub reset: Signal<In, Bit>,
    /// The link offers `data` this cycle.
    pub data_valid: Signal<In, Bit>,
    /// The byte offered.
    pub data: Signal<In, Bits<8>>,
    /// Always high: a byte offered is taken at that edge.
    pub data_ready: Signal<Out, Bit>,
    /// The byte offered (bits 7:0) and whether it is (bit 8).
    pub tx: Signal<Out, ByteLine>,
    line: Signal<Local, ByteLine>,
}

impl ByteTx {
    /// The transmitter; `_clocks_per_bit` is the UART's argument, unused here.
    pub fn new(_clocks_per_bit: usize) -> Result<Self> {
        Ok(Self::default())
    }
}

impl Logic for ByteTx {
    #[hdl_gen]
    fn update(&mut self) {
        self.data_ready.next = true;
        self.line.next = bit_cast::<9, 8>(self.data.val());
        self.line.next = self.line.val().replace_bit(8, self.data_valid.val());
        self.tx.next = self.line.val();
    }
}
