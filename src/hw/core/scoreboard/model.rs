//! Reference model of [`Scoreboard`](crate::hw::Scoreboard), from GPGPU-Sim's `Scoreboard`
//! (seed 001): a set of reserved registers per warp; `checkCollision` after this cycle's
//! write-back, then `releaseRegister` and `reserveRegisters` at the edge.

use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order (`check_src` is three ports).
    pub struct ScoreboardIn {
        reset, check_warp, check_src0, check_src1, check_src2, check_src_valid, check_dst, check_dst_valid,
        reserve_valid, reserve_warp, reserve_reg, release_valid, release_warp, release_reg
    }
}

port_struct! {
    /// Outputs, in port order.
    pub struct ScoreboardOut { hazard, pending, err_double_reserve, err_release_free }
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct ScoreboardModel {
    /// `reg_table[w]`: warp `w`'s reserved registers.
    pub reg_table: Vec<std::collections::BTreeSet<u64>>,
    /// Sticky: a register was reserved twice.
    pub double_reserve: bool,
    /// Sticky: a register not reserved was released.
    pub release_free: bool,
}

impl ScoreboardModel {
    /// The model of `warps` warps with no register reserved.
    pub fn new(warps: usize) -> Self {
        ScoreboardModel {
            reg_table: vec![Default::default(); warps],
            double_reserve: false,
            release_free: false,
        }
    }

    /// `checkCollision`: any valid source or the destination of the checked warp is reserved,
    /// once this cycle's release has been applied.
    pub fn collides(&self, i: &ScoreboardIn) -> bool {
        let w = i.check_warp as usize;
        let released =
            |r: u64| i.release_valid == 1 && i.release_warp == i.check_warp && i.release_reg == r;
        let busy = |r: u64| self.reg_table[w].contains(&r) && !released(r);
        let srcs = [i.check_src0, i.check_src1, i.check_src2];
        (i.check_dst_valid == 1 && busy(i.check_dst))
            || (0..3).any(|s| i.check_src_valid >> s & 1 == 1 && busy(srcs[s]))
    }
}

impl CycleModel for ScoreboardModel {
    fn ports(&self) -> PortNames {
        // `check_src` is a port array of three; the struct names its elements 0, 1, 2.
        PortNames::default()
            .inputs(&ScoreboardIn::NAMES[..2])
            .input_array("check_src", 3)
            .inputs(&ScoreboardIn::NAMES[5..])
            .outputs(ScoreboardOut::NAMES)
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = ScoreboardIn::from_words(inputs);
        let pending = self
            .reg_table
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .fold(0, |m, (w, _)| m | 1 << w);
        ScoreboardOut {
            hazard: self.collides(&i) as u64,
            pending,
            err_double_reserve: self.double_reserve as u64,
            err_release_free: self.release_free as u64,
        }
        .to_words()
    }

    fn step(&mut self, inputs: &[u64]) {
        let i = ScoreboardIn::from_words(inputs);
        if i.reset == 1 {
            *self = ScoreboardModel::new(self.reg_table.len());
            return;
        }
        if i.release_valid == 1 && !self.reg_table[i.release_warp as usize].remove(&i.release_reg) {
            self.release_free = true;
        }
        if i.reserve_valid == 1 && !self.reg_table[i.reserve_warp as usize].insert(i.reserve_reg) {
            self.double_reserve = true;
        }
    }
}
