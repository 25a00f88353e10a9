//! This block's random stimulus.

use crate::sim::rng::Rng;

/// Random instruction words: a quarter with any opcode, the rest with one a core with the
/// extensions `isa` has, every other field random.
pub fn decoder_stimulus<M>(
    isa: crate::isa::Extensions,
) -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    let defined: Vec<u64> =
        (0..64).filter(|&c| crate::isa::Inst::decode_in((c as u32) << 26, isa).is_some()).collect();
    move |rng, _, _| {
        let code = if rng.chance(25) {
            rng.bits(6)
        } else {
            defined[rng.below(defined.len() as u64) as usize]
        };
        vec![code << 26 | rng.bits(26)]
    }
}
