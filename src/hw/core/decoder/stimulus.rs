//! This block's random stimulus.

use crate::sim::rng::Rng;

/// Random instruction words: a quarter with any opcode, the rest with one the ISA defines, every
/// other field random.
pub fn decoder_stimulus<M>() -> impl FnMut(&mut Rng, &M, usize) -> Vec<u64> {
    let defined: Vec<u64> =
        (0..64).filter(|&c| crate::isa::Inst::decode((c as u32) << 26).is_some()).collect();
    move |rng, _, _| {
        let code = if rng.chance(25) {
            rng.bits(6)
        } else {
            defined[rng.below(defined.len() as u64) as usize]
        };
        vec![code << 26 | rng.bits(26)]
    }
}
