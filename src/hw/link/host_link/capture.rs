//! Capture: the [`HostLink`](super::HostLink)'s record of a run's write-backs, 256 records of
//! `RB` bits in block RAM (48 for the `cu` core). With capture on, each write-back is written at the count, which then
//! grows; when 256 are held a further one is dropped and flags `err_full`. `start` turns capture
//! on or off and empties it; `clear` (reset, or the link's `reset` command) turns it off and
//! empties it. The record at `read_address` shows at `read_data` after the edge.

use rust_hdl::prelude::*;

use crate::hw::LaneRam;

/// Records of `RB` bits of a core with `WW` warp-id bits, `T` lanes and `TD` register bits
/// (checked by the link).
#[derive(LogicBlock)]
pub struct Capture<const WW: usize, const T: usize, const TD: usize, const RB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The core's write-back port.
    pub wb_valid: Signal<In, Bit>,
    pub wb_warp: Signal<In, Bits<WW>>,
    pub wb_reg: Signal<In, Bits<4>>,
    pub wb_mask: Signal<In, Bits<T>>,
    pub wb_data: Signal<In, Bits<TD>>,
    /// A `start`: capture on if `start_capture`, emptied.
    pub start: Signal<In, Bit>,
    pub start_capture: Signal<In, Bit>,
    /// Capture off, emptied, flag cleared (after all else).
    pub clear: Signal<In, Bit>,
    pub read_address: Signal<In, Bits<8>>,
    pub read_data: Signal<Out, Bits<RB>>,
    pub enabled: Signal<Out, Bit>,
    /// Records held (0 to 256).
    pub count: Signal<Out, Bits<9>>,
    pub err_full: Signal<Out, Bit>,
    ram: LaneRam<8, 1, RB, RB>,
    en: DFF<Bit>,
    held: DFF<Bits<9>>,
    full: DFF<Bit>,
    mask_at: Constant<Bits<16>>,
    reg_at: Constant<Bits<16>>,
    warp_at: Constant<Bits<16>>,
    record: Signal<Local, Bits<RB>>,
}

impl<const WW: usize, const T: usize, const TD: usize, const RB: usize> Capture<WW, T, TD, RB> {
    /// The capture buffer, empty.
    pub fn new() -> anyhow::Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            start: Default::default(),
            start_capture: Default::default(),
            clear: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            enabled: Default::default(),
            count: Default::default(),
            err_full: Default::default(),
            ram: LaneRam::new()?,
            en: Default::default(),
            held: Default::default(),
            full: Default::default(),
            mask_at: Constant::new((TD as u64).to_bits()),
            reg_at: Constant::new(((TD + T) as u64).to_bits()),
            warp_at: Constant::new(((TD + T + 4) as u64).to_bits()),
            record: Default::default(),
        })
    }
}

impl<const WW: usize, const T: usize, const TD: usize, const RB: usize> Logic
    for Capture<WW, T, TD, RB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, en, held, full);
        self.enabled.next = self.en.q.val();
        self.count.next = self.held.q.val();
        self.err_full.next = self.full.q.val();
        // The buffer: written at the count, read at `read_address`.
        self.ram.clock.next = self.clock.val();
        self.ram.read_address.next = self.read_address.val();
        self.read_data.next = self.ram.read_data.val();
        self.ram.write_address.next = self.held.q.val().get_bits::<8>(0);
        self.record.next = bit_cast::<RB, TD>(self.wb_data.val())
            | (bit_cast::<RB, T>(self.wb_mask.val()) << self.mask_at.val())
            | (bit_cast::<RB, 4>(self.wb_reg.val()) << self.reg_at.val())
            | (bit_cast::<RB, WW>(self.wb_warp.val()) << self.warp_at.val());
        self.ram.write_data.next = self.record.val();
        self.ram.write_mask.next = 0.into();
        // Record a write-back.
        if !self.reset.val() & self.en.q.val() & self.wb_valid.val() {
            if self.held.q.val().get_bit(8) {
                self.full.d.next = true;
            } else {
                self.ram.write_mask.next = 1.into();
                self.held.d.next = self.held.q.val() + 1;
            }
        }
        if self.start.val() {
            self.en.d.next = self.start_capture.val();
            self.held.d.next = 0.into();
            self.full.d.next = false;
        }
        if self.clear.val() {
            self.en.d.next = false;
            self.held.d.next = 0.into();
            self.full.d.next = false;
        }
    }
}
