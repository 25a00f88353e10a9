//! Reference model of [`RegisterFile`](crate::hw::RegisterFile): `banks x rows` warp-wide
//! registers of `lanes` values; one read per bank per cycle with one cycle of latency, one
//! lane-masked write per cycle; a bank that the write addresses reads 0 in that cycle.

use crate::sim::wide::Lanes;
use crate::sim::{CycleModel, PortNames};

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct RegisterFileModel {
    /// Banks.
    pub banks: usize,
    /// Rows per bank.
    pub rows: usize,
    /// Lanes per row.
    pub lanes: usize,
    /// Bits per lane.
    pub lane_bits: usize,
    /// `mem[bank][row][lane]`.
    pub mem: Vec<Vec<Lanes>>,
    /// What each bank read in the previous cycle.
    pub read: Vec<Lanes>,
}

/// One lane-masked write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowWrite {
    /// The bank written.
    pub bank: usize,
    /// The row written.
    pub row: usize,
    /// The lanes written (bit `l` for lane `l`).
    pub mask: u64,
    /// Each lane's value.
    pub data: Lanes,
}

impl RegisterFileModel {
    /// The model with every word 0: `banks` banks of `rows` rows of `lanes` lanes of `lane_bits` bits.
    pub fn new(banks: usize, rows: usize, lanes: usize, lane_bits: usize) -> Self {
        RegisterFileModel {
            banks,
            rows,
            lanes,
            lane_bits,
            mem: vec![vec![Lanes::default(); rows]; banks],
            read: vec![Lanes::default(); banks],
        }
    }

    /// One clock edge: every bank reads `rows[b]`, but the written bank reads 0; then the write
    /// lands.
    pub fn step_with(&mut self, rows: &[usize], write: Option<&RowWrite>) {
        for (b, &r) in rows.iter().enumerate() {
            self.read[b] =
                if write.is_some_and(|w| w.bank == b) { Lanes::default() } else { self.mem[b][r] };
        }
        if let Some(w) = write {
            self.mem[w.bank][w.row].write_masked(w.mask, &w.data, self.lanes);
        }
    }

    /// A register's port words (lanes packed `lane_bits` apart).
    pub fn words(&self, lanes: &Lanes) -> Vec<u64> {
        lanes.to_words(self.lanes, self.lane_bits)
    }

    /// Port words: read_row\[B\], write_valid, write_bank, write_row, write_mask, write_data (lanes
    /// packed `lane_bits` apart, in as many words as it takes).
    pub fn decode(&self, w: &[u64]) -> (Vec<usize>, Option<RowWrite>) {
        let rows = w[..self.banks].iter().map(|&r| r as usize).collect();
        let o = self.banks;
        let write = (w[o] == 1).then(|| RowWrite {
            bank: w[o + 1] as usize,
            row: w[o + 2] as usize,
            mask: w[o + 3],
            data: Lanes::from_words(&w[o + 4..], self.lanes, self.lane_bits),
        });
        (rows, write)
    }
}

impl CycleModel for RegisterFileModel {
    fn ports(&self) -> PortNames {
        PortNames::default()
            .input_array("read_row", self.banks)
            .inputs(&["write_valid", "write_bank", "write_row", "write_mask"])
            .input_wide("write_data", self.lanes * self.lane_bits)
            .output_array_wide("read_data", self.banks, self.lanes * self.lane_bits)
    }
    /// read_data\[B\], lanes packed.
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        self.read.iter().flat_map(|row| self.words(row)).collect()
    }
    fn step(&mut self, inputs: &[u64]) {
        let (rows, write) = self.decode(inputs);
        self.step_with(&rows, write.as_ref());
    }
}
