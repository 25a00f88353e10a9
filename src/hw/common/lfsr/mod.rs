//! Lfsr: a `W`-bit Galois linear-feedback shift register, the board self-test's pseudo-random
//! traffic source. Each enabled cycle the state shifts right by one and, when the bit shifted out
//! is 1, is XORed with the tap mask. With a maximal-length tap mask the state visits all
//! `2^W - 1` non-zero values before repeating.

pub mod misr;
pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::{bail, Result};
use rust_hdl::prelude::*;

use crate::params::check_range;

#[derive(LogicBlock)]
/// A `W`-bit Galois LFSR (the module's header).
pub struct Lfsr<const W: usize> {
    /// Clock; the state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the state becomes the seed.
    pub reset: Signal<In, Bit>,
    /// Advance one step at this edge.
    pub enable: Signal<In, Bit>,
    /// The current state (never 0).
    pub value: Signal<Out, Bits<W>>,
    state: DFF<Bits<W>>,
    taps: Constant<Bits<W>>,
    seed: Constant<Bits<W>>,
}

impl<const W: usize> Lfsr<W> {
    /// `taps`: the feedback mask (bit `W - 1` set); `seed`: the non-zero state after reset.
    pub fn new(taps: u64, seed: u64) -> Result<Self> {
        check_range("width (W)", W, 2, 64)?;
        let top = 1u64 << (W - 1);
        let mask = top | (top - 1);
        if taps & top == 0 || taps & !mask != 0 {
            bail!("parameter `taps` = {taps:#x} must have bit {} (the width's top bit) set and no bit above it", W - 1);
        }
        if seed == 0 || seed & !mask != 0 {
            bail!("parameter `seed` = {seed:#x} must be non-zero and fit in {W} bits (an LFSR in state 0 stays there)");
        }
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            value: Default::default(),
            state: Default::default(),
            taps: Constant::new(taps.to_bits()),
            seed: Constant::new(seed.to_bits()),
        })
    }
}

impl<const W: usize> Logic for Lfsr<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        self.value.next = self.state.q.val();
        if self.reset.val() {
            self.state.d.next = self.seed.val();
        } else if self.enable.val() {
            if self.state.q.val().get_bit(0) {
                self.state.d.next = (self.state.q.val() >> 1) ^ self.taps.val();
            } else {
                self.state.d.next = self.state.q.val() >> 1;
            }
        }
    }
}

impl<const W: usize> crate::sim::Dut for Lfsr<W> {
    crate::dut_ports!(clock: clock, inputs: [reset, enable], outputs: [value]);
}
