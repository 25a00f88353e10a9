//! IBufferRam: the [`IBuffer`](super::IBuffer) in block RAM, for a core that picks the head it
//! will issue a cycle ahead (the pipelined core). Fill, issue, flush, `space`, `head_valid` and
//! the misuse flags are the `IBuffer`'s, cycle for cycle. The head is read from block RAM, so it
//! shows a cycle later:
//!
//! - `head_inst`/`head_pc` show, after a rising edge, what `IBuffer`'s showed before it: the
//!   oldest instruction of the warp `head_warp` named, before the edge's issue, fill, flush and
//!   reset (0 when it had none).
//!
//! Each warp's instructions sit in a ring of four rows (rows `4 w ..` of two [`LaneRam`]s, one
//! for the instructions and one for their pcs): a two-bit pointer per warp names its oldest
//! row, an issue moves the pointer, and a fill writes the row after the ones held, at every
//! fill, so the write depends on neither issue nor count (a fill the buffer drops writes a row
//! it does not hold). The head is read from the oldest row, which a fill writes only when the
//! warp holds nothing, and then the head shows 0: the RAMs are built
//! [`without_collisions`](LaneRam::without_collisions), with no logic for a read of the row
//! being written.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::LaneRam;
use crate::params::{check_derived, check_range, check_warps, clog2};

/// Row bits of the RAM: a ring of four rows for each of up to 32 warps.
const ROW_BITS: usize = 7;

/// `W` warps (`WW = clog2 W`, at most 32 warps), `A`-bit pcs (at most 32), 32-bit instructions,
/// two slots per warp.
#[derive(LogicBlock)]
pub struct IBufferRam<const W: usize, const WW: usize, const A: usize> {
    /// Fills, issues and flushes take effect at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Add `fill_inst` at `fill_pc` to warp `fill_warp`'s buffer at this edge.
    pub fill_valid: Signal<In, Bit>,
    /// The warp filled.
    pub fill_warp: Signal<In, Bits<WW>>,
    /// The instruction word.
    pub fill_inst: Signal<In, Bits<32>>,
    /// Its pc.
    pub fill_pc: Signal<In, Bits<A>>,
    /// Bit `w`: warp `w` has a free slot.
    pub space: Signal<Out, Bits<W>>,
    /// Bit `w`: warp `w` has an instruction.
    pub head_valid: Signal<Out, Bits<W>>,
    /// The warp whose oldest instruction `head_inst`/`head_pc` show after the edge.
    pub head_warp: Signal<In, Bits<WW>>,
    /// Warp `head_warp`'s oldest instruction.
    pub head_inst: Signal<Out, Bits<32>>,
    /// Its pc.
    pub head_pc: Signal<Out, Bits<A>>,
    /// The warp whose oldest instruction `issue_valid` takes.
    pub issue_warp: Signal<In, Bits<WW>>,
    /// Remove that instruction at this edge.
    pub issue_valid: Signal<In, Bit>,
    /// Empty warp `flush_warp`'s buffer at this edge.
    pub flush_valid: Signal<In, Bit>,
    /// The warp flushed.
    pub flush_warp: Signal<In, Bits<WW>>,
    /// Sticky: a fill found its warp's buffer full.
    pub err_fill_full: Signal<Out, Bit>,
    /// Sticky: an issue found its warp's buffer empty.
    pub err_issue_empty: Signal<Out, Bit>,
    /// Rows `4 w ..= 4 w + 3`: warp `w`'s ring, its instructions and their pcs.
    insts: LaneRam<ROW_BITS, 1, 32, 32>,
    pcs: LaneRam<ROW_BITS, 1, A, A>,
    /// Per warp: its oldest row in its ring, and how many it holds (0, 1 or 2).
    oldest: [DFF<Bits<2>>; W],
    count: [DFF<Bits<2>>; W],
    /// Something was left to show at the last edge (else the head shows 0).
    shown: DFF<Bit>,
    fill_full: DFF<Bit>,
    issue_empty: DFF<Bit>,
    /// This warp's count after the issue, before the fill.
    left: Signal<Local, Bits<2>>,
    /// The row of its ring the head is read from, and the one a fill writes.
    read_slot: Signal<Local, Bits<2>>,
    write_slot: Signal<Local, Bits<2>>,
    read_row: Signal<Local, Bits<ROW_BITS>>,
    write_row: Signal<Local, Bits<ROW_BITS>>,
}

/// [`IBufferRam`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_ibuffer_ram {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::IBufferRam] $s; W, WW, A)
    };
}

impl<const W: usize, const WW: usize, const A: usize> IBufferRam<W, WW, A> {
    /// Checks `W` (a power of two, 2..=32), `WW = clog2(W)` and `A` (1..=32).
    pub fn new() -> Result<Self> {
        check_warps("warps (W)", W)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
        check_range("pc_width (A)", A, 1, 32)?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            fill_valid: Default::default(),
            fill_warp: Default::default(),
            fill_inst: Default::default(),
            fill_pc: Default::default(),
            space: Default::default(),
            head_valid: Default::default(),
            head_warp: Default::default(),
            head_inst: Default::default(),
            head_pc: Default::default(),
            issue_warp: Default::default(),
            issue_valid: Default::default(),
            flush_valid: Default::default(),
            flush_warp: Default::default(),
            err_fill_full: Default::default(),
            err_issue_empty: Default::default(),
            insts: LaneRam::without_collisions()?,
            pcs: LaneRam::without_collisions()?,
            oldest: std::array::from_fn(|_| Default::default()),
            count: std::array::from_fn(|_| Default::default()),
            shown: Default::default(),
            fill_full: Default::default(),
            issue_empty: Default::default(),
            left: Default::default(),
            read_slot: Default::default(),
            write_slot: Default::default(),
            read_row: Default::default(),
            write_row: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const A: usize> Logic for IBufferRam<W, WW, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shown, fill_full, issue_empty);
        self.insts.clock.next = self.clock.val();
        self.pcs.clock.next = self.clock.val();
        self.space.next = 0.into();
        self.head_valid.next = 0.into();
        self.read_slot.next = 0.into();
        self.write_slot.next = 0.into();
        self.shown.d.next = false;
        for w in 0..W {
            self.oldest[w].clock.next = self.clock.val();
            self.count[w].clock.next = self.clock.val();
            self.oldest[w].d.next = self.oldest[w].q.val();
            if self.count[w].q.val() != 2 {
                self.space.next = self.space.val().replace_bit(w, true);
            }
            if self.count[w].q.val() != 0 {
                self.head_valid.next = self.head_valid.val().replace_bit(w, true);
            }
            // The head shown next: this warp's oldest, before the edge.
            if self.head_warp.val().index() == w {
                self.read_slot.next = self.oldest[w].q.val();
                self.shown.d.next = self.count[w].q.val() != 0;
            }
            // A fill writes the row after the ones held (kept only if the fill is).
            if self.fill_warp.val().index() == w {
                self.write_slot.next = self.oldest[w].q.val() + self.count[w].q.val();
            }
            // Issue: the oldest row moves on.
            self.left.next = self.count[w].q.val();
            if self.issue_valid.val() & (self.issue_warp.val().index() == w) {
                if self.count[w].q.val() == 0 {
                    self.issue_empty.d.next = true;
                } else {
                    self.left.next = self.count[w].q.val() - 1;
                    self.oldest[w].d.next = self.oldest[w].q.val() + 1;
                }
            }
            self.count[w].d.next = self.left.val();
            if self.fill_valid.val() & (self.fill_warp.val().index() == w) {
                if self.left.val() == 2 {
                    self.fill_full.d.next = true;
                } else {
                    self.count[w].d.next = self.left.val() + 1;
                }
            }
            if (self.flush_valid.val() & (self.flush_warp.val().index() == w)) | self.reset.val() {
                self.count[w].d.next = 0.into();
            }
        }
        self.insts.write_mask.next = 0.into();
        if self.fill_valid.val() {
            self.insts.write_mask.next = 1.into();
        }
        self.pcs.write_mask.next = self.insts.write_mask.val();
        self.read_row.next = (bit_cast::<ROW_BITS, WW>(self.head_warp.val()) << 2)
            | bit_cast::<ROW_BITS, 2>(self.read_slot.val());
        self.write_row.next = (bit_cast::<ROW_BITS, WW>(self.fill_warp.val()) << 2)
            | bit_cast::<ROW_BITS, 2>(self.write_slot.val());
        self.insts.read_address.next = self.read_row.val();
        self.insts.write_address.next = self.write_row.val();
        self.insts.write_data.next = self.fill_inst.val();
        self.pcs.read_address.next = self.read_row.val();
        self.pcs.write_address.next = self.write_row.val();
        self.pcs.write_data.next = self.fill_pc.val();
        self.head_inst.next = 0.into();
        self.head_pc.next = 0.into();
        if self.shown.q.val() {
            self.head_inst.next = self.insts.read_data.val();
            self.head_pc.next = self.pcs.read_data.val();
        }
        self.err_fill_full.next = self.fill_full.q.val();
        self.err_issue_empty.next = self.issue_empty.q.val();
        if self.reset.val() {
            self.fill_full.d.next = false;
            self.issue_empty.d.next = false;
        }
    }
}

impl<const W: usize, const WW: usize, const A: usize> crate::sim::Dut for IBufferRam<W, WW, A> {
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, fill_valid, fill_warp, fill_inst, fill_pc, head_warp, issue_warp, issue_valid, flush_valid, flush_warp],
        outputs: [space, head_valid, head_inst, head_pc, err_fill_full, err_issue_empty]
    );
}
