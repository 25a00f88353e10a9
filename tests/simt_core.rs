//! The SIMT core against the ISA's reference interpreter: every kernel of `kernels/` and
//! thousands of random programs (valid by construction) must leave every register of every warp
//! and lane, and every local-data-share word, as the interpreter does, and count the same
//! instructions, divergent branches, stack high-water mark and bank-conflict cycles.

use simt_rtl::isa::asm::assemble;
use simt_rtl::isa::interp::Machine;
use simt_rtl::isa::Inst;
use simt_rtl::model::simt_core::CoreCounters;
use simt_rtl::model::SimtCoreModel;
use simt_rtl::params::{CoreParams, IssuePolicy, CORE_CU, CORE_TINY};
use simt_rtl::verify::rng::Rng;

const KERNELS: [&str; 5] = ["vector_add", "reduce", "if_else", "loop", "nested"];

fn kernel(name: &str) -> Vec<Inst> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(format!("{name}.s"));
    assemble(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Runs `program` on the interpreter and the core model; panics with `what` where they differ.
fn compare(params: CoreParams, program: &[Inst], lds: &[u32], what: &str) -> CoreCounters {
    let mut m = Machine::new(params.machine(1_000_000), lds).unwrap();
    m.run(program).unwrap_or_else(|e| panic!("{what}: interpreter: {e:#}"));
    let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
    let mut core = SimtCoreModel::new(params, &words, lds);
    let counters = core.run(1_000_000).unwrap_or_else(|e| panic!("{what}: core: {e:#}"));
    assert_eq!(core.lds_words(), m.lds, "{what}: local data share");
    let regs = core.regs();
    for (k, (got, want)) in regs.iter().zip(&m.regs).enumerate() {
        let (thread, r) = (k / 16, k % 16);
        assert_eq!(got, want, "{what}: warp {} lane {} r{r}", thread / params.threads, thread % params.threads);
    }
    assert_eq!(counters.issued, m.counters.instructions, "{what}: instructions");
    assert_eq!(counters.divergent_branches, m.counters.divergent_branches, "{what}: divergent branches");
    assert_eq!(counters.stack_high_water, m.counters.stack_high_water as u64, "{what}: stack high water");
    assert_eq!(counters.lds_conflict_cycles, m.counters.lds_conflict_cycles, "{what}: bank-conflict cycles");
    counters
}

fn lds_inputs(rng: &mut Rng, params: CoreParams) -> Vec<u32> {
    (0..4 * params.lds_rows).map(|_| rng.bits(params.lane_bits) as u32).collect()
}

#[test]
fn kernels_match_the_interpreter() {
    for policy in [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest] {
        let params = CoreParams { policy, ..CORE_CU };
        for name in KERNELS {
            let lds = lds_inputs(&mut Rng::new(7), params);
            let c = compare(params, &kernel(name), &lds, &format!("{name} ({})", policy.name()));
            eprintln!("{name:10} {:4}: {c:?} ipc {:.2}", policy.name(), c.ipc());
        }
    }
}

#[test]
fn random_programs_match_the_interpreter() {
    use simt_rtl::verify::programs::{assembly, random_program};
    let programs: u64 = std::env::var("SIMT_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    let mut total = CoreCounters::default();
    for seed in 0..programs {
        let mut rng = Rng::new(seed);
        let policy = if seed % 2 == 0 { IssuePolicy::LooseRoundRobin } else { IssuePolicy::GreedyThenOldest };
        let params = CoreParams { policy, ..if seed % 4 < 2 { CORE_CU } else { CORE_TINY } };
        let program = random_program(&mut rng, 30, params.stack_depth);
        let text = assembly(&program);
        let lds = lds_inputs(&mut rng, params);
        let c = compare(params, &assemble(&text).unwrap(), &lds, &format!("seed {seed}\n{text}"));
        total.issued += c.issued;
        total.cycles += c.cycles;
        total.divergent_branches += c.divergent_branches;
        total.scoreboard_stalls += c.scoreboard_stalls;
        total.lds_conflict_cycles += c.lds_conflict_cycles;
        total.stack_high_water = total.stack_high_water.max(c.stack_high_water);
    }
    eprintln!("{programs} programs: {total:?}");
    assert!(total.divergent_branches > programs && total.scoreboard_stalls > programs && total.lds_conflict_cycles > 0, "the programs exercise too little");
    assert_eq!(total.stack_high_water, CORE_CU.stack_depth as u64);
}
