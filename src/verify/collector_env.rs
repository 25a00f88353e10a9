//! A closed-loop environment for the operand collector: an issue stage with a scoreboard, an
//! execution stage with write-back, and the checks that nothing is lost, duplicated or read
//! wrong.
//!
//! - Issue: every warp runs its own random instruction stream in program order. The head
//!   instruction of a warp is offered on an idle input port only when the scoreboard allows it
//!   (no source or destination register with a write-back pending: no RAW or WAW hazard) and no
//!   other instruction of the warp is being offered. An offer is held until taken (valid/ready).
//! - Execution: an instruction taken from an output register computes a per-lane result from
//!   its operands and tag and writes it back, lanes of its active mask, 1 to 6 cycles later;
//!   one write-back per cycle, oldest first.
//! - Checks: every instruction taken at the input leaves exactly once (by its tag) with its
//!   warp, destination, mask and valid bits, and with operand values equal to the shadow
//!   register file at the moment it was issued. With the scoreboard that is the value program
//!   order defines, unless a younger instruction of the warp overwrote the register before the
//!   older one read it: the WAR hazard of seed 002, counted in [`EnvStats::war_hazards`].
//!   Every other difference is an error.
//!
//! The environment reads the handshakes from the model's outputs; the differential runner
//! compares the model with the block every cycle, so they are the block's too.

use std::collections::{HashMap, VecDeque};

use anyhow::{bail, Result};

use crate::hw::collector::operand_collector::model::{
    Inst, OcInputs, OperandCollectorModel, WriteBack,
};
use crate::params::CollectorParams;
use crate::sim::rng::{mask, Rng};
use crate::sim::wide::Lanes;
use crate::sim::{run_differential, CycleModel, Dut, Recorded};

/// What the environment saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvStats {
    /// Instructions offered and accepted.
    pub issued: u64,
    /// Instructions that left, their operands checked.
    pub completed: u64,
    /// Write-backs made.
    pub write_backs: u64,
    /// Instructions that left with an operand a younger instruction had already overwritten.
    pub war_hazards: u64,
}

#[derive(Clone, Debug)]
struct InFlight {
    inst: Inst,
    writes: bool,
    expected: [Lanes; 3],
}

/// See the module documentation.
pub struct CollectorEnv {
    c: CollectorParams,
    warps: usize,
    threads: usize,
    /// Registers the streams use (fewer registers: more bank conflicts and hazards).
    regs_used: usize,
    /// Cycle from which no new instruction is offered, so that everything drains.
    drain_from: usize,
    shadow: Vec<Vec<Lanes>>,
    pending: Vec<Vec<bool>>,
    offer: Vec<Option<(Inst, bool)>>,
    offering: Vec<bool>,
    in_flight: HashMap<u64, InFlight>,
    next_tag: u64,
    exec: VecDeque<(usize, WriteBack)>,
    /// What it saw so far.
    pub stats: EnvStats,
    /// The first check that failed.
    pub error: Option<String>,
}

impl CollectorEnv {
    /// An environment for a collector of `c` with `warps` warps of `threads` lanes, whose streams
    /// use `regs_used` registers and stop offering at cycle `drain_from`.
    pub fn new(
        c: CollectorParams,
        warps: usize,
        threads: usize,
        regs_used: usize,
        drain_from: usize,
    ) -> Self {
        CollectorEnv {
            c,
            warps,
            threads,
            regs_used: regs_used.min(c.regs_per_warp),
            drain_from,
            shadow: vec![vec![Lanes::default(); c.regs_per_warp]; warps],
            pending: vec![vec![false; c.regs_per_warp]; warps],
            offer: vec![None; c.in_ports],
            offering: vec![false; warps],
            in_flight: HashMap::new(),
            next_tag: 0,
            exec: VecDeque::new(),
            stats: EnvStats::default(),
            error: None,
        }
    }

    fn fail(&mut self, msg: String) {
        self.error.get_or_insert(msg);
    }

    /// A fresh instruction for warp `w` that the scoreboard lets issue, if the random draw finds
    /// one (the stream's next instruction is drawn until one fits, as a compiler would schedule).
    fn draw(&mut self, rng: &mut Rng, w: usize) -> Option<(Inst, bool)> {
        let free: Vec<usize> = (0..self.regs_used).filter(|&r| !self.pending[w][r]).collect();
        if free.is_empty() {
            return None;
        }
        let pick = |rng: &mut Rng| free[rng.below(free.len() as u64) as usize];
        // Register sources only in the collector's `sources` slots (all three at GPGPU-Sim's 3).
        let slots = self.c.source_slots();
        let src_valid = if rng.chance(70) { slots } else { rng.bits(3) as u8 & slots };
        let inst = Inst {
            warp: w,
            unit: rng.below(self.c.unit_types as u64) as usize,
            tag: 0,
            dst: pick(rng),
            mask: if rng.chance(50) { mask(self.threads) } else { rng.bits(self.threads) },
            src_valid,
            src: [pick(rng), pick(rng), pick(rng)],
        };
        Some((inst, rng.chance(85)))
    }

    fn free_tag(&mut self) -> Option<u64> {
        let tags = 1u64 << self.c.tag_bits;
        (0..tags).map(|k| (self.next_tag + k) % tags).find(|t| !self.in_flight.contains_key(t))
    }

    /// This cycle's inputs; updates the environment with what the handshakes do.
    pub fn next_inputs(
        &mut self,
        rng: &mut Rng,
        model: &OperandCollectorModel,
        cycle: usize,
    ) -> Vec<u64> {
        if cycle == 0 {
            let idle = OcInputs {
                reset: true,
                ports: vec![(false, Inst::default()); self.c.in_ports],
                out_ready: vec![false; self.c.unit_types],
                wb: None,
            };
            return model.encode(&idle);
        }
        // Offers on idle ports.
        for p in 0..self.c.in_ports {
            if self.offer[p].is_some() || cycle >= self.drain_from || !rng.chance(80) {
                continue;
            }
            let w = rng.below(self.warps as u64) as usize;
            if self.offering[w] {
                continue;
            }
            let (Some((mut inst, writes)), Some(tag)) = (self.draw(rng, w), self.free_tag()) else {
                continue;
            };
            inst.tag = tag;
            self.next_tag = tag + 1;
            if writes {
                self.pending[w][inst.dst] = true;
            }
            self.offering[w] = true;
            self.offer[p] = Some((inst, writes));
        }
        let wb = self.exec.front().filter(|(at, _)| *at <= cycle).map(|(_, wb)| *wb);
        let i = OcInputs {
            reset: false,
            ports: self
                .offer
                .iter()
                .map(|o| o.map_or((false, Inst::default()), |(inst, _)| (true, inst)))
                .collect(),
            out_ready: (0..self.c.unit_types).map(|_| rng.chance(70)).collect(),
            wb,
        };
        let words = model.encode(&i);
        let out = model.outputs(&words);
        let (p, u) = (self.c.in_ports, self.c.unit_types);
        // Inputs taken at this edge: their operands are the shadow values now.
        for (port, &ready) in out.iter().enumerate().take(p) {
            if let (Some((inst, writes)), true) = (self.offer[port], ready == 1) {
                let expected = std::array::from_fn(|s| {
                    if inst.src_valid >> s & 1 == 1 {
                        self.shadow[inst.warp][inst.src[s]]
                    } else {
                        Lanes::default()
                    }
                });
                self.in_flight.insert(inst.tag, InFlight { inst, writes, expected });
                self.offering[inst.warp] = false;
                self.offer[port] = None;
                self.stats.issued += 1;
            }
        }
        // Output registers taken at this edge (the outputs show the model's output registers).
        for j in 0..u {
            let o = model.out[j];
            if o.valid && i.out_ready[j] {
                let tag = o.inst.tag;
                let Some(f) = self.in_flight.remove(&tag) else {
                    self.fail(format!("cycle {cycle}: output {j} carries tag {tag}, which is not in flight (duplicated or invented)"));
                    continue;
                };
                let got_fields = (o.inst.warp, o.inst.dst, o.inst.mask, o.inst.src_valid);
                let want_fields = (f.inst.warp, f.inst.dst, f.inst.mask, f.inst.src_valid);
                if got_fields != want_fields {
                    self.fail(format!("cycle {cycle}: tag {tag} left with (warp, dst, mask, src_valid) {got_fields:?}, issued as {want_fields:?}"));
                }
                let ops = o.ops;
                if ops != f.expected {
                    // Allowed only as the WAR hazard: the register now holds a younger value.
                    let war = (0..3).all(|s| {
                        ops[s] == f.expected[s] || ops[s] == self.shadow[f.inst.warp][f.inst.src[s]]
                    });
                    if war {
                        self.stats.war_hazards += 1;
                    } else {
                        self.fail(format!("cycle {cycle}: tag {tag} (warp {}) left with operands {ops:x?}, expected {:x?}", f.inst.warp, f.expected));
                    }
                }
                self.stats.completed += 1;
                if f.writes {
                    let lanes = self.threads;
                    let lb = self.c.lane_bits;
                    let data = Lanes::from_fn(lanes, |l| {
                        let lane = |s: usize| u64::from(ops[s][l]);
                        ((lane(0) + (lane(1) ^ lane(2)) + f.inst.tag + l as u64) & mask(lb)) as u32
                    });
                    let at = cycle + 1 + rng.below(6) as usize;
                    self.exec.push_back((
                        at,
                        WriteBack { warp: f.inst.warp, reg: f.inst.dst, mask: f.inst.mask, data },
                    ));
                    self.exec.make_contiguous().sort_by_key(|(at, _)| *at);
                }
            }
        }
        // The write-back lands at this edge.
        if let Some(wb) = wb {
            self.exec.pop_front();
            self.shadow[wb.warp][wb.reg].write_masked(wb.mask, &wb.data, self.threads);
            self.pending[wb.warp][wb.reg] = false;
            self.stats.write_backs += 1;
        }
        words
    }

    /// After the run: the first error, or anything still in flight.
    pub fn finish(&self) -> Result<EnvStats> {
        if let Some(e) = &self.error {
            bail!("{e}");
        }
        if !self.in_flight.is_empty()
            || !self.exec.is_empty()
            || self.offer.iter().any(Option::is_some)
        {
            bail!(
                "after draining, {} instructions are still in the collector, {} write-backs pending, {} offers not taken",
                self.in_flight.len(),
                self.exec.len(),
                self.offer.iter().flatten().count()
            );
        }
        Ok(self.stats.clone())
    }
}

/// An operand collector in the closed loop of [`CollectorEnv`]
/// (scoreboarded issue, execution with write-back, shadow register file), compared with its
/// model every cycle; the last 10% of the cycles issue nothing so that everything drains.
/// Fails on any lost, duplicated or wrong instruction other than a WAR hazard, which it counts.
pub fn operand_collector_closed_loop<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    c: crate::params::CollectorParams,
    (warps, threads): (usize, usize),
    regs_used: usize,
    seed: u64,
    cycles: usize,
) -> Result<(Recorded, EnvStats)> {
    let mut model = crate::hw::OperandCollectorModel::new(c, warps, threads);
    let mut env = CollectorEnv::new(c, warps, threads, regs_used, cycles - cycles / 10);
    let rec = run_differential(name, make, &mut model, seed, cycles, |rng, m, cycle| {
        env.next_inputs(rng, m, cycle)
    })?;
    let stats = env.finish().map_err(|e| anyhow::anyhow!("{name} (seed {seed}): {e:#}"))?;
    Ok((rec, stats))
}
