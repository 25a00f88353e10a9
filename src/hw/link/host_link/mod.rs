//! HostLink: the board's protocol engine between the serial port ([`UartRx`](crate::hw::UartRx),
//! [`UartTx`](crate::hw::UartTx)) and the [`SimtCore`](crate::hw::SimtCore): it writes instruction
//! words, starts runs, records the run's write-backs in a block-RAM capture buffer and answers
//! status and record queries. The protocol is [`crate::link`]'s; the cycle-level definition is
//! [`HostLinkModel`](crate::hw::link::host_link::model::HostLinkModel).
//!
//! Each cycle, in this order: a write-back is recorded (capture on, buffer not full; full: flag);
//! the transmitter takes the answer's next byte; a record read last cycle becomes the answer; a
//! received byte advances the command. The core's controls (`core_reset`, `start`,
//! `imem_write_*`) are registered: they act the cycle after the byte that completes them.
//! The capture buffer and the answer being sent are the sub-blocks `Capture` and `Reply`.

mod capture;
pub mod model;
pub mod preset;
mod reply;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::check_range;
use crate::params::{clog2, CORE_CU, ERROR_FLAGS};
use crate::protocol::{Command, STATUS_BYTES};
use crate::sim::{Claim, Mutant};
pub(crate) use capture::Capture;
pub(crate) use reply::Reply;

// The reply counter loads the status answer's length as the literal 37.
const _: () = assert!(STATUS_BYTES == 37);

/// Counters reported by `query`, each 32 bits.
pub const LINK_COUNTERS: usize = 8;

/// Sizes, fixed by the core it serves: `WW` warp-id bits, `T` lanes, `TD` register bits,
/// `IA` instruction-address bits (at most 8: one address byte), `SPW` stack high-water bits;
/// capture records of `RBY` bytes ([`record_bytes`](crate::protocol::record_bytes)), `RB` bits;
/// answers of up to `N = max(RBY, 37)` bytes, counted in `LW` bits ([`sized_host_link!`](crate::sized_host_link)).
/// Where the link is in a command: waiting for its byte, reading its arguments, reading
/// `write`'s words, or reading a capture record (one cycle).
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum LinkPhase {
    /// Waiting for a command byte.
    Command,
    /// Reading a command's argument bytes.
    Args,
    /// Reading `write`'s words.
    Words,
    /// Reading a capture record (one cycle).
    Record,
}

#[derive(LogicBlock)]
/// The host link's protocol engine (the module's header), at the sizes of the core it serves.
pub struct HostLink<
    const WW: usize,
    const T: usize,
    const TD: usize,
    const IA: usize,
    const SPW: usize,
    const RB: usize,
    const RBY: usize,
    const N: usize,
    const LW: usize,
> {
    /// Clock: all state changes on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, no answer, capture off and empty, flags cleared (the
    /// buffer's contents stay).
    pub reset: Signal<In, Bit>,
    // Serial side
    /// A received byte (one-cycle pulse) and the receiver's framing-error flag.
    pub rx_valid: Signal<In, Bit>,
    /// The byte received.
    pub rx_data: Signal<In, Bits<8>>,
    /// The receiver's framing error.
    pub rx_err: Signal<In, Bit>,
    /// The answer's next byte, taken at an edge with `tx_ready`.
    pub tx_ready: Signal<In, Bit>,
    /// The answer has a byte to send.
    pub tx_valid: Signal<Out, Bit>,
    /// The byte.
    pub tx_data: Signal<Out, Bits<8>>,
    // Core side: what `query` reports
    /// The core is running.
    pub running: Signal<In, Bit>,
    /// The core's sticky error flags.
    pub core_errors: Signal<In, Bits<ERROR_FLAGS>>,
    /// The SIMT stacks' high water.
    pub high_water: Signal<In, Bits<SPW>>,
    /// The core's counters in the order `query` sends them.
    pub counters: [Signal<In, Bits<32>>; LINK_COUNTERS],
    /// The core's write-back port (recorded with capture on).
    pub wb_valid: Signal<In, Bit>,
    /// The warp written.
    pub wb_warp: Signal<In, Bits<WW>>,
    /// The register written.
    pub wb_reg: Signal<In, Bits<4>>,
    /// The lanes written.
    pub wb_mask: Signal<In, Bits<T>>,
    /// Their values, lane `l` in bits `l * DW ..`.
    pub wb_data: Signal<In, Bits<TD>>,
    // Core side: controls
    /// One-cycle pulses into the core.
    pub core_reset: Signal<Out, Bit>,
    /// Start a run.
    pub start: Signal<Out, Bit>,
    /// Write `imem_write_data` to instruction word `imem_write_addr`.
    pub imem_write_valid: Signal<Out, Bit>,
    /// The instruction word written.
    pub imem_write_addr: Signal<Out, Bits<IA>>,
    /// The word.
    pub imem_write_data: Signal<Out, Bits<32>>,
    // Status (for the LEDs)
    /// Capture of the write-backs is on.
    pub capture_enabled: Signal<Out, Bit>,
    /// Bit 0 unknown command, 1 byte while busy, 2 capture buffer full, 3 framing error.
    pub link_errors: Signal<Out, Bits<4>>,
    /// The capture buffer, and the answer being sent.
    capture: Capture<WW, T, TD, RB>,
    reply: Reply<N, RB, RBY, LW>,
    phase: DFF<LinkPhase>,
    cmd: DFF<Bits<8>>,
    nargs: DFF<Bit>,
    arg0: DFF<Bits<8>>,
    words_left: DFF<Bits<9>>,
    waddr: DFF<Bits<IA>>,
    wbytes: DFF<Bits<2>>,
    word: DFF<Bits<32>>,
    err_cmd: DFF<Bit>,
    err_overrun: DFF<Bit>,
    core_reset_q: DFF<Bit>,
    start_q: DFF<Bit>,
    iw_valid: DFF<Bit>,
    iw_addr: DFF<Bits<IA>>,
    iw_data: DFF<Bits<32>>,
    op_write: Constant<Bits<8>>,
    op_start: Constant<Bits<8>>,
    op_query: Constant<Bits<8>>,
    op_capture: Constant<Bits<8>>,
    op_reset: Constant<Bits<8>>,
    /// Reset or the `reset` command: capture off and empty, flags cleared (after all else).
    clear_link: Signal<Local, Bit>,
    errors_now: Signal<Local, Bits<4>>,
    flags: Signal<Local, Bits<8>>,
    count16: Signal<Local, Bits<16>>,
    byte_word: Signal<Local, Bits<32>>,
    /// This cycle's byte completes a `start`; the record read at the last edge, or the status
    /// answer, becomes the answer.
    start_cmd: Signal<Local, Bit>,
    load_record: Signal<Local, Bit>,
    load_query: Signal<Local, Bit>,
}

impl<
        const WW: usize,
        const T: usize,
        const TD: usize,
        const IA: usize,
        const SPW: usize,
        const RB: usize,
        const RBY: usize,
        const N: usize,
        const LW: usize,
    > HostLink<WW, T, TD, IA, SPW, RB, RBY, N, LW>
{
    /// The link, its generics checked (an error names the one out of range).
    pub fn new() -> Result<Self> {
        check_range("instruction-address bits (IA)", IA, 1, 8)?;
        check_range("stack high-water bits (SPW)", SPW, 1, 8)?;
        check_range("register bits (TD)", TD, 1, 1024)?;
        let bytes = crate::protocol::record_bytes(T, TD / T, WW);
        anyhow::ensure!(
            RBY == bytes,
            "record bytes (RBY) = {RBY} must be the bytes of TD + T + 4 + WW = {} bits, {bytes}",
            TD + T + 4 + WW
        );
        let op = |c: Command| Constant::new((c as u64).to_bits());
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            rx_valid: Default::default(),
            rx_data: Default::default(),
            rx_err: Default::default(),
            tx_ready: Default::default(),
            tx_valid: Default::default(),
            tx_data: Default::default(),
            running: Default::default(),
            core_errors: Default::default(),
            high_water: Default::default(),
            counters: std::array::from_fn(|_| Default::default()),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            core_reset: Default::default(),
            start: Default::default(),
            imem_write_valid: Default::default(),
            imem_write_addr: Default::default(),
            imem_write_data: Default::default(),
            capture_enabled: Default::default(),
            link_errors: Default::default(),
            capture: Capture::new()?,
            reply: Reply::new()?,
            phase: Default::default(),
            cmd: Default::default(),
            nargs: Default::default(),
            arg0: Default::default(),
            words_left: Default::default(),
            waddr: Default::default(),
            wbytes: Default::default(),
            word: Default::default(),
            err_cmd: Default::default(),
            err_overrun: Default::default(),
            core_reset_q: Default::default(),
            start_q: Default::default(),
            iw_valid: Default::default(),
            iw_addr: Default::default(),
            iw_data: Default::default(),
            op_write: op(Command::Write),
            op_start: op(Command::Start),
            op_query: op(Command::Query),
            op_capture: op(Command::Capture),
            op_reset: op(Command::Reset),
            clear_link: Default::default(),
            errors_now: Default::default(),
            flags: Default::default(),
            count16: Default::default(),
            byte_word: Default::default(),
            start_cmd: Default::default(),
            load_record: Default::default(),
            load_query: Default::default(),
        })
    }
}

impl<
        const WW: usize,
        const T: usize,
        const TD: usize,
        const IA: usize,
        const SPW: usize,
        const RB: usize,
        const RBY: usize,
        const N: usize,
        const LW: usize,
    > Logic for HostLink<WW, T, TD, IA, SPW, RB, RBY, N, LW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, cmd, nargs, arg0, words_left, waddr, wbytes, word);
        dff_setup!(self, clock, err_cmd, err_overrun);
        self.core_reset_q.clock.next = self.clock.val();
        self.start_q.clock.next = self.clock.val();
        self.iw_valid.clock.next = self.clock.val();
        self.iw_addr.clock.next = self.clock.val();
        self.iw_data.clock.next = self.clock.val();
        self.core_reset_q.d.next = false;
        self.start_q.d.next = false;
        self.iw_valid.d.next = false;
        self.iw_addr.d.next = 0.into();
        self.iw_data.d.next = 0.into();

        // Outputs
        self.tx_valid.next = self.reply.sending.val();
        self.tx_data.next = self.reply.tx_data.val();
        self.core_reset.next = self.core_reset_q.q.val();
        self.start.next = self.start_q.q.val();
        self.imem_write_valid.next = self.iw_valid.q.val();
        self.imem_write_addr.next = self.iw_addr.q.val();
        self.imem_write_data.next = self.iw_data.q.val();
        self.capture_enabled.next = self.capture.enabled.val();
        self.errors_now.next = 0.into();
        self.errors_now.next = self.errors_now.val().replace_bit(0, self.err_cmd.q.val());
        self.errors_now.next = self.errors_now.val().replace_bit(1, self.err_overrun.q.val());
        self.errors_now.next = self.errors_now.val().replace_bit(2, self.capture.err_full.val());
        self.errors_now.next = self.errors_now.val().replace_bit(3, self.rx_err.val());
        self.link_errors.next = self.errors_now.val();

        // The `query` answer, from this cycle's values.
        self.flags.next = 0.into();
        self.flags.next = self.flags.val().replace_bit(0, self.running.val());
        self.flags.next = self.flags.val().replace_bit(1, self.capture.enabled.val());
        self.flags.next = self.flags.val() | (bit_cast::<8, 4>(self.errors_now.val()) << 2);
        self.count16.next = bit_cast::<16, 9>(self.capture.count.val());
        self.byte_word.next =
            (self.word.q.val() >> 8) | (bit_cast::<32, 8>(self.rx_data.val()) << 24);

        // The command: a record read at the last edge becomes the answer; else a received
        // byte advances the command.
        self.clear_link.next = false;
        self.start_cmd.next = false;
        self.load_record.next = false;
        self.load_query.next = false;
        if self.reset.val() {
            self.phase.d.next = LinkPhase::Command;
            self.nargs.d.next = false;
            self.wbytes.d.next = 0.into();
            self.clear_link.next = true;
        } else if self.phase.q.val() == LinkPhase::Record {
            self.load_record.next = true;
            self.phase.d.next = LinkPhase::Command;
            if self.rx_valid.val() {
                self.err_overrun.d.next = true;
            }
        } else if self.rx_valid.val() {
            if self.reply.sending.val() {
                self.err_overrun.d.next = true;
            } else if self.phase.q.val() == LinkPhase::Command {
                self.cmd.d.next = self.rx_data.val();
                self.nargs.d.next = false;
                if (self.rx_data.val() == self.op_write.val())
                    | (self.rx_data.val() == self.op_start.val())
                    | (self.rx_data.val() == self.op_capture.val())
                {
                    self.phase.d.next = LinkPhase::Args;
                } else if self.rx_data.val() == self.op_query.val() {
                    self.load_query.next = true;
                } else if self.rx_data.val() == self.op_reset.val() {
                    self.core_reset_q.d.next = true;
                    self.clear_link.next = true;
                } else {
                    self.err_cmd.d.next = true;
                }
            } else if self.phase.q.val() == LinkPhase::Args {
                if self.cmd.q.val() == self.op_write.val() {
                    if !self.nargs.q.val() {
                        self.arg0.d.next = self.rx_data.val();
                        self.nargs.d.next = true;
                    } else {
                        self.phase.d.next = LinkPhase::Words;
                        self.waddr.d.next = bit_cast::<IA, 8>(self.arg0.q.val());
                        self.words_left.d.next = bit_cast::<9, 8>(self.rx_data.val());
                        if self.rx_data.val() == 0 {
                            self.words_left.d.next = 256.into();
                        }
                        self.wbytes.d.next = 0.into();
                    }
                } else if self.cmd.q.val() == self.op_start.val() {
                    self.start_q.d.next = true;
                    self.start_cmd.next = true;
                    self.phase.d.next = LinkPhase::Command;
                } else {
                    // `capture`: the buffer reads row `rx_data` at this edge.
                    self.phase.d.next = LinkPhase::Record;
                }
            } else {
                // `LinkPhase::Words`: little endian, the fourth byte completes a word.
                self.word.d.next = self.byte_word.val();
                self.wbytes.d.next = self.wbytes.q.val() + 1;
                if self.wbytes.q.val() == 3 {
                    self.iw_valid.d.next = true;
                    self.iw_addr.d.next = self.waddr.q.val();
                    self.iw_data.d.next = self.byte_word.val();
                    self.waddr.d.next = self.waddr.q.val() + 1;
                    self.words_left.d.next = self.words_left.q.val() - 1;
                    if self.words_left.q.val() == 1 {
                        self.phase.d.next = LinkPhase::Command;
                    }
                }
            }
        }
        if self.clear_link.val() {
            self.err_cmd.d.next = false;
            self.err_overrun.d.next = false;
        }

        // The capture buffer and the answer
        self.capture.clock.next = self.clock.val();
        self.capture.reset.next = self.reset.val();
        self.capture.wb_valid.next = self.wb_valid.val();
        self.capture.wb_warp.next = self.wb_warp.val();
        self.capture.wb_reg.next = self.wb_reg.val();
        self.capture.wb_mask.next = self.wb_mask.val();
        self.capture.wb_data.next = self.wb_data.val();
        self.capture.start.next = self.start_cmd.val();
        self.capture.start_capture.next = self.rx_data.val().get_bit(0);
        self.capture.clear.next = self.clear_link.val();
        self.capture.read_address.next = self.rx_data.val();
        self.reply.clock.next = self.clock.val();
        self.reply.reset.next = self.reset.val();
        self.reply.tx_ready.next = self.tx_ready.val();
        self.reply.load_record.next = self.load_record.val();
        self.reply.record.next = self.capture.read_data.val();
        self.reply.load_query.next = self.load_query.val();
        self.reply.flags.next = self.flags.val();
        self.reply.core_errors.next = bit_cast::<8, ERROR_FLAGS>(self.core_errors.val());
        self.reply.high_water.next = bit_cast::<8, SPW>(self.high_water.val());
        self.reply.count.next = self.count16.val();
        for c in 0..LINK_COUNTERS {
            self.reply.counters[c].next = self.counters[c].val();
        }
    }
}

impl<
        const WW: usize,
        const T: usize,
        const TD: usize,
        const IA: usize,
        const SPW: usize,
        const RB: usize,
        const RBY: usize,
        const N: usize,
        const LW: usize,
    > crate::sim::Dut for HostLink<WW, T, TD, IA, SPW, RB, RBY, N, LW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, rx_valid, rx_data, rx_err, tx_ready, running, core_errors, high_water, counters, wb_valid, wb_warp, wb_reg, wb_mask, wb_data],
        outputs: [tx_valid, tx_data, core_reset, start, imem_write_valid, imem_write_addr, imem_write_data, capture_enabled, link_errors]
    );
}

/// The link of the core that the [`CoreParams`](crate::params::CoreParams) constant `$p`
/// describes, every const generic computed from its sizes.
#[macro_export]
macro_rules! sized_host_link {
    ($p:expr) => {
        $crate::hw::link::host_link::HostLink<
            { $p.sizes().WW }, { $p.sizes().T }, { $p.sizes().TD },
            { $crate::params::clog2($p.imem_words) }, { $p.sizes().SPW },
            { 8 * $crate::hw::link::host_link::core_record_bytes(&$p) },
            { $crate::hw::link::host_link::core_record_bytes(&$p) },
            { $crate::hw::link::host_link::answer_bytes(&$p) },
            { $crate::params::clog2($crate::hw::link::host_link::answer_bytes(&$p) + 1) },
        >
    };
}

/// Bytes of a capture record of the core `p` ([`record_bytes`](crate::protocol::record_bytes)).
pub const fn core_record_bytes(p: &crate::params::CoreParams) -> usize {
    crate::protocol::record_bytes(p.threads, p.lane_bits, clog2(p.warps))
}

/// The longest answer of a core's link: a status answer or one of its records.
pub const fn answer_bytes(p: &crate::params::CoreParams) -> usize {
    let record = core_record_bytes(p);
    if record > STATUS_BYTES {
        record
    } else {
        STATUS_BYTES
    }
}

/// The `cu` core's link ([`SimtCoreCu`](crate::hw::core::simt_core::SimtCoreCu)).
pub type HostLinkCu = crate::sized_host_link!(CORE_CU);
/// The seed core's link ([`SimtCoreSeed`](crate::hw::core::simt_core::SimtCoreSeed)).
pub type HostLinkSeed = crate::sized_host_link!(crate::params::CORE_SEED);

/// The formal properties (`host_link.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/link/host_link/host_link.sv",
    text: include_str!("host_link.sv"),
    wrapper: "host_link_props",
    parameters: |_| {
        // Exported for the `cu` core's board only.
        let c = crate::params::CORE_CU;
        vec![
            ("WW", crate::params::clog2(c.warps)),
            ("T", c.threads),
            ("TD", c.threads * c.lane_bits),
            ("IA", crate::params::clog2(c.imem_words)),
            ("SPW", crate::params::clog2(c.stack_depth + 1)),
        ]
    },
    claims: &[Claim::cu(&[
        "one_control_at_a_time",
        "answer_byte_held_until_taken",
        "start_is_a_pulse",
        "reset_clears_everything",
    ])],
    // The answer moves on whether the transmitter took its byte or not: bytes are lost.
    mutants: &[Mutant::cu(
        "answer_dropped",
        "if (is_sending & tx_ready) begin",
        "if (is_sending) begin",
        &["answer_byte_held_until_taken"],
    )],
};

/// The host link's protocol for the core `core`, for a header line.
pub fn link_protocol(core: &crate::params::CoreParams) -> String {
    use crate::protocol::STATUS_BYTES;
    let record_bytes = core_record_bytes(core);
    format!("8N1; commands: 'W' addr n (0 = 256) then n little-endian words: write instruction words; 'S' flags (bit 0 capture): start; \
'Q': answer {STATUS_BYTES} status bytes (flags, core errors, stack high water, records captured (2), {LINK_COUNTERS} counters of 4 bytes); 'C' index: \
answer record index ({record_bytes} bytes: data, lane mask, register, warp); 'X': reset the core; see src/link.rs")
}
