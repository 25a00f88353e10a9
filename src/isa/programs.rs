//! Random SIMT-core programs, valid by construction, and what each must compute found a second
//! way: every thread run alone, as a scalar program, through the same structured code.
//!
//! A program is straight-line ALU work, `if`/`else` on a per-lane condition, loops whose trip
//! count differs per lane, and local-data-share stores and loads, nested as deep as the SIMT
//! stack allows (an `if` or a loop holds two entries), with `exit` now and then inside an `if` or
//! a loop (it ends the lanes that reach it). It ends in `exit`. Barriers (`bar`) at the top
//! level, where no warp is diverged, split it into phases. It stays race-free between warps:
//! stores are owner-computes with one stride per program and `index < stride <= 4`, so each
//! thread writes its own words below word 128 (4 warps x 8 lanes, values of 8 bits or more);
//! loads read words 128 to 191, which nothing writes, and, in a phase without stores only, the
//! words below 128 that any warp stored before the barrier (race-free only because of it).
//! Atomics (extension `atomic`) stand at the top level, each the last statement of its phase,
//! on 8 words per warp from word 192 (8 warps) that nothing else touches.
//! Loop counters live in `r12..r14` and the load address in `r15` (an atomic's address is built
//! in `r14` and `r15`); the rest is free.
//!
//! The SIMT interpreter ([`Machine`]) runs the warps in lockstep with masks and the stack; the
//! scalar run ([`scalar_result`]) runs each thread alone, phase by phase (every thread through
//! one phase before any starts the next), where an `if` is a plain `if` and a loop a plain
//! `while`. Their final registers and local data share must be equal.

use std::fmt::Write;

use crate::isa::interp::{alu, imm_op, Config, Machine};
use crate::isa::{st_address, AluOp, AtomicOp, Extensions, ImmOp, LUI_SHIFT, REGISTERS};
use crate::sim::rng::Rng;

/// One statement of a structured program.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `op rd, ra, rb`.
    Alu(AluOp, u8, u8, u8),
    /// `op rd, ra, imm`.
    Imm(ImmOp, u8, u8, i32),
    /// `li rd, imm`.
    Li(u8, i32),
    /// `lui` (extension `lui`).
    Lui(u8, u32),
    /// `lane rd`.
    Lane(u8),
    /// `warp rd`.
    Warp(u8),
    /// `threads` (extension `threads`).
    Threads(u8),
    /// Lanes where `reg == 0` (`if_zero`) or `!= 0` run `then`, the others `other`.
    If {
        /// Taken where `reg == 0`, else where it is not.
        if_zero: bool,
        /// The register tested.
        reg: u8,
        /// What the taken lanes run.
        then: Vec<Stmt>,
        /// What the others run.
        other: Vec<Stmt>,
    },
    /// `counter = src & 3; while counter != 0 { body; counter -= 1 }`, per lane.
    Loop {
        /// The loop's counter register (`r12..r14`).
        counter: u8,
        /// The register whose low 2 bits are the trip count.
        src: u8,
        /// What each trip runs.
        body: Vec<Stmt>,
    },
    /// `st reg, index, stride` (owner-computes).
    St {
        /// The register stored.
        reg: u8,
        /// The row offset.
        index: u8,
        /// The stride (one per program).
        stride: u8,
    },
    /// `rd` = the word at `base + (ra & 63)`: `base` is [`LOAD_BASE`] (words nothing writes),
    /// or 0 (the words warps store to, in a phase without stores); `offset`: `base` is the
    /// load's offset (extension `offset`), not added to the address register first.
    Ld {
        /// The register written.
        rd: u8,
        /// The register the address comes from.
        ra: u8,
        /// The first word of the region read.
        base: u32,
        /// `base` is the offset of `ld rd, base(r15)`.
        offset: bool,
    },
    /// `rd` = atomically the word at [`ATOMIC_BASE`] + `warp x 8 + (ra & 7)`, which becomes
    /// `op(old, rb)` (extension `atomic`). At the top level only, once in a phase: each warp has
    /// its own 8 words, on which its lanes collide, so lane order (the SIMT run's) is the order
    /// of the threads (the scalar run's).
    Atomic {
        /// What is written back.
        op: AtomicOp,
        /// The register the old word goes to.
        rd: u8,
        /// The operand register.
        rb: u8,
        /// The register the word's index comes from.
        ra: u8,
    },
    /// Every warp waits for the others (at the top level only).
    Bar,
    /// The lanes that reach it end (generated inside `if`s and loops only, where they are some
    /// of the warp's lanes).
    Exit,
}

/// Registers statements may write (`r12..r15` are the loops' and the loads').
const FREE_REGS: u64 = 12;
const LOAD_ADDR: u8 = 15;
/// First word loads read (64 of them); stores stay below it.
pub const LOAD_BASE: u32 = 128;
/// First of the words atomics use: 8 per warp, 8 warps.
pub const ATOMIC_BASE: u32 = 192;
/// Where an atomic's address is built (free at the top level, where no loop counts).
const ATOMIC_WARP: u8 = 14;

/// A random program of `size` statements after a prologue that gives every free register a
/// lane- and warp-dependent value, its nesting fitting a stack of `stack_depth`, using the
/// extensions `isa` (every one but `stx`) beside the base instructions.
pub fn random_program(
    rng: &mut Rng,
    size: usize,
    stack_depth: usize,
    isa: Extensions,
) -> Vec<Stmt> {
    // Lane- and warp-dependent values in every free register, so that conditions split warps.
    let mut program = vec![Stmt::Lane(0), Stmt::Warp(1)];
    for r in 2..FREE_REGS as u8 {
        program.push(Stmt::Imm(ImmOp::Shli, r, 0, rng.below(4) as i32));
        program.push(Stmt::Alu(AluOp::Xor, r, r, 1 + rng.below(r as u64 - 1) as u8));
        program.push(Stmt::Imm(ImmOp::Addi, r, r, rng.below(16) as i32));
    }
    let mut budget = size;
    let stride = 1 + rng.below(4) as u8;
    let top = stack_depth / 2;
    let mut stores = true;
    while budget > 0 {
        let at = Nesting { top, levels: top, loops: 0, stores, isa };
        program.extend(block(rng, &mut budget, at, stride));
        if budget > 0 && isa.atomic && rng.chance(25) {
            let op = AtomicOp::ALL[rng.below(2) as usize];
            let [rd, rb, ra] = [0; 3].map(|_| rng.below(FREE_REGS) as u8);
            program.push(Stmt::Atomic { op, rd, rb, ra });
            budget -= 1;
        }
        if budget > 0 && (rng.chance(30) || matches!(program.last(), Some(Stmt::Atomic { .. }))) {
            program.push(Stmt::Bar);
            stores = rng.chance(50);
        }
    }
    program
}

/// Where a block is: the levels of nesting the stack allows in all and below it, the loops
/// around it, and whether its phase stores (else it may load what warps stored before).
#[derive(Clone, Copy)]
struct Nesting {
    top: usize,
    levels: usize,
    loops: u8,
    stores: bool,
    isa: Extensions,
}

impl Nesting {
    fn inner(self, loop_body: bool) -> Nesting {
        Nesting { levels: self.levels - 1, loops: self.loops + loop_body as u8, ..self }
    }
}

fn block(rng: &mut Rng, budget: &mut usize, at: Nesting, stride: u8) -> Vec<Stmt> {
    let Nesting { levels, loops, .. } = at;
    let mut out = vec![];
    let len = 1 + rng.below(6) as usize;
    for _ in 0..len {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let reg = |rng: &mut Rng| rng.below(FREE_REGS) as u8;
        let roll = rng.below(100);
        out.push(match roll {
            _ if levels > 0 && roll < 12 => {
                let (then, other) = (
                    block(rng, budget, at.inner(false), stride),
                    block(rng, budget, at.inner(false), stride),
                );
                Stmt::If { if_zero: rng.chance(50), reg: reg(rng), then, other }
            }
            _ if levels > 0 && loops < 3 && roll < 20 => Stmt::Loop {
                counter: 12 + loops,
                src: reg(rng),
                body: block(rng, budget, at.inner(true), stride),
            },
            _ if levels < at.top && roll < 23 => Stmt::Exit,
            _ if roll < 28 && at.stores => {
                Stmt::St { reg: reg(rng), index: rng.below(stride as u64) as u8, stride }
            }
            _ if roll < 28 => Stmt::Ld { rd: reg(rng), ra: reg(rng), base: 0, offset: false },
            _ if roll < 36 => Stmt::Ld {
                rd: reg(rng),
                ra: reg(rng),
                base: LOAD_BASE,
                offset: at.isa.offset && rng.chance(50),
            },
            _ if roll < 42 => Stmt::Li(reg(rng), rng.below(1 << 14) as i32 - (1 << 13)),
            _ if roll < 46 => Stmt::Lane(reg(rng)),
            _ if roll < 50 && at.isa.threads && rng.chance(30) => Stmt::Threads(reg(rng)),
            _ if roll < 50 => Stmt::Warp(reg(rng)),
            _ if roll < 53 && at.isa.lui => Stmt::Lui(reg(rng), rng.bits(18) as u32),
            _ if roll < 70 => {
                let ops: Vec<ImmOp> =
                    ImmOp::ALL.into_iter().filter(|op| at.isa.allows(op.extensions())).collect();
                let op = ops[rng.below(ops.len() as u64) as usize];
                Stmt::Imm(op, reg(rng), reg(rng), rng.below(64) as i32 - 32)
            }
            _ => {
                let ops: Vec<AluOp> =
                    AluOp::ALL.into_iter().filter(|op| at.isa.allows(op.extensions())).collect();
                let op = ops[rng.below(ops.len() as u64) as usize];
                Stmt::Alu(op, reg(rng), reg(rng), reg(rng))
            }
        });
    }
    out
}

/// The program as assembly text, ending in `exit`.
pub fn assembly(program: &[Stmt]) -> String {
    let mut text = String::new();
    let mut labels = 0;
    emit(program, &mut text, &mut labels);
    text.push_str("        exit\n");
    text
}

fn emit(stmts: &[Stmt], out: &mut String, labels: &mut usize) {
    for s in stmts {
        let _ = match s {
            Stmt::Alu(op, rd, ra, rb) => writeln!(out, "        {} r{rd}, r{ra}, r{rb}", op.name()),
            Stmt::Imm(op, rd, ra, imm) => {
                writeln!(out, "        {} r{rd}, r{ra}, {imm}", op.name())
            }
            Stmt::Li(rd, imm) => writeln!(out, "        li r{rd}, {imm}"),
            Stmt::Lui(rd, imm) => writeln!(out, "        lui r{rd}, {imm}"),
            Stmt::Lane(rd) => writeln!(out, "        lane r{rd}"),
            Stmt::Warp(rd) => writeln!(out, "        warp r{rd}"),
            Stmt::Threads(rd) => writeln!(out, "        threads r{rd}"),
            Stmt::If { if_zero, reg, then, other } => {
                // Taken lanes run `then` at the target; the others fall through into `other`.
                *labels += 1;
                let (t, j) = (*labels, *labels);
                let _ = writeln!(
                    out,
                    "        {} r{reg}, then{t}, join{j}",
                    if *if_zero { "bz" } else { "bnz" }
                );
                emit(other, out, labels);
                let _ = writeln!(out, "        jmp join{j}\nthen{t}:");
                emit(then, out, labels);
                writeln!(out, "join{j}: join")
            }
            Stmt::Loop { counter, src, body } => {
                *labels += 1;
                let (top, skip) = (*labels, *labels);
                let _ = writeln!(out, "        andi r{counter}, r{src}, 3\ntop{top}: bz r{counter}, skip{skip}, skip{skip}");
                emit(body, out, labels);
                writeln!(out, "        addi r{counter}, r{counter}, -1\nskip{skip}: join\n        bany r{counter}, top{top}")
            }
            Stmt::St { reg, index, stride } => {
                writeln!(out, "        st r{reg}, {index}, {stride}")
            }
            Stmt::Exit => writeln!(out, "        exit"),
            Stmt::Bar => writeln!(out, "        bar"),
            Stmt::Ld { rd, ra, base, offset } => {
                let _ = writeln!(out, "        andi r{LOAD_ADDR}, r{ra}, 63");
                if *offset {
                    writeln!(out, "        ld r{rd}, {base}(r{LOAD_ADDR})")
                } else {
                    if *base != 0 {
                        let _ = writeln!(out, "        addi r{LOAD_ADDR}, r{LOAD_ADDR}, {base}");
                    }
                    writeln!(out, "        ld r{rd}, r{LOAD_ADDR}")
                }
            }
            Stmt::Atomic { op, rd, rb, ra } => {
                let (w, a) = (ATOMIC_WARP, LOAD_ADDR);
                let _ = writeln!(out, "        andi r{a}, r{ra}, 7\n        warp r{w}");
                let _ = writeln!(out, "        shli r{w}, r{w}, 3\n        add r{a}, r{a}, r{w}");
                let _ = writeln!(out, "        addi r{a}, r{a}, {ATOMIC_BASE}");
                writeln!(out, "        {} r{rd}, r{rb}, r{a}", op.name())
            }
        };
    }
}

/// Every thread run alone through `program`, phase by phase (the barriers end phases): the
/// registers and local data share the SIMT run must end with (`lds` as the machine starts with
/// it).
pub fn scalar_result(program: &[Stmt], config: Config, lds: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let vm = if config.lane_bits >= 32 { u32::MAX } else { (1u32 << config.lane_bits) - 1 };
    let mut memory = Machine::new(config, lds).expect("a valid configuration").lds;
    let mut regs = vec![0u32; config.warps * config.threads * REGISTERS];
    let mut alive = vec![true; config.warps * config.threads];
    for phase in program.split(|s| matches!(s, Stmt::Bar)) {
        for (t, alive) in alive.iter_mut().enumerate().filter(|(_, a)| **a) {
            let mut thread = Thread {
                warp: t / config.threads,
                lane: t % config.threads,
                threads: config.threads,
                thread: t,
                vm,
                bits: config.lane_bits,
                banks: config.lds_banks,
                regs: &mut regs[t * REGISTERS..(t + 1) * REGISTERS],
                lds: &mut memory,
            };
            *alive = thread.run(phase);
        }
    }
    (regs, memory)
}

struct Thread<'a> {
    warp: usize,
    lane: usize,
    /// Lanes per warp.
    threads: usize,
    thread: usize,
    vm: u32,
    bits: usize,
    /// The local data share's banks (where `st` writes).
    banks: usize,
    regs: &'a mut [u32],
    lds: &'a mut Vec<u32>,
}

impl Thread<'_> {
    /// Runs `stmts`; false once the thread has run `exit`.
    fn run(&mut self, stmts: &[Stmt]) -> bool {
        for s in stmts {
            match s {
                Stmt::Alu(op, rd, ra, rb) => {
                    self.regs[*rd as usize] =
                        alu(*op, self.regs[*ra as usize], self.regs[*rb as usize], self.bits)
                            & self.vm
                }
                Stmt::Imm(op, rd, ra, imm) => {
                    self.regs[*rd as usize] =
                        imm_op(*op, self.regs[*ra as usize], *imm, self.bits) & self.vm
                }
                Stmt::Li(rd, imm) => self.regs[*rd as usize] = *imm as u32 & self.vm,
                Stmt::Lui(rd, imm) => {
                    self.regs[*rd as usize] = ((*imm as u64) << LUI_SHIFT) as u32 & self.vm
                }
                Stmt::Lane(rd) => self.regs[*rd as usize] = self.lane as u32 & self.vm,
                Stmt::Warp(rd) => self.regs[*rd as usize] = self.warp as u32 & self.vm,
                Stmt::Threads(rd) => self.regs[*rd as usize] = self.threads as u32 & self.vm,
                Stmt::If { if_zero, reg, then, other } => {
                    let branch =
                        if (self.regs[*reg as usize] == 0) == *if_zero { then } else { other };
                    if !self.run(branch) {
                        return false;
                    }
                }
                Stmt::Loop { counter, src, body } => {
                    let c = *counter as usize;
                    self.regs[c] = self.regs[*src as usize] & 3;
                    while self.regs[c] != 0 {
                        if !self.run(body) {
                            return false;
                        }
                        self.regs[c] = self.regs[c].wrapping_sub(1) & self.vm;
                    }
                }
                Stmt::St { reg, index, stride } => {
                    let words = self.lds.len();
                    self.lds[st_address(self.thread, *index, *stride, self.banks) % words] =
                        self.regs[*reg as usize];
                }
                Stmt::Ld { rd, ra, base, offset } => {
                    let addr = ((self.regs[*ra as usize] & 63) + base) & self.vm;
                    self.regs[LOAD_ADDR as usize] = if *offset { addr - base } else { addr };
                    self.regs[*rd as usize] = self.lds[addr as usize % self.lds.len()];
                }
                Stmt::Atomic { op, rd, rb, ra } => {
                    let warp = (self.warp as u32) << 3 & self.vm;
                    let addr = ((self.regs[*ra as usize] & 7) + warp + ATOMIC_BASE) & self.vm;
                    (self.regs[ATOMIC_WARP as usize], self.regs[LOAD_ADDR as usize]) = (warp, addr);
                    let word = addr as usize % self.lds.len();
                    let old = self.lds[word];
                    self.lds[word] = op.apply(old, self.regs[*rb as usize]) & self.vm;
                    self.regs[*rd as usize] = old;
                }
                Stmt::Bar => unreachable!("barriers end phases: scalar_result splits at them"),
                Stmt::Exit => return false,
            }
        }
        true
    }
}
