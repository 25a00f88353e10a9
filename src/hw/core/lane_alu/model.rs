//! Reference model of [`LaneAlu`](crate::hw::LaneAlu): each lane runs the ISA's own ALU
//! (`isa::interp::alu`, what every program must compute) on its values.

use crate::hw::core::lane_alu::ExecOp;
use crate::isa::interp::alu;
use crate::isa::Extensions;
use crate::port_struct;
use crate::sim::rng::mask;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order (lanes packed `lane_bits` apart).
    pub struct AluIn { op, a, b }
}

port_struct! {
    /// Outputs, in port order.
    pub struct AluOut { result, zero, bad_op }
}

#[derive(Clone, Debug)]
pub struct LaneAluModel {
    pub lanes: usize,
    pub lane_bits: usize,
    /// The extensions built in: another extension's op is undefined (`bad_op`, 0).
    pub isa: Extensions,
}

impl LaneAluModel {
    pub fn lane(&self, word: u64, l: usize) -> u32 {
        (word >> (l * self.lane_bits) & mask(self.lane_bits)) as u32
    }
}

impl CycleModel for LaneAluModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<AluIn, AluOut>()
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = AluIn::from_words(inputs);
        let op = ExecOp::from_code(i.op).filter(|op| self.isa.allows(op.extension()));
        let mut o = AluOut { bad_op: op.is_none() as u64, ..Default::default() };
        for l in 0..self.lanes {
            let (a, b) = (self.lane(i.a, l), self.lane(i.b, l));
            let r = match op {
                Some(ExecOp::PassB) => b,
                Some(ExecOp::Lane) => l as u32,
                Some(op) => {
                    alu(op.alu().expect("every other op is an ALU op"), a, b, self.lane_bits)
                }
                None => 0,
            };
            o.result |= (r as u64 & mask(self.lane_bits)) << (l * self.lane_bits);
            o.zero |= ((a == 0) as u64) << l;
        }
        o.to_words()
    }
    fn step(&mut self, _inputs: &[u64]) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::interp::imm_op;
    use crate::isa::ImmOp;
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
