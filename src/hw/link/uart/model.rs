//! Reference models of [`UartTx`](crate::hw::UartTx) and [`UartRx`](crate::hw::UartRx),
//! written from the 8N1 frame: a start bit (0), 8 data bits least significant first, a stop bit
//! (1), each `clocks_per_bit` cycles long; the receiver samples bit `k` of a frame
//! `clocks_per_bit / 2 + k clocks_per_bit` cycles after it saw the start.

use crate::sim::{CycleModel, PortNames};

/// Bit `k` (0..10) of the frame of `byte` on the line.
pub fn frame_bit(byte: u8, k: usize) -> bool {
    match k {
        0 => false,
        1..=8 => byte >> (k - 1) & 1 == 1,
        _ => true,
    }
}

#[derive(Clone, Debug)]
/// The reference model of [`UartTx`](crate::hw::UartTx).
pub struct UartTxModel {
    /// Clock cycles per bit.
    pub clocks_per_bit: usize,
    /// The byte on the line and the cycles of its frame already sent.
    pub sending: Option<(u8, usize)>,
}

impl UartTxModel {
    /// The model of an idle transmitter of `clocks_per_bit` cycles per bit.
    pub fn new(clocks_per_bit: usize) -> Self {
        Self { clocks_per_bit, sending: None }
    }
}

impl CycleModel for UartTxModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["reset", "data_valid", "data"]).outputs(&["data_ready", "tx"])
    }
    /// Inputs reset, data_valid, data; outputs data_ready, tx.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        match self.sending {
            None => vec![1, 1],
            Some((byte, t)) => vec![0, frame_bit(byte, t / self.clocks_per_bit) as u64],
        }
    }
    fn step(&mut self, i: &[u64]) {
        self.sending = match self.sending {
            _ if i[0] == 1 => None,
            None if i[1] == 1 => Some((i[2] as u8, 0)),
            None => None,
            Some((byte, t)) => (t + 1 < 10 * self.clocks_per_bit).then_some((byte, t + 1)),
        };
    }
}

#[derive(Clone, Debug)]
/// The reference model of [`UartRx`](crate::hw::UartRx).
pub struct UartRxModel {
    /// Clock cycles per bit.
    pub clocks_per_bit: usize,
    /// The line as the receiver sees it: `rx` two cycles ago and one cycle ago.
    pub delayed: [bool; 2],
    /// Cycles since the start of the frame being received was seen.
    pub frame: Option<usize>,
    /// The data bits sampled, shifted in from the top (the last byte when none is arriving).
    pub shift: u8,
    /// A byte arrived this cycle.
    pub valid: bool,
    /// Sticky: a frame's stop bit was low.
    pub err_frame: bool,
}

impl UartRxModel {
    /// The model of an idle receiver of `clocks_per_bit` cycles per bit.
    pub fn new(clocks_per_bit: usize) -> Self {
        Self {
            clocks_per_bit,
            delayed: [true, true],
            frame: None,
            shift: 0,
            valid: false,
            err_frame: false,
        }
    }
}

impl CycleModel for UartRxModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["reset", "rx"]).outputs(&["data_valid", "data", "err_frame"])
    }
    /// Inputs reset, rx; outputs data_valid, data, err_frame.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        vec![self.valid as u64, self.shift as u64, self.err_frame as u64]
    }
    fn step(&mut self, i: &[u64]) {
        let line = self.delayed[0];
        self.delayed = [self.delayed[1], i[1] == 1];
        self.valid = false;
        if i[0] == 1 {
            self.frame = None;
            self.err_frame = false;
            return;
        }
        let Some(t) = self.frame else {
            if !line {
                // The cycle the start is seen is cycle 0 of the frame.
                self.frame = Some(1);
            }
            return;
        };
        let half = self.clocks_per_bit / 2;
        self.frame = Some(t + 1);
        if t < half || !(t - half).is_multiple_of(self.clocks_per_bit) {
            return;
        }
        match (t - half) / self.clocks_per_bit {
            0 if line => self.frame = None,
            0 => {}
            9 => {
                self.frame = None;
                self.valid = line;
                self.err_frame |= !line;
            }
            _ => self.shift = self.shift >> 1 | (line as u8) << 7,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte sent by the transmitter's model comes out of the receiver's model.
    #[test]
    fn tx_model_into_rx_model() {
        for cpb in [4, 5, 8, 100] {
            let (mut tx, mut rx) = (UartTxModel::new(cpb), UartRxModel::new(cpb));
            let mut got = vec![];
            let bytes = [0x00u8, 0xFF, 0xA5, 0x3C, 0x81];
            let mut next = 0;
            for _ in 0..12 * cpb * bytes.len() {
                let offer = next < bytes.len();
                let ti = [0, offer as u64, *bytes.get(next).unwrap_or(&0) as u64];
                let to = tx.outputs(&ti);
                if offer && to[0] == 1 {
                    next += 1;
                }
                let ro = rx.outputs(&[0, to[1]]);
                if ro[0] == 1 {
                    got.push(ro[1] as u8);
                }
                tx.step(&ti);
                rx.step(&[0, to[1]]);
            }
            assert_eq!(got, bytes, "clocks_per_bit {cpb}");
            assert!(!rx.err_frame);
        }
    }
}
