//! Reply: the [`HostLink`](super::HostLink)'s answer, up to `N` bytes sent first to last. Each
//! cycle, in this order: the transmitter takes the first byte (the rest move down one); a record
//! read loads the `RB / 8`-byte record answer, or a `query` the 37-byte status answer (built here
//! from the values given). Reset drops the answer (its bytes stay).

use anyhow::{ensure, Result};
use rust_hdl::prelude::*;

use super::LINK_COUNTERS;
use crate::protocol::STATUS_BYTES;

/// The answer being sent: `N` bytes held (the longer of the status answer and a record), records
/// of `RB` bits (`RBY` bytes), `LW` bits counting the bytes left.
#[derive(LogicBlock)]
pub struct Reply<const N: usize, const RB: usize, const RBY: usize, const LW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The transmitter is ready for a byte.
    pub tx_ready: Signal<In, Bit>,
    /// Load the record read at the last edge.
    pub load_record: Signal<In, Bit>,
    pub record: Signal<In, Bits<RB>>,
    /// Load the status answer: its flags byte, the core's error flags and stack high-water
    /// mark, the capture count and the counters.
    pub load_query: Signal<In, Bit>,
    pub flags: Signal<In, Bits<8>>,
    pub core_errors: Signal<In, Bits<8>>,
    pub high_water: Signal<In, Bits<8>>,
    pub count: Signal<In, Bits<16>>,
    pub counters: [Signal<In, Bits<32>>; LINK_COUNTERS],
    /// Some byte is left to send, and the first.
    pub sending: Signal<Out, Bit>,
    pub tx_data: Signal<Out, Bits<8>>,
    bytes: [DFF<Bits<8>>; N],
    left: DFF<Bits<LW>>,
    /// The lengths of the two answers.
    status_len: Constant<Bits<LW>>,
    record_len: Constant<Bits<LW>>,
    is_sending: Signal<Local, Bit>,
}

impl<const N: usize, const RB: usize, const RBY: usize, const LW: usize> Reply<N, RB, RBY, LW> {
    /// The reply sender, its generics checked (an error names the rule broken).
    pub fn new() -> Result<Self> {
        ensure!(RB == 8 * RBY, "record bits (RB) = {RB} must be 8 x record bytes (RBY) = {RBY}");
        ensure!(N == RBY.max(STATUS_BYTES), "answer bytes (N) = {N} must be max(RBY, 37)");
        ensure!(N < 1 << LW, "answer bytes (N) = {N} must fit the {LW}-bit count (LW)");
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            tx_ready: Default::default(),
            load_record: Default::default(),
            record: Default::default(),
            load_query: Default::default(),
            flags: Default::default(),
            core_errors: Default::default(),
            high_water: Default::default(),
            count: Default::default(),
            counters: std::array::from_fn(|_| Default::default()),
            sending: Default::default(),
            tx_data: Default::default(),
            bytes: std::array::from_fn(|_| Default::default()),
            left: Default::default(),
            status_len: Constant::new((STATUS_BYTES as u64).to_bits()),
            record_len: Constant::new((RBY as u64).to_bits()),
            is_sending: Default::default(),
        })
    }
}

impl<const N: usize, const RB: usize, const RBY: usize, const LW: usize> Logic
    for Reply<N, RB, RBY, LW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, left);
        for k in 0..N {
            self.bytes[k].clock.next = self.clock.val();
            self.bytes[k].d.next = self.bytes[k].q.val();
        }
        self.is_sending.next = self.left.q.val() != 0;
        self.sending.next = self.is_sending.val();
        self.tx_data.next = 0.into();
        if self.is_sending.val() {
            self.tx_data.next = self.bytes[0].q.val();
        }
        if self.reset.val() {
            self.left.d.next = 0.into();
        } else {
            if self.is_sending.val() & self.tx_ready.val() {
                // Every byte moves down one.
                for k in 0..(N - 1) {
                    self.bytes[k].d.next = self.bytes[k + 1].q.val();
                }
                self.left.d.next = self.left.q.val() - 1;
            }
            if self.load_record.val() {
                for k in 0..RBY {
                    self.bytes[k].d.next = self.record.val().get_bits::<8>(8 * k);
                }
                self.left.d.next = self.record_len.val();
            } else if self.load_query.val() {
                self.bytes[0].d.next = self.flags.val();
                self.bytes[1].d.next = self.core_errors.val();
                self.bytes[2].d.next = self.high_water.val();
                self.bytes[3].d.next = self.count.val().get_bits::<8>(0);
                self.bytes[4].d.next = self.count.val().get_bits::<8>(8);
                for c in 0..LINK_COUNTERS {
                    for b in 0..4 {
                        self.bytes[5 + 4 * c + b].d.next =
                            self.counters[c].val().get_bits::<8>(8 * b);
                    }
                }
                self.left.d.next = self.status_len.val();
            }
        }
    }
}
