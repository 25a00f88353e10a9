//! Misr: a `W`-bit multiple-input signature register, the board self-test's checksum over
//! everything the blocks under test output. Each enabled cycle the state takes one Galois LFSR
//! step (shift right, XOR the tap mask when the bit shifted out is 1) and XORs in `data`, so
//! any single wrong bit in any cycle changes the final signature.

use anyhow::{bail, Result};
use rust_hdl::prelude::*;

use crate::params::check_range;

#[derive(LogicBlock)]
/// A `W`-bit multiple-input signature register (the module's header).
pub struct Misr<const W: usize> {
    /// Clock; the signature changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the signature becomes 0.
    pub reset: Signal<In, Bit>,
    /// Fold `data` in at this edge.
    pub enable: Signal<In, Bit>,
    /// The word folded in.
    pub data: Signal<In, Bits<W>>,
    /// The signature so far.
    pub signature: Signal<Out, Bits<W>>,
    state: DFF<Bits<W>>,
    taps: Constant<Bits<W>>,
    shifted: Signal<Local, Bits<W>>,
}

impl<const W: usize> Misr<W> {
    /// `taps`: the feedback mask, bit `W - 1` set.
    pub fn new(taps: u64) -> Result<Self> {
        check_range("width (W)", W, 2, 64)?;
        let top = 1u64 << (W - 1);
        if taps & top == 0 || taps & !(top | (top - 1)) != 0 {
            bail!("parameter `taps` = {taps:#x} must have bit {} (the width's top bit) set and no bit above it", W - 1);
        }
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            data: Default::default(),
            signature: Default::default(),
            state: Default::default(),
            taps: Constant::new(taps.to_bits()),
            shifted: Default::default(),
        })
    }
}

impl<const W: usize> Logic for Misr<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        self.signature.next = self.state.q.val();
        self.shifted.next = self.state.q.val() >> 1;
        if self.state.q.val().get_bit(0) {
            self.shifted.next = (self.state.q.val() >> 1) ^ self.taps.val();
        }
        if self.reset.val() {
            self.state.d.next = 0.into();
        } else if self.enable.val() {
            self.state.d.next = self.shifted.val() ^ self.data.val();
        }
    }
}

impl<const W: usize> crate::sim::Dut for Misr<W> {
    crate::dut_ports!(clock: clock, inputs: [reset, enable, data], outputs: [signature]);
}
