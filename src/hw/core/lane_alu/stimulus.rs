//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`](crate::sim::rng::PHASE) cycles).

use crate::sim::rng::Rng;
use crate::sim::wide::Lanes;

/// Stimulus for the lane ALU: every op code (the extensions' too, and any of the 32, undefined
/// ones among them, a tenth of the time), lanes random,
/// zero, all ones, equal in `a` and `b`, and shift amounts across the lane width.
pub fn alu_stimulus(
    lanes: usize,
    bits: usize,
) -> impl FnMut(&mut Rng, &crate::hw::LaneAluModel, usize) -> Vec<u64> {
    move |rng, _model, _cycle| {
        let lane = |rng: &mut Rng| match rng.below(6) {
            0 => 0,
            1 => crate::sim::rng::mask(bits),
            2 => rng.below(bits as u64 + 2),
            _ => rng.bits(bits),
        };
        let a = Lanes::from_fn(lanes, |_| lane(rng) as u32);
        let b = Lanes::from_fn(lanes, |l| if rng.chance(20) { a[l] } else { lane(rng) as u32 });
        let ops = crate::hw::core::lane_alu::ExecOp::ALL.len() as u64;
        let code = if rng.chance(10) {
            rng.bits(5)
        } else {
            crate::hw::core::lane_alu::ExecOp::ALL[rng.below(ops) as usize].code()
        };
        let mut w = vec![code & 0xF, code >> 4];
        w.extend(a.to_words(lanes, bits));
        w.extend(b.to_words(lanes, bits));
        w
    }
}
