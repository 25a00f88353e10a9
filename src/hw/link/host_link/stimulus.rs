//! This block's random stimulus.

use super::model::HostLinkModel;
use crate::sim::rng::Rng;
use crate::sim::PortStruct;

/// The host link's stimulus: [`host_link_bytes`] on its serial input, the rest random.
pub fn host_link_stimulus() -> impl FnMut(&mut Rng, &HostLinkModel, usize) -> Vec<u64> {
    let mut bytes = host_link_bytes();
    move |rng, m, c| host_link_inputs(rng, m, c, &mut bytes)
}

/// Protocol traffic for the host link's random test: mostly well-formed commands (short
/// `write` bursts, `start` with and without capture, `query`, `capture` of any index, `reset`),
/// some unknown bytes, with random gaps; usually waiting for an answer before the next byte,
/// sometimes not (an overrun).
pub fn host_link_bytes() -> impl FnMut(&mut Rng, bool) -> Option<u8> {
    let mut queue = std::collections::VecDeque::<u8>::new();
    move |rng: &mut Rng, busy: bool| {
        if (busy && !rng.chance(2)) || !rng.chance(40) {
            return None;
        }
        if queue.is_empty() {
            use crate::protocol::Command;
            match rng.below(20) {
                0..=5 => {
                    let n = if rng.chance(3) { 0 } else { rng.below(4) as u8 + 1 };
                    queue.extend([Command::Write as u8, rng.bits(8) as u8, n]);
                    let words = if n == 0 { 256 } else { n as usize };
                    queue.extend((0..4 * words).map(|_| rng.bits(8) as u8));
                }
                6..=8 => queue.extend([Command::Start as u8, rng.bits(8) as u8]),
                9..=11 => queue.push_back(Command::Query as u8),
                12..=15 => queue.extend([Command::Capture as u8, rng.bits(8) as u8]),
                16 => queue.push_back(Command::Reset as u8),
                _ => queue.push_back(rng.bits(8) as u8),
            }
        }
        queue.pop_front()
    }
}

/// One cycle of the host link's inputs: `bytes`'s next byte (waiting while the model is busy),
/// random status and counters, rare resets.
fn host_link_inputs(
    rng: &mut Rng,
    m: &super::model::HostLinkModel,
    cycle: usize,
    bytes: &mut impl FnMut(&mut Rng, bool) -> Option<u8>,
) -> Vec<u64> {
    use super::model::LinkIn;
    let busy = !m.reply.is_empty() || m.phase == super::model::Phase::Reading;
    let byte = bytes(rng, busy);
    let s = m.sizes;
    let mut words = LinkIn {
        reset: (cycle == 0 || (rng.chance(1) && rng.chance(2))) as u64,
        rx_valid: byte.is_some() as u64,
        rx_data: byte.map_or(rng.bits(8), u64::from),
        rx_err: rng.chance(1) as u64,
        tx_ready: rng.chance(30) as u64,
        running: rng.chance(50) as u64,
        core_errors: rng.bits(crate::hw::core::simt_core::model::ERROR_FLAGS),
        high_water: rng.bits(s.high_water_bits),
        c0: rng.bits(32),
        c1: rng.bits(32),
        c2: rng.bits(32),
        c3: rng.bits(32),
        c4: rng.bits(32),
        c5: rng.bits(32),
        c6: rng.bits(32),
        c7: rng.bits(32),
        wb_valid: rng.chance(30) as u64,
        wb_warp: rng.bits(s.warp_bits),
        wb_reg: rng.bits(4),
        wb_mask: rng.bits(s.lanes),
        wb_data: 0,
    }
    .to_words();
    // `wb_data`, the last port, in 64-bit words (16 at the seed core's 1,024 bits).
    words.pop();
    words.extend(rng.words(s.reg_bits));
    words
}
