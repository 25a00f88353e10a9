//! The kernels of `kernels/` on the reference interpreter (4 warps x 4 lanes, the cores' warp
//! width; 16-bit values, stack depth 4): each result is computed here independently, in plain Rust, from what the
//! kernel's header says it computes. Then the interpreter's errors: stack overflow, `join` on an
//! empty stack, running past the end, a loop that never ends.

use simt_rtl::isa::asm::assemble;
use simt_rtl::isa::interp::{Config, Machine};
use simt_rtl::isa::Inst;

const CONFIG: Config = Config {
    warps: 4,
    threads: 4,
    lane_bits: 16,
    stack_depth: 4,
    lds_rows: 64,
    lds_banks: 4,
    max_instructions: 100_000,
    isa: simt_rtl::isa::Extensions::ALL,
};
const THREADS: usize = 16;
/// Warps of 8 lanes: two lanes per bank of the local data share.
const WIDE: Config = Config { threads: 8, ..CONFIG };

fn kernel(name: &str) -> Vec<Inst> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(format!("{name}.s"));
    assemble(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

fn run(name: &str, lds: &[u32]) -> Machine {
    let mut m = Machine::new(CONFIG, lds).unwrap();
    m.run(&kernel(name)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert!(
        m.warps.iter().all(|w| w.done && w.stack.is_empty()),
        "{name}: every warp exits with an empty stack"
    );
    assert_eq!(m.races.races, [], "{name}: warps race on the local data share");
    m
}

/// Pseudo-random 16-bit inputs (a fixed LCG: the expectations below do not depend on them).
fn inputs(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x >> 16
        })
        .collect()
}

#[test]
fn vector_add() {
    let (a, b) = (inputs(THREADS, 1), inputs(THREADS, 2));
    let mut lds = vec![0; 32 + THREADS];
    lds[..THREADS].copy_from_slice(&a);
    lds[32..].copy_from_slice(&b);
    let m = run("vector_add", &lds);
    for i in 0..THREADS {
        assert_eq!(m.lds[64 + i], (a[i] + b[i]) & 0xFFFF, "c[{i}]");
        assert_eq!(m.lds[i], a[i], "a[{i}] unchanged");
    }
    assert_eq!(m.counters.instructions, 4 * 10);
    // Four lanes of consecutive words touch the four banks once each: no conflict.
    assert_eq!(m.counters.lds_accesses, 4 * 3);
    assert_eq!(m.counters.lds_conflict_cycles, 0);
    assert_eq!((m.counters.divergent_branches, m.counters.stack_high_water), (0, 0));
}

/// Every thread adds 1 to r3 100 x 250 times (8-bit here: the interpreter's 16-bit values
/// keep 25,000).
#[test]
fn spin_counts_every_turn() {
    let mut m = Machine::new(Config { max_instructions: 1_000_000, ..CONFIG }, &[]).unwrap();
    m.run(&kernel("spin")).unwrap();
    for i in 0..THREADS {
        let regs = [1, 2, 3].map(|r| m.reg(i / 4, i % 4, r));
        assert_eq!(regs, [0, 0, 25_000], "thread {i}");
    }
    assert_eq!(m.counters.instructions, 4 * (1 + 100 * (1 + 250 * 3 + 2) + 1));
}

/// Threads 10 and up store 255 and exit inside the `if`; the others store `2 i + 1` after it.
#[test]
fn early_exit_ends_the_late_threads_inside_the_if() {
    let m = run("early_exit", &[]);
    for i in 0..THREADS {
        let want = if i >= 10 { 255 } else { 2 * i as u32 + 1 };
        assert_eq!(m.lds[64 + i], want, "word {}", 64 + i);
        assert_eq!(m.reg(i / 4, i % 4, 5), want, "thread {i}'s r5");
    }
    // Warp 2 splits (threads 10, 11 exit with 8, 9 pending); warp 3 exits whole inside the
    // `if`, its `join` entry left with no lane: one instruction issued with none.
    assert_eq!(m.counters.divergent_branches, 1);
    assert_eq!((m.counters.partial_exits, m.counters.empty_issues), (2, 1));
}

#[test]
fn reduction_through_the_local_data_share() {
    let x = inputs(THREADS, 3);
    let m = run("reduce", &x);
    for w in 0..4 {
        let sum = x[w * 4..w * 4 + 4].iter().sum::<u32>() & 0xFFFF;
        assert_eq!(m.lds[64 + w * 4], sum, "warp {w}'s sum in the local data share");
        assert_eq!(m.reg(w, 0, 3), sum, "warp {w}'s sum in lane 0's r3");
        // Every lane's partial sum, in its register and its slot.
        let mut partial: Vec<u32> = x[w * 4..w * 4 + 4].to_vec();
        for d in [2, 1] {
            for l in 0..d {
                partial[l] = (partial[l] + partial[l + d]) & 0xFFFF;
            }
        }
        for (l, &p) in partial.iter().enumerate() {
            assert_eq!(
                (m.reg(w, l, 3), m.lds[64 + w * 4 + l]),
                (p, p),
                "warp {w} lane {l}'s partial sum"
            );
        }
    }
    // Two halving steps, each splitting every warp; two stack entries at a time.
    assert_eq!(m.counters.divergent_branches, 4 * 2);
    assert_eq!(m.counters.stack_high_water, 2);
}

#[test]
fn if_else_diverges_per_lane() {
    let m = run("if_else", &[]);
    for w in 0..4 {
        for l in 0..4u32 {
            let r4 = if l % 2 == 1 { 200 - l } else { 100 + l };
            assert_eq!(
                (m.reg(w, l as usize, 4), m.reg(w, l as usize, 5)),
                (r4, r4 + 1),
                "warp {w} lane {l}"
            );
        }
    }
    assert_eq!((m.counters.divergent_branches, m.counters.stack_high_water), (4, 2));
}

#[test]
fn loop_with_a_trip_count_per_lane() {
    let m = run("loop", &[]);
    for w in 0..4 {
        for l in 0..4 {
            let n = (l + w) as u32;
            assert_eq!((m.reg(w, l, 1), m.reg(w, l, 3)), (0, n * (n + 1) / 2), "warp {w} lane {l}");
        }
    }
    // Warp w makes w + 3 passes (its longest lane). A pass where some lanes are done and some
    // are not runs bz, join, add, addi, join, bany (6); one where none is done bz, add, addi,
    // join, bany (5). Lane 0 (n = w) is done from pass w on, so warp w runs w passes of 5 and 3
    // of 6, plus 4 instructions before the loop and `exit`.
    let expected: u64 = (0..4).map(|w| 4 + 5 * w + 6 * 3 + 1).sum();
    assert_eq!(m.counters.instructions, expected);
    assert_eq!((m.counters.divergent_branches, m.counters.stack_high_water), (4 * 3, 2));
}

#[test]
fn nested_divergence_to_the_stack_depth() {
    let m = run("nested", &[]);
    for w in 0..4 {
        for l in 0..4 {
            let want = [11, 31, 21, 41][l];
            assert_eq!(m.reg(w, l, 4), want, "warp {w} lane {l}");
        }
    }
    assert_eq!(m.counters.stack_high_water, 4);
    assert_eq!(m.counters.divergent_branches, 4 * 3);
    // One entry less and the same program overflows.
    let mut shallow = Machine::new(Config { stack_depth: 3, ..CONFIG }, &[]).unwrap();
    let err = format!("{:#}", shallow.run(&kernel("nested")).unwrap_err());
    assert!(
        err.contains("warp 0 at instruction") && err.contains("SIMT stack overflow (depth 3)"),
        "{err}"
    );
}

#[test]
fn programs_without_a_result_are_errors() {
    let err = |src: &str| {
        let mut m = Machine::new(CONFIG, &[]).unwrap();
        format!("{:#}", m.run(&assemble(src).unwrap()).unwrap_err())
    };
    assert!(err("join\nexit").contains("warp 0 at instruction 0: `join` with an empty SIMT stack"));
    assert!(err("nop").contains("warp 0 ran past the end of the program (instruction 1 of 1)"));
    assert!(err("top: jmp top").contains("did not finish within 100000 warp instructions"));
    let bad = |c: Config| format!("{:#}", Machine::new(c, &[]).unwrap_err());
    assert!(bad(Config { threads: 33, ..CONFIG }).contains("`threads` = 33 is out of range"));
    assert!(
        bad(Config { lds_rows: 48, ..CONFIG }).contains("`lds_rows` = 48 must be a power of two")
    );
    assert!(format!("{:#}", Machine::new(CONFIG, &[0; 257]).unwrap_err())
        .contains("257 words: it holds 256"));
}

/// `simt-rtl asm` writes one hex word per line that decodes back to the program; a bad program
/// is one error line naming the file and the line.
#[test]
fn asm_command_writes_the_words() {
    let cli = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl")).args(args).output().unwrap()
    };
    let dir = std::env::temp_dir().join(format!("simt-rtl-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hex = dir.join("nested.hex");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/nested.s");
    let out = cli(&["asm", src.to_str().unwrap(), "--out", hex.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let words: Vec<Inst> = std::fs::read_to_string(&hex)
        .unwrap()
        .lines()
        .map(|l| Inst::decode(u32::from_str_radix(l, 16).unwrap()).unwrap())
        .collect();
    assert_eq!(words, kernel("nested"));
    let bad = dir.join("bad.s");
    std::fs::write(&bad, "nop\nadd r1, r2, r99\n").unwrap();
    let out = cli(&["asm", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("bad.s:2: `add r1, r2, r99`: `r99` is not a register"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random programs (valid by construction: `src/isa/programs.rs`) on the SIMT interpreter,
/// warps of 8 lanes,
/// end with the registers and local data share that running every thread alone gives.
#[test]
fn random_programs_match_every_thread_run_alone() {
    use simt_rtl::isa::programs::{assembly, random_program, scalar_result};
    use simt_rtl::sim::rng::Rng;
    let programs = simt_rtl::sim::cycles_from_env("SIMT_PROGRAMS", 5_000).unwrap() as u64;
    let (mut divergent, mut high_water, mut conflicts, mut instructions) = (0, 0, 0, 0);
    let (mut partial_exits, mut empty_issues, mut barriers) = (0, 0, 0);
    let (mut atomics, mut offset_loads) = (0, 0);
    for seed in 0..programs {
        let mut rng = Rng::new(seed);
        let program = random_program(&mut rng, 30, WIDE.stack_depth, WIDE.isa);
        let text = assembly(&program);
        atomics += text.matches("atadd").count() + text.matches("atxch").count();
        offset_loads += text.matches("(r15)").count();
        let lds: Vec<u32> = (0..256).map(|_| rng.bits(16) as u32).collect();
        let mut m = Machine::new(WIDE, &lds).unwrap();
        m.run(&assemble(&text).unwrap()).unwrap_or_else(|e| panic!("seed {seed}: {e:#}\n{text}"));
        assert_eq!(
            m.races.races,
            [],
            "seed {seed}: the generator's programs are race-free\n{text}"
        );
        let (regs, memory) = scalar_result(&program, WIDE, &lds);
        assert!(
            m.regs == regs && m.lds == memory,
            "seed {seed}: the SIMT run and the threads run alone differ\n{text}"
        );
        divergent += m.counters.divergent_branches;
        high_water = high_water.max(m.counters.stack_high_water);
        conflicts += m.counters.lds_conflict_cycles;
        instructions += m.counters.instructions;
        partial_exits += m.counters.partial_exits;
        empty_issues += m.counters.empty_issues;
        barriers += m.counters.barriers;
    }
    eprintln!("{programs} programs: {instructions} warp instructions, {divergent} divergent branches, {conflicts} conflict cycles, {partial_exits} exits of some lanes, {empty_issues} issues with no lane left, {barriers} barriers passed, {atomics} atomics, {offset_loads} offset loads");
    const { assert!(WIDE.isa.atomic && WIDE.isa.offset, "the test assumes every extension") };
    assert!(
        divergent > programs
            && conflicts > 0
            && high_water == WIDE.stack_depth
            && partial_exits > programs / 4
            && empty_issues > 0
            && barriers > programs / 2
            && atomics as u64 > programs / 4
            && offset_loads as u64 > programs / 4,
        "the programs exercise too little"
    );
}

/// Lanes whose owner-computes store hits one word (stride 0) leave the highest lane's value.
#[test]
fn store_to_one_word_keeps_the_highest_lane() {
    let mut m = Machine::new(Config { warps: 1, ..WIDE }, &[]).unwrap();
    m.run(&assemble("lane r1\naddi r1, r1, 100\nst r1, 0, 0\nexit").unwrap()).unwrap();
    // Lanes 0 and 4 write bank 0 row 0 (word 0), lanes 1 and 5 word 1, ...
    assert_eq!(&m.lds[..4], &[104, 105, 106, 107]);
}

/// `exit` ends the active lanes only: the lanes pending on the stack run, without the exited
/// ones, and the warp ends when no lane is left. Each case's values follow from its text.
#[test]
fn exit_ends_the_active_lanes_only() {
    let one_warp = Config { warps: 1, threads: 4, ..WIDE };
    let run = |text: &str| {
        let mut m = Machine::new(one_warp, &[]).unwrap();
        m.run(&assemble(text).unwrap()).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
        m
    };
    let r = |m: &Machine, reg: usize| (0..4).map(|l| m.reg(0, l, reg)).collect::<Vec<u32>>();
    // Lanes 0 and 1 (r1 < 2) exit in the `then`; lanes 2 and 3 run the `else` and after the join.
    let m = run("lane r1\nli r3, 2\nslt r2, r1, r3\n\
                 bnz r2, then, join\nli r4, 5\njmp join\nthen: li r4, 9\nexit\n\
                 join: join\naddi r5, r4, 1\nexit");
    assert_eq!(r(&m, 4), [9, 9, 5, 5]);
    assert_eq!(r(&m, 5), [0, 0, 6, 6]);
    assert_eq!(m.counters.partial_exits, 1);
    // The same with the exit in the `else` (run second): the `then` lanes go on after the join.
    let m = run("lane r1\nli r3, 2\nslt r2, r1, r3\n\
                 bnz r2, then, join\nli r4, 5\nexit\nthen: li r4, 9\n\
                 join: join\naddi r5, r4, 1\nexit");
    assert_eq!(r(&m, 5), [10, 10, 0, 0]);
    // Every lane exits inside a uniform `if`: the join's entry holds no lane left, so the warp
    // issues one instruction with none, as `exit`, and ends; the `li r6` is never run.
    let m = run("li r2, 1\nbnz r2, then, join\njmp join\nthen: exit\njoin: join\nli r6, 7\nexit");
    assert_eq!(r(&m, 6), [0, 0, 0, 0]);
    assert_eq!((m.counters.partial_exits, m.counters.empty_issues), (1, 1));
    assert!(m.warps[0].done);
    // A lane that exits in a loop's body leaves the loop and every later mask: lane l counts
    // down from l and exits in the turn its counter is 1, so r7 (its turns) ends at l, and
    // only lane 0 (no turn) runs past the loop.
    let m = run("lane r12\ntop: bz r12, skip, skip\naddi r7, r7, 1\nli r3, 1\nseq r2, r12, r3\n\
                 bz r2, stay, stay\nexit\nstay: join\naddi r12, r12, -1\nskip: join\nbany r12, top\n\
                 li r8, 3\nexit");
    assert_eq!(r(&m, 7), [0, 1, 2, 3]);
    assert_eq!(r(&m, 8), [3, 0, 0, 0]);
}

/// The interpreter names the races it sees: a word written by one warp and read or written by
/// another (with nothing ordering them), each pair of instructions once; a warp alone on its
/// words races with nobody. `run` shows each as a warning with both source lines.
#[test]
fn races_between_warps_are_named_by_both_instructions() {
    use simt_rtl::isa::races::Access;
    let two = Config { warps: 2, threads: 4, ..WIDE };
    let run = |text: &str| {
        let mut m = Machine::new(two, &[]).unwrap();
        m.run(&assemble(text).unwrap()).unwrap();
        m
    };
    // Every warp's lanes write words 0..3 (stride 0): warp 1's store races with warp 0's.
    let m = run("li r1, 7\nst r1, 0, 0\nexit");
    let first = Access { warp: 0, pc: 1, write: true };
    assert_eq!(m.races.races.len(), 1, "{:?}", m.races.races);
    let r = m.races.races[0];
    assert_eq!((r.word, r.first, r.second), (0, first, Access { warp: 1, pc: 1, write: true }));
    // Warp 1 reads the words warp 0 wrote (at pc 2): a read after another warp's write.
    let m = run("warp r1\nbnz r1, rd, j\nst r1, 0, 0\njmp j\nrd: ld r2, r0\nj: join\nexit");
    let r = m.races.races[0];
    assert_eq!((r.first.warp, r.first.write, r.second.warp, r.second.write), (0, true, 1, false));
    assert_eq!((r.first.pc, r.second.pc), (2, 4));
    // Each warp on its own row (stride 1 puts thread t's word at row t / 4): no race.
    assert_eq!(run("li r1, 7\nst r1, 0, 1\nexit").races.races, []);
    // `run` names them with both source lines.
    let dir = std::env::temp_dir().join(format!("simt-rtl-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let racy = dir.join("racy.s");
    std::fs::write(&racy, "li r1, 7\nst r1, 0, 0\nexit\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(["run", racy.to_str().unwrap(), "--show", "none"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let want = format!(
        "{0}:2 (warp 0 writes) and {0}:2 (warp 1 writes) race on local-data-share word 0",
        racy.display()
    );
    assert!(stderr.contains(&want), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `reduce_all.s`: each warp's sum, then, past its `bar`, every lane's total of all 16 inputs,
/// in `r8` and at word `128 + i`. Without the barrier the interpreter's turn order (one
/// instruction per warp in turn) has warp 0 read the other warps' sums before they are written,
/// and the race log names it.
#[test]
fn a_barrier_orders_a_reduction_across_warps() {
    let x = inputs(THREADS, 5);
    let m = run("reduce_all", &x);
    let sums: Vec<u32> = (0..4).map(|w| x[w * 4..w * 4 + 4].iter().sum::<u32>() & 0xFFFF).collect();
    let total = sums.iter().sum::<u32>() & 0xFFFF;
    for (w, &sum) in sums.iter().enumerate() {
        assert_eq!(m.lds[64 + w * 4], sum, "warp {w}'s sum");
        for l in 0..4 {
            assert_eq!(m.reg(w, l, 8), total, "warp {w} lane {l}'s total");
            assert_eq!(m.lds[128 + w * 4 + l], total, "word {}", 128 + w * 4 + l);
        }
    }
    let without: Vec<Inst> = kernel("reduce_all").into_iter().filter(|i| *i != Inst::Bar).collect();
    let mut m = Machine::new(CONFIG, &x).unwrap();
    m.run(&without).unwrap();
    assert_ne!(m.reg(0, 0, 8), total, "without the barrier warp 0 reads unwritten sums");
    assert!(!m.races.races.is_empty(), "and the race log names the race");
}

/// Who a barrier waits for: warps that ended release the others (they never reach it), lanes
/// that exited never block it, warps may wait at different `bar` instructions, every warp may
/// be at it at once, and a uniform branch around it is no divergence. Each case stores a value
/// before the barrier that another warp loads after it.
#[test]
fn a_barrier_waits_for_every_warp_that_has_not_ended() {
    let two = Config { warps: 2, threads: 4, ..WIDE };
    let run = |text: &str| {
        let mut m = Machine::new(two, &[]).unwrap();
        m.run(&assemble(text).unwrap()).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
        assert_eq!(m.races.races, [], "{text}");
        assert!(m.warps.iter().all(|w| w.done && !w.at_barrier), "{text}");
        m
    };
    let r =
        |m: &Machine, w: usize, reg: usize| (0..4).map(|l| m.reg(w, l, reg)).collect::<Vec<u32>>();
    // Warp 1 stores 7 + lane at words 4..7 late (after a loop of 20 turns); warp 0 loads them
    // past the barrier. Thread t's `st r1, 0, 1` writes word t.
    let late = "warp r2\nlane r3\nbz r2, go, go\nli r4, 20\nwait: addi r4, r4, -1\nbany r4, wait\n\
                go: join\naddi r1, r3, 7\nst r1, 0, 1\nbar\naddi r5, r3, 4\nld r6, r5\nexit";
    assert_eq!(r(&run(late), 0, 6), [7, 8, 9, 10]);
    // Warps at different `bar`s: warp 0 at one in its branch, warp 1 at the other.
    let apart = "warp r2\nlane r3\naddi r1, r3, 7\nst r1, 0, 1\nbz r2, zero, done\nbar\njmp done\n\
                 zero: bar\nli r7, 1\ndone: join\naddi r5, r3, 4\nld r6, r5\nexit";
    let m = run(apart);
    assert_eq!(r(&m, 0, 6), [7, 8, 9, 10]);
    assert_eq!((r(&m, 0, 7), r(&m, 1, 7)), (vec![1; 4], vec![0; 4]));
    // Warp 0 ends before the barrier: warp 1 is not kept waiting for it.
    let ended = "warp r2\nbz r2, out, j\nbar\njmp j\nout: exit\nj: join\nli r8, 3\nexit";
    assert_eq!(r(&run(ended), 1, 8), [3; 4]);
    // Lanes 0 and 1 of each warp exit before the barrier; lanes 2 and 3 reach it and go on.
    let lanes =
        "lane r3\nli r4, 2\nslt r2, r3, r4\nbz r2, j, j\nexit\nj: join\nbar\nli r8, 5\nexit";
    let m = run(lanes);
    assert_eq!((r(&m, 0, 8), r(&m, 1, 8)), (vec![0, 0, 5, 5], vec![0, 0, 5, 5]));
    // Every warp at the barrier at once (the first instruction), then at a second one.
    let m = run("bar\nbar\nli r8, 1\nexit");
    assert_eq!(m.counters.instructions, 2 * 4);
}

/// A warp whose active lanes at `bar` are not all its lanes that have not exited is refused,
/// naming the warp and the instruction.
#[test]
fn a_barrier_in_a_diverged_warp_is_an_error() {
    use simt_rtl::isa::interp::Fault;
    let one = Config { warps: 1, threads: 4, ..WIDE };
    let text = "lane r1\nbz r1, j, j\nbar\nj: join\nexit";
    let mut m = Machine::new(one, &[]).unwrap();
    let e = m.run(&assemble(text).unwrap()).unwrap_err();
    let fault = *e.downcast_ref::<Fault>().unwrap();
    assert_eq!(fault, Fault::DivergedBarrier { warp: 0, pc: 2, mask: 0b1110, live: 0b1111 });
    assert_eq!(fault.pc(), Some(2));
}
