//! Reference model of [`Decoder`](crate::hw::Decoder): the ISA's own decoder
//! ([`Inst::decode`]); the fields an instruction uses come from the decoded [`Inst`], the others
//! are cut from the word at the ISA's positions.

use crate::hw::core::decoder::Controls;
use crate::isa::{Extensions, Inst, LUI_SHIFT};
use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Outputs, in port order.
    pub struct DecodeOut { legal, kind, exec_op, b_sel, rd_valid, src_valid, if_zero, control, rd, ra, rb, imm, target, reconv, st_index, st_stride, exec_op_high, lds_offset }
}

/// The decoder of a core with the extensions `isa`.
#[derive(Clone, Debug, Default)]
pub struct DecoderModel {
    /// The extensions the decoder carries (the others' opcodes are illegal).
    pub isa: Extensions,
}

impl DecoderModel {
    /// What the decoder's outputs are for instruction word `word`.
    pub fn decode(&self, word: u32) -> DecodeOut {
        let inst = Inst::decode_in(word, self.isa);
        let c = Controls::of(inst);
        let w = word as u64;
        let field = |lsb: u32, bits: u32| w >> lsb & ((1 << bits) - 1);
        let mut o = DecodeOut {
            legal: c.legal as u64,
            kind: c.kind as u64,
            exec_op: c.exec_op.code() & 0xF,
            exec_op_high: c.exec_op.code() >> 4,
            b_sel: c.b_sel as u64,
            rd_valid: c.rd_valid as u64,
            src_valid: c.src_valid,
            if_zero: c.if_zero as u64,
            control: c.kind.is_control() as u64,
            rd: field(22, 4),
            ra: field(18, 4),
            rb: field(14, 4),
            imm: ((((word << 18) as i32) >> 18) as u32) as u64,
            target: field(11, 11),
            reconv: field(0, 11),
            st_index: field(0, 7),
            st_stride: field(7, 7),
            lds_offset: 0,
        };
        match inst {
            Some(Inst::Alu { rd, ra, rb, .. }) => {
                (o.rd, o.ra, o.rb) = (rd as u64, ra as u64, rb as u64)
            }
            Some(Inst::Imm { rd, ra, imm, .. }) => {
                (o.rd, o.ra, o.imm) = (rd as u64, ra as u64, imm as u32 as u64)
            }
            Some(Inst::Li { rd, imm }) => (o.rd, o.imm) = (rd as u64, imm as u32 as u64),
            Some(Inst::Lane { rd } | Inst::Warp { rd } | Inst::Threads { rd }) => o.rd = rd as u64,
            Some(Inst::Branch { ra, target, reconv, .. }) => {
                (o.ra, o.target, o.reconv) = (ra as u64, target as u64, reconv as u64)
            }
            Some(Inst::Jmp { target }) => o.target = target as u64,
            Some(Inst::Bany { ra, target }) => (o.ra, o.target) = (ra as u64, target as u64),
            Some(Inst::St { ra, index, stride }) => {
                (o.ra, o.st_index, o.st_stride) = (ra as u64, index as u64, stride as u64)
            }
            Some(Inst::Ld { rd, ra, offset }) => {
                (o.rd, o.ra, o.lds_offset) = (rd as u64, ra as u64, offset.is_some() as u64)
            }
            Some(Inst::Lui { rd, imm }) => (o.rd, o.imm) = (rd as u64, (imm << LUI_SHIFT) as u64),
            Some(Inst::Stx { ra, rb, offset }) => {
                (o.ra, o.rb, o.lds_offset) = (ra as u64, rb as u64, offset.is_some() as u64)
            }
            Some(Inst::Atomic { rd, ra, rb, .. }) => {
                (o.rd, o.ra, o.rb) = (rd as u64, ra as u64, rb as u64)
            }
            Some(Inst::Nop | Inst::Join | Inst::Exit | Inst::Bar) | None => {}
        }
        o
    }
}

impl CycleModel for DecoderModel {
    fn ports(&self) -> PortNames {
        PortNames::default().inputs(&["inst"]).outputs(DecodeOut::NAMES)
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        self.decode(inputs[0] as u32).to_words()
    }
    fn step(&mut self, _inputs: &[u64]) {}
}
