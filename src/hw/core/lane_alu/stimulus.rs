//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`](crate::sim::rng::PHASE) cycles).

use crate::sim::rng::Rng;

/// Stimulus for the lane ALU: every op code (the extensions' too, and the undefined ones, rarely), lanes random,
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
        let pack =
            |vals: Vec<u64>| vals.iter().enumerate().fold(0u64, |w, (l, v)| w | v << (l * bits));
        let a: Vec<u64> = (0..lanes).map(|_| lane(rng)).collect();
        let b: Vec<u64> =
            (0..lanes).map(|l| if rng.chance(20) { a[l] } else { lane(rng) }).collect();
        let ops = crate::hw::core::lane_alu::ExecOp::ALL.len() as u64;
        let op = if rng.chance(5) { rng.bits(4) } else { rng.below(ops) };
        vec![op, pack(a), pack(b)]
    }
}
