//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::PortStruct;

/// Stimulus for the I-buffer: fetch fills warps that have space (in misuse phases, any warp),
/// issue takes warps with an instruction (in misuse phases, any warp), the head shown is the
/// issued warp's or (one cycle in four) any warp's, flushes now and then;
/// fill and issue rates vary by phase so buffers run full and empty. Rare resets.
pub fn ibuffer_stimulus(
    warps: usize,
    pc_bits: usize,
) -> impl FnMut(&mut Rng, &crate::hw::IBufferModel, usize) -> Vec<u64> {
    use crate::hw::core::ibuffer::model::{IBufferIn, SLOTS};
    let (mut fill_rate, mut issue_rate, mut misuse) = (50, 50, false);
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            fill_rate = [20, 60, 100][rng.below(3) as usize];
            issue_rate = [20, 60, 100][rng.below(3) as usize];
            misuse = rng.chance(20);
        }
        let pick = |rng: &mut Rng, ok: &dyn Fn(usize) -> bool| {
            let ws: Vec<usize> = (0..warps).filter(|&w| misuse || ok(w)).collect();
            (!ws.is_empty()).then(|| ws[rng.below(ws.len() as u64) as usize] as u64)
        };
        let fill = pick(rng, &|w| model.buffers[w].len() < SLOTS).filter(|_| rng.chance(fill_rate));
        let issue = pick(rng, &|w| !model.buffers[w].is_empty());
        let issue_warp = issue.unwrap_or(rng.below(warps as u64));
        IBufferIn {
            reset: (cycle == 0 || (rng.chance(1) && rng.chance(10))) as u64,
            fill_valid: fill.is_some() as u64,
            fill_warp: fill.unwrap_or(rng.below(warps as u64)),
            fill_inst: rng.bits(32),
            fill_pc: rng.bits(pc_bits),
            head_warp: if rng.chance(25) { rng.below(warps as u64) } else { issue_warp },
            issue_warp,
            issue_valid: (issue.is_some() && rng.chance(issue_rate)) as u64,
            flush_valid: (rng.chance(3)) as u64,
            flush_warp: rng.below(warps as u64),
        }
        .to_words()
    }
}
