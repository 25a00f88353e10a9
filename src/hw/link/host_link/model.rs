//! Reference model of [`HostLink`](crate::hw::HostLink): the board's serial protocol
//! ([`crate::link`]) as the engine between the UART and the SIMT core runs it, byte by byte.

use crate::protocol::{record_bytes, Command, CAPTURE_RECORDS, STATUS_BYTES};
use crate::sim::{CycleModel, PortNames, PortStruct};

/// The model's sizes: the core's warp-id bits, lanes and register bits (`lanes x lane_bits`),
/// instruction-address bits.
#[derive(Clone, Copy, Debug)]
pub struct HostLinkSizes {
    /// Warp-id bits.
    pub warp_bits: usize,
    /// Lanes.
    pub lanes: usize,
    /// Register-number bits.
    pub reg_bits: usize,
    /// Instruction-address bits.
    pub imem_bits: usize,
    /// High-water bits.
    pub high_water_bits: usize,
}

impl HostLinkSizes {
    /// Bytes of a capture record ([`record_bytes`]).
    pub fn record_bytes(&self) -> usize {
        record_bytes(self.lanes, self.reg_bits / self.lanes, self.warp_bits)
    }
    /// The sizes of a core's link.
    pub fn of(c: &crate::params::CoreParams) -> Self {
        use crate::params::clog2;
        Self {
            warp_bits: clog2(c.warps),
            lanes: c.threads,
            reg_bits: c.threads * c.lane_bits,
            imem_bits: clog2(c.imem_words),
            high_water_bits: clog2(c.stack_depth + 1),
        }
    }
}

crate::port_struct! {
    /// The inputs, in port order.
    pub struct LinkIn {
        reset, rx_valid, rx_data, rx_err, tx_ready,
        running, core_errors, high_water,
        c0, c1, c2, c3, c4, c5, c6, c7,
        wb_valid, wb_warp, wb_reg, wb_mask, wb_data,
    }
}

crate::port_struct! {
    /// The outputs, in port order.
    pub struct LinkOut {
        tx_valid, tx_data, core_reset, start, imem_write_valid, imem_write_addr, imem_write_data,
        capture_enabled, link_errors,
    }
}

/// What the engine is in the middle of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for a command byte.
    #[default]
    Command,
    /// Collecting a command's argument bytes (those so far).
    Args(Command, Vec<u8>),
    /// `write`: words left to write, the next word's address, its bytes so far.
    Words {
        /// Words left to write.
        left: usize,
        /// The next word's address.
        addr: usize,
        /// Its bytes so far.
        bytes: Vec<u8>,
    },
    /// `capture`: the record's block-RAM read is in flight.
    Reading,
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct HostLinkModel {
    /// The sizes.
    pub sizes: HostLinkSizes,
    /// Where the command decoder is.
    pub phase: Phase,
    /// Bytes of the reply still to send, first byte first.
    pub reply: Vec<u8>,
    /// The capture buffer (block RAM) and its records so far, each its bytes as the link sends
    /// them.
    pub capture: Vec<Vec<u8>>,
    /// Records captured.
    pub captured: usize,
    /// The buffer's read port: the record at the address (`rx_data`) of the last edge.
    pub ram_out: Vec<u8>,
    /// Capture is on.
    pub capture_enabled: bool,
    /// Registered pulses and the write port, as the outputs show them this cycle.
    pub core_reset: bool,
    /// The start pulse.
    pub start: bool,
    /// The instruction-memory write: address and word.
    pub write: Option<(usize, u32)>,
    /// Sticky: an unknown command.
    pub err_command: bool,
    /// Sticky: a byte arrived while the link was busy.
    pub err_overrun: bool,
    /// Sticky: the capture buffer was full.
    pub err_full: bool,
}

impl HostLinkModel {
    /// The model of the link of a core of `sizes` (the `cu` core's records are 5 bytes, the seed
    /// core's 133).
    pub fn new(sizes: HostLinkSizes) -> Self {
        let empty = vec![0; sizes.record_bytes()];
        Self {
            sizes,
            phase: Phase::Command,
            reply: vec![],
            capture: vec![empty.clone(); CAPTURE_RECORDS],
            captured: 0,
            ram_out: empty,
            capture_enabled: false,
            core_reset: false,
            start: false,
            write: None,
            err_command: false,
            err_overrun: false,
            err_full: false,
        }
    }

    /// A write-back as one record's bytes: data (`wb_data`, its 64-bit words), then mask,
    /// register, warp above it, least significant bit first.
    pub fn record(&self, i: &LinkIn, wb_data: &[u64]) -> Vec<u8> {
        let s = self.sizes;
        let mut bits = (0..s.reg_bits).map(|b| wb_data[b / 64] >> (b % 64) & 1).collect::<Vec<_>>();
        let field = |v: u64, n: usize| (0..n).map(move |b| v >> b & 1);
        bits.extend(
            field(i.wb_mask, s.lanes)
                .chain(field(i.wb_reg, 4))
                .chain(field(i.wb_warp, s.warp_bits)),
        );
        let mut bytes = vec![0u8; s.record_bytes()];
        for (b, bit) in bits.iter().enumerate() {
            bytes[b / 8] |= (*bit as u8) << (b % 8);
        }
        bytes
    }

    /// The words of `wb_data` in the inputs (its last port: one word up to 64 bits, else its
    /// 64-bit words, least significant first).
    pub fn wb_data(inputs: &[u64]) -> &[u64] {
        &inputs[LinkIn::NAMES.len() - 1..]
    }

    fn status(&self, i: &LinkIn, rx_err: bool) -> Vec<u8> {
        let mut b = vec![
            i.running as u8 | (self.capture_enabled as u8) << 1 | self.link_errors(rx_err) << 2,
            i.core_errors as u8,
            i.high_water as u8,
            self.captured as u8,
            (self.captured >> 8) as u8,
        ];
        for c in [i.c0, i.c1, i.c2, i.c3, i.c4, i.c5, i.c6, i.c7] {
            b.extend_from_slice(&(c as u32).to_le_bytes());
        }
        debug_assert_eq!(b.len(), STATUS_BYTES);
        b
    }

    /// Bit 0 unknown command, 1 byte while busy, 2 capture full, 3 receiver framing error.
    fn link_errors(&self, rx_err: bool) -> u8 {
        self.err_command as u8
            | (self.err_overrun as u8) << 1
            | (self.err_full as u8) << 2
            | (rx_err as u8) << 3
    }
}

impl CycleModel for HostLinkModel {
    fn ports(&self) -> PortNames {
        PortNames::default()
            .inputs(&[
                "reset",
                "rx_valid",
                "rx_data",
                "rx_err",
                "tx_ready",
                "running",
                "core_errors",
            ])
            .inputs(&["high_water"])
            .input_array("counters", crate::hw::link::host_link::LINK_COUNTERS)
            .inputs(&["wb_valid", "wb_warp", "wb_reg", "wb_mask"])
            .input_wide("wb_data", self.sizes.reg_bits)
            .outputs(LinkOut::NAMES)
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = LinkIn::from_words(inputs);
        let (wv, wa, wd) = self.write.map_or((0, 0, 0), |(a, d)| (1, a as u64, d as u64));
        LinkOut {
            tx_valid: !self.reply.is_empty() as u64,
            tx_data: self.reply.first().copied().unwrap_or(0) as u64,
            core_reset: self.core_reset as u64,
            start: self.start as u64,
            imem_write_valid: wv,
            imem_write_addr: wa,
            imem_write_data: wd,
            capture_enabled: self.capture_enabled as u64,
            link_errors: self.link_errors(i.rx_err == 1) as u64,
        }
        .to_words()
    }

    fn step(&mut self, inputs: &[u64]) {
        let i = LinkIn::from_words(inputs);
        self.core_reset = false;
        self.start = false;
        self.write = None;
        // `query` reports the registers as they were before this edge.
        let status = self.status(&i, i.rx_err == 1);
        // The buffer's read port reads the row `rx_data` names at every edge (before this
        // edge's write): a `capture` command's index is its last byte.
        let read = std::mem::replace(
            &mut self.ram_out,
            self.capture[i.rx_data as usize % CAPTURE_RECORDS].clone(),
        );
        if i.reset == 1 {
            *self = Self {
                capture: std::mem::take(&mut self.capture),
                ram_out: std::mem::take(&mut self.ram_out),
                ..Self::new(self.sizes)
            };
            return;
        }
        // Capture (before the command: a `start` or `reset` in the same cycle wins).
        if self.capture_enabled && i.wb_valid == 1 {
            if self.captured < CAPTURE_RECORDS {
                self.capture[self.captured] = self.record(&i, Self::wb_data(inputs));
                self.captured += 1;
            } else {
                self.err_full = true;
            }
        }
        // The reply: a byte leaves when the transmitter takes it.
        let sending = !self.reply.is_empty();
        if sending && i.tx_ready == 1 {
            self.reply.remove(0);
        }
        if self.phase == Phase::Reading {
            self.reply = read;
            self.phase = Phase::Command;
            if i.rx_valid == 1 {
                self.err_overrun = true;
            }
            return;
        }
        if i.rx_valid == 0 {
            return;
        }
        let byte = i.rx_data as u8;
        if sending {
            self.err_overrun = true;
            return;
        }
        let imem_words = 1usize << self.sizes.imem_bits;
        match std::mem::take(&mut self.phase) {
            Phase::Command => match Command::of(byte) {
                None => self.err_command = true,
                Some(c) if c.arg_bytes() > 0 => self.phase = Phase::Args(c, vec![]),
                Some(Command::Query) => self.reply = status,
                Some(Command::Reset) => {
                    self.core_reset = true;
                    self.capture_enabled = false;
                    self.captured = 0;
                    self.err_command = false;
                    self.err_overrun = false;
                    self.err_full = false;
                }
                Some(_) => unreachable!("commands without arguments: query, reset"),
            },
            Phase::Args(c, mut args) => {
                args.push(byte);
                if args.len() < c.arg_bytes() {
                    self.phase = Phase::Args(c, args);
                    return;
                }
                match c {
                    Command::Write => {
                        let left = if args[1] == 0 { 256 } else { args[1] as usize };
                        self.phase = Phase::Words {
                            left,
                            addr: args[0] as usize % imem_words,
                            bytes: vec![],
                        };
                    }
                    Command::Start => {
                        self.start = true;
                        self.capture_enabled = args[0] & 1 == 1;
                        self.captured = 0;
                        self.err_full = false;
                    }
                    Command::Capture => self.phase = Phase::Reading,
                    Command::Query | Command::Reset => unreachable!("no arguments"),
                }
            }
            Phase::Words { left, addr, mut bytes } => {
                bytes.push(byte);
                if bytes.len() < 4 {
                    self.phase = Phase::Words { left, addr, bytes };
                    return;
                }
                self.write =
                    Some((addr, u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])));
                if left > 1 {
                    self.phase = Phase::Words {
                        left: left - 1,
                        addr: (addr + 1) % imem_words,
                        bytes: vec![],
                    };
                }
            }
            Phase::Reading => unreachable!("handled above"),
        }
    }
}
