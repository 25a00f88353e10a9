//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;

/// Stimulus for a register file: random rows on every bank, lane-masked writes; phases that
/// read the row being written and phases that hammer a few rows.
pub fn register_file_stimulus(
    banks: usize,
    row_bits: usize,
    lanes: usize,
    lane_bits: usize,
) -> impl FnMut(
    &mut Rng,
    &crate::hw::collector::register_file::model::RegisterFileModel,
    usize,
) -> Vec<u64> {
    let mut hot = false;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            hot = rng.chance(50);
        }
        let row = |rng: &mut Rng| if hot { rng.bits(1) } else { rng.bits(row_bits) };
        let mut w: Vec<u64> = (0..banks).map(|_| row(rng)).collect();
        let write = rng.chance(60);
        let bank = rng.below(banks as u64);
        // Sometimes write the very row that bank reads this cycle.
        let wrow = if rng.chance(25) { w[bank as usize] } else { row(rng) };
        w.extend([write as u64, bank, wrow, rng.bits(lanes)]);
        w.extend(rng.words(lanes * lane_bits));
        w
    }
}
