//! The reference interpreter: what every program must compute, for every warp and lane.
//!
//! All warps start at instruction 0 with every lane active, registers 0 and an empty SIMT
//! stack; the local data share starts with the words the host gives. Warps take turns, one
//! instruction each in warp order, until every warp has ended; the final registers and
//! local data share are the program's result. (Programs whose warps race on one local-data-share
//! word have an order-dependent result; the kernels and the program generator avoid that, and
//! the machine records each race it sees: [`super::races`].)
//!
//! `exit` ends the active lanes only. They are removed from every mask the stack restores, and
//! the warp goes on at its stack's top (as `join` does); it ends when `exit` finds the stack
//! empty, no lane being active or pending. A warp whose restored mask holds no lane left (every
//! lane of that entry exited) issues its next instruction as `exit`: it counts as an instruction
//! and pops again.
//!
//! `bar` makes its warp wait, losing its turns, until every warp that has not ended waits at a
//! `bar`; then all go on (a warp that ends may be the last one they waited for). Races are
//! counted between barriers.
//!
//! A program that pushes more entries than the stack holds, runs `join` on an empty stack,
//! reaches `bar` in a diverged warp (its active lanes are not all its lanes that have not
//! exited), runs past its last instruction or does not finish within `max_instructions` has no
//! result: the run is an error naming the warp and the instruction.

use anyhow::{bail, Result};

use super::{st_address, AluOp, Extensions, ImmOp, Inst, LUI_SHIFT, REGISTERS};
use crate::params::{check_pow2, check_range};

/// The machine a program runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Warps.
    pub warps: usize,
    /// Lanes per warp (1..=32).
    pub threads: usize,
    /// Bits of every value (1..=32); arithmetic wraps.
    pub lane_bits: usize,
    /// SIMT stack entries per warp.
    pub stack_depth: usize,
    /// Rows of each local-data-share bank (a power of two); addresses wrap at `lds_banks x
    /// lds_rows` words.
    pub lds_rows: usize,
    /// Banks of the local data share (a power of two, 1..=32): where `st` writes and what
    /// conflicts (the ISA page).
    pub lds_banks: usize,
    /// Warp instructions after which the run is stopped as an error.
    pub max_instructions: u64,
    /// The extensions the machine carries: a program using another is refused before it runs.
    pub isa: Extensions,
}

impl Config {
    /// Checks every field.
    pub fn validate(&self) -> Result<()> {
        check_range("warps", self.warps, 1, 64)?;
        check_range("threads", self.threads, 1, 32)?;
        check_range("lane_bits", self.lane_bits, 1, 32)?;
        check_range("stack_depth", self.stack_depth, 1, 64)?;
        if !self.lds_rows.is_power_of_two() {
            bail!("parameter `lds_rows` = {} must be a power of two", self.lds_rows);
        }
        check_pow2("lds_banks", self.lds_banks, 1, 32)?;
        Ok(())
    }
    /// The machine a preset's hardware is: its warps, lanes, lane width, stack depth and local
    /// data share.
    pub fn of_preset(p: &crate::params::Preset, max_instructions: u64) -> Config {
        let s = p.scheduler;
        Config {
            warps: s.warps,
            threads: s.threads,
            lane_bits: p.collector.lane_bits,
            stack_depth: s.stack_depth,
            lds_rows: p.lds_rows,
            lds_banks: p.lds_banks,
            max_instructions,
            isa: p.isa(),
        }
    }
    /// Words of the local data share.
    pub fn lds_words(&self) -> usize {
        self.lds_banks * self.lds_rows
    }
}

/// What a run counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Warp instructions executed.
    pub instructions: u64,
    /// Branches that split a warp (some active lanes taken, some not).
    pub divergent_branches: u64,
    /// Most SIMT-stack entries any warp held.
    pub stack_high_water: usize,
    /// Local-data-share accesses.
    pub lds_accesses: u64,
    /// Extra cycles of local-data-share accesses whose lanes needed several rows of one bank.
    pub lds_conflict_cycles: u64,
    /// `exit`s that found entries on the warp's stack (its active lanes ended, the warp went on
    /// at the top), and instructions issued with no lane left (run as `exit`).
    pub partial_exits: u64,
    /// Instructions issued with no lane left (run as `exit`).
    pub empty_issues: u64,
    /// Barriers passed: times every warp that had not ended waited and all went on.
    pub barriers: u64,
}

/// Why a program has no result: the run's error, which [`Fault::pc`] places in the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A branch pushed more entries than the SIMT stack holds.
    StackOverflow {
        /// The warp.
        warp: usize,
        /// The instruction's index.
        pc: usize,
        /// The stack's entries.
        depth: usize,
    },
    /// `join` found the SIMT stack empty.
    EmptyJoin {
        /// The warp.
        warp: usize,
        /// The instruction's index.
        pc: usize,
    },
    /// A warp's pc left the program, after instruction `from`.
    PastEnd {
        /// The warp.
        warp: usize,
        /// The instruction's index.
        pc: usize,
        /// The program's length.
        len: usize,
        /// The instruction it came from.
        from: Option<usize>,
    },
    /// `max_instructions` warp instructions ran and some warp had not exited.
    Limit {
        /// The limit.
        instructions: u64,
    },
    /// A warp reached `bar` diverged: its active lanes (`mask`) are not all its lanes that
    /// have not exited (`live`).
    DivergedBarrier {
        /// The warp.
        warp: usize,
        /// The instruction's index.
        pc: usize,
        /// Its active lanes.
        mask: u32,
        /// Its lanes that have not exited.
        live: u32,
    },
}

impl Fault {
    /// The instruction at fault: the one that overflowed or joined, the last one run before the
    /// pc left the program; none for the limit.
    pub fn pc(&self) -> Option<usize> {
        match *self {
            Fault::StackOverflow { pc, .. }
            | Fault::EmptyJoin { pc, .. }
            | Fault::DivergedBarrier { pc, .. } => Some(pc),
            Fault::PastEnd { from, .. } => from,
            Fault::Limit { .. } => None,
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match *self {
            Fault::StackOverflow { warp, pc, depth } => {
                write!(f, "warp {warp} at instruction {pc}: SIMT stack overflow (depth {depth})")
            }
            Fault::EmptyJoin { warp, pc } => {
                write!(f, "warp {warp} at instruction {pc}: `join` with an empty SIMT stack")
            }
            Fault::PastEnd { warp, pc, len, .. } => {
                write!(f, "warp {warp} ran past the end of the program (instruction {pc} of {len})")
            }
            Fault::Limit { instructions } => write!(
                f,
                "the program did not finish within {instructions} warp instructions (`max_instructions`)"
            ),
            Fault::DivergedBarrier { warp, pc, mask, live } => write!(
                f,
                "warp {warp} at instruction {pc}: `bar` in a diverged warp (active lanes {mask:#b}, \
                 lanes not exited {live:#b}): every lane that has not exited must reach it together"
            ),
        }
    }
}

impl std::error::Error for Fault {}

/// One warp's control state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpState {
    /// The next instruction's index.
    pub pc: usize,
    /// Active lanes, bit `l` for lane `l`.
    pub mask: u32,
    /// `(mask, pc)` entries, the top last.
    pub stack: Vec<(u32, usize)>,
    /// The warp has ended.
    pub done: bool,
    /// Lanes that ran `exit` (bit `l` for lane `l`): no mask the stack restores holds them.
    pub exited: u32,
    /// The instruction the warp ran last (`None` before its first).
    pub last: Option<usize>,
    /// Waiting at a `bar` for the other warps.
    pub at_barrier: bool,
}

/// The machine after a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The machine.
    pub config: Config,
    /// `regs[(warp x threads + lane) x 16 + r]`.
    pub regs: Vec<u32>,
    /// The local data share's words.
    pub lds: Vec<u32>,
    /// Each warp's control state.
    pub warps: Vec<WarpState>,
    /// What the run counted.
    pub counters: Counters,
    /// Races between warps on the local data share ([`super::races`]).
    pub races: super::races::RaceLog,
}

impl Machine {
    /// A machine at launch, the local data share holding `lds_init` from word 0 (the rest 0).
    pub fn new(config: Config, lds_init: &[u32]) -> Result<Self> {
        config.validate()?;
        if lds_init.len() > config.lds_words() {
            bail!(
                "the initial local data share has {} words: it holds {}",
                lds_init.len(),
                config.lds_words()
            );
        }
        let mut lds = vec![0; config.lds_words()];
        let value_mask = value_mask(config.lane_bits);
        for (w, v) in lds.iter_mut().zip(lds_init) {
            *w = v & value_mask;
        }
        Ok(Self {
            config,
            regs: vec![0; config.warps * config.threads * REGISTERS],
            lds,
            warps: launched(&config),
            counters: Counters::default(),
            races: super::races::RaceLog::new(config.lds_words()),
        })
    }

    /// Register `r` of lane `lane` of warp `warp`.
    pub fn reg(&self, warp: usize, lane: usize, r: usize) -> u32 {
        self.regs[(warp * self.config.threads + lane) * REGISTERS + r]
    }

    /// Every warp back at instruction 0 with every lane and an empty stack, for the next
    /// program; registers, local data share and counters stay (as the core's `start` does).
    pub fn relaunch(&mut self) {
        self.warps = launched(&self.config);
    }

    /// Runs `program` until every warp has exited. Warps waiting at a barrier lose their turn.
    pub fn run(&mut self, program: &[Inst]) -> Result<()> {
        if let Some((pc, ext)) = self.config.isa.first_missing(program) {
            bail!(
                "instruction {pc} (`{}`) needs the `{}` extension, which the machine lacks",
                program[pc],
                ext.name()
            );
        }
        while self.warps.iter().any(|w| !w.done) {
            for w in 0..self.config.warps {
                if !self.warps[w].done && !self.warps[w].at_barrier {
                    if self.counters.instructions >= self.config.max_instructions {
                        bail!(Fault::Limit { instructions: self.config.max_instructions });
                    }
                    self.step(w, program)?;
                }
            }
        }
        Ok(())
    }

    /// Executes warp `w`'s next instruction.
    pub fn step(&mut self, w: usize, program: &[Inst]) -> Result<()> {
        let c = self.config;
        let pc = self.warps[w].pc;
        let Some(&inst) = program.get(pc) else {
            bail!(Fault::PastEnd { warp: w, pc, len: program.len(), from: self.warps[w].last });
        };
        self.counters.instructions += 1;
        let mask = self.warps[w].mask;
        let vm = value_mask(c.lane_bits);
        let lanes: Vec<usize> = (0..c.threads).filter(|l| mask >> l & 1 == 1).collect();
        let idx = |lane: usize, r: u8| (w * c.threads + lane) * REGISTERS + r as usize;
        let mut next = pc + 1;
        // A warp whose restored mask holds no lane left runs nothing there: it exits again.
        let inst = if mask == 0 { Inst::Exit } else { inst };
        self.counters.empty_issues += (mask == 0) as u64;
        match inst {
            Inst::Nop => {}
            Inst::Alu { op, rd, ra, rb } => {
                for &l in &lanes {
                    let (a, b) = (self.regs[idx(l, ra)], self.regs[idx(l, rb)]);
                    self.regs[idx(l, rd)] = alu(op, a, b, c.lane_bits) & vm;
                }
            }
            Inst::Imm { op, rd, ra, imm } => {
                for &l in &lanes {
                    self.regs[idx(l, rd)] =
                        imm_op(op, self.regs[idx(l, ra)], imm, c.lane_bits) & vm;
                }
            }
            Inst::Li { rd, imm } => {
                lanes.iter().for_each(|&l| self.regs[idx(l, rd)] = imm as u32 & vm)
            }
            Inst::Lane { rd } => lanes.iter().for_each(|&l| self.regs[idx(l, rd)] = l as u32 & vm),
            Inst::Warp { rd } => lanes.iter().for_each(|&l| self.regs[idx(l, rd)] = w as u32 & vm),
            Inst::Threads { rd } => {
                let threads = self.config.threads as u32 & vm;
                lanes.iter().for_each(|&l| self.regs[idx(l, rd)] = threads)
            }
            Inst::Branch { if_zero, ra, target, reconv } => {
                let taken = lanes
                    .iter()
                    .filter(|&&l| (self.regs[idx(l, ra)] == 0) == if_zero)
                    .fold(0u32, |m, &l| m | 1 << l);
                let fall = mask & !taken;
                self.push(w, mask, reconv as usize + 1)?;
                if taken != 0 && fall != 0 {
                    self.push(w, fall, pc + 1)?;
                    self.counters.divergent_branches += 1;
                    self.warps[w].mask = taken;
                    next = target as usize;
                } else if taken != 0 {
                    next = target as usize;
                }
            }
            Inst::Join => match self.warps[w].stack.pop() {
                Some((m, p)) => {
                    self.warps[w].mask = m & !self.warps[w].exited;
                    next = p;
                }
                None => bail!(Fault::EmptyJoin { warp: w, pc }),
            },
            Inst::Jmp { target } => next = target as usize,
            Inst::Bany { ra, target } => {
                if lanes.iter().any(|&l| self.regs[idx(l, ra)] != 0) {
                    next = target as usize;
                }
            }
            Inst::St { ra, index, stride } => {
                let addrs: Vec<usize> = lanes
                    .iter()
                    .map(|&l| st_address(w * c.threads + l, index, stride, c.lds_banks))
                    .collect();
                let values: Vec<u32> = lanes.iter().map(|&l| self.regs[idx(l, ra)]).collect();
                self.store(w, pc, &addrs, &values);
            }
            Inst::Ld { rd, ra, offset } => {
                let addrs = self.addresses(&lanes, idx, ra, offset);
                self.count_lds(&addrs, false);
                for (&l, &a) in lanes.iter().zip(&addrs) {
                    self.regs[idx(l, rd)] = self.lds[a];
                    self.races.access(a, w, pc, false);
                }
            }
            Inst::Stx { ra, rb, offset } => {
                let addrs = self.addresses(&lanes, idx, ra, offset);
                let values: Vec<u32> = lanes.iter().map(|&l| self.regs[idx(l, rb)]).collect();
                self.store(w, pc, &addrs, &values);
            }
            Inst::Atomic { op, rd, ra, rb } => {
                let addrs = self.addresses(&lanes, idx, ra, None);
                self.count_lds(&addrs, true);
                // Lane order, lowest first: each lane sees what the lanes before it left.
                for (&l, &a) in lanes.iter().zip(&addrs) {
                    let old = self.lds[a];
                    self.lds[a] = op.apply(old, self.regs[idx(l, rb)]) & vm;
                    self.regs[idx(l, rd)] = old;
                    self.races.access(a, w, pc, true);
                }
            }
            Inst::Lui { rd, imm } => {
                let v = (imm as u64) << LUI_SHIFT;
                lanes.iter().for_each(|&l| self.regs[idx(l, rd)] = v as u32 & vm)
            }
            Inst::Bar => self.arrive(w, pc, mask)?,
            Inst::Exit => {
                // The active lanes end; the warp goes on at its stack's top, without them, or
                // ends when nothing is pending.
                let warp = &mut self.warps[w];
                warp.exited |= mask;
                match warp.stack.pop() {
                    Some((m, p)) => {
                        warp.mask = m & !warp.exited;
                        next = p;
                        self.counters.partial_exits += (mask != 0) as u64;
                    }
                    None => warp.done = true,
                }
            }
        }
        self.warps[w].pc = next;
        self.warps[w].last = Some(pc);
        self.release_barrier();
        Ok(())
    }

    /// Warp `w`'s store at `pc`: its active lanes, in order, write `values` to `addrs` (wrapping
    /// at the share's size), so of lanes that hit one word the highest lane's value stays.
    fn store(&mut self, w: usize, pc: usize, addrs: &[usize], values: &[u32]) {
        self.count_lds(addrs, false);
        let words = self.lds.len();
        for (&a, &v) in addrs.iter().zip(values) {
            self.lds[a % words] = v;
            self.races.access(a % words, w, pc, true);
        }
    }

    /// Warp `w` reaches `bar` with `mask` active: it waits, unless it is diverged.
    fn arrive(&mut self, w: usize, pc: usize, mask: u32) -> Result<()> {
        let live = full_mask(self.config.threads) & !self.warps[w].exited;
        if mask != live {
            bail!(Fault::DivergedBarrier { warp: w, pc, mask, live });
        }
        self.warps[w].at_barrier = true;
        Ok(())
    }

    /// Once every warp that has not ended waits at a barrier, all go on, and a new interval of
    /// the race log begins.
    fn release_barrier(&mut self) {
        let waiting = self.warps.iter().any(|w| w.at_barrier);
        if waiting && self.warps.iter().all(|w| w.done || w.at_barrier) {
            self.warps.iter_mut().for_each(|w| w.at_barrier = false);
            self.races.barrier();
            self.counters.barriers += 1;
        }
    }

    fn push(&mut self, w: usize, mask: u32, pc: usize) -> Result<()> {
        let warp = &mut self.warps[w];
        if warp.stack.len() == self.config.stack_depth {
            bail!(Fault::StackOverflow { warp: w, pc: warp.pc, depth: self.config.stack_depth });
        }
        warp.stack.push((mask, pc));
        self.counters.stack_high_water = self.counters.stack_high_water.max(warp.stack.len());
        Ok(())
    }

    /// The words the lanes `lanes` address with register `ra` (plus `offset`), wrapped at the
    /// lane width and then at the share's size.
    fn addresses(
        &self,
        lanes: &[usize],
        idx: impl Fn(usize, u8) -> usize,
        ra: u8,
        offset: Option<i32>,
    ) -> Vec<usize> {
        let vm = value_mask(self.config.lane_bits);
        let add = offset.unwrap_or(0) as u32;
        let at = |l| (self.regs[idx(l, ra)].wrapping_add(add) & vm) as usize % self.lds.len();
        lanes.iter().map(|&l| at(l)).collect()
    }

    /// One access of the local data share at these word addresses: as many cycles as the most
    /// distinct rows any bank is asked for; an atomic's, two (a read, then the write) for each
    /// lane of its busiest bank.
    fn count_lds(&mut self, addrs: &[usize], atomic: bool) {
        if addrs.is_empty() {
            return;
        }
        let words = self.lds.len();
        let banks = self.config.lds_banks;
        let mut rows: Vec<Vec<usize>> = vec![vec![]; banks];
        for a in addrs {
            let a = a % words;
            let (bank, row) = (a % banks, a / banks);
            if atomic || !rows[bank].contains(&row) {
                rows[bank].push(row);
            }
        }
        let busiest = rows.iter().map(Vec::len).max().unwrap_or(1) as u64;
        let cycles = if atomic { 2 * busiest } else { busiest };
        self.counters.lds_accesses += 1;
        self.counters.lds_conflict_cycles += cycles - 1;
    }
}

/// Every warp at instruction 0 with every lane and an empty stack.
fn launched(config: &Config) -> Vec<WarpState> {
    let start = WarpState {
        pc: 0,
        mask: full_mask(config.threads),
        stack: vec![],
        done: false,
        exited: 0,
        last: None,
        at_barrier: false,
    };
    vec![start; config.warps]
}

/// Every lane of a warp of `threads` lanes.
fn full_mask(threads: usize) -> u32 {
    value_mask(threads)
}

fn value_mask(bits: usize) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// A `bits`-bit lane value as a signed number (its top bit the sign).
fn signed(a: u32, bits: usize) -> i64 {
    let shift = 64 - bits as u32;
    ((a as u64) << shift) as i64 >> shift
}

fn shift_left(a: u32, by: u32) -> u32 {
    a.checked_shl(by).unwrap_or(0)
}

/// `a op imm` for `bits`-bit values (the caller masks the result to `bits`): the immediate is
/// sign-extended, then cut to `bits` (so `slti` and `sltsi` compare with that lane value).
pub fn imm_op(op: ImmOp, a: u32, imm: i32, bits: usize) -> u32 {
    let by = imm.rem_euclid(bits as i32) as u32;
    let lane_imm = imm as u32 & value_mask(bits);
    match op {
        ImmOp::Addi => a.wrapping_add(lane_imm),
        ImmOp::Andi => a & lane_imm,
        ImmOp::Shli => shift_left(a, by),
        ImmOp::Shri => a >> by,
        ImmOp::Ori => a | lane_imm,
        ImmOp::Xori => a ^ lane_imm,
        ImmOp::Slti => (a < lane_imm) as u32,
        ImmOp::Sltsi => (signed(a, bits) < signed(lane_imm, bits)) as u32,
        ImmOp::Srai => (signed(a, bits) >> by) as u32,
    }
}

/// `a op b` for `bits`-bit values (the caller masks the result to `bits`).
pub fn alu(op: AluOp, a: u32, b: u32, bits: usize) -> u32 {
    let by = b % bits as u32;
    match op {
        AluOp::Add => a.wrapping_add(b),
        AluOp::Sub => a.wrapping_sub(b),
        AluOp::And => a & b,
        AluOp::Or => a | b,
        AluOp::Xor => a ^ b,
        AluOp::Shl => shift_left(a, by),
        AluOp::Shr => a >> by,
        AluOp::Slt => (a < b) as u32,
        AluOp::Seq => (a == b) as u32,
        AluOp::Mul => a.wrapping_mul(b),
        AluOp::Slts => (signed(a, bits) < signed(b, bits)) as u32,
        AluOp::Sra => (signed(a, bits) >> by) as u32,
        AluOp::Min => {
            if signed(a, bits) < signed(b, bits) {
                a
            } else {
                b
            }
        }
        AluOp::Max => {
            if signed(a, bits) < signed(b, bits) {
                b
            } else {
                a
            }
        }
        AluOp::Minu => a.min(b),
        AluOp::Maxu => a.max(b),
        AluOp::Mulh => ((signed(a, bits) * signed(b, bits)) >> bits) as u32,
        AluOp::Mulhu => ((a as u64 * b as u64) >> bits) as u32,
    }
}

impl crate::params::CoreParams {
    /// The instruction set's machine: what the interpreter runs the same programs on.
    pub fn machine(&self, max_instructions: u64) -> Config {
        Config {
            warps: self.warps,
            threads: self.threads,
            lane_bits: self.lane_bits,
            stack_depth: self.stack_depth,
            lds_rows: self.lds_rows,
            lds_banks: self.lds_banks,
            max_instructions,
            isa: self.isa,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine of `warps` x `threads` lanes of `lane_bits`, every extension, a 16-word share.
    fn small_machine(warps: usize, threads: usize, lane_bits: usize) -> Config {
        Config {
            warps,
            threads,
            lane_bits,
            stack_depth: 2,
            lds_rows: 4,
            lds_banks: 4,
            max_instructions: 100,
            isa: Extensions::ALL,
        }
    }

    /// The extensions' operations on values worked out by hand.
    #[test]
    fn extension_ops_on_hand_worked_values() {
        // 8-bit lanes: 200 x 3 = 600 = 2 x 256 + 88; 0x80 is -128 signed, 128 unsigned.
        assert_eq!(alu(AluOp::Mul, 200, 3, 8) & 0xFF, 88);
        assert_eq!(alu(AluOp::Slts, 0x80, 1, 8), 1);
        assert_eq!(alu(AluOp::Slt, 0x80, 1, 8), 0);
        assert_eq!(alu(AluOp::Slts, 1, 0x80, 8), 0);
        assert_eq!(alu(AluOp::Slts, 0xFE, 0xFF, 8), 1, "-2 < -1");
        assert_eq!(alu(AluOp::Sra, 0x80, 2, 8) & 0xFF, 0xE0);
        assert_eq!(alu(AluOp::Sra, 0x40, 2, 8) & 0xFF, 0x10);
        assert_eq!(alu(AluOp::Sra, 0x80, 10, 8) & 0xFF, 0xE0, "the amount is taken mod 8");
        // 32-bit lanes: (2^32 - 1)^2 = 2^64 - 2^33 + 1, whose low 32 bits are 1.
        assert_eq!(alu(AluOp::Mul, u32::MAX, u32::MAX, 32), 1);
        assert_eq!(alu(AluOp::Mul, 0x1_0001, 0x1_0001, 32), 0x2_0001);
        assert_eq!(alu(AluOp::Sra, 0x8000_0000, 31, 32), u32::MAX);
        assert_eq!(alu(AluOp::Slts, 0x7FFF_FFFF, 0x8000_0000, 32), 0);
        // min/max: 0x80 is -128 signed and 128 unsigned; 5 is 5 either way.
        assert_eq!(alu(AluOp::Min, 0x80, 5, 8), 0x80);
        assert_eq!(alu(AluOp::Max, 0x80, 5, 8), 5);
        assert_eq!(alu(AluOp::Minu, 0x80, 5, 8), 5);
        assert_eq!(alu(AluOp::Maxu, 0x80, 5, 8), 0x80);
        assert_eq!(alu(AluOp::Min, 0xFE, 0xFF, 8), 0xFE, "-2 < -1");
        // mulh at 8 bits: -2 x 3 = -6 = 0xfffa, high byte 0xff; unsigned 254 x 3 = 762 = 0x02fa.
        assert_eq!(alu(AluOp::Mulh, 0xFE, 3, 8) & 0xFF, 0xFF);
        assert_eq!(alu(AluOp::Mulhu, 0xFE, 3, 8) & 0xFF, 0x02);
        // -128 x -128 = 16384 = 0x4000: high byte 0x40; 0x80 x 0x80 unsigned is the same.
        assert_eq!(alu(AluOp::Mulh, 0x80, 0x80, 8) & 0xFF, 0x40);
        // 32 bits: (2^32 - 1)^2 = 0xfffffffe_00000001; as signed, -1 x -1 = 1, high word 0.
        assert_eq!(alu(AluOp::Mulhu, u32::MAX, u32::MAX, 32), 0xFFFF_FFFE);
        assert_eq!(alu(AluOp::Mulh, u32::MAX, u32::MAX, 32), 0);
        // 0x80000000 x 2: unsigned 0x1_00000000 (high 1); signed -2^31 x 2 = -2^32 (high -1).
        assert_eq!(alu(AluOp::Mulhu, 0x8000_0000, 2, 32), 1);
        assert_eq!(alu(AluOp::Mulh, 0x8000_0000, 2, 32), u32::MAX);
        assert_eq!(alu(AluOp::Mulhu, 0x1234_5678, 0x9ABC_DEF0, 32), 0x0B00_EA4E);
    }

    /// The immediate forms of extensions `imm` and `signed` on values worked out by hand from
    /// the ISA page (the immediate sign-extended, then cut to the lane width).
    #[test]
    fn immediate_forms_on_hand_worked_values() {
        let at8 = |op, a, imm| imm_op(op, a, imm, 8) & 0xFF;
        assert_eq!(at8(ImmOp::Ori, 0x0F, 0xF0), 0xFF);
        assert_eq!(at8(ImmOp::Ori, 0x01, -2), 0xFF, "-2 is 0xfe at 8 bits");
        assert_eq!(at8(ImmOp::Xori, 0x55, -1), 0xAA);
        assert_eq!(at8(ImmOp::Slti, 5, 6), 1);
        assert_eq!(at8(ImmOp::Slti, 6, 6), 0);
        assert_eq!(
            at8(ImmOp::Slti, 0xFF, -1),
            0,
            "-1 is 0xff at 8 bits, and 0xff is not below itself"
        );
        assert_eq!(at8(ImmOp::Slti, 0x80, -1), 1);
        assert_eq!(at8(ImmOp::Sltsi, 0x80, 0), 1, "-128 < 0");
        assert_eq!(at8(ImmOp::Sltsi, 0x7F, -1), 0, "127 > -1");
        assert_eq!(at8(ImmOp::Sltsi, 0xFE, -1), 1, "-2 < -1");
        assert_eq!(at8(ImmOp::Srai, 0x80, 3), 0xF0);
        assert_eq!(at8(ImmOp::Srai, 0x40, 3), 0x08);
        assert_eq!(at8(ImmOp::Srai, 0x80, 11), 0xF0, "the amount is taken mod 8");
        assert_eq!(imm_op(ImmOp::Srai, 0x8000_0000, 31, 32), u32::MAX);
        assert_eq!(imm_op(ImmOp::Slti, 0x7FFF_FFFF, -1, 32), 1, "-1 is 0xffffffff unsigned");
        assert_eq!(imm_op(ImmOp::Sltsi, 0x7FFF_FFFF, -1, 32), 0);
        assert_eq!(imm_op(ImmOp::Xori, 0x1234_5678, -1, 32), 0xEDCB_A987);
    }

    /// `threads` gives the lanes per warp, cut to the lane width; a machine without the
    /// extension refuses it.
    #[test]
    fn threads_is_the_lanes_per_warp() {
        let config = small_machine(2, 8, 8);
        let program = crate::isa::asm::assemble("threads r1\nexit").unwrap();
        let mut m = Machine::new(config, &[]).unwrap();
        m.run(&program).unwrap();
        assert!((0..2).all(|w| (0..8).all(|l| m.reg(w, l, 1) == 8)));
        let mut m = Machine::new(Config { lane_bits: 2, ..config }, &[]).unwrap();
        m.run(&program).unwrap();
        assert_eq!(m.reg(1, 7, 1), 0, "8 cut to 2 bits");
        let base = Config { isa: Extensions::NONE, ..config };
        let err = Machine::new(base, &[]).unwrap().run(&program).unwrap_err();
        assert_eq!(
            err.to_string(),
            "instruction 0 (`threads r1`) needs the `threads` extension, which the machine lacks"
        );
    }

    /// `li` of any 32-bit constant (the assembler's `lui` + `addi`) leaves that constant, cut
    /// to the lane width, at 8 and 32 bits.
    #[test]
    fn li_of_any_constant_leaves_it() {
        let mut rng = crate::sim::Rng::new(0x11_2026);
        for bits in [8, 32] {
            let config = small_machine(1, 4, bits);
            let edges = [0x2000, 0x1FFF, -0x2001, 0x7FFF_FFFF, -0x8000_0000, 0xFFFF_FFFF];
            for value in edges.into_iter().chain((0..200).map(|_| rng.bits(32) as i64)) {
                let program = crate::isa::asm::assemble(&format!("li r3, {value}\nexit")).unwrap();
                let mut m = Machine::new(config, &[]).unwrap();
                m.run(&program).unwrap();
                assert_eq!(m.reg(0, 2, 3), value as u32 & value_mask(bits), "li {value}");
            }
        }
    }

    /// `lui` and `stx` in a running machine.
    #[test]
    fn lui_and_stx_run_as_the_isa_page_says() {
        let config = small_machine(1, 4, 32);
        let program = crate::isa::asm::assemble(
            "lui r1, 0x3FFFF\nlane r2\nshri r3, r2, 1\nadd r4, r1, r2\nstx r4, r3\nexit",
        )
        .unwrap();
        let mut m = Machine::new(config, &[]).unwrap();
        m.run(&program).unwrap();
        assert_eq!(m.reg(0, 3, 1), 0xFFFF_C000);
        // Lanes 0, 1 store to word 0 and lanes 2, 3 to word 1: the higher lane's value stays.
        assert_eq!(&m.lds[..3], &[0xFFFF_C001, 0xFFFF_C003, 0]);
        let narrow = Config { lane_bits: 8, ..config };
        let mut m = Machine::new(narrow, &[]).unwrap();
        m.run(&program).unwrap();
        assert_eq!(m.reg(0, 0, 1), 0, "lui's bits start at 14: none in an 8-bit lane");
        let base = Config { isa: Extensions::NONE, ..config };
        let err = Machine::new(base, &[]).unwrap().run(&program).unwrap_err();
        assert_eq!(
            err.to_string(),
            "instruction 0 (`lui r1, 262143`) needs the `lui` extension, which the machine lacks"
        );
    }

    /// `ld rd, imm(ra)` and `stx rs, imm(ra)` address `ra + imm`, wrapping at the lane width
    /// and then at the share's 16 words (4 banks x 4 rows).
    #[test]
    fn base_and_offset_address_ra_plus_imm() {
        let config = small_machine(1, 4, 8);
        let lds: Vec<u32> = (0..16).map(|w| 100 + w).collect();
        let program = crate::isa::asm::assemble(
            "lane r1\nld r2, 3(r1)\nld r3, -1(r1)\nli r4, 250\nld r5, 7(r4)\nstx r1, 8(r1)\nexit",
        )
        .unwrap();
        let mut m = Machine::new(config, &lds).unwrap();
        m.run(&program).unwrap();
        // Lane 2: words 5 and 1; lane 0's -1 is 255, word 15; 250 + 7 = 257 is 1 at 8 bits.
        assert_eq!((m.reg(0, 2, 2), m.reg(0, 2, 3), m.reg(0, 0, 3)), (105, 101, 115));
        assert_eq!(m.reg(0, 3, 5), 101);
        assert_eq!(&m.lds[8..12], &[0, 1, 2, 3], "each lane's stx at 8 + lane");
        let base = Config { isa: Extensions { offset: false, ..Extensions::ALL }, ..config };
        let err = Machine::new(base, &lds).unwrap().run(&program).unwrap_err();
        assert_eq!(
            err.to_string(),
            "instruction 1 (`ld r2, 3(r1)`) needs the `offset` extension, which the machine lacks"
        );
    }

    /// Atomics go lane by lane, lowest first: four lanes adding to one word holding 7 get 7,
    /// 8, 9, 10 and leave 11; exchanges hand each lane the one before it's value; they wrap at
    /// the lane width; an atomic of colliding lanes takes 2 cycles a lane of its busiest bank.
    #[test]
    fn atomics_go_lane_by_lane_from_the_lowest() {
        let config = small_machine(1, 4, 8);
        let lds = [7, 0, 0, 0, 250];
        let program = crate::isa::asm::assemble(
            "li r1, 0\nli r2, 1\natadd r3, r2, r1\nlane r4\naddi r4, r4, 20\natxch r5, r4, r1\nli r6, 4\nli r7, 3\natadd r8, r7, r6\nexit",
        )
        .unwrap();
        let mut m = Machine::new(config, &lds).unwrap();
        m.run(&program).unwrap();
        assert_eq!((0..4).map(|l| m.reg(0, l, 3)).collect::<Vec<_>>(), [7, 8, 9, 10]);
        assert_eq!((0..4).map(|l| m.reg(0, l, 5)).collect::<Vec<_>>(), [11, 20, 21, 22]);
        assert_eq!(m.lds[0], 23, "the last exchange's value");
        assert_eq!((0..4).map(|l| m.reg(0, l, 8)).collect::<Vec<_>>(), [250, 253, 0, 3]);
        assert_eq!(m.lds[4], 6, "250 + 4 x 3 wraps at 8 bits");
        // Three atomics of 4 lanes on one word (bank 0): 8 cycles each, 7 beyond the first.
        assert_eq!((m.counters.lds_accesses, m.counters.lds_conflict_cycles), (3, 21));
        let base = Config { isa: Extensions { atomic: false, ..Extensions::ALL }, ..config };
        let err = Machine::new(base, &lds).unwrap().run(&program).unwrap_err();
        assert!(err.to_string().contains("needs the `atomic` extension"), "{err}");
    }
}
