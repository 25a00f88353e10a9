//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`] cycles).

use crate::sim::rng::Rng;
use crate::sim::rng::PHASE;
use crate::sim::wide::Lanes;

/// Stimulus for an operand collector: instructions on every port (load from light to
/// saturating, registers spread over all or crowded into a few banks), write-backs on and off,
/// output back-pressure on and off (the four combinations in turn, one per phase), rare resets,
/// rare instructions for a unit type that does not exist, and (with `sources < 3`) rare ones
/// with a register in a slot beyond `sources`.
pub fn collector_stimulus(
    c: crate::params::CollectorParams,
    warps: usize,
    threads: usize,
) -> impl FnMut(&mut Rng, &crate::hw::OperandCollectorModel, usize) -> Vec<u64> {
    use crate::hw::collector::operand_collector::model::{Inst, OcInputs, WriteBack};
    let (mut load, mut crowded) = (100, false);
    let unit_bits = crate::params::clog2(c.unit_types).max(1);
    move |rng, model, cycle| {
        let phase = cycle / PHASE;
        if cycle % PHASE == 0 {
            load = [20, 60, 100][rng.below(3) as usize];
            crowded = rng.chance(40);
        }
        let (writebacks, back_pressure) = (phase % 2 == 1, phase / 2 % 2 == 1);
        let reg = |rng: &mut Rng| {
            if crowded {
                rng.below(3) as usize
            } else {
                rng.below(c.regs_per_warp as u64) as usize
            }
        };
        let ports = (0..c.in_ports)
            .map(|_| {
                let unit = if rng.chance(1) && rng.chance(5) {
                    rng.bits(unit_bits) as usize
                } else {
                    rng.below(c.unit_types as u64) as usize
                };
                let mut inst = Inst {
                    warp: rng.below(warps as u64) as usize,
                    unit,
                    tag: rng.bits(c.tag_bits),
                    dst: reg(rng),
                    mask: rng.bits(threads),
                    src_valid: if rng.chance(70) { 7 } else { rng.bits(3) as u8 },
                    src: [reg(rng), reg(rng), reg(rng)],
                };
                if c.sources < 3 && !(rng.chance(1) && rng.chance(5)) {
                    inst.src_valid &= c.source_slots();
                }
                (rng.chance(load), inst)
            })
            .collect();
        let i = OcInputs {
            reset: cycle == 0 || (rng.chance(1) && rng.chance(10)),
            ports,
            out_ready: (0..c.unit_types).map(|_| !back_pressure || rng.chance(30)).collect(),
            wb: (writebacks && rng.chance(50)).then(|| WriteBack {
                warp: rng.below(warps as u64) as usize,
                reg: reg(rng),
                mask: if rng.chance(50) {
                    crate::sim::rng::mask(threads)
                } else {
                    rng.bits(threads)
                },
                data: Lanes::from_words(&rng.words(threads * c.lane_bits), threads, c.lane_bits),
            }),
        };
        model.encode(&i)
    }
}
