//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;

/// Stimulus for a bank arbiter with `lanes` push lanes: bursts of requests and quiet phases,
/// write-backs on random banks; with `respect_bound`, no cycle pushes more than the queues can
/// take (as the collector units guarantee), otherwise pushes may overflow.
pub fn arbiter_stimulus(
    banks: usize,
    collectors: usize,
    row_bits: usize,
    respect_bound: bool,
) -> impl FnMut(&mut Rng, &crate::hw::collector::bank_arbiter::model::BankArbiterModel, usize) -> Vec<u64>
{
    use crate::hw::collector::bank_arbiter::model::{ArbiterInputs, Op};
    let mut push_rate = 30;
    let mut write_rate = 30;
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [5, 30, 60, 90][rng.below(4) as usize];
            write_rate = [0, 30, 70][rng.below(3) as usize];
        }
        let mut i = ArbiterInputs {
            reset: cycle == 0 || rng.chance(1) && rng.chance(10),
            ..Default::default()
        };
        let mut room: Vec<usize> = model.queues.iter().map(|q| model.depth - q.len()).collect();
        for _ in 0..model.lanes {
            if !rng.chance(push_rate) {
                continue;
            }
            // Without the bound, half the requests go to bank 0 so that its queue overflows.
            let hot = !respect_bound && rng.chance(50);
            let bank = if hot { 0 } else { rng.below(banks as u64) as usize };
            if respect_bound && room[bank] == 0 {
                continue;
            }
            room[bank] = room[bank].saturating_sub(1);
            let op = Op {
                cu: rng.below(collectors as u64) as usize,
                slot: rng.below(3) as usize,
                row: rng.bits(row_bits) as usize,
            };
            i.pushes.push((bank, op));
        }
        if rng.chance(write_rate) {
            i.write = Some(rng.below(banks as u64) as usize);
        }
        model.encode(&i)
    }
}
