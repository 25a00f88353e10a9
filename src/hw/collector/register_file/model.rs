//! Reference model of [`RegisterFile`](crate::hw::RegisterFile): `banks x rows` warp-wide
//! registers of `lanes` values; one read per bank per cycle with one cycle of latency, one
//! lane-masked write per cycle; a bank that the write addresses reads 0 in that cycle.

use crate::sim::{CycleModel, PortNames};

#[derive(Clone, Debug)]
pub struct RegisterFileModel {
    pub banks: usize,
    pub rows: usize,
    pub lanes: usize,
    pub lane_bits: usize,
    /// `mem[bank][row][lane]`.
    pub mem: Vec<Vec<Vec<u64>>>,
    /// What each bank read in the previous cycle.
    pub read: Vec<Vec<u64>>,
}

/// One lane-masked write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowWrite {
    pub bank: usize,
    pub row: usize,
    pub mask: u64,
    pub data: Vec<u64>,
}

impl RegisterFileModel {
    pub fn new(banks: usize, rows: usize, lanes: usize, lane_bits: usize) -> Self {
        RegisterFileModel {
            banks,
            rows,
            lanes,
            lane_bits,
            mem: vec![vec![vec![0; lanes]; rows]; banks],
            read: vec![vec![0; lanes]; banks],
        }
    }

    /// One clock edge: every bank reads `rows[b]`, but the written bank reads 0; then the write
    /// lands.
    pub fn step_with(&mut self, rows: &[usize], write: Option<&RowWrite>) {
        for (b, &r) in rows.iter().enumerate() {
            self.read[b] = if write.is_some_and(|w| w.bank == b) {
                vec![0; self.lanes]
            } else {
                self.mem[b][r].clone()
            };
        }
        if let Some(w) = write {
            for l in (0..self.lanes).filter(|l| w.mask >> l & 1 == 1) {
                self.mem[w.bank][w.row][l] = w.data[l];
            }
        }
    }

    /// Row `row` of bank `bank`, lanes packed `lane_bits` apart.
    pub fn packed(&self, bank: usize, row: usize) -> u64 {
        self.mem[bank][row].iter().enumerate().fold(0, |v, (l, x)| v | x << (l * self.lane_bits))
    }

    /// Unpacks a register's lanes from a word.
    pub fn unpack(&self, word: u64) -> Vec<u64> {
        (0..self.lanes)
            .map(|l| (word >> (l * self.lane_bits)) & crate::sim::rng::mask(self.lane_bits))
            .collect()
    }

    /// Port words: read_row[B], write_valid, write_bank, write_row, write_mask, write_data (lanes
    /// packed `lane_bits` apart).
    pub fn decode(&self, w: &[u64]) -> (Vec<usize>, Option<RowWrite>) {
        let rows = w[..self.banks].iter().map(|&r| r as usize).collect();
        let o = self.banks;
        let write = (w[o] == 1).then(|| RowWrite {
            bank: w[o + 1] as usize,
            row: w[o + 2] as usize,
            mask: w[o + 3],
            data: self.unpack(w[o + 4]),
        });
        (rows, write)
    }
}

impl CycleModel for RegisterFileModel {
    fn ports(&self) -> PortNames {
        PortNames::default()
            .input_array("read_row", self.banks)
            .inputs(&["write_valid", "write_bank", "write_row", "write_mask", "write_data"])
            .output_array("read_data", self.banks)
    }
    /// read_data[B], lanes packed.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        self.read
            .iter()
            .map(|row| row.iter().enumerate().fold(0, |v, (l, x)| v | x << (l * self.lane_bits)))
            .collect()
    }
    fn step(&mut self, inputs: &[u64]) {
        let (rows, write) = self.decode(inputs);
        self.step_with(&rows, write.as_ref());
    }
}
