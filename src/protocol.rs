//! The host link's wire format, shared by the hardware ([`HostLink`](crate::hw::HostLink)),
//! its model and the host's side ([`crate::link`], where the protocol is described): command
//! bytes and the sizes of the answers. Imports nothing of the crate.

/// A command byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Write = b'W' as isize,
    Start = b'S' as isize,
    Query = b'Q' as isize,
    Capture = b'C' as isize,
    Reset = b'X' as isize,
}

impl Command {
    pub const ALL: [Command; 5] =
        [Command::Write, Command::Start, Command::Query, Command::Capture, Command::Reset];
    pub fn of(byte: u8) -> Option<Command> {
        Self::ALL.into_iter().find(|c| *c as u8 == byte)
    }
    /// Argument bytes after the command byte (before `write`'s words).
    pub fn arg_bytes(self) -> usize {
        match self {
            Command::Write => 2,
            Command::Start | Command::Capture => 1,
            Command::Query | Command::Reset => 0,
        }
    }
}

/// Records the capture buffer holds.
pub const CAPTURE_RECORDS: usize = 256;
/// Bytes of one record of a core with `lanes` lanes of `lane_bits` bits and `warp_bits` warp-id
/// bits: its data (`lanes x lane_bits`), lane mask (`lanes`), register (4) and warp, from bit 0
/// up, in whole bytes. The `cu` core's is 6 bytes (42 bits); the seed core's 133 (1,063 bits).
pub const fn record_bytes(lanes: usize, lane_bits: usize, warp_bits: usize) -> usize {
    (lanes * lane_bits + lanes + 4 + warp_bits).div_ceil(8)
}
/// Bytes of the `query` answer.
pub const STATUS_BYTES: usize = 37;

/// The host link's serial rate (8N1), bits per second: what the FTDI chip on the Alchitry Cu
/// and the Arty carries reliably, 100 clocks per bit at 100 MHz.
pub const HOST_BAUD: u32 = 1_000_000;
