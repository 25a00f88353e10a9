//! Reference model of [`LaneAlu`](crate::hw::LaneAlu): each lane runs the ISA's own ALU
//! (`isa::interp::alu`, what every program must compute) on its values.

use crate::hw::core::lane_alu::ExecOp;
use crate::isa::interp::alu;
use crate::isa::Extensions;
use crate::sim::wide::{word_count, Lanes};
use crate::sim::{CycleModel, PortNames};

/// What the ALU gives for one op: each lane's result, and bit `l` set when lane `l`'s `a` is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AluOut {
    /// Each lane's result.
    pub result: Lanes,
    /// Bit `l`: lane `l`'s `a` is 0.
    pub zero: u64,
    /// The op is undefined (or of an extension not built in): the result is 0.
    pub bad_op: bool,
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct LaneAluModel {
    /// Lanes.
    pub lanes: usize,
    /// Bits per lane.
    pub lane_bits: usize,
    /// The extensions built in: another extension's op is undefined (`bad_op`, 0).
    pub isa: Extensions,
}

impl LaneAluModel {
    /// The op code the ALU reads from its `op` and `op_high` ports: bit 4 only when it is built
    /// with an extension of codes 16 and up (`minmax`, or `mulhi` with `mul`).
    pub fn code(&self, op: u64, op_high: u64) -> u64 {
        let reads_high = self.isa.minmax || (self.isa.mul && self.isa.mulhi);
        (op & 0xF) | u64::from(reads_high && op_high & 1 == 1) << 4
    }
    /// Op code `op` (all five bits) on every lane of `a` and `b`.
    pub fn compute(&self, op: u64, a: &Lanes, b: &Lanes) -> AluOut {
        let op = ExecOp::from_code(op).filter(|op| self.isa.allows(op.extensions()));
        let vm = crate::sim::rng::mask(self.lane_bits) as u32;
        let result = Lanes::from_fn(self.lanes, |l| {
            vm & match op {
                Some(ExecOp::PassB) => b[l],
                Some(ExecOp::Lane) => l as u32,
                Some(op) => {
                    alu(op.alu().expect("every other op is an ALU op"), a[l], b[l], self.lane_bits)
                }
                None => 0,
            }
        });
        let zero = (0..self.lanes).fold(0, |z, l| z | u64::from(a[l] == 0) << l);
        AluOut { result, zero, bad_op: op.is_none() }
    }
    /// Bits of `a`, `b` and `result` (every lane).
    fn data_bits(&self) -> usize {
        self.lanes * self.lane_bits
    }
}

impl CycleModel for LaneAluModel {
    /// op, op_high, a, b (lanes packed `lane_bits` apart); result, zero, bad_op.
    fn ports(&self) -> PortNames {
        PortNames::default()
            .inputs(&["op", "op_high"])
            .input_wide("a", self.data_bits())
            .input_wide("b", self.data_bits())
            .output_wide("result", self.data_bits())
            .outputs(&["zero", "bad_op"])
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let k = word_count(self.data_bits());
        let lanes = |w: &[u64]| Lanes::from_words(w, self.lanes, self.lane_bits);
        let code = self.code(inputs[0], inputs[1]);
        let o = self.compute(code, &lanes(&inputs[2..]), &lanes(&inputs[2 + k..]));
        let mut w = o.result.to_words(self.lanes, self.lane_bits);
        w.extend([o.zero, o.bad_op as u64]);
        w
    }
    fn step(&mut self, _inputs: &[u64]) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::interp::imm_op;
    use crate::isa::ImmOp;
    use crate::sim::rng::mask;
    use crate::sim::Rng;

    /// An immediate instruction is its ALU op with the immediate, cut to the lane width, in `b`.
    #[test]
    fn immediate_ops_are_alu_ops_on_the_immediate() {
        let mut rng = Rng::new(7);
        for bits in [2, 4, 8, 16, 32] {
            let vm = mask(bits) as u32;
            for _ in 0..10_000 {
                let a = rng.bits(bits) as u32;
                let imm = rng.below(1 << 14) as i32 - (1 << 13);
                for op in ImmOp::ALL {
                    let alu_op = ExecOp::of_imm(op).alu().unwrap();
                    assert_eq!(
                        alu(alu_op, a, imm as u32 & vm, bits) & vm,
                        imm_op(op, a, imm, bits) & vm,
                        "{op:?} {a} {imm} at {bits} bits"
                    );
                }
            }
        }
    }
}
