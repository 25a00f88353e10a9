//! RegisterFile: the operand collector's banked register file (seeds 000 and 002).
//!
//! `B` banks of `2^RW` rows; each row is one warp-wide register of `T` lanes of `DW` bits,
//! packed lane `l` at bits `l * DW ..` (`TD = T * DW`, at most 1,024). Every bank is one
//! [`LaneRam`]: synchronous, per-lane write enables, mapped by yosys onto iCE40 SB_RAM40_4K,
//! and marked for block RAM on the families with LUT RAM too ([`LaneRam::in_block_ram`]:
//! `synth_ecp5` put the seed core's four banks of 32 x 1,024 bits into 2,048 LUT RAMs, 4,352
//! LUT4s and 4,096 flip-flops, where 128 DP16KD hold them with no logic).
//! Per cycle each bank reads one row (`read_row[b]`; the row appears on `read_data[b]` in the
//! next cycle: read latency 1) and the write port writes one row of one bank, only the lanes in
//! `write_mask`. A bank is GPGPU-Sim's single-ported bank: in a cycle that the write port
//! addresses it (`write_valid`, `write_bank`), its read gives 0, whatever the rows (the operand
//! collector never reads a bank that a write-back takes). This leaves the block RAM's own
//! read-during-write undefined and unused, which saves the logic that would define it (see
//! [`LaneRam::without_collisions`]). The register-to-bank mapping (GPGPU-Sim's
//! `register_bank()`) is the operand collector's. All rows start at 0.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::LaneRam;
use crate::params::{check_derived, check_pow2, clog2};
use crate::sim::{Claim, Mutant};

/// The exported module (and file) name.
pub const MODULE: &str = "register_file";

/// `B` banks (`BW = clog2 B`), `2^RW` rows per bank, `T` lanes of `DW` bits (`TD = T * DW`).
#[derive(LogicBlock)]
pub struct RegisterFile<
    const B: usize,
    const BW: usize,
    const RW: usize,
    const T: usize,
    const DW: usize,
    const TD: usize,
> {
    /// Clock: reads and writes happen at its rising edge.
    pub clock: Signal<In, Clock>,
    // Read: one row per bank per cycle
    /// Row that bank `b` reads this cycle.
    pub read_row: [Signal<In, Bits<RW>>; B],
    /// The row bank `b` read in the previous cycle.
    pub read_data: [Signal<Out, Bits<TD>>; B],
    // Write: one row of one bank per cycle, masked by lane
    /// Write this cycle.
    pub write_valid: Signal<In, Bit>,
    /// The bank written.
    pub write_bank: Signal<In, Bits<BW>>,
    /// The row written.
    pub write_row: Signal<In, Bits<RW>>,
    /// Lanes to write (bit `l` for lane `l`); the other lanes keep their value.
    pub write_mask: Signal<In, Bits<T>>,
    /// The row's new lanes, lane `l` at bits `l * DW ..`.
    pub write_data: Signal<In, Bits<TD>>,
    banks: [LaneRam<RW, T, DW, TD>; B],
    /// Bank `b` was written at the last edge: its read gives 0.
    written: [DFF<Bit>; B],
    /// The bank the loop is at is written this cycle.
    writing: Signal<Local, Bit>,
}

/// [`RegisterFile`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_register_file {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::RegisterFile] $s; B, BW, RW, T, DW, TD)
    };
}

impl<
        const B: usize,
        const BW: usize,
        const RW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
    > RegisterFile<B, BW, RW, T, DW, TD>
{
    /// Checks B (a power of two 2..=16), BW, and the bank RAM's sizes.
    pub fn new() -> Result<Self> {
        check_pow2("banks (B)", B, 2, 16)?;
        check_derived("BW", BW, "clog2(B)", clog2(B))?;
        let banks = (0..B)
            .map(|_| Ok(LaneRam::without_collisions()?.in_block_ram()))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            clock: Default::default(),
            read_row: std::array::from_fn(|_| Default::default()),
            read_data: std::array::from_fn(|_| Default::default()),
            write_valid: Default::default(),
            write_bank: Default::default(),
            write_row: Default::default(),
            write_mask: Default::default(),
            write_data: Default::default(),
            banks: banks.try_into().unwrap_or_else(|_| unreachable!("B banks built")),
            written: std::array::from_fn(|_| Default::default()),
            writing: Default::default(),
        })
    }
}

impl<
        const B: usize,
        const BW: usize,
        const RW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
    > Logic for RegisterFile<B, BW, RW, T, DW, TD>
{
    #[hdl_gen]
    fn update(&mut self) {
        for b in 0..B {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].read_address.next = self.read_row[b].val();
            self.banks[b].write_address.next = self.write_row.val();
            self.banks[b].write_data.next = self.write_data.val();
            self.written[b].clock.next = self.clock.val();
            self.writing.next = self.write_valid.val() & (self.write_bank.val().index() == b);
            self.written[b].d.next = self.writing.val();
            self.banks[b].write_mask.next = 0.into();
            if self.writing.val() {
                self.banks[b].write_mask.next = self.write_mask.val();
            }
            self.read_data[b].next = self.banks[b].read_data.val();
            if self.written[b].q.val() {
                self.read_data[b].next = 0.into();
            }
        }
    }
}

impl<
        const B: usize,
        const BW: usize,
        const RW: usize,
        const T: usize,
        const DW: usize,
        const TD: usize,
    > crate::sim::Dut for RegisterFile<B, BW, RW, T, DW, TD>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [read_row, write_valid, write_bank, write_row, write_mask, write_data],
        outputs: [read_data]
    );
}

/// The formal properties (`register_file.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/collector/register_file/register_file.sv",
    text: include_str!("register_file.sv"),
    wrapper: "register_file_props",
    parameters: |p| {
        [("T", p.scheduler.threads), ("DW", p.collector.lane_bits)]
            .into_iter()
            .chain(super::bank_sizes(p))
            .collect()
    },
    claims: &[Claim::cu(&["read_returns_last_write"])],
    mutants: &[
        // Lane 1 of a row is written whether its mask bit is set or not.
        Mutant::cu(
            "lane_mask_ignored",
            "if (write_mask[1]) mem[write_address][7:4] <= write_data[7:4];",
            "mem[write_address][7:4] <= write_data[7:4];",
            &["read_returns_last_write"],
        ),
        // Bank 0 is read in a cycle that the write port takes it: the block RAM's undefined
        // read-during-write (the checker's RAM gives the old row) shows instead of 0.
        Mutant::cu(
            "written_bank_read",
            "if (written$0$q) begin",
            "if (1'b0) begin",
            &["read_returns_last_write"],
        ),
    ],
};
