//! This block's constrained-random stimulus (rates change between profiles every
//! [`PHASE`](crate::sim::rng::PHASE) cycles).

use crate::sim::rng::Rng;
use crate::sim::PortStruct;

/// Stimulus for the SIMT core: random programs (valid by construction,
/// [`random_program`](crate::isa::programs::random_program)) written through the instruction-memory
/// port with random gaps, started, and run to the end; now and then a reset in the middle of a
/// run, a start while running, or a random word written into a running program (which may
/// overflow the stack, pop an empty one, issue an illegal word, reach a barrier diverged or never
/// end: a run that lasts past `run_limit` cycles is reset). `seen` counts the runs that ended
/// and collects every error flag the model raised.
pub fn core_stimulus(
    params: crate::params::CoreParams,
    run_limit: usize,
    seen: std::rc::Rc<std::cell::Cell<(u64, u64)>>,
) -> impl FnMut(&mut Rng, &crate::hw::SimtCoreModel, usize) -> Vec<u64> {
    use crate::hw::core::simt_core::model::CoreIn;
    /// Loading a program (its words, the next to write); running one (cycles so far, its length).
    enum Phase {
        Load(Vec<u32>, usize),
        Run(usize, usize),
    }
    let mut phase = Phase::Load(vec![], 0);
    move |rng, model, cycle| {
        let mut i = CoreIn { reset: (cycle == 0) as u64, ..Default::default() };
        if cycle == 0 {
            return i.to_words();
        }
        let (runs, flags) = seen.get();
        seen.set((runs, flags | model.error_bits()));
        if let Phase::Load(words, _) = &phase {
            if words.is_empty() {
                let words = loop {
                    let size = 10 + rng.below(30) as usize;
                    let program = crate::isa::programs::random_program(
                        rng,
                        size,
                        params.stack_depth,
                        params.isa,
                    );
                    let text = crate::isa::programs::assembly(&program);
                    let code =
                        crate::isa::asm::assemble(&text).expect("generated programs assemble");
                    if code.len() <= params.imem_words {
                        break code.iter().map(|c| c.encode()).collect::<Vec<u32>>();
                    }
                };
                phase = Phase::Load(words, 0);
            }
        }
        match &mut phase {
            Phase::Load(words, k) => {
                if rng.chance(80) {
                    (i.imem_write_valid, i.imem_write_addr, i.imem_write_data) =
                        (1, *k as u64, words[*k] as u64);
                    *k += 1;
                    if *k == words.len() {
                        phase = Phase::Run(0, words.len());
                    }
                }
            }
            Phase::Run(n, len) => {
                if *n == 0 {
                    i.start = 1;
                } else if !model.running() {
                    let (runs, flags) = seen.get();
                    seen.set((runs + 1, flags));
                    phase = Phase::Load(vec![], 0);
                } else if *n > run_limit || rng.chance(1) && rng.chance(2) {
                    i.reset = 1;
                    phase = Phase::Load(vec![], 0);
                } else {
                    i.start = rng.chance(1) as u64;
                    if rng.chance(1) && rng.chance(20) {
                        // A random word, a `join` (pops what the program did not push), a `bar`
                        // (maybe where the warp is diverged), or a branch to itself (pushes
                        // until the stack overflows), into the program where the warps run it.
                        let at = rng.below(*len as u64);
                        let word = match rng.below(4) {
                            0 => rng.bits(32) as u32,
                            1 => crate::isa::Inst::Join.encode(),
                            2 => crate::isa::Inst::Bar.encode(),
                            _ => crate::isa::Inst::Branch {
                                if_zero: rng.chance(50),
                                ra: rng.below(16) as u8,
                                target: at as u16,
                                reconv: at as u16,
                            }
                            .encode(),
                        };
                        (i.imem_write_valid, i.imem_write_addr, i.imem_write_data) =
                            (1, at, word as u64);
                    }
                }
                if let Phase::Run(n, _) = &mut phase {
                    *n += 1;
                }
            }
        }
        i.to_words()
    }
}
