//! Reference model of [`RegisterMap`](crate::hw::RegisterMap): GPGPU-Sim's
//! `register_bank()` (seed 000) and the row that goes with it.

use crate::sim::{CycleModel, PortNames};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct RegisterMapModel {
    /// Register banks.
    pub banks: usize,
    /// Registers per warp.
    pub regs_per_warp: usize,
    /// 1: no sub-core model.
    pub schedulers: usize,
}

impl RegisterMapModel {
    /// `(bank, row)` of warp `wid`'s register `regnum`.
    pub fn locate(&self, wid: usize, regnum: usize) -> (usize, usize) {
        // register_bank(): bank = regnum; if (bank_warp_shift) bank += wid; ...
        let bank = regnum + wid;
        let banks_per_sched = self.banks / self.schedulers;
        let bank = if self.schedulers > 1 {
            let sched_id = wid % self.schedulers;
            bank % banks_per_sched + sched_id * banks_per_sched
        } else {
            bank % self.banks
        };
        let row = (wid / self.schedulers) * (self.regs_per_warp / banks_per_sched)
            + regnum / banks_per_sched;
        (bank, row)
    }
}

impl CycleModel for RegisterMapModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["warp", "regnum"]).outputs(&["bank", "row"])
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let (bank, row) = self.locate(inputs[0] as usize, inputs[1] as usize);
        vec![bank as u64, row as u64]
    }
    fn step(&mut self, _inputs: &[u64]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every register of every warp has its own (bank, row), and rows stay below W R / B.
    #[test]
    fn no_two_registers_share_a_row() {
        for (banks, regs, scheds, warps) in
            [(4, 16, 1, 4), (8, 32, 1, 8), (8, 32, 4, 8), (4, 8, 2, 2), (2, 4, 1, 2)]
        {
            let m = RegisterMapModel { banks, regs_per_warp: regs, schedulers: scheds };
            let mut seen = std::collections::HashSet::new();
            for w in 0..warps {
                for r in 0..regs {
                    let (b, row) = m.locate(w, r);
                    assert!(b < banks && row < warps * regs / banks, "{:?} w{w} r{r}", m);
                    assert!(seen.insert((b, row)), "{:?}: w{w} r{r} collides", m);
                    if scheds > 1 {
                        assert_eq!(
                            b / (banks / scheds),
                            w % scheds,
                            "sub-core bank of the warp's scheduler"
                        );
                    }
                }
            }
        }
    }
}
