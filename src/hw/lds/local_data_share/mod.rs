//! LocalDataShare: the R700 local data share of seed 004, as the ISA's `st` and `ld` use it
//! (see [`crate::isa`]).
//!
//! `LB` banks (R700's 4 in the block presets and `cu-core`) of `2^RW` words of `DW` bits; word
//! address `a` lies in bank `a mod LB`, row `(a / LB) mod 2^RW`. Each bank is one [`LaneRam`]
//! (block RAM on the iCE40).
//!
//! One warp access at a time, under a `req_valid`/`req_ready` handshake:
//! - a **store** is owner-computes: thread `t = req_warp * T + lane` writes its `req_data` to
//!   bank `t mod LB`, row `(t / LB) * req_stride + req_index`;
//! - a **load** is dynamic: lane `l` reads word `req_addr[l]`;
//! - a **scatter** (a store with `req_scatter`, the ISA's `stx`) is dynamic too: lane `l` writes
//!   its `req_data` to word `req_addr[l]`;
//! - an **atomic** (`req_atomic` with `req_write` low, the ISA's `atadd` and `atxch`) is
//!   dynamic: lane `l` reads word `req_addr[l]` (its answer) and writes back the old word plus
//!   its `req_data`, or (`req_exchange`) `req_data` itself.
//!
//! Only the lanes in `req_mask` take part. Every cycle each bank serves one row: the row of its
//! highest-numbered pending lane, together with every other pending lane that wants the same row
//! of that bank. A load broadcasts the word to all of them; a store writes the highest lane's
//! data (so when lanes collide on one word, the highest lane wins). An access therefore takes as
//! many cycles as the most distinct rows any one bank is asked for: bank conflicts are
//! serialised, and every cycle beyond the first is counted in `conflict_cycles`.
//!
//! An atomic instead serves one lane of each bank in two cycles, its lowest pending lane: the
//! first cycle reads its row, the second writes the new word back (and the lane's answer leaves
//! the RAM). Lanes on one word thus follow each other in lane order, lowest first, each seeing
//! what the one before it left; an atomic takes two cycles per lane of its busiest bank.
//! Without atomics built in ([`with_atomics`](LocalDataShare::with_atomics)) `req_atomic` is
//! ignored.
//!
//! Timing: a request taken in cycle `c` is served in cycles `c+1 ..= c+n` (`n >= 1`, one cycle
//! for an empty mask); `resp_valid` is high for the one cycle `c+n+1`, and a load's words are on
//! `resp_data` from then until the next load is answered (lanes outside the mask keep their old
//! value). `req_ready` is high when no access is in flight or the one in flight ends this cycle,
//! so conflict-free accesses can follow each other every cycle. `req_ready` depends only on the
//! state, never on `req_valid`.
//!
//! Reset (synchronous, active high) abandons the access in flight (rows a store already wrote
//! stay written), clears the counters and `resp_data`, and keeps the memory. The memory starts
//! at 0. Counters wrap at 2^32.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::LaneRam;
use crate::params::{check_derived, check_pow2, check_range, clog2};
use crate::sim::{Claim, Mutant};

/// The exported module (and file) name; also its section of `rtl_out/manifest.json`.
pub const MODULE: &str = "local_data_share";

/// Bits of a store's `index` and `stride` (the ISA's `st` fields).
pub const OFFSET_BITS: usize = 7;

/// `T` lanes (a power of two, 4..=32), `WW`-bit warp ids, `DW`-bit words, `2^RW` rows per bank,
/// `LB` banks (a power of two, 2..=`T`) of `LBW = clog2(LB)` index bits.
#[derive(LogicBlock)]
pub struct LocalDataShare<
    const T: usize,
    const WW: usize,
    const DW: usize,
    const RW: usize,
    const LB: usize,
    const LBW: usize,
> {
    /// Clock: requests are taken and rows are served at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    // Request (taken at the edge of a cycle with req_valid and req_ready)
    /// A request is offered.
    pub req_valid: Signal<In, Bit>,
    /// A request is taken at this edge if offered (never depends on `req_valid`).
    pub req_ready: Signal<Out, Bit>,
    /// Store (owner-computes addressing) when high, load (dynamic addressing) when low.
    pub req_write: Signal<In, Bit>,
    /// With `req_write`: a scatter, each lane writing to its own `req_addr` (dynamic addressing).
    pub req_scatter: Signal<In, Bit>,
    /// With `req_write` low: an atomic read-modify-write of each lane's `req_addr`.
    pub req_atomic: Signal<In, Bit>,
    /// With `req_atomic`: the word written back is `req_data` (exchange), not old + `req_data`.
    pub req_exchange: Signal<In, Bit>,
    /// Lanes taking part (bit `l` for lane `l`).
    pub req_mask: Signal<In, Bits<T>>,
    /// Store: the warp, for the thread ids `req_warp * T + lane`.
    pub req_warp: Signal<In, Bits<WW>>,
    /// Store: row offset `index` and the stride `stride` between rows of `LB` threads.
    pub req_index: Signal<In, Bits<OFFSET_BITS>>,
    /// Store: the stride between rows of `LB` threads.
    pub req_stride: Signal<In, Bits<OFFSET_BITS>>,
    /// Load: each lane's word address.
    pub req_addr: [Signal<In, Bits<DW>>; T],
    /// Store: each lane's word.
    pub req_data: [Signal<In, Bits<DW>>; T],
    // Response
    /// High for one cycle when an access has completed.
    pub resp_valid: Signal<Out, Bit>,
    /// Each lane's word of the last load (or the old word of the last atomic).
    pub resp_data: [Signal<Out, Bits<DW>>; T],
    // Counters
    /// Requests taken since reset.
    pub accesses: Signal<Out, Bits<32>>,
    /// Cycles lost to bank conflicts since reset: the serving cycles of each access beyond its first.
    pub conflict_cycles: Signal<Out, Bits<32>>,
    banks: [LaneRam<RW, 1, DW, DW>; LB],
    // The access in flight
    active: DFF<Bit>,
    first: DFF<Bit>,
    write: DFF<Bit>,
    /// An atomic, an exchange, and which of its two cycles this is (high: the write).
    atomic: DFF<Bit>,
    exchange: DFF<Bit>,
    phase: DFF<Bit>,
    pending: DFF<Bits<T>>,
    lane_bank: [DFF<Bits<LBW>>; T],
    lane_row: [DFF<Bits<RW>>; T],
    lane_data: [DFF<Bits<DW>>; T],
    // The load lanes served in the last cycle (their words come out of the RAM now) and the result
    served: DFF<Bits<T>>,
    served_bank: [DFF<Bits<LBW>>; T],
    held: [DFF<Bits<DW>>; T],
    done: DFF<Bit>,
    accesses_q: DFF<Bits<32>>,
    conflicts_q: DFF<Bits<32>>,
    /// Lane `l`'s own bank for stores, `l mod LB`.
    own_bank: [Constant<Bits<LBW>>; T],
    /// Lanes that start a new group of `LB` threads (`l mod LB = 0`, `l > 0`; R700's quads).
    quad_start: Constant<Bits<T>>,
    /// `clog2(T / LB)`: a warp's first group is `warp << quad_shift`.
    quad_shift: Constant<Bits<8>>,
    /// `LBW`: a word address's row is `address >> bank_shift`.
    bank_shift: Constant<Bits<8>>,
    /// Built with scatters: `req_scatter` is ignored without (see [`with_scatter`](Self::with_scatter)).
    has_scatter: Constant<Bit>,
    /// Built with atomics: `req_atomic` is ignored without.
    has_atomic: Constant<Bit>,
    /// An atomic is in flight (`has_atomic` and `atomic`).
    rmw: Signal<Local, Bit>,
    /// Atomics: the lowest pending lane of each bank.
    pick: Signal<Local, Bits<T>>,
    // Serving: per bank the row of its highest pending lane, that lane's word, and whether any
    sel_row: [Signal<Local, Bits<RW>>; LB],
    sel_data: [Signal<Local, Bits<DW>>; LB],
    sel_hit: [Signal<Local, Bit>; LB],
    serve: Signal<Local, Bits<T>>,
    left: Signal<Local, Bits<T>>,
    accept: Signal<Local, Bit>,
    // Owner-computes rows: base = (warp << quad_shift) * stride + index, plus stride per group
    quad_warp: Signal<Local, Bits<RW>>,
    shifted: Signal<Local, Bits<RW>>,
    step: Signal<Local, Bits<RW>>,
    owner_row: [Signal<Local, Bits<RW>>; T],
    addr: Signal<Local, Bits<DW>>,
    addr_row: Signal<Local, Bits<DW>>,
}

/// [`LocalDataShare`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_local_data_share {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::LocalDataShare] $s; T, WW, DW, LRW, LB, LBW)
    };
}

impl<
        const T: usize,
        const WW: usize,
        const DW: usize,
        const RW: usize,
        const LB: usize,
        const LBW: usize,
    > LocalDataShare<T, WW, DW, RW, LB, LBW>
{
    /// Checks `T` (a power of two, 4..=32), `WW = clog2(warps)` for `warps` warps (2..=64), `DW`
    /// (1..=32), `RW` (1..=12), `LB` (a power of two, 2..=`T`) and `LBW = clog2(LB)`.
    pub fn new(warps: usize) -> Result<Self> {
        Self::with_contents(warps, &[])
    }
    /// This share built with scatters (`on`: `req_scatter` works) or without (it is ignored).
    pub fn with_scatter(mut self, on: bool) -> Self {
        self.has_scatter = Constant::new(on);
        self
    }
    /// This share built with atomics (`on`: `req_atomic` works) or without (it is ignored).
    pub fn with_atomics(mut self, on: bool) -> Self {
        self.has_atomic = Constant::new(on);
        self
    }
    /// As [`new`](Self::new), the share holding `words` from word 0 (the rest 0): word `a` is
    /// bank `a mod LB`, row `a / LB`.
    pub fn with_contents(warps: usize, words: &[u32]) -> Result<Self> {
        check_pow2("threads (T)", T, 4, 32)?;
        check_pow2("banks (LB)", LB, 2, T)?;
        check_derived("LBW", LBW, "clog2(LB)", clog2(LB))?;
        check_range("warps", warps, 2, 64)?;
        check_derived("WW", WW, "clog2(warps)", clog2(warps))?;
        check_range("lane_bits (DW)", DW, 1, 32)?;
        check_range("LDS row bits (RW)", RW, 1, 12)?;
        if words.len() > LB << RW {
            anyhow::bail!(
                "the initial local data share has {} words: it holds {}",
                words.len(),
                LB << RW
            );
        }
        let banks = (0..LB)
            .map(|b| {
                LaneRam::with_rows(
                    &words.iter().skip(b).step_by(LB).map(|&w| w as u64).collect::<Vec<_>>(),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let quad_start = (LB..T).step_by(LB).fold(0u64, |m, l| m | 1 << l);
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_write: Default::default(),
            req_scatter: Default::default(),
            req_atomic: Default::default(),
            req_exchange: Default::default(),
            req_mask: Default::default(),
            req_warp: Default::default(),
            req_index: Default::default(),
            req_stride: Default::default(),
            req_addr: std::array::from_fn(|_| Default::default()),
            req_data: std::array::from_fn(|_| Default::default()),
            resp_valid: Default::default(),
            resp_data: std::array::from_fn(|_| Default::default()),
            accesses: Default::default(),
            conflict_cycles: Default::default(),
            banks: banks.try_into().unwrap_or_else(|_| unreachable!("LB banks built")),
            active: Default::default(),
            first: Default::default(),
            write: Default::default(),
            atomic: Default::default(),
            exchange: Default::default(),
            phase: Default::default(),
            pending: Default::default(),
            lane_bank: std::array::from_fn(|_| Default::default()),
            lane_row: std::array::from_fn(|_| Default::default()),
            lane_data: std::array::from_fn(|_| Default::default()),
            served: Default::default(),
            served_bank: std::array::from_fn(|_| Default::default()),
            held: std::array::from_fn(|_| Default::default()),
            done: Default::default(),
            accesses_q: Default::default(),
            conflicts_q: Default::default(),
            own_bank: std::array::from_fn(|l| Constant::new((l % LB).to_bits())),
            quad_start: Constant::new(quad_start.to_bits()),
            quad_shift: Constant::new(clog2(T / LB).to_bits()),
            bank_shift: Constant::new(LBW.to_bits()),
            has_scatter: Constant::new(false),
            has_atomic: Constant::new(false),
            rmw: Default::default(),
            pick: Default::default(),
            sel_row: std::array::from_fn(|_| Default::default()),
            sel_data: std::array::from_fn(|_| Default::default()),
            sel_hit: std::array::from_fn(|_| Default::default()),
            serve: Default::default(),
            left: Default::default(),
            accept: Default::default(),
            quad_warp: Default::default(),
            shifted: Default::default(),
            step: Default::default(),
            owner_row: std::array::from_fn(|_| Default::default()),
            addr: Default::default(),
            addr_row: Default::default(),
        })
    }
}

impl<
        const T: usize,
        const WW: usize,
        const DW: usize,
        const RW: usize,
        const LB: usize,
        const LBW: usize,
    > Logic for LocalDataShare<T, WW, DW, RW, LB, LBW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            active,
            first,
            write,
            atomic,
            exchange,
            phase,
            pending,
            served,
            done,
            accesses_q,
            conflicts_q
        );
        for l in 0..T {
            self.lane_bank[l].clock.next = self.clock.val();
            self.lane_row[l].clock.next = self.clock.val();
            self.lane_data[l].clock.next = self.clock.val();
            self.served_bank[l].clock.next = self.clock.val();
            self.held[l].clock.next = self.clock.val();
            self.lane_bank[l].d.next = self.lane_bank[l].q.val();
            self.lane_row[l].d.next = self.lane_row[l].q.val();
            self.lane_data[l].d.next = self.lane_data[l].q.val();
        }
        // Each bank picks the row of its highest pending lane (later lanes override earlier
        // ones); an atomic's bank its lowest (the first one found stays).
        self.rmw.next = self.has_atomic.val() & self.atomic.q.val();
        self.pick.next = 0.into();
        for b in 0..LB {
            self.sel_row[b].next = 0.into();
            self.sel_data[b].next = 0.into();
            self.sel_hit[b].next = false;
        }
        for l in 0..T {
            for b in 0..LB {
                if self.pending.q.val().get_bit(l)
                    & (self.lane_bank[l].q.val().index() == b)
                    & !(self.rmw.val() & self.sel_hit[b].val())
                {
                    self.sel_row[b].next = self.lane_row[l].q.val();
                    self.sel_data[b].next = self.lane_data[l].q.val();
                    self.sel_hit[b].next = true;
                    self.pick.next = self.pick.val().replace_bit(l, true);
                }
            }
        }
        // Every pending lane that wants its bank's chosen row is served this cycle.
        self.serve.next = 0.into();
        for l in 0..T {
            for b in 0..LB {
                if self.pending.q.val().get_bit(l)
                    & (self.lane_bank[l].q.val().index() == b)
                    & (self.lane_row[l].q.val() == self.sel_row[b].val())
                {
                    self.serve.next = self.serve.val().replace_bit(l, true);
                }
            }
        }
        // An atomic's picked lanes are served in its second cycle, the write.
        if self.rmw.val() {
            self.serve.next = 0.into();
            if self.phase.q.val() {
                self.serve.next = self.pick.val();
            }
        }
        self.left.next = self.pending.q.val() & !self.serve.val();
        self.req_ready.next = !self.active.q.val() | !self.left.val().any();
        self.accept.next = self.req_valid.val() & self.req_ready.val();
        for b in 0..LB {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].read_address.next = self.sel_row[b].val();
            self.banks[b].write_address.next = self.sel_row[b].val();
            self.banks[b].write_data.next = self.sel_data[b].val();
            self.banks[b].write_mask.next = 0.into();
            if self.write.q.val() & self.sel_hit[b].val() & !self.reset.val() {
                self.banks[b].write_mask.next = 1.into();
            }
            if self.rmw.val() {
                if !self.exchange.q.val() {
                    self.banks[b].write_data.next =
                        self.banks[b].read_data.val() + self.sel_data[b].val();
                }
                if self.phase.q.val() & self.sel_hit[b].val() & !self.reset.val() {
                    self.banks[b].write_mask.next = 1.into();
                }
            }
        }
        // A load's words leave the RAM the cycle after their row was served.
        for l in 0..T {
            self.resp_data[l].next = self.held[l].q.val();
            if self.served.q.val().get_bit(l) {
                for b in 0..LB {
                    if self.served_bank[l].q.val().index() == b {
                        self.resp_data[l].next = self.banks[b].read_data.val();
                    }
                }
            }
            self.held[l].d.next = self.resp_data[l].val();
            self.served_bank[l].d.next = self.lane_bank[l].q.val();
        }
        self.served.d.next = 0.into();
        if !self.write.q.val() {
            self.served.d.next = self.serve.val();
        }
        // An atomic's answers leave the RAM in its second cycle.
        if self.rmw.val() {
            self.served.d.next = 0.into();
            if !self.phase.q.val() {
                self.served.d.next = self.pick.val();
            }
        }
        self.phase.d.next = self.rmw.val() & self.active.q.val() & !self.phase.q.val();
        self.resp_valid.next = self.done.q.val();
        self.accesses.next = self.accesses_q.q.val();
        self.conflict_cycles.next = self.conflicts_q.q.val();
        self.done.d.next = self.active.q.val() & !self.left.val().any();
        if self.active.q.val() & !self.first.q.val() {
            self.conflicts_q.d.next = self.conflicts_q.q.val() + 1;
        }
        self.first.d.next = false;
        self.pending.d.next = self.left.val();
        if !self.left.val().any() {
            self.active.d.next = false;
        }
        // Owner-computes rows for a store: thread group (warp << quad_shift) + l / LB.
        self.quad_warp.next = bit_cast::<RW, WW>(self.req_warp.val()) << self.quad_shift.val();
        self.step.next = bit_cast::<RW, OFFSET_BITS>(self.req_stride.val());
        self.owner_row[0].next = bit_cast::<RW, OFFSET_BITS>(self.req_index.val());
        self.shifted.next = self.quad_warp.val();
        for i in 0..OFFSET_BITS {
            if self.req_stride.val().get_bit(i) {
                self.owner_row[0].next = self.owner_row[0].val() + self.shifted.val();
            }
            self.shifted.next = self.shifted.val() << 1;
        }
        for l in 1..T {
            self.owner_row[l].next = self.owner_row[l - 1].val();
            if self.quad_start.val().get_bit(l) {
                self.owner_row[l].next = self.owner_row[l - 1].val() + self.step.val();
            }
        }
        self.addr.next = 0.into();
        self.addr_row.next = 0.into();
        if self.accept.val() {
            self.active.d.next = true;
            self.first.d.next = true;
            self.write.d.next = self.req_write.val();
            self.atomic.d.next =
                self.has_atomic.val() & self.req_atomic.val() & !self.req_write.val();
            self.exchange.d.next = self.req_exchange.val();
            self.phase.d.next = false;
            self.pending.d.next = self.req_mask.val();
            self.accesses_q.d.next = self.accesses_q.q.val() + 1;
            for l in 0..T {
                self.lane_data[l].d.next = self.req_data[l].val();
                self.addr.next = self.req_addr[l].val();
                self.addr_row.next = self.addr.val() >> self.bank_shift.val();
                if self.req_write.val() & !(self.has_scatter.val() & self.req_scatter.val()) {
                    self.lane_bank[l].d.next = self.own_bank[l].val();
                    self.lane_row[l].d.next = self.owner_row[l].val();
                } else {
                    self.lane_bank[l].d.next = bit_cast::<LBW, DW>(self.addr.val());
                    self.lane_row[l].d.next = bit_cast::<RW, DW>(self.addr_row.val());
                }
            }
        }
        if self.reset.val() {
            self.active.d.next = false;
            self.first.d.next = false;
            self.phase.d.next = false;
            self.pending.d.next = 0.into();
            self.served.d.next = 0.into();
            self.done.d.next = false;
            self.accesses_q.d.next = 0.into();
            self.conflicts_q.d.next = 0.into();
            for l in 0..T {
                self.held[l].d.next = 0.into();
            }
        }
    }
}

impl<
        const T: usize,
        const WW: usize,
        const DW: usize,
        const RW: usize,
        const LB: usize,
        const LBW: usize,
    > crate::sim::Dut for LocalDataShare<T, WW, DW, RW, LB, LBW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, req_valid, req_write, req_scatter, req_atomic, req_exchange, req_mask, req_warp, req_index, req_stride, req_addr, req_data],
        outputs: [req_ready, resp_valid, resp_data, accesses, conflict_cycles]
    );
}

/// The formal properties (`local_data_share.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/lds/local_data_share/local_data_share.sv",
    text: include_str!("local_data_share.sv"),
    wrapper: "local_data_share_props",
    parameters: |p| {
        vec![
            ("T", p.scheduler.threads),
            ("WW", p.scheduler.warp_id_width()),
            ("DW", p.collector.lane_bits),
        ]
    },
    claims: &[Claim::cu(&[
        "response_only_for_a_taken_access",
        "one_access_in_flight",
        "answered_within_lanes_plus_one_cycles",
        "busy_only_with_an_open_access",
        "accesses_counts_taken_requests",
    ])],
    mutants: &[
        // A new request taken while an access is still being served.
        Mutant::cu(
            "ready_while_busy",
            "req_ready = ~active$q | ~|left;",
            "req_ready = 1'b1;",
            &["one_access_in_flight", "response_only_for_a_taken_access"],
        ),
        // The last served row never raises resp_valid: the requester waits for ever.
        Mutant::cu(
            "never_answered",
            "done$d = active$q & ~|left;",
            "done$d = 1'b0;",
            &["answered_within_lanes_plus_one_cycles"],
        ),
    ],
};

/// How to drive the exported LocalDataShare (in its header and the manifest; `banks` is the
/// header's `LDS` line).
pub const LDS_INTERFACE: &str = "a request is taken at the rising edge of a cycle with req_valid and req_ready (req_ready never depends on req_valid); \
req_write=1: owner-computes store, thread t = req_warp*lanes + l writes req_data$l to word ((t/banks)*req_stride + req_index)*banks + t%banks; \
req_write=1, req_scatter=1: lane l writes req_data$l to word req_addr$l; \
req_write=0: lane l loads word req_addr$l; req_write=0, req_atomic=1 (when built with atomics): lane l atomically reads word req_addr$l and writes back old + req_data$l (req_exchange=1: req_data$l), lanes in order from the lowest, one lane per bank every two cycles; \
only lanes in req_mask take part; each cycle each bank serves the row of its highest pending lane; \
resp_valid is high for one cycle after the last row is served and resp_data$l then holds the loaded words until the next load completes";
