//! LaneRam: a synchronous RAM whose rows are `T` lanes of `DW` bits, with one write-enable bit
//! per lane. Written as a custom Verilog body (rust-hdl's `RAM` has a single write enable) in
//! the form yosys maps onto iCE40 SB_RAM40_4K block RAM with its per-bit write mask, and
//! carried with its own Rust simulation model, as rust-hdl's `RAM` is.
//!
//! Read: `read_data` takes row `read_address` at the rising edge (latency 1); a row written at
//! the same edge reads its old value. Every row starts at 0, or at the contents given to
//! [`with_rows`](LaneRam::with_rows) (in simulation and in the Verilog's `initial` block).
//!
//! The iCE40's block RAM does not define a read of the row it writes, so yosys keeps the old
//! value by delaying the write and bypassing the read (about 77 flip-flops and 44 LUTs for a
//! 32-bit RAM). A user that never uses such a read builds the RAM with
//! [`without_collisions`](LaneRam::without_collisions): its Verilog marks the memory
//! `(* no_rw_check *)`, and synthesis leaves that read undefined (simulation still gives the old
//! value). [`RegisterFile`](crate::hw::RegisterFile) does, and defines the read itself.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range};
use crate::sim::wide::bits_of_words;

/// `2^RW` rows of `T` lanes x `DW` bits; `TD = T * DW` (at most 1,024).
#[derive(LogicBlock)]
pub struct LaneRam<const RW: usize, const T: usize, const DW: usize, const TD: usize> {
    /// Reads and writes take effect at its rising edge.
    pub clock: Signal<In, Clock>,
    /// The row to read.
    pub read_address: Signal<In, Bits<RW>>,
    /// The row read at the last rising edge; lane `l` in bits `l * DW ..`.
    pub read_data: Signal<Out, Bits<TD>>,
    /// The row to write.
    pub write_address: Signal<In, Bits<RW>>,
    /// The row's new lanes (lane `l` in bits `l * DW ..`).
    pub write_data: Signal<In, Bits<TD>>,
    /// Lanes to write at the rising edge (all zero: no write).
    pub write_mask: Signal<In, Bits<T>>,
    _rows: Vec<Bits<TD>>,
    /// The rows at power-up (what the Verilog's `initial` block writes).
    _init: Vec<Bits<TD>>,
    /// A read of the row written at the same edge is never used (see the module's notes).
    _no_collisions: bool,
    /// Synthesis is asked for block RAM (see [`in_block_ram`](Self::in_block_ram)).
    _block_ram: bool,
}

impl<const RW: usize, const T: usize, const DW: usize, const TD: usize> LaneRam<RW, T, DW, TD> {
    /// The RAM, its generics checked (an error names the one out of range).
    pub fn new() -> Result<Self> {
        check_range("row bits (RW)", RW, 1, 12)?;
        check_range("lanes (T)", T, 1, 64)?;
        check_derived("TD", TD, "T * DW", T * DW)?;
        check_range("row width (T * DW)", TD, 1, rust_hdl::core::bitvec::MAX_BITS)?;
        Self::with_rows(&[])
    }
    /// Rows `0..rows.len()` start with `rows` (cut to `TD` bits), the others at 0.
    pub fn with_rows(rows: &[u64]) -> Result<Self> {
        check_range("row bits (RW)", RW, 1, 12)?;
        check_derived("TD", TD, "T * DW", T * DW)?;
        if rows.len() > 1 << RW {
            anyhow::bail!("{} initial rows given: the RAM has {}", rows.len(), 1 << RW);
        }
        let mut init = vec![Bits::<TD>::default(); 1 << RW];
        for (r, &v) in init.iter_mut().zip(rows) {
            *r = bits_of_words(&[v]);
        }
        Ok(Self {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_mask: Default::default(),
            _rows: init.clone(),
            _init: init,
            _no_collisions: false,
            _block_ram: false,
        })
    }
    /// As [`new`](Self::new), for a user that never uses a read of the row written at the same
    /// edge: synthesis may return anything there.
    pub fn without_collisions() -> Result<Self> {
        Ok(Self { _no_collisions: true, ..Self::new()? })
    }
    /// Marks the memory `(* ram_style = "block" *)`: a shallow, wide RAM (a register file's 32
    /// rows of 1,024 bits) goes to block RAM (ECP5 DP16KD, Xilinx RAMB) rather than LUT RAM
    /// and logic, where yosys's `synth_ecp5` puts it by its own cost rule. iCE40 has no LUT
    /// RAM: there the mark changes nothing.
    pub fn in_block_ram(self) -> Self {
        Self { _block_ram: true, ..self }
    }
}

impl<const RW: usize, const T: usize, const DW: usize, const TD: usize> Logic
    for LaneRam<RW, T, DW, TD>
{
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.read_data.next = self._rows[self.read_address.val().index()];
            let row = &mut self._rows[self.write_address.val().index()];
            let (data, lanes) = (self.write_data.val(), self.write_mask.val());
            for l in (0..T).filter(|&l| lanes.get_bit(l)) {
                row.set_bits::<DW>(l * DW, data.get_bits::<DW>(l * DW));
            }
        }
    }
    fn connect(&mut self) {
        self.read_data.connect();
    }
    fn hdl(&self) -> Verilog {
        // rust-hdl declares a 1-bit port without a range: a one-lane RAM's enable takes no index.
        let enable =
            |l: usize| if T == 1 { "write_mask".to_string() } else { format!("write_mask[{l}]") };
        let lane_writes: String = (0..T)
            .map(|l| {
                format!(
                    "   if ({}) mem[write_address][{}:{}] <= write_data[{}:{}];\n",
                    enable(l),
                    (l + 1) * DW - 1,
                    l * DW,
                    (l + 1) * DW - 1,
                    l * DW
                )
            })
            .collect();
        // The contents it starts with, not the simulation's present ones.
        let contents: String = self
            ._init
            .iter()
            .enumerate()
            .filter(|(_, v)| v.any())
            .map(|(r, &v)| format!("   mem[{r}] = {TD}'h{};\n", hex(v)))
            .collect();
        let marks: Vec<&str> =
            [(self._no_collisions, "no_rw_check"), (self._block_ram, "ram_style = \"block\"")]
                .into_iter()
                .filter_map(|(on, mark)| on.then_some(mark))
                .collect();
        let attribute =
            if marks.is_empty() { String::new() } else { format!("(* {} *)\n", marks.join(", ")) };
        Verilog::Custom(format!(
            "\
{attribute}reg [{msb}:0] mem [0:{last}];
integer i;
initial begin
   for (i = 0; i <= {last}; i = i + 1) mem[i] = {TD}'h0;
{contents}   read_data = {TD}'h0;
end
always @(posedge clock) begin
   read_data <= mem[read_address];
end
always @(posedge clock) begin
{lane_writes}end
",
            msb = TD - 1,
            last = (1usize << RW) - 1,
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "lane_ram".into(),
            clock: "clock".into(),
            inputs: vec![
                "read_address".into(),
                "write_address".into(),
                "write_data".into(),
                "write_mask".into(),
            ],
            outputs: vec!["read_data".into()],
        }]
    }
}

/// `v` in hexadecimal without leading zeros (as `{:x}` writes an integer; rust-hdl's writes
/// every digit of the width).
fn hex<const N: usize>(v: Bits<N>) -> String {
    let digits = format!("{v:x}");
    match digits.trim_start_matches('0') {
        "" => "0".to_string(),
        some => some.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Verilog starts from the rows given at construction, not from what a simulation wrote
    /// since (an exported top that was simulated first must start as it did).
    #[test]
    fn verilog_initial_block_holds_the_initial_rows() {
        let mut ram = LaneRam::<2, 1, 8, 8>::with_rows(&[0, 0x5a]).unwrap();
        ram.connect_all();
        ram.write_mask.next = 1.into();
        ram.write_address.next = 2.into();
        ram.write_data.next = 0x77.into();
        for high in [false, true, false] {
            ram.clock.next = Clock { clk: high };
            assert!(simulate(&mut ram, 10));
        }
        assert_eq!(ram._rows[2], 0x77, "the simulation wrote row 2");
        assert_eq!(hex(bits_of_words::<130>(&[0xab, 0, 3])), "3000000000000000000000000000000ab");
        let Verilog::Custom(text) = ram.hdl() else { panic!("LaneRam is custom Verilog") };
        assert!(text.contains("mem[1] = 8'h5a;") && !text.contains("mem[2] ="), "{text}");
        assert!(LaneRam::<2, 1, 8, 8>::with_rows(&[0; 5]).is_err());
    }
}
