//! The board top ([`CoreBoard`]) simulated in rust-hdl behind a [`Serial`] port: the host's
//! bytes become levels on `usb_rx`, `clocks_per_bit` cycles per bit, and `usb_tx` is decoded by
//! the receiver's model. What [`crate::link::Host`] does over USB it does here through the same
//! serial lines, cycle by cycle.

use anyhow::{bail, Result};

use super::CoreBoard;
use crate::hw::link::uart::model::{frame_bit, UartRxModel};
use crate::link::Serial;
use crate::sim::differential::{clock_edge, cycle_outputs, prepare};
use crate::sim::CycleModel;

pub struct SimBoard {
    pub dut: Box<CoreBoard>,
    pub clocks_per_bit: usize,
    pub cycle: usize,
    decoder: UartRxModel,
    received: std::collections::VecDeque<u8>,
    /// Every cycle's inputs (`rst_n`, `usb_rx`) and outputs (`led`, `usb_tx`), when recording.
    #[allow(clippy::type_complexity)]
    // (inputs, outputs) per cycle, as the Verilog runner takes them
    pub trace: Option<(Vec<Vec<u64>>, Vec<Vec<u64>>)>,
}

impl SimBoard {
    /// The board top at power-up (local data share holding `lds`), past its power-on reset.
    pub fn new(clocks_per_bit: usize, lds: &[u32]) -> Result<Self> {
        Self::with_trace(clocks_per_bit, lds, false)
    }
    /// As [`new`](Self::new); with `trace`, every cycle from power-up is recorded.
    pub fn with_trace(clocks_per_bit: usize, lds: &[u32], trace: bool) -> Result<Self> {
        let mut dut = Box::new(CoreBoard::new(clocks_per_bit, lds)?);
        prepare(dut.as_mut())?;
        let trace = trace.then(Default::default);
        let mut b = Self {
            dut,
            clocks_per_bit,
            cycle: 0,
            decoder: UartRxModel::new(clocks_per_bit),
            received: Default::default(),
            trace,
        };
        for _ in 0..20 {
            b.tick(true, true)?;
        }
        Ok(b)
    }

    /// One cycle with the reset button (`rst_n`, low pressed) and the host's line at these levels.
    pub fn tick(&mut self, rst_n: bool, rx: bool) -> Result<()> {
        let inputs = [rst_n as u64, rx as u64];
        let out = cycle_outputs(self.dut.as_mut(), &inputs, self.cycle)?;
        let line = [0, out[1]];
        let decoded = self.decoder.outputs(&line);
        if decoded[0] == 1 {
            self.received.push_back(decoded[1] as u8);
        }
        self.decoder.step(&line);
        if let Some((ins, outs)) = &mut self.trace {
            ins.push(inputs.to_vec());
            outs.push(out);
        }
        clock_edge(self.dut.as_mut(), self.cycle)?;
        self.cycle += 1;
        Ok(())
    }
}

impl Serial for SimBoard {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        for &b in bytes {
            for k in 0..10 {
                for _ in 0..self.clocks_per_bit {
                    self.tick(true, frame_bit(b, k))?;
                }
            }
        }
        Ok(())
    }
    fn receive(&mut self, n: usize) -> Result<Vec<u8>> {
        let limit = self.cycle + (n + 2) * 12 * self.clocks_per_bit;
        while self.received.len() < n {
            if self.cycle > limit {
                bail!(
                    "the board did not answer: {} of {n} bytes by cycle {}",
                    self.received.len(),
                    self.cycle
                );
            }
            self.tick(true, true)?;
        }
        Ok(self.received.drain(..n).collect())
    }
}
