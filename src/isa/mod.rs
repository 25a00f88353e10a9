//! The SIMT core's instruction set: 32-bit instructions over 16 registers per lane, a
//! divergent branch with an explicit reconvergence point (the SIMT stack of seed 003 holds what
//! the branch pushes and `join` pops), and the R700 local data share of seed 004.
//!
//! Encoding (bit 31 first): `op[31:26]`, then by format
//! - R: `rd[25:22] ra[21:18] rb[17:14]`;
//! - I: `rd[25:22] ra[21:18] imm[13:0]` (signed, sign-extended to the lane width);
//! - B (`bz`, `bnz`): `ra[25:22] target[21:11] reconv[10:0]`;
//! - J (`jmp`, `bany`): `ra[25:22] target[10:0]`;
//! - S (`st`): `ra[21:18] stride[13:7] index[6:0]`;
//! - U (`lui`): `rd[25:22] imm[17:0]` (unsigned).
//!
//! The ALU's operations are R-format at opcodes 0x01-0x0c and, on its second page (whose lane
//! ALU codes are 16 and up), 0x30-0x35: `min`, `max`, `minu`, `maxu`, `mulh`, `mulhu`.
//!
//! The local data share's base + offset forms are I format: `ld rd, imm(ra)` at 0x2B, and
//! `stx rb, imm(ra)` at 0x2C with `rb` in `rd`'s place; the atomics `atadd`/`atxch rd, rb, ra`
//! are R format at 0x2D/0x2E.
//!
//! `mul`, `lui`, `slts`/`sra`, `stx`, `ori`/`xori`/`slti` (`imm`; with `signed` also
//! `sltsi`/`srai`), `threads`, `min`/`max`/`minu`/`maxu` (`minmax`), `mulh`/`mulhu` (`mulhi`),
//! the base + offset forms (`offset`) and the atomics (`atomic`) are extensions
//! ([`Extension`]): a core carries each only when its parameters say so, and a program that
//! uses one its core lacks is refused.
//!
//! Addresses are instruction indices (the scheduler's byte pc is 4 times the index), so a
//! program holds at most 2048 instructions. Every value is one lane wide (`lane_bits`) and
//! arithmetic wraps.
//!
//! Divergence: `bz ra, target, reconv` (taken where `ra == 0`; `bnz` where `ra != 0`) pushes
//! `{mask, reconv + 1}` (where the whole warp resumes), then, if some lanes take it and some do
//! not, `{not-taken lanes, pc + 1}`; the taken lanes go on at `target`, or, if none takes it,
//! all lanes at `pc + 1`. `reconv` must hold a `join`, which pops the top entry into the warp's
//! mask and pc: the first `join` runs the lanes that fell through, the last one resumes the
//! whole warp after the `join`. One branch thus uses at most two stack entries until its
//! `join`. `bany ra, target` jumps (the whole warp, no stack) when any active lane has
//! `ra != 0`: the back edge of a loop whose trip count differs per lane.
//!
//! Barrier: `bar` makes its warp wait until every warp of the core that has not ended is at a
//! `bar` (any `bar`); then all go on. Its warp must not be diverged there: its active lanes must
//! be all its lanes that have not run `exit`.
//!
//! Local data share (seed 004): 4 banks; flat word address `a` is bank `a mod 4`, row `a / 4`.
//! `st ra, index, stride` writes owner-computes: thread `t = warp x threads + lane` writes bank
//! `t mod 4`, row `(t >> 2) x stride + index` (lanes that hit one word leave the highest lane's
//! value). `ld rd, ra` reads the flat address in `ra`
//! (dynamic). Lanes that need different rows of one bank are served one row per cycle (bank
//! conflicts, counted). An atomic serves one lane of each bank every two cycles (a read, then
//! the write), the lowest lane first.

pub mod asm;
pub mod interp;
pub mod programs;
pub mod races;

use std::fmt;

pub use crate::params::{Extension, Extensions, LDS_BANKS, MAX_PROGRAM, REGISTERS};

/// A kernel's local data share from the text of its `.lds` file (`name` in errors): one word
/// per line, hex (no `0x`) or a negative decimal ([`negative_lane_value`]), `#` or `;` starting
/// a comment, blank lines skipped, each word within the core's `lane_bits` and at most the
/// core's words in all.
pub fn lds_words(
    text: &str,
    name: &str,
    params: crate::params::CoreParams,
) -> anyhow::Result<Vec<u32>> {
    use anyhow::Context;
    let words: Vec<u32> = text
        .lines()
        .map(without_comment)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(n, l)| lds_word(l, params.lane_bits).with_context(|| format!("{name}:{}", n + 1)))
        .collect::<anyhow::Result<_>>()?;
    let most = params.lds_words();
    if words.len() > most {
        anyhow::bail!(
            "{name}: {} words, more than the {most} of the local data share of core `{}`",
            words.len(),
            params.name
        );
    }
    Ok(words)
}

/// A line of a `.lds` or `.expect` file without its comment (from `#` or `;`), trimmed.
pub fn without_comment(line: &str) -> &str {
    line.split(['#', ';']).next().unwrap_or("").trim()
}

/// A negative decimal (`-37`) as a `bits`-bit lane value in two's complement (`-37` is
/// `0xffffffdb` at 32 bits): `None` if `text` does not start with `-`; an error if the rest is
/// not decimal digits or the value is below the lanes' least, -2^(bits-1).
pub fn negative_lane_value(text: &str, bits: usize) -> Option<anyhow::Result<u32>> {
    let digits = text.strip_prefix('-')?;
    let magnitude = match digits.parse::<u64>() {
        Ok(m) if digits.bytes().all(|b| b.is_ascii_digit()) => m,
        _ => {
            let shown = crate::params::shown(text);
            return Some(Err(anyhow::anyhow!("`{shown}` is not a negative decimal")));
        }
    };
    let least = 1u64 << (bits - 1);
    if magnitude > least {
        return Some(Err(anyhow::anyhow!(
            "{text} does not fit the core's {bits}-bit lanes (at least -{least})"
        )));
    }
    let wrapped = ((1u64 << bits) - magnitude) & ((1u64 << bits) - 1);
    Some(Ok(wrapped as u32))
}

/// One word of a `.lds` file, within `bits`: hex (no `0x`), or a negative decimal in two's
/// complement ([`negative_lane_value`]).
fn lds_word(text: &str, bits: usize) -> anyhow::Result<u32> {
    if let Some(v) = negative_lane_value(text, bits) {
        return v;
    }
    let v = u32::from_str_radix(text, 16).map_err(|e| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow => ": more than 32 bits",
            _ => "",
        };
        anyhow::anyhow!("`{}` is not a hex word{why}", crate::params::shown(text))
    })?;
    if bits < 32 && v >> bits != 0 {
        anyhow::bail!(
            "{v:#x} does not fit the core's {bits}-bit lanes (at most {:#x})",
            (1u32 << bits) - 1
        );
    }
    Ok(v)
}

/// The flat local-data-share word thread `thread` (`warp x threads + lane`) stores to with
/// `st ra, index, stride` in a share of `banks` banks (owner-computes: bank `thread mod banks`,
/// row `(thread / banks) x stride + index`), before wrapping at the share's size.
pub fn st_address(thread: usize, index: u8, stride: u8, banks: usize) -> usize {
    ((thread / banks) * stride as usize + index as usize) * banks + thread % banks
}
/// The signed immediate's range.
pub const IMM_MIN: i32 = -(1 << 13);
/// The signed immediate's greatest value.
pub const IMM_MAX: i32 = (1 << 13) - 1;
/// `st`'s stride and index fields.
pub const STORE_FIELD_MAX: u32 = 127;
/// `lui`'s immediate: 18 unsigned bits (`inst[17:0]`), placed at bit 14.
pub const LUI_MAX: u32 = (1 << 18) - 1;
/// Where `lui` puts its immediate.
pub const LUI_SHIFT: u32 = 14;

impl Extensions {
    /// The first instruction of `program` that needs an extension not carried: its index and
    /// the extension.
    pub fn first_missing(&self, program: &[Inst]) -> Option<(usize, Extension)> {
        program.iter().enumerate().find_map(|(i, inst)| {
            inst.extensions().iter().find(|&&e| !self.has(e)).map(|&e| (i, e))
        })
    }
}

/// ALU operations on two registers (`rd = ra op rb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    /// `ra + rb`.
    Add,
    /// `ra - rb`.
    Sub,
    /// `ra & rb`.
    And,
    /// `ra | rb`.
    Or,
    /// `ra ^ rb`.
    Xor,
    /// Shift left by `rb mod lane_bits`.
    Shl,
    /// Logical shift right by `rb mod lane_bits`.
    Shr,
    /// 1 if `ra < rb` (unsigned), else 0.
    Slt,
    /// 1 if `ra == rb`, else 0.
    Seq,
    /// The low `lane_bits` bits of `ra x rb` (extension `mul`).
    Mul,
    /// 1 if `ra < rb` as signed (two's complement) lane values, else 0 (extension `signed`).
    Slts,
    /// Arithmetic shift right by `rb mod lane_bits`: the sign bit fills (extension `signed`).
    Sra,
    /// The lesser of `ra` and `rb` as signed lane values (extension `minmax`).
    Min,
    /// The greater, signed (extension `minmax`).
    Max,
    /// The lesser, unsigned (extension `minmax`).
    Minu,
    /// The greater, unsigned (extension `minmax`).
    Maxu,
    /// The high `lane_bits` bits of the signed product `ra x rb` (extensions `mul`, `mulhi`).
    Mulh,
    /// The high `lane_bits` bits of the unsigned product (extensions `mul`, `mulhi`).
    Mulhu,
}

/// ALU operations with an immediate (`rd = ra op imm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmOp {
    /// `ra + imm`.
    Addi,
    /// `ra & imm`.
    Andi,
    /// `ra << (imm mod lane_bits)`.
    Shli,
    /// `ra >> (imm mod lane_bits)`, logical.
    Shri,
    /// `ra | imm` (extension `imm`).
    Ori,
    /// `ra ^ imm` (extension `imm`).
    Xori,
    /// 1 if `ra < imm`, unsigned, with `imm` sign-extended and cut to the lane width (extension
    /// `imm`).
    Slti,
    /// 1 if `ra < imm` as signed lane values (extensions `imm` and `signed`).
    Sltsi,
    /// Arithmetic shift right by `imm mod lane_bits` (extensions `imm` and `signed`).
    Srai,
}

/// What an atomic instruction writes back to the word it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `atadd`: the old word plus `rb`.
    Add,
    /// `atxch`: `rb` (exchange).
    Exchange,
}

impl AtomicOp {
    /// Both, in opcode order.
    pub const ALL: [AtomicOp; 2] = [AtomicOp::Add, AtomicOp::Exchange];
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        row_of(&ATOMIC_OPS, self).1
    }
    /// The operation of a mnemonic.
    pub fn from_name(name: &str) -> Option<Self> {
        op_named(&ATOMIC_OPS, name)
    }
    /// The word it leaves where the word `old` was, `value` being the lane's `rb`.
    pub fn apply(self, old: u32, value: u32) -> u32 {
        match self {
            AtomicOp::Add => old.wrapping_add(value),
            AtomicOp::Exchange => value,
        }
    }
}

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inst {
    /// Nothing.
    Nop,
    /// `rd = ra op rb`.
    Alu {
        /// The operation.
        op: AluOp,
        /// The register written.
        rd: u8,
        /// Operand `a`'s register.
        ra: u8,
        /// Operand `b`'s register.
        rb: u8,
    },
    /// `rd = ra op imm`.
    Imm {
        /// The operation.
        op: ImmOp,
        /// The register written.
        rd: u8,
        /// Operand `a`'s register.
        ra: u8,
        /// The immediate, 14 bits signed.
        imm: i32,
    },
    /// `rd = imm`.
    Li {
        /// The register written.
        rd: u8,
        /// The immediate, 14 bits signed.
        imm: i32,
    },
    /// `rd` = the lane's index in its warp.
    Lane {
        /// The register written.
        rd: u8,
    },
    /// `rd` = the warp's index.
    Warp {
        /// The register written.
        rd: u8,
    },
    /// `rd` = the lanes per warp (extension `threads`).
    Threads {
        /// The register written.
        rd: u8,
    },
    /// Divergent branch: taken where `ra == 0` (`if_zero`) or `ra != 0`.
    Branch {
        /// `bz` (taken where `ra == 0`) rather than `bnz`.
        if_zero: bool,
        /// The register tested.
        ra: u8,
        /// Where the taken lanes go.
        target: u16,
        /// The reconvergence point: a `join`.
        reconv: u16,
    },
    /// Pop the SIMT stack into mask and pc.
    Join,
    /// Jump, the whole warp.
    Jmp {
        /// Where the warp goes.
        target: u16,
    },
    /// Jump, the whole warp, when any active lane has `ra != 0`.
    Bany {
        /// The register tested.
        ra: u8,
        /// Where the warp goes.
        target: u16,
    },
    /// Local data share: owner-computes store of `ra`.
    St {
        /// The register stored.
        ra: u8,
        /// The row offset.
        index: u8,
        /// The stride between rows of `B` threads.
        stride: u8,
    },
    /// Local data share: `rd` = the word at flat address `ra`, or (extension `offset`, the
    /// form `ld rd, imm(ra)`) at `ra + imm`, cut to the lane width.
    Ld {
        /// The register written.
        rd: u8,
        /// The address register.
        ra: u8,
        /// The offset form's immediate (`ld rd, imm(ra)`); `None` for `ld rd, ra`.
        offset: Option<i32>,
    },
    /// `rd = imm << 14`, cut to the lane width: the upper bits of a full-width constant, whose
    /// low 14 bits an `addi` adds (extension `lui`).
    Lui {
        /// The register written.
        rd: u8,
        /// The 18-bit immediate.
        imm: u32,
    },
    /// Local data share: each active lane writes `rb` to the word at flat address `ra` (or,
    /// with extension `offset`, `ra + imm`); lanes that hit one word leave the highest lane's
    /// value (extension `stx`).
    Stx {
        /// The address register.
        ra: u8,
        /// The register stored.
        rb: u8,
        /// The offset form's immediate (`stx rb, imm(ra)`); `None` for `stx rb, ra`.
        offset: Option<i32>,
    },
    /// Local data share, atomically (extension `atomic`): each active lane in lane order, lowest
    /// first, reads the word at flat address `ra` into `rd` and writes back the old word plus
    /// `rb` (`add`) or `rb` itself: lanes that hit one word each see the word the lanes before
    /// them left.
    Atomic {
        /// What is written back.
        op: AtomicOp,
        /// The register the old word goes to.
        rd: u8,
        /// The address register.
        ra: u8,
        /// The operand register.
        rb: u8,
    },
    /// The warp waits until every warp of the core that has not ended is at a `bar`.
    Bar,
    /// The warp ends.
    Exit,
}

const ALU_OPS: [OpRow<AluOp>; 18] = [
    (AluOp::Add, "add", 0x01),
    (AluOp::Sub, "sub", 0x02),
    (AluOp::And, "and", 0x03),
    (AluOp::Or, "or", 0x04),
    (AluOp::Xor, "xor", 0x05),
    (AluOp::Shl, "shl", 0x06),
    (AluOp::Shr, "shr", 0x07),
    (AluOp::Slt, "slt", 0x08),
    (AluOp::Seq, "seq", 0x09),
    (AluOp::Mul, "mul", 0x0A),
    (AluOp::Slts, "slts", 0x0B),
    (AluOp::Sra, "sra", 0x0C),
    (AluOp::Min, "min", 0x30),
    (AluOp::Max, "max", 0x31),
    (AluOp::Minu, "minu", 0x32),
    (AluOp::Maxu, "maxu", 0x33),
    (AluOp::Mulh, "mulh", 0x34),
    (AluOp::Mulhu, "mulhu", 0x35),
];
const IMM_OPS: [OpRow<ImmOp>; 9] = [
    (ImmOp::Addi, "addi", 0x10),
    (ImmOp::Andi, "andi", 0x11),
    (ImmOp::Shli, "shli", 0x12),
    (ImmOp::Shri, "shri", 0x13),
    (ImmOp::Ori, "ori", 0x16),
    (ImmOp::Xori, "xori", 0x17),
    (ImmOp::Slti, "slti", 0x1B),
    (ImmOp::Sltsi, "sltsi", 0x1C),
    (ImmOp::Srai, "srai", 0x1D),
];
const OP_NOP: u32 = 0x00;
const OP_LI: u32 = 0x14;
const OP_LUI: u32 = 0x15;
const OP_LANE: u32 = 0x18;
const OP_WARP: u32 = 0x19;
const OP_THREADS: u32 = 0x1A;
const OP_BZ: u32 = 0x20;
const OP_BNZ: u32 = 0x21;
const OP_JOIN: u32 = 0x22;
const OP_JMP: u32 = 0x23;
const OP_BANY: u32 = 0x24;
const OP_BAR: u32 = 0x25;
const OP_ST: u32 = 0x28;
const OP_LD: u32 = 0x29;
const OP_STX: u32 = 0x2A;
/// `ld rd, imm(ra)`: I format.
pub const OP_LD_OFFSET: u32 = 0x2B;
/// `stx rb, imm(ra)`: I format with `rb` where `rd` is, `inst[25:22]`.
pub const OP_STX_OFFSET: u32 = 0x2C;
/// The atomics, R format (`atadd rd, rs, ra` puts `rs` in the `rb` field).
const ATOMIC_OPS: [OpRow<AtomicOp>; 2] =
    [(AtomicOp::Add, "atadd", 0x2D), (AtomicOp::Exchange, "atxch", 0x2E)];
const OP_EXIT: u32 = 0x3F;

/// One row of an opcode table: the operation, its mnemonic, its opcode.
type OpRow<T> = (T, &'static str, u32);

fn row_of<T: PartialEq + Copy>(table: &[OpRow<T>], op: T) -> OpRow<T> {
    *table.iter().find(|(o, _, _)| *o == op).expect("every operation has a row in its table")
}

fn op_named<T: Copy>(table: &[OpRow<T>], name: &str) -> Option<T> {
    table.iter().find(|(_, n, _)| *n == name).map(|(o, _, _)| *o)
}

impl AluOp {
    /// The extensions the operation needs; none for the base instruction set (`mulh` and
    /// `mulhu` need `mul` and `mulhi`).
    pub fn extensions(self) -> &'static [Extension] {
        match self {
            AluOp::Mul => &[Extension::Mul],
            AluOp::Slts | AluOp::Sra => &[Extension::Signed],
            AluOp::Min | AluOp::Max | AluOp::Minu | AluOp::Maxu => &[Extension::MinMax],
            AluOp::Mulh | AluOp::Mulhu => &[Extension::Mul, Extension::MulHigh],
            _ => &[],
        }
    }
    /// Every ALU operation, in opcode order.
    pub const ALL: [AluOp; 18] = [
        AluOp::Add,
        AluOp::Sub,
        AluOp::And,
        AluOp::Or,
        AluOp::Xor,
        AluOp::Shl,
        AluOp::Shr,
        AluOp::Slt,
        AluOp::Seq,
        AluOp::Mul,
        AluOp::Slts,
        AluOp::Sra,
        AluOp::Min,
        AluOp::Max,
        AluOp::Minu,
        AluOp::Maxu,
        AluOp::Mulh,
        AluOp::Mulhu,
    ];
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        row_of(&ALU_OPS, self).1
    }
    /// The operation of a mnemonic.
    pub fn from_name(name: &str) -> Option<Self> {
        op_named(&ALU_OPS, name)
    }
}

impl ImmOp {
    /// Every immediate operation, in opcode order.
    pub const ALL: [ImmOp; 9] = [
        ImmOp::Addi,
        ImmOp::Andi,
        ImmOp::Shli,
        ImmOp::Shri,
        ImmOp::Ori,
        ImmOp::Xori,
        ImmOp::Slti,
        ImmOp::Sltsi,
        ImmOp::Srai,
    ];
    /// The extensions the operation needs (none for the base instruction set): `imm` for the
    /// new immediate forms, and `signed` too for the signed ones.
    pub fn extensions(self) -> &'static [Extension] {
        match self {
            ImmOp::Ori | ImmOp::Xori | ImmOp::Slti => &[Extension::Imm],
            ImmOp::Sltsi | ImmOp::Srai => &[Extension::Imm, Extension::Signed],
            _ => &[],
        }
    }
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        row_of(&IMM_OPS, self).1
    }
    /// The operation of a mnemonic.
    pub fn from_name(name: &str) -> Option<Self> {
        op_named(&IMM_OPS, name)
    }
}

fn reg(word: u32, lsb: u32) -> u8 {
    ((word >> lsb) & 0xF) as u8
}

fn imm14(word: u32) -> i32 {
    ((word << 18) as i32) >> 18
}

impl Inst {
    /// The extensions the instruction needs; none for the base instruction set.
    pub fn extensions(&self) -> &'static [Extension] {
        match *self {
            Inst::Alu { op, .. } => op.extensions(),
            Inst::Imm { op, .. } => op.extensions(),
            Inst::Threads { .. } => &[Extension::Threads],
            Inst::Lui { .. } => &[Extension::Lui],
            Inst::Stx { offset: None, .. } => &[Extension::Stx],
            Inst::Stx { offset: Some(_), .. } => &[Extension::Stx, Extension::Offset],
            Inst::Ld { offset: Some(_), .. } => &[Extension::Offset],
            Inst::Atomic { .. } => &[Extension::Atomic],
            _ => &[],
        }
    }

    /// The register the instruction writes, if any.
    pub fn dest(&self) -> Option<u8> {
        match *self {
            Inst::Alu { rd, .. }
            | Inst::Imm { rd, .. }
            | Inst::Li { rd, .. }
            | Inst::Lane { rd }
            | Inst::Warp { rd }
            | Inst::Threads { rd }
            | Inst::Lui { rd, .. }
            | Inst::Ld { rd, .. }
            | Inst::Atomic { rd, .. } => Some(rd),
            _ => None,
        }
    }

    /// The 32-bit instruction word (fields must be in range: the assembler checks them).
    pub fn encode(&self) -> u32 {
        let r = |v: u8, lsb: u32| (v as u32 & 0xF) << lsb;
        let op = |code: u32| code << 26;
        match *self {
            Inst::Nop => op(OP_NOP),
            Inst::Alu { op: o, rd, ra, rb } => {
                op(row_of(&ALU_OPS, o).2) | r(rd, 22) | r(ra, 18) | r(rb, 14)
            }
            Inst::Imm { op: o, rd, ra, imm } => {
                op(row_of(&IMM_OPS, o).2) | r(rd, 22) | r(ra, 18) | (imm as u32 & 0x3FFF)
            }
            Inst::Li { rd, imm } => op(OP_LI) | r(rd, 22) | (imm as u32 & 0x3FFF),
            Inst::Lane { rd } => op(OP_LANE) | r(rd, 22),
            Inst::Warp { rd } => op(OP_WARP) | r(rd, 22),
            Inst::Threads { rd } => op(OP_THREADS) | r(rd, 22),
            Inst::Branch { if_zero, ra, target, reconv } => {
                op(if if_zero { OP_BZ } else { OP_BNZ })
                    | r(ra, 22)
                    | ((target as u32 & 0x7FF) << 11)
                    | (reconv as u32 & 0x7FF)
            }
            Inst::Join => op(OP_JOIN),
            Inst::Jmp { target } => op(OP_JMP) | (target as u32 & 0x7FF),
            Inst::Bany { ra, target } => op(OP_BANY) | r(ra, 22) | (target as u32 & 0x7FF),
            Inst::St { ra, index, stride } => {
                op(OP_ST) | r(ra, 18) | ((stride as u32 & 0x7F) << 7) | (index as u32 & 0x7F)
            }
            Inst::Ld { rd, ra, offset: None } => op(OP_LD) | r(rd, 22) | r(ra, 18),
            Inst::Ld { rd, ra, offset: Some(imm) } => {
                op(OP_LD_OFFSET) | r(rd, 22) | r(ra, 18) | (imm as u32 & 0x3FFF)
            }
            Inst::Lui { rd, imm } => op(OP_LUI) | r(rd, 22) | (imm & LUI_MAX),
            Inst::Stx { ra, rb, offset: None } => op(OP_STX) | r(ra, 18) | r(rb, 14),
            Inst::Stx { ra, rb, offset: Some(imm) } => {
                op(OP_STX_OFFSET) | r(rb, 22) | r(ra, 18) | (imm as u32 & 0x3FFF)
            }
            Inst::Atomic { op: o, rd, ra, rb } => {
                op(row_of(&ATOMIC_OPS, o).2) | r(rd, 22) | r(ra, 18) | r(rb, 14)
            }
            Inst::Bar => op(OP_BAR),
            Inst::Exit => op(OP_EXIT),
        }
    }

    /// The instruction a word holds on a core with the extensions `isa`; `None` for an unused
    /// opcode or one of an extension not carried.
    pub fn decode_in(word: u32, isa: Extensions) -> Option<Self> {
        Inst::decode(word).filter(|i| isa.allows(i.extensions()))
    }

    /// The instruction a word holds; `None` for an unused opcode.
    pub fn decode(word: u32) -> Option<Self> {
        let code = word >> 26;
        let (rd, ra, rb) = (reg(word, 22), reg(word, 18), reg(word, 14));
        if let Some((o, _, _)) = ALU_OPS.iter().find(|(_, _, c)| *c == code) {
            return Some(Inst::Alu { op: *o, rd, ra, rb });
        }
        if let Some((o, _, _)) = IMM_OPS.iter().find(|(_, _, c)| *c == code) {
            return Some(Inst::Imm { op: *o, rd, ra, imm: imm14(word) });
        }
        if let Some((o, _, _)) = ATOMIC_OPS.iter().find(|(_, _, c)| *c == code) {
            return Some(Inst::Atomic { op: *o, rd, ra, rb });
        }
        let target11 = (word & 0x7FF) as u16;
        Some(match code {
            OP_NOP => Inst::Nop,
            OP_LI => Inst::Li { rd, imm: imm14(word) },
            OP_LANE => Inst::Lane { rd },
            OP_WARP => Inst::Warp { rd },
            OP_THREADS => Inst::Threads { rd },
            OP_BZ | OP_BNZ => Inst::Branch {
                if_zero: code == OP_BZ,
                ra: rd,
                target: ((word >> 11) & 0x7FF) as u16,
                reconv: target11,
            },
            OP_JOIN => Inst::Join,
            OP_JMP => Inst::Jmp { target: target11 },
            OP_BANY => Inst::Bany { ra: rd, target: target11 },
            OP_ST => {
                Inst::St { ra, index: (word & 0x7F) as u8, stride: ((word >> 7) & 0x7F) as u8 }
            }
            OP_LD => Inst::Ld { rd, ra, offset: None },
            OP_LD_OFFSET => Inst::Ld { rd, ra, offset: Some(imm14(word)) },
            OP_LUI => Inst::Lui { rd, imm: word & LUI_MAX },
            OP_STX => Inst::Stx { ra, rb, offset: None },
            OP_STX_OFFSET => Inst::Stx { ra, rb: rd, offset: Some(imm14(word)) },
            OP_BAR => Inst::Bar,
            OP_EXIT => Inst::Exit,
            _ => return None,
        })
    }
}

impl fmt::Display for Inst {
    /// Assembly text the assembler reads back (addresses as numbers).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Inst::Nop => write!(f, "nop"),
            Inst::Alu { op, rd, ra, rb } => write!(f, "{} r{rd}, r{ra}, r{rb}", op.name()),
            Inst::Imm { op, rd, ra, imm } => write!(f, "{} r{rd}, r{ra}, {imm}", op.name()),
            Inst::Li { rd, imm } => write!(f, "li r{rd}, {imm}"),
            Inst::Lane { rd } => write!(f, "lane r{rd}"),
            Inst::Warp { rd } => write!(f, "warp r{rd}"),
            Inst::Threads { rd } => write!(f, "threads r{rd}"),
            Inst::Branch { if_zero, ra, target, reconv } => {
                write!(f, "{} r{ra}, {target}, {reconv}", if if_zero { "bz" } else { "bnz" })
            }
            Inst::Join => write!(f, "join"),
            Inst::Jmp { target } => write!(f, "jmp {target}"),
            Inst::Bany { ra, target } => write!(f, "bany r{ra}, {target}"),
            Inst::St { ra, index, stride } => write!(f, "st r{ra}, {index}, {stride}"),
            Inst::Ld { rd, ra, offset: None } => write!(f, "ld r{rd}, r{ra}"),
            Inst::Ld { rd, ra, offset: Some(imm) } => write!(f, "ld r{rd}, {imm}(r{ra})"),
            Inst::Lui { rd, imm } => write!(f, "lui r{rd}, {imm}"),
            Inst::Stx { ra, rb, offset: None } => write!(f, "stx r{rb}, r{ra}"),
            Inst::Stx { ra, rb, offset: Some(imm) } => write!(f, "stx r{rb}, {imm}(r{ra})"),
            Inst::Atomic { op, rd, ra, rb } => write!(f, "{} r{rd}, r{rb}, r{ra}", op.name()),
            Inst::Bar => write!(f, "bar"),
            Inst::Exit => write!(f, "exit"),
        }
    }
}

/// A program that loads every local-data-share word once: thread `t` loads words `t`,
/// `t + n`, `t + 2n`, ... (`n` threads in all) into `r3`.
pub fn dump_program(params: crate::params::CoreParams) -> anyhow::Result<Vec<Inst>> {
    let threads = params.warps * params.threads;
    let words = params.lds_words();
    if words > 1 << params.lane_bits.min(16) {
        anyhow::bail!(
            "the local data share's {words} words are not all addressable with {}-bit values",
            params.lane_bits
        );
    }
    let mut text = format!(
        "warp r1\nshli r1, r1, {}\nlane r2\nadd r1, r1, r2\nli r4, {threads}\n",
        crate::params::clog2(params.threads)
    );
    for _ in 0..words.div_ceil(threads) {
        text += "ld r3, r1\nadd r1, r1, r4\n";
    }
    text += "exit\n";
    crate::isa::asm::assemble(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{CORE_CU, CORE_SEED};

    #[test]
    fn lds_files_take_comments_and_negative_decimals() {
        // 8-bit lanes: -1 is 0xff, -128 is 0x80; 32-bit lanes: -37 is 2^32 - 37.
        let text = "# a comment line\n10 ; sixteen\n-1\n\n-128 # the least\n";
        assert_eq!(lds_words(text, "k.lds", CORE_CU).unwrap(), [0x10, 0xff, 0x80]);
        assert_eq!(lds_words("-37\n", "k.lds", CORE_SEED).unwrap(), [0xffff_ffdb]);
        assert_eq!(lds_words("-2147483648\n", "k.lds", CORE_SEED).unwrap(), [0x8000_0000]);
        for (text, want) in [
            ("1\n-129\n", "k.lds:2: -129 does not fit the core's 8-bit lanes (at least -128)"),
            ("-ff\n", "k.lds:1: `-ff` is not a negative decimal"),
            ("-\n", "k.lds:1: `-` is not a negative decimal"),
        ] {
            assert_eq!(format!("{:#}", lds_words(text, "k.lds", CORE_CU).unwrap_err()), want);
        }
    }
}
