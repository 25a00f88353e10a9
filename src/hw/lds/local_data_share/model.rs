//! Reference model of [`LocalDataShare`](crate::hw::LocalDataShare), from seed 004 and the
//! ISA's `st`/`ld`/`stx`: `banks` banks (R700's 4 by default), bank = word address mod banks;
//! owner-computes stores (thread `t = warp * lanes + lane` writes word
//! `((t / banks) * stride + index) * banks + t mod banks`), dynamic
//! loads and scatters; per cycle each bank serves the row of its highest pending lane, with every pending lane
//! that wants that row. An atomic serves each bank's lowest pending lane in two cycles: it reads,
//! then writes back.

use crate::isa::st_address;
use crate::sim::rng::mask;
use crate::sim::{CycleModel, PortNames};

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct LocalDataShareModel {
    /// Lanes.
    pub lanes: usize,
    /// Bits per word.
    pub lane_bits: usize,
    /// Banks.
    pub banks: usize,
    /// Rows per bank.
    pub rows: usize,
    /// Built with scatters (`req_scatter` is ignored without).
    pub scatter: bool,
    /// Built with atomics (`req_atomic` is ignored without).
    pub atomics: bool,
    /// `mem[bank][row]`.
    pub mem: Vec<Vec<u64>>,
    // The access in flight: its lanes still to serve, and each lane's bank, row and word.
    /// An access is in flight.
    pub active: bool,
    /// It is in its first serving cycle.
    pub first: bool,
    /// It is a store (or scatter).
    pub write: bool,
    /// The access is an atomic (an exchange), in its second cycle (`phase`).
    pub atomic: bool,
    /// It is an exchange.
    pub exchange: bool,
    /// It is in its second (write) cycle.
    pub phase: bool,
    /// Its lanes still to serve.
    pub pending: u64,
    /// Each lane's bank.
    pub bank: Vec<usize>,
    /// Each lane's row.
    pub row: Vec<usize>,
    /// Each lane's word to store (or its atomic operand).
    pub data: Vec<u64>,
    /// What `resp_data` shows: each lane's word of the last load.
    pub result: Vec<u64>,
    /// An access ended in the last cycle.
    pub resp_valid: bool,
    /// Requests taken since reset.
    pub accesses: u64,
    /// Bank-conflict cycles since reset.
    pub conflict_cycles: u64,
}

/// One cycle's inputs, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LdsIn {
    /// Reset this cycle.
    pub reset: bool,
    /// A request is offered.
    pub valid: bool,
    /// A store (owner-computes, or a scatter).
    pub write: bool,
    /// With `write`: each lane writes to its own `addr` (`stx`).
    pub scatter: bool,
    /// With `write` low: an atomic add, or (`exchange`) exchange.
    pub atomic: bool,
    /// With `atomic`: an exchange.
    pub exchange: bool,
    /// The lanes taking part.
    pub mask: u64,
    /// The warp (owner-computes stores).
    pub warp: u64,
    /// The store's row offset.
    pub index: u64,
    /// The store's stride.
    pub stride: u64,
    /// Each lane's address.
    pub addr: Vec<u64>,
    /// Each lane's word.
    pub data: Vec<u64>,
}

impl LocalDataShareModel {
    /// `lanes` lanes of `lane_bits` bits; `banks` banks of `rows` rows.
    pub fn new(lanes: usize, lane_bits: usize, banks: usize, rows: usize) -> Self {
        LocalDataShareModel {
            lanes,
            lane_bits,
            banks,
            rows,
            scatter: false,
            atomics: false,
            mem: vec![vec![0; rows]; banks],
            active: false,
            first: false,
            write: false,
            atomic: false,
            exchange: false,
            phase: false,
            pending: 0,
            bank: vec![0; lanes],
            row: vec![0; lanes],
            data: vec![0; lanes],
            result: vec![0; lanes],
            resp_valid: false,
            accesses: 0,
            conflict_cycles: 0,
        }
    }

    /// The model of a share built with scatters (`on`) or without.
    pub fn with_scatter(self, on: bool) -> Self {
        LocalDataShareModel { scatter: on, ..self }
    }

    /// The model of a share built with atomics (`on`) or without.
    pub fn with_atomics(self, on: bool) -> Self {
        LocalDataShareModel { atomics: on, ..self }
    }

    /// Port words: reset, req_valid, req_write, req_scatter, req_atomic, req_exchange,
    /// req_mask, req_warp, req_index, req_stride, req_addr\[lanes\], req_data\[lanes\].
    pub fn decode(&self, w: &[u64]) -> LdsIn {
        let n = self.lanes;
        LdsIn {
            reset: w[0] == 1,
            valid: w[1] == 1,
            write: w[2] == 1,
            scatter: w[3] == 1,
            atomic: w[4] == 1,
            exchange: w[5] == 1,
            mask: w[6],
            warp: w[7],
            index: w[8],
            stride: w[9],
            addr: w[10..10 + n].to_vec(),
            data: w[10 + n..10 + 2 * n].to_vec(),
        }
    }

    /// The port words of inputs `i`, in port order.
    pub fn encode(&self, i: &LdsIn) -> Vec<u64> {
        let mut w = vec![i.reset as u64, i.valid as u64, i.write as u64, i.scatter as u64];
        w.extend([i.atomic as u64, i.exchange as u64]);
        w.extend([i.mask, i.warp, i.index, i.stride]);
        w.extend(&i.addr);
        w.extend(&i.data);
        w
    }

    /// The lanes served this cycle, and per bank the (row, word) it serves.
    fn serve(&self) -> (u64, Vec<Option<(usize, u64)>>) {
        let mut chosen = vec![None; self.banks];
        if self.atomic {
            return (if self.phase { self.picked() } else { 0 }, chosen);
        }
        for l in (0..self.lanes).rev().filter(|l| self.pending >> l & 1 == 1) {
            chosen[self.bank[l]].get_or_insert((self.row[l], self.data[l]));
        }
        let served = (0..self.lanes)
            .filter(|&l| {
                self.pending >> l & 1 == 1
                    && chosen[self.bank[l]].map(|(r, _)| r) == Some(self.row[l])
            })
            .fold(0, |m, l| m | 1 << l);
        (served, chosen)
    }

    /// An atomic's lanes this round: each bank's lowest pending lane.
    fn picked(&self) -> u64 {
        let mut seen = vec![false; self.banks];
        (0..self.lanes)
            .filter(|l| {
                self.pending >> l & 1 == 1 && !std::mem::replace(&mut seen[self.bank[*l]], true)
            })
            .fold(0, |m, l| m | 1 << l)
    }

    /// An atomic's cycle: the first reads each picked lane's word (its answer), the second
    /// writes back the new one.
    fn atomic_cycle(&mut self) {
        let picked = self.picked();
        for l in (0..self.lanes).filter(|l| picked >> l & 1 == 1) {
            let word = &mut self.mem[self.bank[l]][self.row[l]];
            if !self.phase {
                self.result[l] = *word;
            } else if self.exchange {
                *word = self.data[l];
            } else {
                *word = (*word + self.data[l]) & mask(self.lane_bits);
            }
        }
        self.phase = !self.phase;
    }

    /// Whether the share takes a request this cycle (`req_ready`).
    pub fn ready(&self) -> bool {
        self.ready_after(self.serve().0)
    }

    /// Whether a request is taken in a cycle that serves `served`: nothing in flight, or the
    /// access in flight ends in it.
    fn ready_after(&self, served: u64) -> bool {
        !self.active || self.pending & !served == 0
    }
}

impl CycleModel for LocalDataShareModel {
    fn ports(&self) -> PortNames {
        let t = self.lanes;
        PortNames::default()
            .inputs(&["reset", "req_valid", "req_write", "req_scatter", "req_atomic"])
            .inputs(&["req_exchange", "req_mask", "req_warp"])
            .inputs(&["req_index", "req_stride"])
            .input_array("req_addr", t)
            .input_array("req_data", t)
            .outputs(&["req_ready", "resp_valid"])
            .output_array("resp_data", t)
            .outputs(&["accesses", "conflict_cycles"])
    }
    /// req_ready, resp_valid, resp_data\[lanes\], accesses, conflict_cycles.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        let mut o = vec![self.ready() as u64, self.resp_valid as u64];
        o.extend(&self.result);
        o.extend([self.accesses & mask(32), self.conflict_cycles & mask(32)]);
        o
    }

    fn step(&mut self, inputs: &[u64]) {
        let i = self.decode(inputs);
        let (served, chosen) = self.serve();
        let ready = self.ready_after(served);
        if i.reset {
            *self = LocalDataShareModel {
                mem: std::mem::take(&mut self.mem),
                ..LocalDataShareModel::new(self.lanes, self.lane_bits, self.banks, self.rows)
                    .with_scatter(self.scatter)
                    .with_atomics(self.atomics)
            };
            return;
        }
        if self.active {
            if self.atomic {
                self.atomic_cycle();
            } else if self.write {
                for (b, c) in chosen.iter().enumerate() {
                    if let Some((row, word)) = c {
                        self.mem[b][*row] = *word;
                    }
                }
            } else {
                for l in (0..self.lanes).filter(|l| served >> l & 1 == 1) {
                    self.result[l] = self.mem[self.bank[l]][self.row[l]];
                }
            }
            if !self.first {
                self.conflict_cycles += 1;
            }
        }
        self.pending &= !served;
        self.resp_valid = self.active && self.pending == 0;
        self.active &= self.pending != 0;
        self.first = false;
        if i.valid && ready {
            let words = self.banks * self.rows;
            for l in 0..self.lanes {
                let a = if i.write && !(self.scatter && i.scatter) {
                    st_address(
                        i.warp as usize * self.lanes + l,
                        i.index as u8,
                        i.stride as u8,
                        self.banks,
                    )
                } else {
                    i.addr[l] as usize
                } % words;
                (self.bank[l], self.row[l]) = (a % self.banks, a / self.banks);
                self.data[l] = i.data[l];
            }
            (self.active, self.first, self.write, self.pending) = (true, true, i.write, i.mask);
            (self.atomic, self.exchange) = (self.atomics && i.atomic && !i.write, i.exchange);
            self.phase = false;
            self.accesses += 1;
        }
    }
}
