//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::PortStruct;

/// Stimulus for a scoreboard: an issue stage that checks an instruction and reserves its
/// destination when there is no hazard, and a write-back that releases registers in flight, in
/// random order; registers spread over all or crowded into a few; in misuse phases reserves and
/// releases ignore the scoreboard (double reservations, releases of free registers). Rare resets.
pub fn scoreboard_stimulus(
    warps: usize,
    regs: usize,
) -> impl FnMut(&mut Rng, &crate::hw::ScoreboardModel, usize) -> Vec<u64> {
    use crate::hw::core::scoreboard::model::ScoreboardIn;
    let (mut crowded, mut misuse, mut issue_rate, mut wb_rate) = (false, false, 50, 50);
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            crowded = rng.chance(40);
            misuse = rng.chance(20);
            issue_rate = [20, 60, 100][rng.below(3) as usize];
            wb_rate = [20, 60, 100][rng.below(3) as usize];
        }
        let reg = |rng: &mut Rng| {
            if crowded {
                rng.below(3.min(regs as u64))
            } else {
                rng.below(regs as u64)
            }
        };
        let in_flight: Vec<(u64, u64)> = model
            .reg_table
            .iter()
            .enumerate()
            .flat_map(|(w, t)| t.iter().map(move |&r| (w as u64, r)))
            .collect();
        let (release_warp, release_reg) = if !misuse && !in_flight.is_empty() {
            in_flight[rng.below(in_flight.len() as u64) as usize]
        } else {
            (rng.below(warps as u64), reg(rng))
        };
        let mut i = ScoreboardIn {
            reset: (cycle == 0 || (rng.chance(1) && rng.chance(10))) as u64,
            check_warp: rng.below(warps as u64),
            check_src0: reg(rng),
            check_src1: reg(rng),
            check_src2: reg(rng),
            check_src_valid: rng.bits(3),
            check_dst: reg(rng),
            check_dst_valid: rng.chance(80) as u64,
            release_valid: (rng.chance(wb_rate) && (misuse || !in_flight.is_empty())) as u64,
            release_warp,
            release_reg,
            ..Default::default()
        };
        // Issue: reserve the checked instruction's destination when it may go.
        let issue =
            rng.chance(issue_rate) && i.check_dst_valid == 1 && (misuse || !model.collides(&i));
        i.reserve_valid = issue as u64;
        (i.reserve_warp, i.reserve_reg) = if misuse && rng.chance(50) {
            (rng.below(warps as u64), reg(rng))
        } else {
            (i.check_warp, i.check_dst)
        };
        i.to_words()
    }
}
