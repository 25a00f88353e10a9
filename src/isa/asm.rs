//! The assembler: one instruction per line, `label:` before it or on a line of its own,
//! comments from `;` or `#` to the end of the line, operands separated by commas.
//!
//! ```text
//! loop:  bz   r1, skip, skip    ; lanes with r1 == 0 skip the work
//!        addi r2, r2, 3
//!        addi r1, r1, -1
//! skip:  join
//!        bany r1, loop          ; again while any lane has r1 != 0
//!        exit
//! ```
//!
//! Pseudo-instructions ([`PSEUDO_INSTRUCTIONS`]) stand for one or two instructions: `mov`,
//! `not`, `neg`, and `li` of any 32-bit constant (`lui` + `addi` when it is outside 14 signed
//! bits). Each instruction they stand for keeps their line.
//!
//! Errors name the line and the rule: an unknown mnemonic, a register outside `r0..r15`, an
//! immediate outside 14 signed bits (`li`: 32 bits), an undefined or duplicate label, a branch
//! whose reconvergence point is not a `join`, a program longer than 2048 instructions.

use std::collections::HashMap;

use anyhow::{bail, Result};

use crate::params::shown;

use super::{
    AluOp, AtomicOp, ImmOp, Inst, IMM_MAX, IMM_MIN, LUI_MAX, LUI_SHIFT, MAX_PROGRAM, REGISTERS,
    STORE_FIELD_MAX,
};

/// Assembles `source` into instructions.
pub fn assemble(source: &str) -> Result<Vec<Inst>> {
    Ok(assemble_listing(source)?.program)
}

/// A program with, for each instruction, where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The instructions.
    pub program: Vec<Inst>,
    /// Instruction `i`'s source line (from 1) and its text, without label and comment.
    pub source: Vec<(usize, String)>,
}

impl Listing {
    /// `LINE: \`text\`` of instruction `pc`, or `None` past the end.
    pub fn at(&self, pc: usize) -> Option<String> {
        self.source.get(pc).map(|(line, text)| format!("{line}: `{text}`"))
    }

    /// The listing, when it fits `core`'s instruction memory and `core` carries every extension
    /// it uses; otherwise the error names the first line past the memory, or the first that uses
    /// an extension the core lacks.
    pub fn for_core(self, core: &crate::params::CoreParams) -> Result<Listing> {
        if self.program.len() > core.imem_words {
            let (line, _) = &self.source[core.imem_words];
            let message = format!(
                "the kernel has {} instructions: core `{}` holds {} instruction words",
                self.program.len(),
                core.name,
                core.imem_words
            );
            return Err(at_line(*line, message));
        }
        match core.isa.first_missing(&self.program) {
            None => Ok(self),
            Some((pc, ext)) => {
                let (line, text) = &self.source[pc];
                let message = format!(
                    "`{}`: core `{}` lacks the `{}` extension (it carries: {})",
                    shown(text),
                    core.name,
                    ext.name(),
                    core.isa.names()
                );
                Err(at_line(*line, message))
            }
        }
    }

    /// One line per instruction: address, word, source line and text.
    pub fn text(&self) -> String {
        self.program
            .iter()
            .zip(&self.source)
            .enumerate()
            .map(|(a, (i, (line, text)))| format!("{a:4}  {:08x}  {line:5}  {text}\n", i.encode()))
            .collect()
    }
}

/// An assembler error at source line `line`: shown as `line N: message`; a caller that knows the
/// file shows it as `FILE:N: message`, the form editors jump to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtLine {
    /// The source line (from 1).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for AtLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for AtLine {}

fn at_line(line: usize, message: String) -> anyhow::Error {
    AtLine { line, message }.into()
}

/// Assembles `source`, keeping each instruction's source line.
pub fn assemble_listing(source: &str) -> Result<Listing> {
    // Pass 1: labels and the instruction lines (a pseudo-instruction may stand for two).
    let mut labels: HashMap<&str, usize> = HashMap::new();
    let mut lines: Vec<(usize, &str)> = vec![];
    let mut words = 0;
    for (n, raw) in source.lines().enumerate() {
        let line_no = n + 1;
        let mut text = raw.split([';', '#']).next().unwrap_or("").trim();
        while let Some((label, rest)) = split_label(text) {
            if !is_identifier(label) {
                return Err(at_line(line_no, format!("`{}` is not a label name (letters, digits, `_`, `.`; not starting with a digit)", shown(label))));
            }
            if labels.insert(label, words).is_some() {
                return Err(at_line(line_no, format!("label `{}` is defined twice", shown(label))));
            }
            text = rest.trim();
        }
        if !text.is_empty() {
            lines.push((line_no, text));
            words += expansion_len(text);
        }
    }
    if lines.is_empty() {
        bail!("the program has no instructions");
    }
    if words > MAX_PROGRAM {
        bail!(
            "the program has {words} instructions: at most {MAX_PROGRAM} fit the 11-bit addresses"
        );
    }
    // Pass 2: instructions, each with its line.
    let mut program = vec![];
    let mut source = vec![];
    for &(line_no, text) in &lines {
        let insts = parse(text, &labels)
            .map_err(|e| at_line(line_no, format!("`{}`: {e:#}", shown(text))))?;
        for inst in insts {
            program.push(inst);
            source.push((line_no, text.to_string()));
        }
    }
    for (i, inst) in program.iter().enumerate() {
        if let Inst::Branch { reconv, .. } = inst {
            if program.get(*reconv as usize) != Some(&Inst::Join) {
                let rule = format!("the reconvergence point of a branch must be a `join` (instruction {reconv} is not)");
                return Err(at_line(source[i].0, rule));
            }
        }
    }
    Ok(Listing { program, source })
}

/// The pseudo-instructions: each mnemonic, its operands, and the instructions it stands for
/// (`li` of a constant outside 14 signed bits is `lui` and, unless its low 14 bits are 0,
/// `addi`, the carry into `lui`'s part worked out). The ISA page lists them from here.
pub const PSEUDO_INSTRUCTIONS: [(&str, &str); 4] = [
    ("mov rd, ra", "`addi rd, ra, 0`"),
    ("not rd, ra", "`xori rd, ra, -1` (extension `imm`)"),
    ("neg rd, ra", "`xori rd, ra, -1` then `addi rd, rd, 1` (extension `imm`)"),
    (
        "li rd, value",
        "`li rd, value` when `value` fits 14 signed bits; else `lui rd, hi` and, unless `lo` is \
         0, `addi rd, rd, lo`, where `lo` is `value`'s low 14 bits as a signed number and `hi` \
         is `(value - lo) >> 14` (extension `lui`). `value` is any 32-bit number, \
         -2,147,483,648 to 4,294,967,295, cut to the lane width",
    ),
];

/// The ISA page's table of pseudo-instructions ([`PSEUDO_INSTRUCTIONS`]), as markdown.
pub fn pseudo_instructions_markdown() -> String {
    let rows: String = PSEUDO_INSTRUCTIONS
        .iter()
        .map(|(form, expansion)| format!("| `{form}` | {expansion} |\n"))
        .collect();
    format!("| pseudo-instruction | stands for |\n|---|---|\n{rows}")
}

/// How many instructions a line's text stands for (a malformed line counts 1: pass 2 reports it).
fn expansion_len(text: &str) -> usize {
    let (mnemonic, args) = operands(text);
    match mnemonic.to_ascii_lowercase().as_str() {
        "neg" => 2,
        "li" if args.len() == 2 => constant(args[1]).map_or(1, |v| load_constant(0, v).len()),
        _ => 1,
    }
}

/// `li`'s constant: any 32-bit value, signed or unsigned.
fn constant(s: &str) -> Result<i64> {
    match number(s) {
        Some(v) if (i32::MIN as i64..=u32::MAX as i64).contains(&v) => Ok(v),
        Some(v) => bail!("`li` constant {v} does not fit in 32 bits ({}..={})", i32::MIN, u32::MAX),
        None => bail!("`{}` is not a number", shown(s)),
    }
}

/// The instructions that put the 32-bit constant `value` in `rd`: `li` when it fits its 14
/// signed bits; else `lui` of the upper bits and an `addi` of the lower 14, sign-extended (so
/// `lui` takes one more when they are negative), which cuts to the same value at every lane
/// width.
pub fn load_constant(rd: u8, value: i64) -> Vec<Inst> {
    if (IMM_MIN as i64..=IMM_MAX as i64).contains(&value) {
        return vec![Inst::Li { rd, imm: value as i32 }];
    }
    let word = value as u32;
    let low = ((word << 18) as i32) >> 18;
    let upper = word.wrapping_sub(low as u32) >> LUI_SHIFT;
    let mut out = vec![Inst::Lui { rd, imm: upper }];
    if low != 0 {
        out.push(Inst::Imm { op: ImmOp::Addi, rd, ra: rd, imm: low });
    }
    out
}

/// `label: rest` when the text starts with a label.
fn split_label(text: &str) -> Option<(&str, &str)> {
    let (head, rest) = text.split_once(':')?;
    let head = head.trim();
    (!head.contains(char::is_whitespace)).then_some((head, rest))
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The instructions of one line: one, or a pseudo-instruction's ([`PSEUDO_INSTRUCTIONS`]).
fn parse(text: &str, labels: &HashMap<&str, usize>) -> Result<Vec<Inst>> {
    let (mnemonic, args) = operands(text);
    let two = |form: &str| -> Result<(u8, u8)> {
        operand_count(mnemonic, &args, 2, form)?;
        Ok((register(args[0])?, register(args[1])?))
    };
    let imm = |op, rd, ra, imm| Inst::Imm { op, rd, ra, imm };
    Ok(match mnemonic.to_ascii_lowercase().as_str() {
        "mov" => two("rd, ra").map(|(rd, ra)| vec![imm(ImmOp::Addi, rd, ra, 0)])?,
        "not" => two("rd, ra").map(|(rd, ra)| vec![imm(ImmOp::Xori, rd, ra, -1)])?,
        "neg" => two("rd, ra")
            .map(|(rd, ra)| vec![imm(ImmOp::Xori, rd, ra, -1), imm(ImmOp::Addi, rd, rd, 1)])?,
        "li" if args.len() == 2 => load_constant(register(args[0])?, constant(args[1])?),
        _ => vec![parse_one(mnemonic, &args, labels)?],
    })
}

/// A line's mnemonic and its comma-separated operands, trimmed.
fn operands(text: &str) -> (&str, Vec<&str>) {
    let (mnemonic, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let args =
        if rest.trim().is_empty() { vec![] } else { rest.split(',').map(str::trim).collect() };
    (mnemonic, args)
}

/// An error unless `mnemonic` has `n` operands in `args` (`form` names them).
fn operand_count(mnemonic: &str, args: &[&str], n: usize, form: &str) -> Result<()> {
    if args.len() != n {
        bail!("`{mnemonic}` takes {n} operand(s) ({mnemonic} {form}), got {}", args.len());
    }
    Ok(())
}

/// One instruction: `mnemonic` as written, and its operands.
fn parse_one(mnemonic: &str, args: &[&str], labels: &HashMap<&str, usize>) -> Result<Inst> {
    let want = |n: usize, form: &str| operand_count(mnemonic, args, n, form);
    let mnemonic = mnemonic.to_ascii_lowercase();
    if let Some(op) = AluOp::from_name(&mnemonic) {
        want(3, "rd, ra, rb")?;
        return Ok(Inst::Alu {
            op,
            rd: register(args[0])?,
            ra: register(args[1])?,
            rb: register(args[2])?,
        });
    }
    if let Some(op) = ImmOp::from_name(&mnemonic) {
        want(3, "rd, ra, imm")?;
        return Ok(Inst::Imm {
            op,
            rd: register(args[0])?,
            ra: register(args[1])?,
            imm: immediate(args[2])?,
        });
    }
    if let Some(op) = AtomicOp::from_name(&mnemonic) {
        want(3, "rd, rs, ra")?;
        return Ok(Inst::Atomic {
            op,
            rd: register(args[0])?,
            rb: register(args[1])?,
            ra: register(args[2])?,
        });
    }
    Ok(match mnemonic.as_str() {
        "nop" => want(0, "").map(|_| Inst::Nop)?,
        "join" => want(0, "").map(|_| Inst::Join)?,
        "exit" => want(0, "").map(|_| Inst::Exit)?,
        "bar" => want(0, "").map(|_| Inst::Bar)?,
        "li" => {
            want(2, "rd, imm")?;
            Inst::Li { rd: register(args[0])?, imm: immediate(args[1])? }
        }
        "lane" => {
            want(1, "rd")?;
            Inst::Lane { rd: register(args[0])? }
        }
        "warp" => {
            want(1, "rd")?;
            Inst::Warp { rd: register(args[0])? }
        }
        "threads" => {
            want(1, "rd")?;
            Inst::Threads { rd: register(args[0])? }
        }
        "bz" | "bnz" => {
            want(3, "ra, target, reconv")?;
            Inst::Branch {
                if_zero: mnemonic == "bz",
                ra: register(args[0])?,
                target: address(args[1], labels)?,
                reconv: address(args[2], labels)?,
            }
        }
        "jmp" => {
            want(1, "target")?;
            Inst::Jmp { target: address(args[0], labels)? }
        }
        "bany" => {
            want(2, "ra, target")?;
            Inst::Bany { ra: register(args[0])?, target: address(args[1], labels)? }
        }
        "st" => {
            want(3, "ra, index, stride")?;
            Inst::St {
                ra: register(args[0])?,
                index: store_field("index", args[1])?,
                stride: store_field("stride", args[2])?,
            }
        }
        "ld" => {
            want(2, "rd, ra (or rd, imm(ra))")?;
            let (ra, offset) = lds_address(args[1])?;
            Inst::Ld { rd: register(args[0])?, ra, offset }
        }
        "lui" => {
            want(2, "rd, imm")?;
            Inst::Lui { rd: register(args[0])?, imm: upper_immediate(args[1])? }
        }
        "stx" => {
            want(2, "rs, ra (or rs, imm(ra))")?;
            let (ra, offset) = lds_address(args[1])?;
            Inst::Stx { rb: register(args[0])?, ra, offset }
        }
        _ => bail!("unknown instruction `{}`", shown(&mnemonic)),
    })
}

fn register(s: &str) -> Result<u8> {
    let n = s.strip_prefix(['r', 'R']).and_then(|d| d.parse::<usize>().ok());
    match n {
        Some(n) if n < REGISTERS => Ok(n as u8),
        _ => bail!("`{}` is not a register: registers are r0..r{}", shown(s), REGISTERS - 1),
    }
}

/// A decimal or `0x` hex number with at most one leading `-`: digits only after it (no second
/// sign, no `+`, no sign inside the hex digits, which Rust's parsers would take).
fn number(s: &str) -> Option<i64> {
    let (neg, digits) = s.strip_prefix('-').map_or((false, s), |d| (true, d));
    let (radix, digits) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i64::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}

/// A local-data-share address operand: a register `ra`, or `imm(ra)` (the base + offset form,
/// extension `offset`).
fn lds_address(s: &str) -> Result<(u8, Option<i32>)> {
    let Some(inner) = s.strip_suffix(')') else {
        return Ok((register(s)?, None));
    };
    let Some((imm, ra)) = inner.split_once('(') else {
        bail!("`{}` is not an address: it is ra or imm(ra)", shown(s));
    };
    Ok((register(ra.trim())?, Some(immediate(imm.trim())?)))
}

fn immediate(s: &str) -> Result<i32> {
    match number(s) {
        Some(v) if (IMM_MIN as i64..=IMM_MAX as i64).contains(&v) => Ok(v as i32),
        Some(v) => bail!("immediate {v} does not fit in 14 signed bits ({IMM_MIN}..={IMM_MAX})"),
        None => bail!("`{}` is not a number", shown(s)),
    }
}

fn upper_immediate(s: &str) -> Result<u32> {
    match number(s) {
        Some(v) if (0..=LUI_MAX as i64).contains(&v) => Ok(v as u32),
        Some(v) => bail!("`lui` immediate {v} does not fit in 18 unsigned bits (0..={LUI_MAX})"),
        None => bail!("`{}` is not a number", shown(s)),
    }
}

fn store_field(name: &str, s: &str) -> Result<u8> {
    match number(s) {
        Some(v) if (0..=STORE_FIELD_MAX as i64).contains(&v) => Ok(v as u8),
        _ => bail!("`st` {name} `{}` must be a number in 0..={STORE_FIELD_MAX}", shown(s)),
    }
}

fn address(s: &str, labels: &HashMap<&str, usize>) -> Result<u16> {
    if let Some(&a) = labels.get(s) {
        return Ok(a as u16);
    }
    match number(s) {
        Some(v) if (0..MAX_PROGRAM as i64).contains(&v) => Ok(v as u16),
        Some(v) => bail!("address {v} is outside the program space 0..{MAX_PROGRAM}"),
        None => bail!("undefined label `{}`", shown(s)),
    }
}

/// The program as text the assembler reads back (one instruction per line, addresses as
/// numbers).
pub fn disassemble(program: &[Inst]) -> String {
    program.iter().enumerate().map(|(i, inst)| format!("{inst}    ; {i}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instruction_round_trips_through_its_word_and_its_text() {
        let src = "start: nop\n add r1, r2, r3\n sub r4, r5, r6\n and r7, r8, r9\n or r10, r11, r12\n xor r13, r14, r15\n\
                   shl r0, r1, r2\n shr r1, r2, r3\n slt r2, r3, r4\n seq r3, r4, r5\n addi r1, r2, -8192\n andi r3, r4, 8191\n\
                   shli r5, r6, 3\n shri r7, r8, 0x1F\n li r9, -1\n lane r10\n warp r11\n bz r1, start, j\n bnz r2, 3, j\n\
                   j: join\n jmp start\n bany r3, j\n st r4, 5, 64\n ld r5, r6\n bar\n exit\n\
                   mul r1, r2, r3\n slts r4, r5, r6\n sra r7, r8, r9\n lui r10, 262143\n stx r11, r12\n\
                   ori r1, r2, -1\n xori r3, r4, 8191\n slti r5, r6, -8192\n sltsi r7, r8, 5\n srai r9, r10, 31\n threads r11\n\
                   ld r1, -4(r2)\n stx r3, 8191( r4 )\n atadd r5, r6, r7\n atxch r8, r9, r10\n ld r11, 0(r12)";
        let program = assemble(src).unwrap();
        assert_eq!(program.len(), 42);
        assert_eq!(program[30], Inst::Stx { rb: 11, ra: 12, offset: None });
        assert_eq!(program[36], Inst::Threads { rd: 11 });
        assert_eq!(program[37], Inst::Ld { rd: 1, ra: 2, offset: Some(-4) });
        assert_eq!(program[38], Inst::Stx { rb: 3, ra: 4, offset: Some(8191) });
        assert_eq!(program[39], Inst::Atomic { op: AtomicOp::Add, rd: 5, rb: 6, ra: 7 });
        assert_eq!(program[40], Inst::Atomic { op: AtomicOp::Exchange, rd: 8, rb: 9, ra: 10 });
        assert_eq!(program[41], Inst::Ld { rd: 11, ra: 12, offset: Some(0) });
        for inst in &program {
            assert_eq!(Inst::decode(inst.encode()), Some(*inst), "{inst}");
        }
        assert_eq!(assemble(&disassemble(&program)).unwrap(), program);
        assert_eq!(program[17], Inst::Branch { if_zero: true, ra: 1, target: 0, reconv: 19 });
    }

    #[test]
    fn bad_programs_name_the_line_and_the_rule() {
        let err = |src: &str| format!("{:#}", assemble(src).unwrap_err());
        for (src, want) in [
            ("", "the program has no instructions"),
            ("frob r1", "line 1: `frob r1`: unknown instruction `frob`"),
            ("nop\nadd r1, r2, r16", "line 2: `add r1, r2, r16`: `r16` is not a register: registers are r0..r15"),
            ("add r1, r2", "`add` takes 3 operand(s) (add rd, ra, rb), got 2"),
            ("addi r1, r1, 8192", "immediate 8192 does not fit in 14 signed bits (-8192..=8191)"),
            ("li r1, x", "`x` is not a number"),
            ("li r1, 4294967296", "`li` constant 4294967296 does not fit in 32 bits (-2147483648..=4294967295)"),
            ("li r1, -2147483649", "`li` constant -2147483649 does not fit in 32 bits"),
            ("li r1", "`li` takes 2 operand(s) (li rd, imm), got 1"),
            ("mov r1", "`mov` takes 2 operand(s) (mov rd, ra), got 1"),
            ("neg r1, r16", "`r16` is not a register"),
            ("threads", "`threads` takes 1 operand(s) (threads rd), got 0"),
            ("jmp nowhere", "undefined label `nowhere`"),
            ("a: nop\na: nop", "line 2: label `a` is defined twice"),
            ("1a: nop", "`1a` is not a label name"),
            ("bz r1, e, e\ne: exit", "line 1: the reconvergence point of a branch must be a `join` (instruction 1 is not)"),
            ("st r1, 128, 4", "`st` index `128` must be a number in 0..=127"),
            ("jmp 2048", "address 2048 is outside the program space 0..2048"),
            ("lui r1, 262144", "`lui` immediate 262144 does not fit in 18 unsigned bits (0..=262143)"),
            ("lui r1, -1", "`lui` immediate -1 does not fit"),
            ("stx r1", "`stx` takes 2 operand(s) (stx rs, ra (or rs, imm(ra))), got 1"),
            ("ld r1, 4(r2", "`4(r2` is not a register"),
            ("ld r1, 4r2)", "`4r2)` is not an address: it is ra or imm(ra)"),
            ("ld r1, 8192(r2)", "immediate 8192 does not fit in 14 signed bits"),
            ("stx r1, x(r2)", "`x` is not a number"),
            ("ld r1, 4(r16)", "`r16` is not a register"),
            ("atadd r1, r2", "`atadd` takes 3 operand(s) (atadd rd, rs, ra), got 2"),
        ] {
            let got = err(src);
            assert!(got.contains(want), "{src:?}: `{got}` should contain `{want}`");
        }
        assert!(err(&"nop\n".repeat(2049)).contains("2049 instructions: at most 2048"));
    }

    #[test]
    fn a_core_without_an_extension_refuses_the_first_line_using_it() {
        let listing =
            assemble_listing("li r1, 3\n; square it\nmul r2, r1, r1\nstx r2, r1\nexit").unwrap();
        let cu = crate::params::CORE_CU;
        assert_eq!(
            cu.isa,
            crate::isa::Extensions::NONE,
            "the test assumes cu-core has no extension"
        );
        let err = listing.clone().for_core(&cu).unwrap_err();
        let at = err.downcast_ref::<AtLine>().expect("an error at a line");
        assert_eq!(at.line, 3);
        assert_eq!(
            at.message,
            "`mul r2, r1, r1`: core `cu-core` lacks the `mul` extension (it carries: none)"
        );
        let mut core = cu;
        core.isa.mul = true;
        let err = listing.clone().for_core(&core).unwrap_err();
        assert!(
            format!("{err}").starts_with(
                "line 4: `stx r2, r1`: core `cu-core` lacks the `stx` extension (it carries: mul)"
            ),
            "{err}"
        );
        core.isa.stx = true;
        assert_eq!(listing.clone().for_core(&core).unwrap(), listing);
    }

    /// The pseudo-instructions stand for the instructions the ISA page gives, worked out by
    /// hand (`li`'s `lui` part takes one more when the low 14 bits are negative as `addi`'s
    /// immediate); labels after them count every instruction.
    #[test]
    fn pseudo_instructions_expand_as_the_isa_page_says() {
        let addi = |rd, ra, imm| Inst::Imm { op: ImmOp::Addi, rd, ra, imm };
        let xori = |rd, ra, imm| Inst::Imm { op: ImmOp::Xori, rd, ra, imm };
        for (src, want) in [
            ("mov r1, r2", vec![addi(1, 2, 0)]),
            ("not r3, r3", vec![xori(3, 3, -1)]),
            ("neg r4, r5", vec![xori(4, 5, -1), addi(4, 4, 1)]),
            ("li r1, -8192", vec![Inst::Li { rd: 1, imm: -8192 }]),
            // 8192 = 0x2000: low bits 0x2000 are -8192 as 14 signed bits, so lui takes 1 (16384).
            ("li r1, 8192", vec![Inst::Lui { rd: 1, imm: 1 }, addi(1, 1, -8192)]),
            // 0x12345678 = 0x48d1 << 14 + 0x1678.
            ("li r2, 0x12345678", vec![Inst::Lui { rd: 2, imm: 0x48D1 }, addi(2, 2, 0x1678)]),
            // Low 14 bits 0: lui alone.
            ("li r3, 0xFFFFC000", vec![Inst::Lui { rd: 3, imm: 0x3FFFF }]),
            ("li r3, -2147483648", vec![Inst::Lui { rd: 3, imm: 0x20000 }]),
            // -8193 = 0xffffdfff = 0x3ffff << 14 + 0x1fff.
            ("li r4, -8193", vec![Inst::Lui { rd: 4, imm: 0x3FFFF }, addi(4, 4, 8191)]),
        ] {
            assert_eq!(assemble(src).unwrap(), want, "{src}");
        }
        let listing = assemble_listing(
            "li r1, 100000
l: exit
jmp l",
        )
        .unwrap();
        assert_eq!(listing.program[3], Inst::Jmp { target: 2 });
        assert_eq!(listing.source[1], (1, "li r1, 100000".to_string()));
        let core = crate::params::CORE_CU;
        let err = format!(
            "{:#}",
            assemble_listing(
                "li r1, 100000
exit"
            )
            .unwrap()
            .for_core(&core)
            .unwrap_err()
        );
        assert_eq!(
            err,
            "line 1: `li r1, 100000`: core `cu-core` lacks the `lui` extension (it carries: none)"
        );
    }

    #[test]
    fn unused_opcodes_decode_to_none() {
        assert_eq!(Inst::decode(0x3E << 26), None);
    }
}
