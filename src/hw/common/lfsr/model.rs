//! Reference models of [`Lfsr`](crate::hw::Lfsr) and [`Misr`](crate::hw::Misr): the
//! Galois LFSR step, written from its definition.

use crate::sim::{CycleModel, PortNames};

/// One Galois step of a `taps` register: shift right, XOR `taps` if the bit shifted out was 1.
pub fn galois_step(state: u64, taps: u64) -> u64 {
    (state >> 1) ^ if state & 1 == 1 { taps } else { 0 }
}

/// Maximal-length tap masks (Galois form) used by the board self-test.
pub const TAPS_16: u64 = 0xB400;
pub use crate::params::{LFSR_SEED, TAPS_32};

#[derive(Clone, Debug)]
/// The reference model of [`Lfsr`](crate::hw::Lfsr).
pub struct LfsrModel {
    /// The feedback taps (Galois form).
    pub taps: u64,
    /// The state a reset loads.
    pub seed: u64,
    /// 0 at power-up, as the hardware's flip-flops.
    pub state: u64,
}

impl CycleModel for LfsrModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["reset", "enable"]).outputs(&["value"])
    }
    /// Inputs reset, enable; output value.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        vec![self.state]
    }
    fn step(&mut self, i: &[u64]) {
        if i[0] == 1 {
            self.state = self.seed;
        } else if i[1] == 1 {
            self.state = galois_step(self.state, self.taps);
        }
    }
}

#[derive(Clone, Debug)]
/// The reference model of [`Misr`](crate::hw::Misr).
pub struct MisrModel {
    /// The feedback taps (Galois form).
    pub taps: u64,
    /// The signature so far.
    pub state: u64,
}

impl CycleModel for MisrModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["reset", "enable", "data"]).outputs(&["signature"])
    }
    /// Inputs reset, enable, data; output signature.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        vec![self.state]
    }
    fn step(&mut self, i: &[u64]) {
        if i[0] == 1 {
            self.state = 0;
        } else if i[1] == 1 {
            self.state = galois_step(self.state, self.taps) ^ i[2];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 16-bit taps are maximal: the period is 2^16 - 1 from any non-zero state.
    #[test]
    fn taps_16_are_maximal() {
        let (mut s, mut n) = (1u64, 0u64);
        loop {
            s = galois_step(s, TAPS_16);
            n += 1;
            if s == 1 {
                break;
            }
            assert!(s != 0 && n < 1 << 16);
        }
        assert_eq!(n, (1 << 16) - 1);
    }
}
