//! Decoder: the SIMT core's instruction decode (seed 001's decode into the I-buffer), from a
//! 32-bit word of the ISA ([`crate::isa`]) to the fields issue, the operand collector, the
//! execution stage and the branch unit use. Combinational.
//!
//! The opcode (`inst[31:26]`) looks up a control word in a 64-entry ROM built from the ISA's
//! own decoder ([`Inst::decode`] and [`Controls::of`]): whether the opcode exists, the kind of
//! instruction, the [`ExecOp`], where operand `b` comes from, whether
//! `rd` is written and which registers are read. The register, immediate, target and store
//! fields are cut from the word at the positions the ISA gives, whatever the opcode.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::core::lane_alu::ExecOp;
use crate::isa::{AtomicOp, Extensions, Inst, LUI_SHIFT, OP_LD_OFFSET, OP_STX_OFFSET};

/// What kind of instruction a word holds (`kind` port; `class` is a SystemVerilog keyword).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `nop`: nothing.
    Nop = 0,
    /// Writes `rd = a op b` through the lane ALU.
    Alu = 1,
    /// `st`: an owner-computes store to the local data share.
    St = 2,
    /// `ld`: a load from the local data share.
    Ld = 3,
    /// `bz` / `bnz` (`if_zero`).
    Branch = 4,
    /// `join`: pops the SIMT stack.
    Join = 5,
    /// `jmp`: the whole warp jumps.
    Jmp = 6,
    /// `bany`: the whole warp jumps when any active lane has `ra != 0`.
    Bany = 7,
    /// `exit`: the active lanes end.
    Exit = 8,
    /// `bar`: the warp waits for the others.
    Bar = 9,
    /// `stx`: a store to the addresses in `ra` of the values in `rb`.
    Stx = 10,
    /// `atadd`, `atxch`: an atomic on the local data share (its [`ExecOp`] says which:
    /// `Add` or `PassB`).
    Atomic = 11,
}

impl Kind {
    /// Every kind, by its code.
    pub const ALL: [Kind; 12] = [
        Kind::Nop,
        Kind::Alu,
        Kind::St,
        Kind::Ld,
        Kind::Branch,
        Kind::Join,
        Kind::Jmp,
        Kind::Bany,
        Kind::Exit,
        Kind::Bar,
        Kind::Stx,
        Kind::Atomic,
    ];

    /// Control flow: after it a warp fetches no further until the branch unit, issue or the
    /// barrier sets it going again (the decoder's `control` output, the front end's rule).
    pub fn is_control(self) -> bool {
        matches!(self, Kind::Branch | Kind::Join | Kind::Jmp | Kind::Bany | Kind::Exit | Kind::Bar)
    }
}

/// Where the lane ALU's `b` operand comes from (`b_sel` port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BSel {
    /// Register `rb`.
    Register = 0,
    /// The sign-extended immediate, cut to the lane width.
    Immediate = 1,
    /// The warp's index.
    Warp = 2,
    /// The lanes per warp (`threads`).
    Threads = 3,
}

/// The control word of one instruction (one ROM row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    /// The opcode exists (on this core).
    pub legal: bool,
    /// What kind of instruction it is.
    pub kind: Kind,
    /// The lane ALU's operation.
    pub exec_op: ExecOp,
    /// Where operand `b` comes from.
    pub b_sel: BSel,
    /// It writes `rd`.
    pub rd_valid: bool,
    /// Bit 0: `ra` is read; bit 1: `rb` is read.
    pub src_valid: u64,
    /// `ra` is `inst[25:22]` (branches), not `inst[21:18]`.
    pub ra_high: bool,
    /// The branch target is `inst[10:0]` (`jmp`, `bany`), not `inst[21:11]`.
    pub target_low: bool,
    /// `bz` rather than `bnz`.
    pub if_zero: bool,
}

impl Controls {
    /// The controls of an instruction; `None` (an unused opcode) is illegal and does nothing.
    pub fn of(inst: Option<Inst>) -> Controls {
        let c = |kind, exec_op, b_sel, rd_valid, src_valid| Controls {
            legal: true,
            kind,
            exec_op,
            b_sel,
            rd_valid,
            src_valid,
            ra_high: false,
            target_low: false,
            if_zero: false,
        };
        let nop = c(Kind::Nop, ExecOp::Add, BSel::Register, false, 0);
        match inst {
            None => Controls { legal: false, ..nop },
            Some(Inst::Nop) => nop,
            Some(Inst::Alu { op, .. }) => {
                c(Kind::Alu, ExecOp::of_alu(op), BSel::Register, true, 0b11)
            }
            Some(Inst::Imm { op, .. }) => {
                c(Kind::Alu, ExecOp::of_imm(op), BSel::Immediate, true, 0b01)
            }
            Some(Inst::Li { .. }) => c(Kind::Alu, ExecOp::PassB, BSel::Immediate, true, 0),
            Some(Inst::Lane { .. }) => c(Kind::Alu, ExecOp::Lane, BSel::Register, true, 0),
            Some(Inst::Warp { .. }) => c(Kind::Alu, ExecOp::PassB, BSel::Warp, true, 0),
            Some(Inst::Threads { .. }) => c(Kind::Alu, ExecOp::PassB, BSel::Threads, true, 0),
            Some(Inst::Branch { if_zero, .. }) => Controls {
                ra_high: true,
                if_zero,
                ..c(Kind::Branch, ExecOp::Add, BSel::Register, false, 0b01)
            },
            Some(Inst::Join) => c(Kind::Join, ExecOp::Add, BSel::Register, false, 0),
            Some(Inst::Jmp { .. }) => {
                Controls { target_low: true, ..c(Kind::Jmp, ExecOp::Add, BSel::Register, false, 0) }
            }
            Some(Inst::Bany { .. }) => Controls {
                ra_high: true,
                target_low: true,
                ..c(Kind::Bany, ExecOp::Add, BSel::Register, false, 0b01)
            },
            Some(Inst::St { .. }) => c(Kind::St, ExecOp::Add, BSel::Register, false, 0b01),
            Some(Inst::Ld { .. }) => c(Kind::Ld, ExecOp::Add, BSel::Register, true, 0b01),
            Some(Inst::Exit) => c(Kind::Exit, ExecOp::Add, BSel::Register, false, 0),
            Some(Inst::Bar) => c(Kind::Bar, ExecOp::Add, BSel::Register, false, 0),
            // `lui`'s immediate is not in the ROM: the decoder compares the opcode with `lui`'s.
            Some(Inst::Lui { .. }) => c(Kind::Alu, ExecOp::PassB, BSel::Immediate, true, 0),
            Some(Inst::Stx { .. }) => c(Kind::Stx, ExecOp::Add, BSel::Register, false, 0b11),
            Some(Inst::Atomic { op, .. }) => {
                let exec = if op == AtomicOp::Add { ExecOp::Add } else { ExecOp::PassB };
                c(Kind::Atomic, exec, BSel::Register, true, 0b11)
            }
        }
    }

    /// The ROM word: legal\[0\], kind\[4:1\], exec_op\[8:5\] (its low 4 bits: bit 4 is the
    /// opcode's, [`Decoder::exec_op_high`]), b_sel\[10:9\], rd_valid\[11\],
    /// ra_high\[12\], src_valid\[14:13\], if_zero\[15\], target_low\[16\], control\[17\] (the kind's
    /// [`Kind::is_control`]).
    pub fn word(&self) -> u64 {
        self.legal as u64
            | (self.kind as u64) << 1
            | (self.exec_op.code() & 0xF) << 5
            | (self.b_sel as u64) << 9
            | (self.rd_valid as u64) << 11
            | (self.ra_high as u64) << 12
            | self.src_valid << 13
            | (self.if_zero as u64) << 15
            | (self.target_low as u64) << 16
            | (self.kind.is_control() as u64) << 17
    }
}

/// Bits of a ROM word.
const CONTROL_BITS: usize = 18;

/// The first opcode of the ALU's second page (0x30 to 0x37): the instructions whose
/// [`ExecOp`] codes are 16 and up, bit 4 being `exec_op_high`.
pub const SECOND_PAGE: u32 = 0x30;

#[derive(LogicBlock)]
/// The SIMT core's instruction decoder (the module's header); combinational.
pub struct Decoder {
    /// The instruction word.
    pub inst: Signal<In, Bits<32>>,
    // From the opcode
    /// The opcode exists (an unused one decodes as a `nop` with `legal` low).
    pub legal: Signal<Out, Bit>,
    /// A [`Kind`].
    pub kind: Signal<Out, Bits<4>>,
    /// The lane ALU's [`ExecOp`] (kind `Alu`): its low 4 bits.
    pub exec_op: Signal<Out, Bits<4>>,
    /// A [`BSel`].
    pub b_sel: Signal<Out, Bits<2>>,
    /// The instruction writes `rd`.
    pub rd_valid: Signal<Out, Bit>,
    /// Bit 0: `ra` is read; bit 1: `rb` is read.
    pub src_valid: Signal<Out, Bits<2>>,
    /// `bz` (taken where `ra == 0`) rather than `bnz`.
    pub if_zero: Signal<Out, Bit>,
    /// Control flow ([`Kind::is_control`]): the warp's fetch stops after it.
    pub control: Signal<Out, Bit>,
    // Fields
    /// The destination register field, `inst[25:22]`.
    pub rd: Signal<Out, Bits<4>>,
    /// Operand `a`'s register: `inst[21:18]`, or `inst[25:22]` for branches.
    pub ra: Signal<Out, Bits<4>>,
    /// Operand `b`'s register: `inst[17:14]`, or `inst[25:22]` for `stx rs, imm(ra)`.
    pub rb: Signal<Out, Bits<4>>,
    /// `inst[13:0]`, sign-extended; `lui`'s `inst[17:0] << 14`.
    pub imm: Signal<Out, Bits<32>>,
    /// Branch or jump target (instruction index).
    pub target: Signal<Out, Bits<11>>,
    /// `bz`/`bnz`'s reconvergence point: `inst[10:0]`.
    pub reconv: Signal<Out, Bits<11>>,
    /// `st`'s row offset `inst[6:0]` and quad stride `inst[13:7]`.
    pub st_index: Signal<Out, Bits<7>>,
    /// `st`'s quad stride `inst[13:7]`.
    pub st_stride: Signal<Out, Bits<7>>,
    /// Bit 4 of the [`ExecOp`]: a legal opcode of the ALU's second page, 0x30 to 0x37 (`min`
    /// to `mulhu`), whose codes are 16 and up. Not in the ROM: a core without those
    /// instructions keeps its ROM and its 4-bit `exec_op`.
    pub exec_op_high: Signal<Out, Bit>,
    /// The local data share's address is `ra + imm` (`ld rd, imm(ra)`, `stx rb, imm(ra)`:
    /// extension `offset`). Not in the ROM, as `exec_op_high`.
    pub lds_offset: Signal<Out, Bit>,
    controls: ROM<Bits<CONTROL_BITS>, 6>,
    /// The bits a negative immediate's sign fills: 31..14.
    sign_fill: Constant<Bits<32>>,
    lui_shift: Constant<Bits<5>>,
    /// `lui`'s opcode, and whether the decoder carries `lui`.
    op_lui: Constant<Bits<6>>,
    has_lui: Constant<Bit>,
    /// The second page's opcode bits 31:29.
    second_page: Constant<Bits<3>>,
    /// The base + offset opcodes, and whether the decoder carries them.
    op_ld_offset: Constant<Bits<6>>,
    op_stx_offset: Constant<Bits<6>>,
    has_offset: Constant<Bit>,
    /// `stx rb, imm(ra)`: `rb` is `inst[25:22]`.
    rb_high: Signal<Local, Bit>,
    ctl: Signal<Local, Bits<CONTROL_BITS>>,
}

impl Decoder {
    /// The decoder of the ISA's opcodes, with the extensions `isa` (the opcodes of the others
    /// are illegal).
    pub fn new(isa: Extensions) -> Result<Self> {
        let rows =
            (0..64u32).map(|code| Controls::of(Inst::decode_in(code << 26, isa)).word().to_bits());
        Ok(Self {
            inst: Default::default(),
            legal: Default::default(),
            kind: Default::default(),
            exec_op: Default::default(),
            b_sel: Default::default(),
            rd_valid: Default::default(),
            src_valid: Default::default(),
            if_zero: Default::default(),
            control: Default::default(),
            rd: Default::default(),
            ra: Default::default(),
            rb: Default::default(),
            imm: Default::default(),
            target: Default::default(),
            reconv: Default::default(),
            st_index: Default::default(),
            st_stride: Default::default(),
            controls: ROM::new(rust_hdl::widgets::ramrom::rom::make_btree_from_iterable(rows)),
            sign_fill: Constant::new(0xFFFF_C000u64.to_bits()),
            lui_shift: Constant::new((LUI_SHIFT as u64).to_bits()),
            op_lui: Constant::new(((Inst::Lui { rd: 0, imm: 0 }.encode() >> 26) as u64).to_bits()),
            has_lui: Constant::new(isa.lui),
            second_page: Constant::new(((SECOND_PAGE >> 3) as u64).to_bits()),
            exec_op_high: Default::default(),
            lds_offset: Default::default(),
            op_ld_offset: Constant::new((OP_LD_OFFSET as u64).to_bits()),
            op_stx_offset: Constant::new((OP_STX_OFFSET as u64).to_bits()),
            has_offset: Constant::new(isa.offset),
            rb_high: Default::default(),
            ctl: Default::default(),
        })
    }
}

impl Logic for Decoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.controls.address.next = self.inst.val().get_bits::<6>(26);
        self.ctl.next = self.controls.data.val();
        self.legal.next = self.ctl.val().get_bit(0);
        self.kind.next = self.ctl.val().get_bits::<4>(1);
        self.exec_op.next = self.ctl.val().get_bits::<4>(5);
        self.b_sel.next = self.ctl.val().get_bits::<2>(9);
        self.rd_valid.next = self.ctl.val().get_bit(11);
        self.src_valid.next = self.ctl.val().get_bits::<2>(13);
        self.if_zero.next = self.ctl.val().get_bit(15);
        self.control.next = self.ctl.val().get_bit(17);
        self.rd.next = self.inst.val().get_bits::<4>(22);
        self.ra.next = self.inst.val().get_bits::<4>(18);
        if self.ctl.val().get_bit(12) {
            self.ra.next = self.inst.val().get_bits::<4>(22);
        }
        self.rb_high.next =
            self.has_offset.val() & (self.inst.val().get_bits::<6>(26) == self.op_stx_offset.val());
        self.lds_offset.next = self.rb_high.val()
            | (self.has_offset.val()
                & (self.inst.val().get_bits::<6>(26) == self.op_ld_offset.val()));
        self.rb.next = self.inst.val().get_bits::<4>(14);
        if self.rb_high.val() {
            self.rb.next = self.inst.val().get_bits::<4>(22);
        }
        self.imm.next = bit_cast::<32, 14>(self.inst.val().get_bits::<14>(0));
        if self.inst.val().get_bit(13) {
            self.imm.next = self.imm.val() | self.sign_fill.val();
        }
        if self.has_lui.val() & (self.inst.val().get_bits::<6>(26) == self.op_lui.val()) {
            self.imm.next =
                bit_cast::<32, 18>(self.inst.val().get_bits::<18>(0)) << self.lui_shift.val();
        }
        self.target.next = self.inst.val().get_bits::<11>(11);
        if self.ctl.val().get_bit(16) {
            self.target.next = self.inst.val().get_bits::<11>(0);
        }
        self.reconv.next = self.inst.val().get_bits::<11>(0);
        self.st_index.next = self.inst.val().get_bits::<7>(0);
        self.st_stride.next = self.inst.val().get_bits::<7>(7);
        self.exec_op_high.next =
            self.legal.val() & (self.inst.val().get_bits::<3>(29) == self.second_page.val());
    }
}

impl crate::sim::Dut for Decoder {
    crate::dut_ports!(
        inputs: [inst],
        outputs: [legal, kind, exec_op, b_sel, rd_valid, src_valid, if_zero, control, rd, ra, rb, imm, target, reconv, st_index, st_stride, exec_op_high, lds_offset]
    );
}
