//! Reference model of [`BoardReset`](crate::boards::BoardReset): reset while fewer than
//! `POR_CYCLES` cycles have passed since configuration, or while the button was pressed two
//! cycles ago (its two synchronising flip-flops).

use crate::boards::board_reset::POR_CYCLES;
use crate::sim::{CycleModel, PortNames};

#[derive(Clone, Debug, Default)]
pub struct BoardResetModel {
    /// Cycles since configuration (saturating at `POR_CYCLES`).
    pub cycles: u64,
    /// The button pressed one and two cycles ago.
    pub pressed: [bool; 2],
}

impl CycleModel for BoardResetModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["rst_n"]).outputs(&["reset"])
    }
    /// Input rst_n; output reset.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        vec![(self.cycles < POR_CYCLES || self.pressed[1]) as u64]
    }
    fn step(&mut self, i: &[u64]) {
        self.cycles = (self.cycles + 1).min(POR_CYCLES);
        self.pressed = [i[0] == 0, self.pressed[0]];
    }
}
