//! BoardReset: a board top's reset: a power-on reset held for the first [`POR_CYCLES`] cycles
//! after configuration, or the reset button (`rst_n`, active low, asynchronous), synchronised
//! by two flip-flops. `reset` is high while either holds.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

/// Cycles the power-on reset lasts (the flip-flops start at 0 after configuration).
pub const POR_CYCLES: u64 = 15;

#[derive(LogicBlock)]
pub struct BoardReset {
    /// The board clock.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub rst_n: Signal<In, Bit>,
    /// Synchronous reset for the design, active high.
    pub reset: Signal<Out, Bit>,
    sync0: DFF<Bit>,
    sync1: DFF<Bit>,
    por: DFF<Bits<4>>,
    por_done: Constant<Bits<4>>,
}

impl BoardReset {
    pub fn new() -> Result<Self> {
        Ok(Self {
            clock: Default::default(),
            rst_n: Default::default(),
            reset: Default::default(),
            sync0: Default::default(),
            sync1: Default::default(),
            por: Default::default(),
            por_done: Constant::new(POR_CYCLES.to_bits()),
        })
    }
}

impl Logic for BoardReset {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sync0, sync1, por);
        self.sync0.d.next = !self.rst_n.val();
        self.sync1.d.next = self.sync0.q.val();
        if self.por.q.val() != self.por_done.val() {
            self.por.d.next = self.por.q.val() + 1;
        }
        self.reset.next = self.sync1.q.val() | (self.por.q.val() != self.por_done.val());
    }
}

impl crate::sim::Dut for BoardReset {
    crate::dut_ports!(clock: clock, inputs: [rst_n], outputs: [reset]);
}
