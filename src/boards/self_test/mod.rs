//! SelfTest: the board top that proves on the FPGA what the simulation computes.
//!
//! After power-up (a 15-cycle power-on reset) or a press of the reset button (`rst_n`, active
//! low, synchronized by two flip-flops), two 32-bit [`Lfsr`]s drive the [`WarpScheduler`] (fixed
//! mode) with random traffic of the kind the random tests use: warp commands, controls,
//! branches, ends, pops and fetch back-pressure; beside it a [`CollectorSelfTest`] drives the
//! [`OperandCollector`](crate::hw::OperandCollector) with instructions, write-backs and output
//! back-pressure from four more. Every cycle of the run, all of the scheduler's outputs are
//! folded into 32 bits and registered, XORed with the collector's registered fold, and folded
//! into a [`Misr`] signature. After
//! `cycles` cycles the run stops and the signature is compared with `expected`, found by
//! simulating this very block in Rust ([`SelfTest::for_board`]: once per design, then kept in
//! `self_test_signatures.txt`) and built into the design: a pass LED
//! on the board means the silicon matched the simulation cycle for cycle.
//!
//! LEDs: 0 heartbeat (bit 25 of a cycle counter: 0.7 Hz at 45 MHz), 1 running, 2 done, 3 pass, 4 fail, 5 a stack
//! overflow or underflow flag was raised, 6 an idle-warp misuse flag was raised (the random
//! traffic provokes both on purpose), 7 an operand-collector error flag was raised (stays off:
//! the traffic names only existing unit types and the bank queues cannot overflow). `usb_tx`
//! idles high; `usb_rx` is not used yet.

pub mod preset;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::boards::board_reset::POR_CYCLES;
use crate::boards::{BoardReset, CollectorSelfTest};
use crate::hw::{Lfsr, Misr, WarpScheduler};
use crate::params::TAPS_32;
use crate::params::{check_range, Preset, SchedulerMode};

/// The exported module (and file) name of the self-test top.
pub const MODULE: &str = "self_test";

/// The scheduler's sizes, as [`WarpScheduler`]'s const generics, then the collector's, as
/// [`OperandCollector`](crate::hw::OperandCollector)'s (its warp-id bits and lanes are `WW` and `T`).
#[derive(LogicBlock)]
pub struct SelfTest<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const D: usize,
    const SPW: usize,
    const B: usize,
    const BW: usize,
    const N: usize,
    const NW: usize,
    const P: usize,
    const K: usize,
    const Q: usize,
    const QW: usize,
    const QCW: usize,
    const BQ: usize,
    const SQ: usize,
    const RW: usize,
    const RRW: usize,
    const DW: usize,
    const TD: usize,
    const U: usize,
    const UW: usize,
    const G: usize,
> {
    /// The board clock.
    pub clk: Signal<In, Clock>,
    /// Reset button, active low.
    pub rst_n: Signal<In, Bit>,
    /// The eight LEDs (see the module documentation).
    pub led: Signal<Out, Bits<8>>,
    /// USB UART into the FPGA (unused for now).
    pub usb_rx: Signal<In, Bit>,
    /// USB UART out of the FPGA (idle high).
    pub usb_tx: Signal<Out, Bit>,
    sched: WarpScheduler<W, WW, T, A, D, SPW>,
    collector:
        CollectorSelfTest<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>,
    traffic_a: Lfsr<32>,
    traffic_b: Lfsr<32>,
    misr: Misr<32>,
    board_reset: BoardReset,
    count: DFF<Bits<24>>,
    heartbeat: DFF<Bits<26>>,
    seen_stack_err: DFF<Bit>,
    seen_misuse: DFF<Bit>,
    seen_collector_err: DFF<Bit>,
    /// The fold, registered: the signature logic adds no path to the scheduler's outputs.
    fold_q: DFF<Bits<32>>,
    running_q: DFF<Bit>,
    expected: Constant<Bits<32>>,
    cycles: Constant<Bits<24>>,
    reset_int: Signal<Local, Bit>,
    running: Signal<Local, Bit>,
    ra: Signal<Local, Bits<32>>,
    rb: Signal<Local, Bits<32>>,
    s1: Signal<Local, Bits<32>>,
    s2: Signal<Local, Bits<32>>,
    s3: Signal<Local, Bits<32>>,
    flags: Signal<Local, Bits<32>>,
    fold: Signal<Local, Bits<32>>,
    term: Signal<Local, Bits<32>>,
    leds: Signal<Local, Bits<8>>,
    done: Signal<Local, Bit>,
    busy: Signal<Local, Bit>,
    pass: Signal<Local, Bit>,
    fail: Signal<Local, Bit>,
}

/// [`SelfTest`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_self_test {
    ($s:expr) => {
        $crate::sized_type!([$crate::boards::SelfTest] $s; W, WW, T, A, D, SPW, B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, RRW, DW, TD, U, UW, G)
    };
}

/// Simulates a self-test top (of any preset) with the button released until its run is done (or
/// `limit` cycles): its LEDs then.
pub fn leds_when_done<D: crate::sim::Dut>(top: &mut D, limit: usize) -> Result<u64> {
    use crate::sim::differential::{clock_edge, cycle_outputs, prepare};
    prepare(top)?;
    for cycle in 0..limit {
        let out = cycle_outputs(top, &[1, 1], cycle)?;
        if cycle > POR_CYCLES as usize + 4 && out[0] & LED_DONE != 0 {
            return Ok(out[0]);
        }
        clock_edge(top, cycle)?;
    }
    anyhow::bail!("the self-test did not finish within {limit} cycles")
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const RRW: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    >
    SelfTest<W, WW, T, A, D, SPW, B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, RRW, DW, TD, U, UW, G>
{
    /// A run of `cycles` cycles (1..2^24) of `preset`'s scheduler (fixed mode, the preset's fetch
    /// policy) and operand collector, passing when the signature is `expected`.
    pub fn new(preset: &Preset, cycles: u64, expected: u64) -> Result<Self> {
        check_range("cycles", cycles as usize, 1, MAX_SELF_TEST_CYCLES)?;
        check_range("threads (T)", T, 1, 32)?;
        check_range("pc_width (A)", A, 1, 32)?;
        Ok(Self {
            clk: Default::default(),
            rst_n: Default::default(),
            led: Default::default(),
            usb_rx: Default::default(),
            usb_tx: Default::default(),
            sched: WarpScheduler::new(SchedulerMode::Fixed(preset.scheduler.fetch_policy))?,
            collector: CollectorSelfTest::new(
                preset.collector,
                preset.scheduler.warps,
                preset.scheduler.threads,
            )?,
            traffic_a: Lfsr::new(TAPS_32, 0x1234_5678)?,
            traffic_b: Lfsr::new(TAPS_32, 0x9E37_79B9)?,
            misr: Misr::new(TAPS_32)?,
            board_reset: BoardReset::new()?,
            count: Default::default(),
            heartbeat: Default::default(),
            seen_stack_err: Default::default(),
            seen_misuse: Default::default(),
            seen_collector_err: Default::default(),
            fold_q: Default::default(),
            running_q: Default::default(),
            expected: Constant::new(expected.to_bits()),
            cycles: Constant::new(cycles.to_bits()),
            reset_int: Default::default(),
            running: Default::default(),
            ra: Default::default(),
            rb: Default::default(),
            s1: Default::default(),
            s2: Default::default(),
            s3: Default::default(),
            flags: Default::default(),
            fold: Default::default(),
            term: Default::default(),
            leds: Default::default(),
            done: Default::default(),
            busy: Default::default(),
            pass: Default::default(),
            fail: Default::default(),
        })
    }

    /// The signature so far (read by the generator after simulating the run).
    pub fn signature(&self) -> u64 {
        self.misr.signature.val().to_u64()
    }

    /// Simulates this top in Rust with the button released until its run is done (or `limit`
    /// cycles); returns the signature and the LEDs at the end.
    pub fn run_to_end(&mut self, limit: usize) -> Result<(u64, u64)> {
        let leds = leds_when_done(self, limit)?;
        Ok((self.signature(), leds))
    }

    /// The self-test the board runs, with the signature of simulating the same block in Rust
    /// built in: taken from [`SIGNATURES`] when it holds this design's run (so that `gen` does
    /// not simulate), else simulated now.
    pub fn for_board(preset: &Preset, cycles: u64) -> Result<Self> {
        let key = Self::design_key(preset, cycles)?;
        if let Some(signature) = cached(preset.name, cycles, key) {
            return Self::new(preset, cycles, signature);
        }
        let signature = Self::simulated_signature(preset, cycles)?;
        eprintln!(
            "note: the self-test signature of this design was not cached, so it was simulated; \
             add `{}` to src/boards/self_test/self_test_signatures.txt",
            signature_line(preset.name, cycles, key, signature)
        );
        Self::new(preset, cycles, signature)
    }

    /// The signature of a run of `cycles` cycles, found by simulating this block in Rust.
    pub fn simulated_signature(preset: &Preset, cycles: u64) -> Result<u64> {
        let mut probe = Self::new(preset, cycles, 0)?;
        Ok(probe.run_to_end(cycles as usize + 64)?.0)
    }

    /// The design a signature belongs to: a hash of rust-hdl's Verilog of the block with no
    /// signature built in, so any change to the hardware, the traffic or the run length misses.
    pub fn design_key(preset: &Preset, cycles: u64) -> Result<u64> {
        let mut probe = Self::new(preset, cycles, 0)?;
        probe.connect_all();
        Ok(crate::sim::fnv1a64(generate_verilog_unchecked(&probe).as_bytes()))
    }

    /// The signature [`SIGNATURES`] holds for this design's run, if any.
    pub fn cached_signature(preset: &Preset, cycles: u64) -> Result<Option<u64>> {
        Ok(cached(preset.name, cycles, Self::design_key(preset, cycles)?))
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const RRW: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    > Logic
    for SelfTest<
        W,
        WW,
        T,
        A,
        D,
        SPW,
        B,
        BW,
        N,
        NW,
        P,
        K,
        Q,
        QW,
        QCW,
        BQ,
        SQ,
        RW,
        RRW,
        DW,
        TD,
        U,
        UW,
        G,
    >
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clk,
            count,
            heartbeat,
            seen_stack_err,
            seen_misuse,
            seen_collector_err,
            fold_q,
            running_q
        );
        self.sched.clock.next = self.clk.val();
        self.collector.clock.next = self.clk.val();
        self.traffic_a.clock.next = self.clk.val();
        self.traffic_b.clock.next = self.clk.val();
        self.misr.clock.next = self.clk.val();
        // Reset: button (synchronized) or power-on.
        self.board_reset.clock.next = self.clk.val();
        self.board_reset.rst_n.next = self.rst_n.val();
        self.reset_int.next = self.board_reset.reset.val();
        self.running.next = self.count.q.val() != self.cycles.val();
        self.heartbeat.d.next = self.heartbeat.q.val() + 1;
        // Traffic
        self.traffic_a.reset.next = self.reset_int.val();
        self.traffic_a.enable.next = true;
        self.traffic_b.reset.next = self.reset_int.val();
        self.traffic_b.enable.next = true;
        self.ra.next = self.traffic_a.value.val();
        self.rb.next = self.traffic_b.value.val();
        self.s1.next = self.ra.val() >> 8;
        self.s2.next = self.rb.val() >> 16;
        self.s3.next = self.ra.val() >> 20;
        self.sched.reset.next = self.reset_int.val();
        self.collector.reset.next = self.reset_int.val();
        self.sched.warp_cmd_valid.next = self.ra.val().get_bit(0) & self.ra.val().get_bit(1);
        self.sched.warp_cmd_pc.next = bit_cast::<A, 32>(self.rb.val());
        self.sched.warp_cmd_mask.next = bit_cast::<T, 32>(self.s1.val());
        self.sched.warp_ctl_valid.next =
            self.ra.val().get_bit(2) & self.ra.val().get_bit(3) & self.ra.val().get_bit(4);
        self.sched.warp_ctl_wid.next = bit_cast::<WW, 32>(self.s2.val());
        self.sched.warp_ctl_active.next = self.ra.val().get_bit(5);
        self.sched.branch_ctl_valid.next = self.ra.val().get_bit(6) & self.ra.val().get_bit(7);
        self.sched.branch_ctl_wid.next = bit_cast::<WW, 32>(self.s3.val());
        self.sched.branch_ctl_mask.next = bit_cast::<T, 32>(self.s2.val());
        self.sched.branch_ctl_pc.next = bit_cast::<A, 32>(self.s1.val());
        self.sched.end_ctl_valid.next =
            self.ra.val().get_bit(8) & self.ra.val().get_bit(9) & self.ra.val().get_bit(10);
        self.sched.end_ctl_wid.next = bit_cast::<WW, 32>(self.s1.val());
        self.sched.warp_pop_valid.next = self.ra.val().get_bit(11) & self.ra.val().get_bit(12);
        self.sched.warp_pop_wid.next = bit_cast::<WW, 32>(self.rb.val());
        self.sched.warp_set_valid.next =
            self.ra.val().get_bit(15) & self.ra.val().get_bit(16) & self.ra.val().get_bit(17);
        self.sched.warp_set_wid.next = bit_cast::<WW, 32>(self.s2.val());
        self.sched.warp_set_pc.next = bit_cast::<A, 32>(self.s3.val());
        self.sched.warp_set_mask.next = bit_cast::<T, 32>(self.rb.val());
        self.sched.inst_fetch_ready.next = self.ra.val().get_bit(13) | self.ra.val().get_bit(14);
        // Fold every output into 32 bits: each term lands in a 32-bit local before the XOR.
        self.flags.next = 0.into();
        self.flags.next = self.flags.val().replace_bit(0, self.sched.warp_cmd_ready.val());
        self.flags.next = self.flags.val().replace_bit(1, self.sched.warp_ctl_ready.val());
        self.flags.next = self.flags.val().replace_bit(2, self.sched.branch_ctl_ready.val());
        self.flags.next = self.flags.val().replace_bit(3, self.sched.end_ctl_ready.val());
        self.flags.next = self.flags.val().replace_bit(4, self.sched.inst_fetch_valid.val());
        self.fold.next = self.flags.val();
        self.term.next = bit_cast::<32, A>(self.sched.inst_fetch_pc.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 5);
        self.term.next = bit_cast::<32, T>(self.sched.inst_fetch_mask.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 11);
        self.term.next = bit_cast::<32, WW>(self.sched.inst_fetch_wid.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 27);
        self.term.next = bit_cast::<32, WW>(self.sched.warp_cmd_wid.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 29);
        self.term.next = bit_cast::<32, A>(self.sched.pop_data_pc.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 13);
        self.term.next = bit_cast::<32, T>(self.sched.pop_data_mask.val());
        self.fold.next = self.fold.val() ^ self.term.val();
        self.term.next = bit_cast::<32, W>(self.sched.idle_mask.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 1);
        self.term.next = bit_cast::<32, W>(self.sched.active_mask.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 7);
        self.term.next = bit_cast::<32, W>(self.sched.stack_empty.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 14);
        self.term.next = bit_cast::<32, W>(self.sched.stack_full.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 20);
        self.term.next =
            bit_cast::<32, W>(self.sched.err_overflow.val() | self.sched.err_underflow.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 24);
        self.term.next =
            bit_cast::<32, W>(self.sched.err_end_idle.val() ^ self.sched.err_branch_idle.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 17);
        self.term.next =
            bit_cast::<32, W>(self.sched.err_pop_idle.val() ^ self.sched.err_ctl_idle.val());
        self.fold.next = self.fold.val() ^ (self.term.val() << 3);
        self.misr.reset.next = self.reset_int.val();
        self.fold_q.d.next = self.fold.val();
        self.running_q.d.next = self.running.val();
        self.misr.enable.next = self.running_q.q.val();
        self.misr.data.next = self.fold_q.q.val() ^ self.collector.fold.val();
        // Run length, sticky error flags
        if (self.sched.err_overflow.val() | self.sched.err_underflow.val()).any() {
            self.seen_stack_err.d.next = true;
        }
        if (self.sched.err_end_idle.val()
            | self.sched.err_branch_idle.val()
            | self.sched.err_pop_idle.val()
            | self.sched.err_ctl_idle.val())
        .any()
        {
            self.seen_misuse.d.next = true;
        }
        if self.collector.error.val() {
            self.seen_collector_err.d.next = true;
        }
        if self.running.val() {
            self.count.d.next = self.count.q.val() + 1;
        }
        if self.reset_int.val() {
            self.count.d.next = 0.into();
            self.seen_stack_err.d.next = false;
            self.seen_misuse.d.next = false;
            self.seen_collector_err.d.next = false;
        }
        // LEDs. Each bit goes through a 1-bit local: `replace_bit(k, !x)` would be emitted as
        // `(~x) << k` inside a 32-bit expression, where `~` inverts all 32 bits.
        self.done.next = !self.running.val() & !self.running_q.q.val();
        self.busy.next = self.running.val() & !self.reset_int.val();
        self.pass.next = self.done.val() & (self.misr.signature.val() == self.expected.val());
        self.fail.next = self.done.val() & (self.misr.signature.val() != self.expected.val());
        self.leds.next = 0.into();
        self.leds.next = self.leds.val().replace_bit(0, self.heartbeat.q.val().get_bit(25));
        self.leds.next = self.leds.val().replace_bit(1, self.busy.val());
        self.leds.next = self.leds.val().replace_bit(2, self.done.val());
        self.leds.next = self.leds.val().replace_bit(3, self.pass.val());
        self.leds.next = self.leds.val().replace_bit(4, self.fail.val());
        self.leds.next = self.leds.val().replace_bit(5, self.seen_stack_err.q.val());
        self.leds.next = self.leds.val().replace_bit(6, self.seen_misuse.q.val());
        self.leds.next = self.leds.val().replace_bit(7, self.seen_collector_err.q.val());
        self.led.next = self.leds.val();
        self.usb_tx.next = true;
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const B: usize,
        const BW: usize,
        const N: usize,
        const NW: usize,
        const P: usize,
        const K: usize,
        const Q: usize,
        const QW: usize,
        const QCW: usize,
        const BQ: usize,
        const SQ: usize,
        const RW: usize,
        const RRW: usize,
        const DW: usize,
        const TD: usize,
        const U: usize,
        const UW: usize,
        const G: usize,
    > crate::sim::Dut
    for SelfTest<
        W,
        WW,
        T,
        A,
        D,
        SPW,
        B,
        BW,
        N,
        NW,
        P,
        K,
        Q,
        QW,
        QCW,
        BQ,
        SQ,
        RW,
        RRW,
        DW,
        TD,
        U,
        UW,
        G,
    >
{
    crate::dut_ports!(clock: clk, inputs: [rst_n, usb_rx], outputs: [led, usb_tx]);
}

/// LED bits.
pub const LED_RUNNING: u64 = 1 << 1;
pub const LED_DONE: u64 = 1 << 2;
pub const LED_PASS: u64 = 1 << 3;
pub const LED_FAIL: u64 = 1 << 4;

/// Cycles of the board's self-test run (2.2 ms at 45 MHz).
pub const SELF_TEST_CYCLES: u64 = 100_000;

/// The longest self-test: its cycle counter has 24 bits.
pub const MAX_SELF_TEST_CYCLES: usize = (1 << 24) - 1;

/// Signatures already simulated, one per line: `preset cycles design-key signature` (hex), the
/// design key from [`SelfTest::design_key`]. `tests/self_test.rs` checks that the default run of
/// every board preset is here and equal to its simulation.
pub const SIGNATURES: &str = include_str!("self_test_signatures.txt");

/// One line of [`SIGNATURES`].
pub fn signature_line(preset: &str, cycles: u64, key: u64, signature: u64) -> String {
    format!("{} {signature:08x}", line_head(preset, cycles, key))
}

/// A line of [`SIGNATURES`] up to its signature: what names the run.
fn line_head(preset: &str, cycles: u64, key: u64) -> String {
    format!("{preset} {cycles} {key:016x}")
}

/// The signature [`SIGNATURES`] holds for `preset`'s run of `cycles` cycles of the design `key`.
fn cached(preset: &str, cycles: u64, key: u64) -> Option<u64> {
    let want = line_head(preset, cycles, key);
    SIGNATURES.lines().find_map(|line| {
        let (head, signature) = line.rsplit_once(' ')?;
        (head == want).then(|| u64::from_str_radix(signature, 16).ok())?
    })
}
