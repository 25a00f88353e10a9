//! LaneAlu: the SIMT core's execution stage, one integer ALU per lane (the ISA's ALU ops,
//! [`crate::isa`]).
//!
//! Every lane computes `result = a op b` on its `DW`-bit values (lane `l` at bits `l * DW ..` of
//! `a`, `b` and `result`, as the operand collector delivers them). Immediate instructions use the
//! same ops with the immediate in every lane of `b` ([`ExecOp::of_imm`]); `li` and `warp` pass
//! `b` through; `lane` gives each lane its index. `zero` has bit `l` set when lane `l`'s `a` is
//! 0: what `bz`/`bnz`/`bany` decide on. An op code outside [`ExecOp`] gives 0 in every lane and
//! raises `bad_op`, as does the op of an extension the ALU is built without (`mul`: the
//! multiply, from 16 x 16-bit products; `signed`: `slts`, `sra`; `minmax`: `min`, `max`,
//! `minu`, `maxu`; `mulhi` with `mul`: `mulh`, `mulhu`, the product's high half from a fourth
//! product). Codes 16 and up have bit 4 on the port `op_high`, which only an ALU built with
//! `minmax` or `mulhi` reads. Arithmetic wraps at `DW` bits; shifts take `b mod DW`; `slt` is
//! unsigned. Combinational.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::isa::{AluOp, Extension, Extensions, ImmOp};
use crate::params::{check_derived, check_pow2, check_range, clog2};

/// What the execution stage does, by op code (`op` and `op_high` ports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecOp {
    /// `a + b`.
    Add = 0,
    /// `a - b`.
    Sub = 1,
    /// `a & b`.
    And = 2,
    /// `a | b`.
    Or = 3,
    /// `a ^ b`.
    Xor = 4,
    /// `a << b`.
    Shl = 5,
    /// `a >> b`, zero-filled.
    Shr = 6,
    /// 1 when `a < b` unsigned, else 0.
    Slt = 7,
    /// 1 when `a == b`, else 0.
    Seq = 8,
    /// `result = b` (`li`, `warp`).
    PassB = 9,
    /// `result` = the lane's index (`lane`).
    Lane = 10,
    /// The low `DW` bits of `a x b` (extension `mul`).
    Mul = 11,
    /// Signed `a < b` (extension `signed`).
    Slts = 12,
    /// Arithmetic shift right (extension `signed`).
    Sra = 13,
    /// Signed lesser of `a` and `b` (extension `minmax`; codes 16 and up: `op_high` set).
    Min = 16,
    /// Signed greater (extension `minmax`).
    Max = 17,
    /// Unsigned lesser (extension `minmax`).
    Minu = 18,
    /// Unsigned greater (extension `minmax`).
    Maxu = 19,
    /// The high `DW` bits of the signed product (extensions `mul`, `mulhi`).
    Mulh = 20,
    /// The high `DW` bits of the unsigned product (extensions `mul`, `mulhi`).
    Mulhu = 21,
}

impl ExecOp {
    /// Every operation, in code order.
    pub const ALL: [ExecOp; 20] = [
        ExecOp::Add,
        ExecOp::Sub,
        ExecOp::And,
        ExecOp::Or,
        ExecOp::Xor,
        ExecOp::Shl,
        ExecOp::Shr,
        ExecOp::Slt,
        ExecOp::Seq,
        ExecOp::PassB,
        ExecOp::Lane,
        ExecOp::Mul,
        ExecOp::Slts,
        ExecOp::Sra,
        ExecOp::Min,
        ExecOp::Max,
        ExecOp::Minu,
        ExecOp::Maxu,
        ExecOp::Mulh,
        ExecOp::Mulhu,
    ];
    /// Bits of the code: the `op` port's 4 and `op_high`.
    pub const BITS: usize = 5;

    /// The operation's code on the `op` port.
    pub fn code(self) -> u64 {
        self as u64
    }
    /// The operation whose code is `code` (`None`: no operation has it).
    pub fn from_code(code: u64) -> Option<ExecOp> {
        ExecOp::ALL.into_iter().find(|o| o.code() == code)
    }
    /// The operation that carries out the ISA's ALU operation `op`.
    pub fn of_alu(op: AluOp) -> ExecOp {
        match op {
            AluOp::Add => ExecOp::Add,
            AluOp::Sub => ExecOp::Sub,
            AluOp::And => ExecOp::And,
            AluOp::Or => ExecOp::Or,
            AluOp::Xor => ExecOp::Xor,
            AluOp::Shl => ExecOp::Shl,
            AluOp::Shr => ExecOp::Shr,
            AluOp::Slt => ExecOp::Slt,
            AluOp::Seq => ExecOp::Seq,
            AluOp::Mul => ExecOp::Mul,
            AluOp::Slts => ExecOp::Slts,
            AluOp::Sra => ExecOp::Sra,
            AluOp::Min => ExecOp::Min,
            AluOp::Max => ExecOp::Max,
            AluOp::Minu => ExecOp::Minu,
            AluOp::Maxu => ExecOp::Maxu,
            AluOp::Mulh => ExecOp::Mulh,
            AluOp::Mulhu => ExecOp::Mulhu,
        }
    }
    /// The op an immediate instruction runs, with the immediate (cut to the lane width) in `b`.
    pub fn of_imm(op: ImmOp) -> ExecOp {
        match op {
            ImmOp::Addi => ExecOp::Add,
            ImmOp::Andi => ExecOp::And,
            ImmOp::Shli => ExecOp::Shl,
            ImmOp::Shri => ExecOp::Shr,
            ImmOp::Ori => ExecOp::Or,
            ImmOp::Xori => ExecOp::Xor,
            ImmOp::Slti => ExecOp::Slt,
            ImmOp::Sltsi => ExecOp::Slts,
            ImmOp::Srai => ExecOp::Sra,
        }
    }
    /// The extensions the op needs; none for the base instruction set.
    pub fn extensions(self) -> &'static [Extension] {
        self.alu().map_or(&[], AluOp::extensions)
    }
    /// The ISA's ALU op of this code, if it is one.
    pub fn alu(self) -> Option<AluOp> {
        AluOp::ALL.into_iter().find(|&a| ExecOp::of_alu(a) == self)
    }
}

/// Every property of `lane_alu.sv`: each proven at `tiny` (4 lanes of 8 bits, every extension:
/// `mul`'s product among them) and at `cu` (no extension: their op codes refused).
const ALU_PROPERTIES: &[&str] = &[
    "mul_is_the_low_product",
    "add_and_sub_wrap",
    "sra_fills_with_the_sign",
    "slts_compares_signed",
    "min_and_max_pick_a_lane_value",
    "mulh_is_the_high_product",
    "undefined_codes_are_refused",
];

/// The formal properties (`lane_alu.sv` beside this file).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/core/lane_alu/lane_alu.sv",
    text: include_str!("lane_alu.sv"),
    wrapper: "lane_alu_props",
    parameters: |p| {
        let (dw, isa) = (p.collector.lane_bits, p.isa());
        let ext = |on: bool| usize::from(on);
        vec![
            ("T", p.scheduler.threads),
            ("DW", dw),
            ("SW", clog2(dw)),
            ("MUL", ext(isa.mul)),
            ("SIGNED", ext(isa.signed)),
            ("MINMAX", ext(isa.minmax)),
            ("MULHI", ext(isa.mulhi)),
        ]
    },
    claims: &[
        crate::sim::Claim::cu(ALU_PROPERTIES).at("tiny"),
        crate::sim::Claim::cu(ALU_PROPERTIES),
    ],
    // Lane 0's product from a wrong operand; lane 0's `sra` without its sign fill.
    mutants: &[
        crate::sim::Mutant::cu(
            "mul_squares_a",
            "p_low = a_lo * b_lo;",
            "p_low = a_lo * a_lo;",
            &["mul_is_the_low_product"],
        )
        .at("tiny"),
        crate::sim::Mutant::cu(
            "sra_fills_zeros",
            "fill = fill | ~(ones >> by);",
            "fill = fill;",
            &["sra_fills_with_the_sign"],
        )
        .at("tiny"),
    ],
};

/// `T` lanes of `DW` bits (a power of two; `SW = clog2(DW)` shift bits; `TD = T * DW`).
#[derive(LogicBlock)]
pub struct LaneAlu<const T: usize, const DW: usize, const SW: usize, const TD: usize> {
    /// An [`ExecOp`] code's low 4 bits.
    pub op: Signal<In, Bits<4>>,
    /// Its bit 4 (codes 16 and up), read only by an ALU built with `minmax` or `mulhi`: without
    /// them the code is `op` alone (a port of its own, so that such an ALU's `op` stays 4 bits).
    pub op_high: Signal<In, Bit>,
    /// Operand `a`, lane `l` in bits `l * DW ..`.
    pub a: Signal<In, Bits<TD>>,
    /// Operand `b`, likewise.
    pub b: Signal<In, Bits<TD>>,
    /// Each lane's result, likewise.
    pub result: Signal<Out, Bits<TD>>,
    /// Bit `l`: lane `l`'s `a` is 0.
    pub zero: Signal<Out, Bits<T>>,
    /// `op` is not an [`ExecOp`].
    pub bad_op: Signal<Out, Bit>,
    /// `DW`, and where the top lane starts (`TD - DW`), as shift amounts.
    lane_bits: Constant<Bits<8>>,
    top_lane: Constant<Bits<16>>,
    /// `DW - 1`: a lane's top bit, shifted down.
    msb: Constant<Bits<8>>,
    /// The extensions built in.
    has_mul: Constant<Bit>,
    has_signed: Constant<Bit>,
    has_minmax: Constant<Bit>,
    /// `mulhi` and `mul`.
    has_mulhi: Constant<Bit>,
    /// The code is 16 or more (`op_high`, when an extension reads it).
    high: Signal<Local, Bit>,
    /// 16 and 32, and a lane of ones.
    sixteen: Constant<Bits<8>>,
    thirty_two: Constant<Bits<8>>,
    ones: Constant<Bits<DW>>,
    /// `sub`, `slt` and `slts` subtract: `a + !b + 1` on the one adder `add` uses.
    subtract: Signal<Local, Bit>,
    carry_in: Signal<Local, Bits<DW>>,
    lbx: Signal<Local, Bits<DW>>,
    sum: Signal<Local, Bits<DW>>,
    differ: Signal<Local, Bits<DW>>,
    b_top: Signal<Local, Bits<DW>>,
    s_top: Signal<Local, Bits<DW>>,
    below: Signal<Local, Bit>,
    a_top: Signal<Local, Bits<DW>>,
    below_signed: Signal<Local, Bit>,
    /// `a >> by` with the sign bit filling (`sra`).
    fill: Signal<Local, Bits<DW>>,
    /// The multiply's 16-bit halves and products.
    a_lo: Signal<Local, Bits<16>>,
    a_hi: Signal<Local, Bits<16>>,
    b_lo: Signal<Local, Bits<16>>,
    b_hi: Signal<Local, Bits<16>>,
    p_low: Signal<Local, Bits<32>>,
    p_lh: Signal<Local, Bits<32>>,
    p_hl: Signal<Local, Bits<32>>,
    p_hh: Signal<Local, Bits<32>>,
    p_cross: Signal<Local, Bits<32>>,
    product: Signal<Local, Bits<32>>,
    /// The whole 64-bit product (`mulhi`), its terms, and its bits `DW` and up: unsigned, and
    /// signed (less `b` where `a` is negative and `a` where `b` is).
    term: Signal<Local, Bits<64>>,
    full: Signal<Local, Bits<64>>,
    upper: Signal<Local, Bits<DW>>,
    upper_signed: Signal<Local, Bits<DW>>,
    // Lane by lane: the lanes not yet done (shifted down), this lane's values, the result so far
    rest_a: Signal<Local, Bits<TD>>,
    rest_b: Signal<Local, Bits<TD>>,
    la: Signal<Local, Bits<DW>>,
    lb: Signal<Local, Bits<DW>>,
    by: Signal<Local, Bits<SW>>,
    lr: Signal<Local, Bits<DW>>,
    lane_id: Signal<Local, Bits<DW>>,
    acc: Signal<Local, Bits<TD>>,
    wide: Signal<Local, Bits<TD>>,
}

/// [`LaneAlu`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_lane_alu {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::LaneAlu] $s; T, DW, SW, TD)
    };
}

impl<const T: usize, const DW: usize, const SW: usize, const TD: usize> LaneAlu<T, DW, SW, TD> {
    /// Checks `T` (1..=32), `DW` (a power of two, 2..=32), `SW = clog2(DW)` and `TD = T * DW`
    /// (at most 1,024); builds the ops of the extensions `isa`.
    pub fn new(isa: Extensions) -> Result<Self> {
        check_range("threads (T)", T, 1, 32)?;
        check_pow2("lane_bits (DW)", DW, 2, 32)?;
        check_derived("SW", SW, "clog2(DW)", clog2(DW))?;
        check_derived("TD", TD, "T * DW", T * DW)?;
        check_range("TD (T * DW)", TD, 2, 1024)?;
        Ok(Self {
            op: Default::default(),
            op_high: Default::default(),
            a: Default::default(),
            b: Default::default(),
            result: Default::default(),
            zero: Default::default(),
            bad_op: Default::default(),
            lane_bits: Constant::new(DW.to_bits()),
            top_lane: Constant::new((TD - DW).to_bits()),
            msb: Constant::new((DW - 1).to_bits()),
            has_mul: Constant::new(isa.mul),
            has_signed: Constant::new(isa.signed),
            has_minmax: Constant::new(isa.minmax),
            has_mulhi: Constant::new(isa.mul && isa.mulhi),
            high: Default::default(),
            sixteen: Constant::new(16u64.to_bits()),
            thirty_two: Constant::new(32u64.to_bits()),
            ones: Constant::new(crate::sim::rng::mask(DW).to_bits()),
            subtract: Default::default(),
            carry_in: Default::default(),
            lbx: Default::default(),
            sum: Default::default(),
            differ: Default::default(),
            b_top: Default::default(),
            s_top: Default::default(),
            below: Default::default(),
            a_top: Default::default(),
            below_signed: Default::default(),
            fill: Default::default(),
            a_lo: Default::default(),
            a_hi: Default::default(),
            b_lo: Default::default(),
            b_hi: Default::default(),
            p_low: Default::default(),
            p_lh: Default::default(),
            p_hl: Default::default(),
            p_hh: Default::default(),
            p_cross: Default::default(),
            product: Default::default(),
            term: Default::default(),
            full: Default::default(),
            upper: Default::default(),
            upper_signed: Default::default(),
            rest_a: Default::default(),
            rest_b: Default::default(),
            la: Default::default(),
            lb: Default::default(),
            by: Default::default(),
            lr: Default::default(),
            lane_id: Default::default(),
            acc: Default::default(),
            wide: Default::default(),
        })
    }
}

impl<const T: usize, const DW: usize, const SW: usize, const TD: usize> Logic
    for LaneAlu<T, DW, SW, TD>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.rest_a.next = self.a.val();
        self.rest_b.next = self.b.val();
        self.acc.next = 0.into();
        self.lane_id.next = 0.into();
        self.zero.next = 0.into();
        self.bad_op.next = false;
        self.high.next = self.op_high.val() & (self.has_minmax.val() | self.has_mulhi.val());
        // `min`, `max`, `minu`, `maxu` (16 to 19) compare on the adder as `slt` does
        self.subtract.next = (self.op.val() == 1)
            | (self.op.val() == 7)
            | (self.has_signed.val() & (self.op.val() == 12));
        if self.high.val() {
            self.subtract.next = self.op.val() < 4;
        }
        self.carry_in.next = 0.into();
        if self.subtract.val() {
            self.carry_in.next = 1.into();
        }
        for l in 0..T {
            self.la.next = bit_cast::<DW, TD>(self.rest_a.val());
            self.lb.next = bit_cast::<DW, TD>(self.rest_b.val());
            self.by.next = bit_cast::<SW, DW>(self.lb.val());
            self.lr.next = 0.into();
            // One adder for add, sub and slt: `a < b` (unsigned) is the top bit of `a - b` when
            // the top bits of `a` and `b` agree, else the top bit of `b`.
            self.lbx.next = self.lb.val();
            if self.subtract.val() {
                self.lbx.next = !self.lb.val();
            }
            self.sum.next = self.la.val() + self.lbx.val() + self.carry_in.val();
            self.differ.next = (self.la.val() ^ self.lb.val()) >> self.msb.val();
            self.b_top.next = self.lb.val() >> self.msb.val();
            self.s_top.next = self.sum.val() >> self.msb.val();
            self.below.next = self.s_top.val().any();
            if self.differ.val().any() {
                self.below.next = self.b_top.val().any();
            }
            // Signed: when the top bits differ, `a < b` where `a` is the negative one
            self.a_top.next = self.la.val() >> self.msb.val();
            self.below_signed.next = self.s_top.val().any();
            if self.differ.val().any() {
                self.below_signed.next = self.a_top.val().any();
            }
            self.fill.next = self.la.val() >> self.by.val();
            if self.a_top.val().any() {
                self.fill.next = self.fill.val() | !(self.ones.val() >> self.by.val());
            }
            // The low 32 bits of `a x b` from 16 x 16-bit products (a lane's top half is 0
            // below 32 bits)
            self.a_lo.next = bit_cast::<16, DW>(self.la.val());
            self.b_lo.next = bit_cast::<16, DW>(self.lb.val());
            self.a_hi.next = bit_cast::<16, DW>(self.la.val() >> self.sixteen.val());
            self.b_hi.next = bit_cast::<16, DW>(self.lb.val() >> self.sixteen.val());
            self.p_low.next = self.a_lo.val() * self.b_lo.val();
            self.p_lh.next = self.a_lo.val() * self.b_hi.val();
            self.p_hl.next = self.a_hi.val() * self.b_lo.val();
            self.p_cross.next = self.p_lh.val() + self.p_hl.val();
            self.product.next = self.p_low.val() + (self.p_cross.val() << self.sixteen.val());
            // The whole product, term by term: hh << 32 + (lh + hl) << 16 + ll
            self.p_hh.next = self.a_hi.val() * self.b_hi.val();
            self.full.next = bit_cast::<64, 32>(self.p_low.val());
            self.term.next = bit_cast::<64, 32>(self.p_lh.val());
            self.full.next = self.full.val() + (self.term.val() << self.sixteen.val());
            self.term.next = bit_cast::<64, 32>(self.p_hl.val());
            self.full.next = self.full.val() + (self.term.val() << self.sixteen.val());
            self.term.next = bit_cast::<64, 32>(self.p_hh.val());
            self.full.next = self.full.val() + (self.term.val() << self.thirty_two.val());
            self.upper.next = bit_cast::<DW, 64>(self.full.val() >> self.lane_bits.val());
            self.upper_signed.next = self.upper.val();
            if self.a_top.val().any() {
                self.upper_signed.next = self.upper_signed.val() - self.lb.val();
            }
            if self.b_top.val().any() {
                self.upper_signed.next = self.upper_signed.val() - self.la.val();
            }
            if self.high.val() {
                match self.op.val().index() {
                    0 => {
                        if self.has_minmax.val() {
                            self.lr.next = self.lb.val();
                            if self.below_signed.val() {
                                self.lr.next = self.la.val();
                            }
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    1 => {
                        if self.has_minmax.val() {
                            self.lr.next = self.la.val();
                            if self.below_signed.val() {
                                self.lr.next = self.lb.val();
                            }
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    2 => {
                        if self.has_minmax.val() {
                            self.lr.next = self.lb.val();
                            if self.below.val() {
                                self.lr.next = self.la.val();
                            }
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    3 => {
                        if self.has_minmax.val() {
                            self.lr.next = self.la.val();
                            if self.below.val() {
                                self.lr.next = self.lb.val();
                            }
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    4 => {
                        if self.has_mulhi.val() {
                            self.lr.next = self.upper_signed.val();
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    5 => {
                        if self.has_mulhi.val() {
                            self.lr.next = self.upper.val();
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    _ => self.bad_op.next = true,
                }
            } else {
                match self.op.val().index() {
                    0 => self.lr.next = self.sum.val(),
                    1 => self.lr.next = self.sum.val(),
                    2 => self.lr.next = self.la.val() & self.lb.val(),
                    3 => self.lr.next = self.la.val() | self.lb.val(),
                    4 => self.lr.next = self.la.val() ^ self.lb.val(),
                    5 => self.lr.next = self.la.val() << self.by.val(),
                    6 => self.lr.next = self.la.val() >> self.by.val(),
                    7 => {
                        if self.below.val() {
                            self.lr.next = 1.into();
                        }
                    }
                    8 => {
                        if self.la.val() == self.lb.val() {
                            self.lr.next = 1.into();
                        }
                    }
                    9 => self.lr.next = self.lb.val(),
                    10 => self.lr.next = self.lane_id.val(),
                    11 => {
                        if self.has_mul.val() {
                            self.lr.next = bit_cast::<DW, 32>(self.product.val());
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    12 => {
                        if self.has_signed.val() {
                            if self.below_signed.val() {
                                self.lr.next = 1.into();
                            }
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    13 => {
                        if self.has_signed.val() {
                            self.lr.next = self.fill.val();
                        } else {
                            self.bad_op.next = true;
                        }
                    }
                    _ => self.bad_op.next = true,
                }
            }
            if self.la.val() == 0 {
                self.zero.next = self.zero.val().replace_bit(l, true);
            }
            // Lanes enter at the top and move down one lane width per lane: lane 0 ends lowest.
            self.wide.next = bit_cast::<TD, DW>(self.lr.val());
            self.acc.next =
                (self.acc.val() >> self.lane_bits.val()) | (self.wide.val() << self.top_lane.val());
            self.rest_a.next = self.rest_a.val() >> self.lane_bits.val();
            self.rest_b.next = self.rest_b.val() >> self.lane_bits.val();
            self.lane_id.next = self.lane_id.val() + 1;
        }
        self.result.next = self.acc.val();
    }
}

impl<const T: usize, const DW: usize, const SW: usize, const TD: usize> crate::sim::Dut
    for LaneAlu<T, DW, SW, TD>
{
    crate::dut_ports!(inputs: [op, op_high, a, b], outputs: [result, zero, bad_op]);
}
