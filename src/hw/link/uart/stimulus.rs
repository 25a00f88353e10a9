//! The transmitter's and the receiver's random stimulus.

use crate::sim::rng::Rng;

/// The transmitter: rare resets, a byte offered 30% of the cycles.
pub fn tx_stimulus<M>() -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    |rng, _, c| {
        vec![
            (c == 0 || (rng.chance(1) && rng.chance(5))) as u64,
            rng.chance(30) as u64,
            rng.bits(8),
        ]
    }
}

/// The receiver: rare resets, and the serial line of [`uart_line_stimulus`].
pub fn rx_stimulus<M>(clocks_per_bit: usize) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    let mut line = uart_line_stimulus(clocks_per_bit);
    move |rng, _, c| vec![(c == 0 || (rng.chance(1) && rng.chance(5))) as u64, line(rng) as u64]
}

/// A serial line for the receiver's random test, one level per call: frames of random bytes
/// whose bits are each up to 1/16 of a bit long or short (a sender's clock off by 6%), some with
/// a low stop bit; idle gaps; glitches shorter than half a bit; and stretches of noise.
pub fn uart_line_stimulus(clocks_per_bit: usize) -> impl FnMut(&mut Rng) -> bool {
    let mut queue = std::collections::VecDeque::new();
    move |rng: &mut Rng| {
        while queue.is_empty() {
            let cpb = clocks_per_bit as u64;
            match rng.below(20) {
                0..=11 => {
                    let byte = rng.bits(8) as u8;
                    let bad_stop = rng.chance(10);
                    for k in 0..10 {
                        let level = super::model::frame_bit(byte, k) && !(k == 9 && bad_stop);
                        let len = cpb - cpb / 16 + rng.below(cpb / 8 + 1);
                        queue.extend(std::iter::repeat_n(level, len as usize));
                    }
                }
                12..=15 => queue.extend(std::iter::repeat_n(true, rng.below(3 * cpb) as usize + 1)),
                16..=17 => {
                    queue.extend(std::iter::repeat_n(false, rng.below(cpb / 2 - 1) as usize + 1));
                    queue.extend(std::iter::repeat_n(true, cpb as usize));
                }
                _ => queue.extend((0..rng.below(2 * cpb)).map(|_| rng.chance(50))),
            }
        }
        queue.pop_front().unwrap_or(true)
    }
}
