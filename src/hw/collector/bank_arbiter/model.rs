//! Reference model of [`BankArbiter`](crate::hw::BankArbiter): GPGPU-Sim's
//! `opndcoll_rfu_t::arbiter_t` (seed 000), `add_read_requests` and `allocate_reads` line for line.

use std::collections::VecDeque;

use crate::sim::{CycleModel, PortNames};

/// A read request: GPGPU-Sim's `op_t` as far as the arbiter looks at it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Op {
    /// The collector unit that asked.
    pub cu: usize,
    /// Which of its source operands (0..3).
    pub slot: usize,
    /// The register's row in its bank.
    pub row: usize,
}

/// One cycle's inputs, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArbiterInputs {
    /// Reset this cycle.
    pub reset: bool,
    /// Push lanes in order: `(bank, op)` for each valid lane.
    pub pushes: Vec<(usize, Op)>,
    /// Bank taken by a write-back this cycle.
    pub write: Option<usize>,
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct BankArbiterModel {
    /// Register banks.
    pub banks: usize,
    /// Collector units.
    pub collectors: usize,
    /// Push lanes per cycle.
    pub lanes: usize,
    /// Entries of each bank's queue.
    pub depth: usize,
    /// GPGPU-Sim's `sub_core_model`: each collector unit reads its own banks.
    pub one_bank_per_cu: bool,
    /// `m_queue`.
    pub queues: Vec<VecDeque<Op>>,
    /// `m_last_cu`.
    pub last_cu: usize,
    /// Sticky: a push found its bank's queue full.
    pub overflow: bool,
}

impl BankArbiterModel {
    /// The model in its state after reset, at these sizes.
    pub fn new(
        banks: usize,
        collectors: usize,
        lanes: usize,
        depth: usize,
        one_bank_per_cu: bool,
    ) -> Self {
        BankArbiterModel {
            banks,
            collectors,
            lanes,
            depth,
            one_bank_per_cu,
            queues: vec![VecDeque::new(); banks],
            last_cu: 0,
            overflow: false,
        }
    }

    /// `allocate_reads` without side effects: the granted request of each bank.
    pub fn grants(&self, write: Option<usize>) -> Vec<Option<Op>> {
        let inputs = self.banks as isize;
        let outputs = self.collectors as isize;
        let square = inputs.max(outputs);
        let pri = self.last_cu as isize;
        let mut inmatch = vec![-1isize; self.banks];
        let mut outmatch = vec![-1isize; self.collectors];
        let mut request = vec![vec![false; self.collectors]; self.banks];
        for i in 0..self.banks {
            if let Some(op) = self.queues[i].front() {
                request[i][op.cu] = true;
            }
            if write == Some(i) {
                inmatch[i] = 0; // write gets priority
            }
        }
        // wavefront allocator from booksim
        for p in 0..square {
            let mut output = (pri + p) % outputs;
            for input in 0..inputs {
                let (i, o) = (input as usize, output as usize);
                if output < outputs
                    && inmatch[i] == -1
                    && (!self.one_bank_per_cu || outmatch[o] == -1)
                    && request[i][o]
                {
                    inmatch[i] = output;
                    outmatch[o] = input;
                }
                output = (output + 1) % outputs;
            }
        }
        (0..self.banks)
            .map(|i| {
                if inmatch[i] != -1 && write != Some(i) {
                    self.queues[i].front().copied()
                } else {
                    None
                }
            })
            .collect()
    }

    /// One cycle: `allocate_reads` (pops, rotates the diagonal), then this cycle's pushes.
    pub fn step_with(&mut self, i: &ArbiterInputs) {
        if i.reset {
            self.queues.iter_mut().for_each(VecDeque::clear);
            self.last_cu = 0;
            self.overflow = false;
            return;
        }
        let grants = self.grants(i.write);
        self.last_cu = (self.last_cu + 1) % self.collectors;
        for (b, g) in grants.iter().enumerate() {
            if g.is_some() {
                self.queues[b].pop_front();
            }
        }
        for &(bank, op) in &i.pushes {
            // The hardware checks room against the queue as it was before this cycle's pop.
            let popped = grants[bank].is_some() as usize;
            if self.queues[bank].len() + popped == self.depth {
                self.overflow = true;
            } else {
                self.queues[bank].push_back(op);
            }
        }
    }

    /// Decodes the port words: reset, push_valid\[K\], push_bank\[K\], push_cu\[K\], push_slot\[K\],
    /// push_row\[K\], write_valid, write_bank.
    pub fn decode(&self, w: &[u64]) -> ArbiterInputs {
        let k = self.lanes;
        let lane = |field: usize, j: usize| w[1 + field * k + j] as usize;
        let pushes = (0..k)
            .filter(|&j| lane(0, j) == 1)
            .map(|j| (lane(1, j), Op { cu: lane(2, j), slot: lane(3, j), row: lane(4, j) }))
            .collect();
        let write = (w[1 + 5 * k] == 1).then_some(w[2 + 5 * k] as usize);
        ArbiterInputs { reset: w[0] == 1, pushes, write }
    }

    /// Encodes the port words of [`decode`](Self::decode).
    pub fn encode(&self, i: &ArbiterInputs) -> Vec<u64> {
        let k = self.lanes;
        let mut w = vec![0u64; 3 + 5 * k];
        w[0] = i.reset as u64;
        for (j, (bank, op)) in i.pushes.iter().enumerate() {
            w[1 + j] = 1;
            w[1 + k + j] = *bank as u64;
            w[1 + 2 * k + j] = op.cu as u64;
            w[1 + 3 * k + j] = op.slot as u64;
            w[1 + 4 * k + j] = op.row as u64;
        }
        if let Some(b) = i.write {
            w[1 + 5 * k] = 1;
            w[2 + 5 * k] = b as u64;
        }
        w
    }
}

impl CycleModel for BankArbiterModel {
    fn ports(&self) -> PortNames {
        let k = self.lanes;
        PortNames::default()
            .inputs(&["reset"])
            .input_array("push_valid", k)
            .input_array("push_bank", k)
            .input_array("push_cu", k)
            .input_array("push_slot", k)
            .input_array("push_row", k)
            .inputs(&["write_valid", "write_bank"])
            .outputs(&["grant"])
            .output_array("grant_cu", self.banks)
            .output_array("grant_slot", self.banks)
            .output_array("grant_row", self.banks)
            .outputs(&["pending", "diagonal", "err_overflow"])
    }
    /// grant, grant_cu\[B\], grant_slot\[B\], grant_row\[B\], pending, priority, err_overflow.
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = self.decode(inputs);
        let g = self.grants(i.write);
        let mut out =
            vec![g.iter().enumerate().filter(|(_, g)| g.is_some()).fold(0, |v, (b, _)| v | 1 << b)];
        out.extend(g.iter().map(|g| g.map_or(0, |o| o.cu as u64)));
        out.extend(g.iter().map(|g| g.map_or(0, |o| o.slot as u64)));
        out.extend(g.iter().map(|g| g.map_or(0, |o| o.row as u64)));
        out.push(
            self.queues
                .iter()
                .enumerate()
                .filter(|(_, q)| !q.is_empty())
                .fold(0, |v, (b, _)| v | 1 << b),
        );
        out.push(self.last_cu as u64);
        out.push(self.overflow as u64);
        out
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = self.decode(inputs);
        self.step_with(&i);
    }
}
