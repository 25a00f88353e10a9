//! BankArbiter: the operand collector's per-bank read-request queues and the read allocator of
//! GPGPU-Sim's `opndcoll_rfu_t::arbiter_t` (seed 000).
//!
//! - One FIFO per register bank. Up to `K` requests are pushed per cycle on the push lanes, in
//!   lane order (the order `add_read_requests` visits the operands of the collector units
//!   allocated this cycle), each into the queue of its bank.
//! - Each cycle (`allocate_reads`), every bank presents only its queue head. A bank taken by a
//!   write-back this cycle (`write_valid`, `write_bank`) grants no read: write-back has priority.
//!   The grant logic is booksim's wavefront allocator with the rotating priority diagonal
//!   exactly as in the seed's C++: for `p` in `0..max(B, N)`, for each bank `i`, the collector
//!   unit on the diagonal is `(pri + p + i) mod N`; a bank that is not yet matched and whose
//!   head belongs to that unit is granted. With `one_bank_per_cu` (booksim's original
//!   `_outmatch` check) a unit takes at most one bank per cycle; without it (GPGPU-Sim's choice)
//!   every non-empty bank without a write is granted whatever the diagonal says. `pri` advances
//!   by one every cycle.
//! - Granted heads are popped at the clock edge; this cycle's pushes land behind them.
//!
//! Queue bound: a collector unit holds at most `sources` register operands (3 in GPGPU-Sim, 2
//! in the core's ISA), so at most `sources x N` requests are ever outstanding, in all queues
//! together; every queue has `Q >= sources x N` entries and cannot overflow when driven by the
//! collector units (`bank_queues_never_overflow` in `operand_collector.sv`, proven at tiny
//! sizes). Driven on its own, a push into a full queue is dropped and sets the sticky
//! `err_overflow` flag.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, clog2};
use crate::sim::{Claim, Mutant};

/// Source-operand slots of an instruction (a request's 2-bit slot names one); at most
/// `sources` of them (GPGPU-Sim's `MAX_REG_OPERANDS`) are registers.
pub const SLOTS: usize = 3;

/// Bits of a count of push lanes (`K <= 64`) or of free queue entries (`Q <= 64`).
const LANE_COUNT_BITS: usize = 7;

/// `B` banks (`BW = clog2 B`), `N` collector units (`NW = clog2 N`), `K` push lanes, queue
/// depth `Q` (`QW = clog2 Q`, `QCW = clog2(Q + 1)`, `BQ = B * Q`), `RW` bits of register row,
/// `SQ = max(B, N)` diagonals.
#[derive(LogicBlock)]
pub struct BankArbiter<
    const B: usize,
    const BW: usize,
    const N: usize,
    const NW: usize,
    const K: usize,
    const Q: usize,
    const QW: usize,
    const QCW: usize,
    const BQ: usize,
    const RW: usize,
    const SQ: usize,
> {
    /// Clock; queues and the priority diagonal change on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: queues empty, diagonal 0, flag clear.
    pub reset: Signal<In, Bit>,
    // Push lanes (read requests of the collector units allocated this cycle, in order)
    /// Lane `k` carries a request.
    pub push_valid: [Signal<In, Bit>; K],
    /// Its register bank.
    pub push_bank: [Signal<In, Bits<BW>>; K],
    /// The collector unit that wants the operand.
    pub push_cu: [Signal<In, Bits<NW>>; K],
    /// Which of the unit's source operands (0..3).
    pub push_slot: [Signal<In, Bits<2>>; K],
    /// The register's row in its bank.
    pub push_row: [Signal<In, Bits<RW>>; K],
    // Write-back allocation
    /// A write-back takes bank `write_bank` this cycle.
    pub write_valid: Signal<In, Bit>,
    /// The bank the write-back takes.
    pub write_bank: Signal<In, Bits<BW>>,
    // Grants (combinational from the queue heads, the diagonal and the write)
    /// Bank `b` reads its queue head this cycle.
    pub grant: Signal<Out, Bits<B>>,
    /// Collector unit of bank `b`'s granted request (0 when not granted).
    pub grant_cu: [Signal<Out, Bits<NW>>; B],
    /// Operand slot of bank `b`'s granted request (0 when not granted).
    pub grant_slot: [Signal<Out, Bits<2>>; B],
    /// Row of bank `b`'s granted request (0 when not granted).
    pub grant_row: [Signal<Out, Bits<RW>>; B],
    // Status
    /// Bank `b`'s queue holds requests.
    pub pending: Signal<Out, Bits<B>>,
    /// The priority diagonal (`m_last_cu` in the seed) used this cycle.
    pub diagonal: Signal<Out, Bits<NW>>,
    /// Sticky: a push found its queue full and was dropped.
    pub err_overflow: Signal<Out, Bit>,
    q_cu: [DFF<Bits<NW>>; BQ],
    q_slot: [DFF<Bits<2>>; BQ],
    q_row: [DFF<Bits<RW>>; BQ],
    head: [DFF<Bits<QW>>; B],
    tail: [DFF<Bits<QW>>; B],
    count: [DFF<Bits<QCW>>; B],
    pri: DFF<Bits<NW>>,
    overflow_q: DFF<Bit>,
    one_bank_per_cu: Constant<Bit>,
    depth: Constant<Bits<QCW>>,
    hd_cu: [Signal<Local, Bits<NW>>; B],
    hd_slot: [Signal<Local, Bits<2>>; B],
    hd_row: [Signal<Local, Bits<RW>>; B],
    nonempty: Signal<Local, Bits<B>>,
    blocked: Signal<Local, Bits<B>>,
    matched: Signal<Local, Bits<B>>,
    taken: Signal<Local, Bits<N>>,
    granted: Signal<Local, Bits<B>>,
    diag: Signal<Local, Bits<NW>>,
    row_start: Signal<Local, Bits<NW>>,
    pushes: Signal<Local, Bits<QCW>>,
    earlier: Signal<Local, Bits<LANE_COUNT_BITS>>,
    room: Signal<Local, Bits<LANE_COUNT_BITS>>,
    free_entries: Signal<Local, Bits<QCW>>,
    slot_addr: Signal<Local, Bits<QW>>,
    overflowed: Signal<Local, Bit>,
}

/// [`BankArbiter`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_bank_arbiter {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::BankArbiter] $s; B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ)
    };
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const RW: usize,
        const SQ: usize,
    > BankArbiter<B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ>
{
    /// Checks the sizes (B and N powers of two 2..=16, Q a power of two at least `sources` x N,
    /// `sources` in 1..=3) and every derived width.
    pub fn new(one_bank_per_cu: bool, sources: usize) -> Result<Self> {
        crate::params::check_pow2("banks (B)", B, 2, 16)?;
        crate::params::check_pow2("collector_units (N)", N, 2, 16)?;
        check_derived("BW", BW, "clog2(B)", clog2(B))?;
        check_derived("NW", NW, "clog2(N)", clog2(N))?;
        check_range("push lanes (K)", K, 1, 64)?;
        crate::params::check_pow2("queue depth (Q)", Q, 2, 64)?;
        check_range("sources", sources, 1, SLOTS)?;
        if Q < sources * N {
            anyhow::bail!("parameter `queue depth (Q)` = {Q} is too small: it must be at least sources x collector_units = {sources} x {N} = {} so that no queue can overflow", sources * N);
        }
        check_derived("QW", QW, "clog2(Q)", clog2(Q))?;
        check_derived("QCW", QCW, "clog2(Q + 1)", clog2(Q + 1))?;
        check_derived("BQ", BQ, "B * Q", B * Q)?;
        check_range("row width (RW)", RW, 1, 16)?;
        check_derived("SQ", SQ, "max(B, N)", B.max(N))?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            push_valid: std::array::from_fn(|_| Default::default()),
            push_bank: std::array::from_fn(|_| Default::default()),
            push_cu: std::array::from_fn(|_| Default::default()),
            push_slot: std::array::from_fn(|_| Default::default()),
            push_row: std::array::from_fn(|_| Default::default()),
            write_valid: Default::default(),
            write_bank: Default::default(),
            grant: Default::default(),
            grant_cu: std::array::from_fn(|_| Default::default()),
            grant_slot: std::array::from_fn(|_| Default::default()),
            grant_row: std::array::from_fn(|_| Default::default()),
            pending: Default::default(),
            diagonal: Default::default(),
            err_overflow: Default::default(),
            q_cu: std::array::from_fn(|_| Default::default()),
            q_slot: std::array::from_fn(|_| Default::default()),
            q_row: std::array::from_fn(|_| Default::default()),
            head: std::array::from_fn(|_| Default::default()),
            tail: std::array::from_fn(|_| Default::default()),
            count: std::array::from_fn(|_| Default::default()),
            pri: Default::default(),
            overflow_q: Default::default(),
            one_bank_per_cu: Constant::new(one_bank_per_cu),
            depth: Constant::new(Q.to_bits()),
            hd_cu: std::array::from_fn(|_| Default::default()),
            hd_slot: std::array::from_fn(|_| Default::default()),
            hd_row: std::array::from_fn(|_| Default::default()),
            nonempty: Default::default(),
            blocked: Default::default(),
            matched: Default::default(),
            taken: Default::default(),
            granted: Default::default(),
            diag: Default::default(),
            row_start: Default::default(),
            pushes: Default::default(),
            earlier: Default::default(),
            room: Default::default(),
            free_entries: Default::default(),
            slot_addr: Default::default(),
            overflowed: Default::default(),
        })
    }
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const RW: usize,
        const SQ: usize,
    > Logic for BankArbiter<B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Keep
        dff_setup!(self, clock, pri, overflow_q);
        for e in 0..BQ {
            self.q_cu[e].clock.next = self.clock.val();
            self.q_cu[e].d.next = self.q_cu[e].q.val();
            self.q_slot[e].clock.next = self.clock.val();
            self.q_slot[e].d.next = self.q_slot[e].q.val();
            self.q_row[e].clock.next = self.clock.val();
            self.q_row[e].d.next = self.q_row[e].q.val();
        }
        for b in 0..B {
            self.head[b].clock.next = self.clock.val();
            self.head[b].d.next = self.head[b].q.val();
            self.tail[b].clock.next = self.clock.val();
            self.tail[b].d.next = self.tail[b].q.val();
            self.count[b].clock.next = self.clock.val();
            self.count[b].d.next = self.count[b].q.val();
        }
        // Queue heads. (`q` is Q: a one-pass loop names it for the index arithmetic.)
        self.nonempty.next = 0.into();
        self.blocked.next = 0.into();
        for q in Q..(Q + 1) {
            for b in 0..B {
                self.hd_cu[b].next = 0.into();
                self.hd_slot[b].next = 0.into();
                self.hd_row[b].next = 0.into();
                for i in 0..Q {
                    if self.head[b].q.val().index() == i {
                        self.hd_cu[b].next = self.q_cu[b * q + i].q.val();
                        self.hd_slot[b].next = self.q_slot[b * q + i].q.val();
                        self.hd_row[b].next = self.q_row[b * q + i].q.val();
                    }
                }
                self.nonempty.next =
                    self.nonempty.val().replace_bit(b, self.count[b].q.val().any());
                self.blocked.next = self
                    .blocked
                    .val()
                    .replace_bit(b, self.write_valid.val() & (self.write_bank.val().index() == b));
            }
        }
        // Wavefront allocation (booksim, as in the seed): a written bank counts as matched.
        self.matched.next = self.blocked.val();
        self.taken.next = 0.into();
        self.row_start.next = self.pri.q.val();
        self.diag.next = self.pri.q.val();
        if self.one_bank_per_cu.val() {
            // Unit on the diagonal for bank i in round p: (pri + p + i) mod N, kept as running
            // sums in NW bits (N is a power of two, so the sums wrap as mod N does).
            for _p in 0..SQ {
                self.diag.next = self.row_start.val();
                for i in 0..B {
                    if !self.matched.val().get_bit(i)
                        & self.nonempty.val().get_bit(i)
                        & (self.hd_cu[i].val() == self.diag.val())
                        & !self.taken.val().get_bit(self.diag.val().index())
                    {
                        self.matched.next = self.matched.val().replace_bit(i, true);
                        self.taken.next =
                            self.taken.val().replace_bit(self.diag.val().index(), true);
                    }
                    self.diag.next = self.diag.val() + 1;
                }
                self.row_start.next = self.row_start.val() + 1;
            }
        } else {
            // GPGPU-Sim's matching (no `_outmatch` check): the SQ rounds visit every unit on
            // every bank, so every waiting bank is matched whatever the diagonal says; said
            // directly, it is one gate per bank instead of the B x SQ chain above.
            self.matched.next = self.blocked.val() | self.nonempty.val();
        }
        self.granted.next = self.matched.val() & !self.blocked.val();
        // Outputs, each written once
        self.grant.next = self.granted.val();
        self.pending.next = self.nonempty.val();
        self.diagonal.next = self.pri.q.val();
        self.err_overflow.next = self.overflow_q.q.val();
        for b in 0..B {
            if self.granted.val().get_bit(b) {
                self.grant_cu[b].next = self.hd_cu[b].val();
                self.grant_slot[b].next = self.hd_slot[b].val();
                self.grant_row[b].next = self.hd_row[b].val();
            } else {
                self.grant_cu[b].next = 0.into();
                self.grant_slot[b].next = 0.into();
                self.grant_row[b].next = 0.into();
            }
        }
        // Next state: pop the granted heads, append this cycle's pushes in lane order.
        self.pri.d.next = self.pri.q.val() + 1;
        self.overflowed.next = false;
        self.slot_addr.next = 0.into();
        // `earlier` requests for lane k's bank come before it this cycle; it fits when
        // `earlier` is below the free entries (`room`), and goes to slot `tail + earlier`. (A
        // push dropped on a full queue leaves it full, so every later one is dropped too:
        // `earlier` can count requests, not accepted pushes, which keeps the overflow check off
        // the lane chain.) Named `earlier`: `before` is a SystemVerilog keyword.
        for q in Q..(Q + 1) {
            for b in 0..B {
                self.earlier.next = 0.into();
                // Through a local: rust-hdl's `hdl_gen` does not take an indexed expression
                // (`count[b]`) inside `bit_cast`'s argument.
                self.free_entries.next = self.depth.val() - self.count[b].q.val();
                self.room.next = bit_cast::<LANE_COUNT_BITS, QCW>(self.free_entries.val());
                for k in 0..K {
                    if self.push_valid[k].val() & (self.push_bank[k].val().index() == b) {
                        if self.earlier.val() < self.room.val() {
                            self.slot_addr.next = self.tail[b].q.val()
                                + bit_cast::<QW, LANE_COUNT_BITS>(self.earlier.val());
                            for i in 0..Q {
                                if self.slot_addr.val().index() == i {
                                    self.q_cu[b * q + i].d.next = self.push_cu[k].val();
                                    self.q_slot[b * q + i].d.next = self.push_slot[k].val();
                                    self.q_row[b * q + i].d.next = self.push_row[k].val();
                                }
                            }
                        } else {
                            self.overflowed.next = true;
                        }
                        self.earlier.next = self.earlier.val() + 1;
                    }
                }
                if self.earlier.val() < self.room.val() {
                    self.pushes.next = bit_cast::<QCW, LANE_COUNT_BITS>(self.earlier.val());
                } else {
                    self.pushes.next = bit_cast::<QCW, LANE_COUNT_BITS>(self.room.val());
                }
                self.tail[b].d.next = self.tail[b].q.val() + bit_cast::<QW, QCW>(self.pushes.val());
                if self.granted.val().get_bit(b) {
                    self.head[b].d.next = self.head[b].q.val() + 1;
                    self.count[b].d.next = self.count[b].q.val() + self.pushes.val() - 1;
                } else {
                    self.count[b].d.next = self.count[b].q.val() + self.pushes.val();
                }
            }
        }
        if self.overflowed.val() {
            self.overflow_q.d.next = true;
        }
        if self.reset.val() {
            self.pri.d.next = 0.into();
            self.overflow_q.d.next = false;
            for b in 0..B {
                self.head[b].d.next = 0.into();
                self.tail[b].d.next = 0.into();
                self.count[b].d.next = 0.into();
            }
        }
    }
}

impl<
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const RW: usize,
        const SQ: usize,
    > crate::sim::Dut for BankArbiter<B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, push_valid, push_bank, push_cu, push_slot, push_row, write_valid, write_bank],
        outputs: [grant, grant_cu, grant_slot, grant_row, pending, diagonal, err_overflow]
    );
}

/// The formal properties (`bank_arbiter.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/collector/bank_arbiter/bank_arbiter.sv",
    text: include_str!("bank_arbiter.sv"),
    wrapper: "bank_arbiter_props",
    parameters: |p| {
        let c = p.collector;
        vec![
            ("N", c.collector_units),
            ("NW", crate::params::clog2(c.collector_units)),
            ("K", c.push_lanes()),
            ("ONE_BANK", c.one_bank_per_cu as usize),
        ]
        .into_iter()
        .chain(super::bank_sizes(p))
        .chain(super::queue_sizes(&c))
        .collect()
    },
    // booksim's mode (one bank per unit) is the tiny preset's: its no-starvation bound
    // (`head_waits_fewer_than_n_cycles`, whose invariant ties each head's wait to the diagonal)
    // closes by induction there in about a second.
    claims: &[
        Claim::cu(&[
            "no_read_on_written_bank",
            "waiting_bank_without_write_is_granted",
            "idle_grant_fields_are_zero",
        ]),
        Claim::cu(&["one_bank_per_unit", "head_waits_fewer_than_n_cycles"]).at("tiny"),
    ],
    mutants: &[
        // Bank 0 no longer blocked by a write-back: a read and a write land on it in the same
        // cycle.
        Mutant::cu(
            "no_write_priority",
            "blocked = (blocked & ~(1 << (0)) | ((write_valid & (write_bank == 0)) << (0)));",
            "blocked = blocked;",
            &["no_read_on_written_bank"],
        ),
        // The priority diagonal stuck: two banks whose heads belong to one unit, and the same
        // bank wins every time.
        Mutant::cu(
            "stuck_diagonal",
            "pri$d = pri$q + 32'h1;",
            "pri$d = pri$q;",
            &["head_waits_fewer_than_n_cycles"],
        )
        .at("tiny"),
    ],
};
