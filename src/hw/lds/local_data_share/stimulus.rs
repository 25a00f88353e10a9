//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;

/// Stimulus for a local data share: loads, stores, scatters and atomics (adds and exchanges;
/// ignored by a share built without) at light to saturating rates;
/// load and scatter addresses spread over all words, crowded into a few words (broadcasts and highest-lane-wins
/// stores' conflicts) or conflict-free (lane `l` in bank `l mod 4`); strides 0, 1 and random;
/// full, random and single-lane masks. In half of the phases a request that is not taken is
/// held unchanged, as a well-behaved requester does; in the others it changes or is withdrawn
/// while not ready. Rare resets, also in the middle of an access.
pub fn lds_stimulus(
    lanes: usize,
    warps: usize,
    lane_bits: usize,
) -> impl FnMut(&mut Rng, &crate::hw::LocalDataShareModel, usize) -> Vec<u64> {
    use crate::hw::lds::local_data_share::model::LdsIn;
    let (mut load, mut pattern, mut hold) = (100, 0, true);
    let mut last: Option<LdsIn> = None;
    let words = 1u64 << lane_bits;
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            load = [20, 60, 100][rng.below(3) as usize];
            pattern = rng.below(3);
            hold = rng.chance(50);
        }
        let reset = cycle == 0 || (rng.chance(1) && rng.chance(20));
        if let Some(req) = last.as_ref().filter(|_| hold && !model.ready()) {
            return model.encode(&LdsIn { reset, ..req.clone() });
        }
        let base = rng.bits(lane_bits);
        let addr = (0..lanes as u64)
            .map(|l| match pattern {
                0 => rng.bits(lane_bits),
                1 => base.wrapping_add(rng.below(3) * 5) % words,
                _ => (base * 4 + l) % words,
            })
            .collect();
        let mask = match rng.below(8) {
            0..=3 => crate::sim::rng::mask(lanes),
            4 | 5 => rng.bits(lanes),
            6 => 1 << rng.below(lanes as u64),
            _ => rng.bits(lanes) & rng.bits(lanes) & rng.bits(lanes),
        };
        let stride = match rng.below(4) {
            0 => 0,
            1 => 1,
            _ => rng.bits(crate::hw::lds::local_data_share::OFFSET_BITS),
        };
        let write = rng.chance(40);
        let req = LdsIn {
            reset,
            valid: rng.chance(load),
            write,
            scatter: write && rng.chance(30),
            atomic: !write && rng.chance(30),
            exchange: rng.chance(50),
            mask,
            warp: rng.below(warps as u64),
            index: if rng.chance(50) {
                rng.below(4)
            } else {
                rng.bits(crate::hw::lds::local_data_share::OFFSET_BITS)
            },
            stride,
            addr,
            data: (0..lanes).map(|_| rng.bits(lane_bits)).collect(),
        };
        last = req.valid.then(|| req.clone());
        model.encode(&req)
    }
}
