//! The SIMT core against the ISA's reference interpreter: every kernel of `kernels/` and
//! thousands of random programs (valid by construction) must leave every register of every warp
//! and lane, and every local-data-share word, as the interpreter does, and count the same
//! instructions, divergent branches, stack high-water mark and bank-conflict cycles.

use simt_rtl::hw::core::simt_core::model::CoreCounters;
use simt_rtl::isa::asm::assemble;
use simt_rtl::isa::{Extensions, Inst};
use simt_rtl::params::{CollectorTiming, CoreParams, IssuePolicy, CORE_CU, CORE_TINY};
use simt_rtl::sim::rng::Rng;
use simt_rtl::verify::core_run::run_and_compare;

/// The kernels of `kernels/`, by name, but `spin` (the engines' timing loop: 25,000 turns, too
/// long for the rust-hdl simulation).
fn kernel_names() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "spin")
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    names
}

fn kernel(name: &str) -> Vec<Inst> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(format!("{name}.s"));
    assemble(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Runs `program` on the interpreter and the core model; panics with `what` where they differ.
fn compare(params: CoreParams, program: &[Inst], lds: &[u32], what: &str) -> CoreCounters {
    run_and_compare(params, program, lds, 1_000_000).unwrap_or_else(|e| panic!("{what}: {e:#}"))
}

fn lds_inputs(rng: &mut Rng, params: CoreParams) -> Vec<u32> {
    (0..params.lds_words()).map(|_| rng.bits(params.lane_bits) as u32).collect()
}

#[test]
fn kernels_match_the_interpreter() {
    for collector_timing in [CollectorTiming::GpgpuSim, CollectorTiming::Pipelined] {
        for policy in [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest] {
            let params = CoreParams { policy, collector_timing, ..CORE_CU };
            let how = format!("{} {}", policy.name(), collector_timing.name());
            for name in kernel_names() {
                let lds = lds_inputs(&mut Rng::new(7), params);
                let c = compare(params, &kernel(&name), &lds, &format!("{name} ({how})"));
                eprintln!("{name:10} {how}: {c:?} ipc {:.2}", c.ipc());
            }
        }
    }
}

#[test]
fn random_programs_match_the_interpreter() {
    use simt_rtl::isa::programs::{assembly, random_program};
    let programs = simt_rtl::sim::cycles_from_env("SIMT_PROGRAMS", 10_000).unwrap() as u64;
    let mut total = CoreCounters::default();
    for seed in 0..programs {
        let mut rng = Rng::new(seed);
        let policy = if seed % 2 == 0 {
            IssuePolicy::LooseRoundRobin
        } else {
            IssuePolicy::GreedyThenOldest
        };
        let collector_timing =
            if seed % 8 < 4 { CollectorTiming::GpgpuSim } else { CollectorTiming::Pipelined };
        // Every third program on a core with every extension (the generator then uses them).
        let isa = if seed % 3 == 2 { Extensions::ALL } else { Extensions::NONE };
        let params = CoreParams {
            policy,
            collector_timing,
            isa,
            ..if seed % 4 < 2 { CORE_CU } else { CORE_TINY }
        };
        let program = random_program(&mut rng, 30, params.stack_depth, params.isa);
        let text = assembly(&program);
        let lds = lds_inputs(&mut rng, params);
        let c = compare(params, &assemble(&text).unwrap(), &lds, &format!("seed {seed}\n{text}"));
        total.issued += c.issued;
        total.cycles += c.cycles;
        total.divergent_branches += c.divergent_branches;
        total.scoreboard_stalls += c.scoreboard_stalls;
        total.structural_stalls += c.structural_stalls;
        total.bank_stalls += c.bank_stalls;
        total.lds_conflict_cycles += c.lds_conflict_cycles;
        total.stack_high_water = total.stack_high_water.max(c.stack_high_water);
        total.barrier_waits += c.barrier_waits;
    }
    eprintln!("{programs} programs: {total:?}");
    assert!(
        total.divergent_branches > programs
            && total.scoreboard_stalls > programs
            && total.structural_stalls > 0
            && total.bank_stalls > 0
            && total.lds_conflict_cycles > 0
            && total.barrier_waits > programs / 2,
        "the programs exercise too little"
    );
    assert_eq!(total.stack_high_water, CORE_CU.stack_depth as u64);
}

/// A kernel of every extension's instructions (`mul`, `slts`, `sra`, `lui`, `stx` with lanes of
/// a warp sharing words: the highest lane's value stays, `ori`, `xori`, `slti`, `sltsi`, `srai`,
/// `threads`, and the pseudo-instructions) on the `cu` core built with
/// every extension: the model against the interpreter in both timings and policies, and the
/// rust-hdl core and its exported Verilog under Verilator against the model every cycle.
#[test]
fn every_extension_runs_on_the_core_as_the_interpreter_says() {
    let text = "lane r1\nwarp r2\nshli r3, r2, 2\nadd r3, r3, r1\nmul r4, r3, r3\n\
                addi r5, r3, -8\nslts r6, r5, r0\nslt r13, r5, r0\nsra r7, r5, r1\nlui r8, 0x3FFFF\n\
                addi r9, r3, 100\nstx r4, r9\nandi r10, r1, 1\nshli r11, r2, 1\nadd r10, r10, r11\n\
                addi r10, r10, 200\nstx r3, r10\nbar\naddi r12, r3, 1\nandi r12, r12, 15\n\
                addi r12, r12, 100\nld r14, r12\nmul r15, r14, r5\n\
                threads r1\nori r2, r3, 0x40\nxori r5, r5, -1\nslti r6, r3, 9\nsltsi r7, r5, -3\n\
                srai r8, r5, 2\nneg r9, r3\nnot r11, r14\nmov r13, r15\nli r10, 0x12345678\nexit\n";
    let program = assemble(text).unwrap();
    let core = CoreParams { isa: Extensions::ALL, ..CORE_CU };
    for collector_timing in [CollectorTiming::GpgpuSim, CollectorTiming::Pipelined] {
        for policy in [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest] {
            let params = CoreParams { policy, collector_timing, ..core };
            compare(
                params,
                &program,
                &[],
                &format!("{} {}", policy.name(), collector_timing.name()),
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("simt-rtl-extensions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sim = simt_rtl::sim::verilog_sim::Simulator::Verilator;
    simt_rtl::verify::core_run::run_verilog(core, &program, &[], 100_000, sim, &dir).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Core parameters that break a rule are refused with the parameter's name.
#[test]
fn bad_core_parameters_are_refused() {
    let err = |p: CoreParams| format!("{:#}", p.validate().unwrap_err());
    assert!(err(CoreParams { threads: 64, ..CORE_CU }).contains("`threads` = 64"));
    assert!(err(CoreParams { imem_words: 100, ..CORE_CU }).contains("imem_words"));
    assert!(err(CoreParams { lds_rows: 3, ..CORE_CU }).contains("lds_rows"));
    assert!(err(CoreParams { warps: 0, ..CORE_CU }).contains("warps"));
    assert!(err(CoreParams { banks: 3, ..CORE_CU }).contains("banks"));
    assert!(err(CoreParams { threads: 2, ..CORE_CU }).contains("`threads` = 2"));
    assert!(err(CoreParams { lane_bits: 6, ..CORE_CU }).contains("`lane_bits` = 6"));
    assert!(err(CoreParams { warps: 1, ..CORE_CU }).contains("`warps` = 1"));
    let isa = Extensions { mulhi: true, ..Extensions::NONE };
    assert_eq!(
        err(CoreParams { isa, ..CORE_CU }),
        "parameter `isa`: extension `mulhi` needs extension `mul`"
    );
    // The rust-hdl core refuses generics that are not its parameters' sizes.
    let e =
        format!("{:#}", simt_rtl::hw::core::simt_core::SimtCoreCu::new(CORE_TINY).err().unwrap());
    assert!(e.contains("derived parameter `W` = 4 breaks its rule `W = warps` (= 2)"), "{e}");
    let e = format!(
        "{:#}",
        simt_rtl::hw::core::simt_core::SimtCoreCu::new(CoreParams { imem_words: 512, ..CORE_CU })
            .err()
            .unwrap()
    );
    assert!(e.contains("`A` = 10 breaks its rule `A = clog2(imem_words) + 2` (= 11)"), "{e}");
    let long = vec![Inst::Nop; CORE_CU.imem_words + 1];
    let e = format!("{:#}", run_and_compare(CORE_CU, &long, &[], 100).unwrap_err());
    assert!(e.contains("the program has 257 instructions: the core's instruction memory holds 256 (`imem_words`)"), "{e}");
}

/// The command line run with `args`, its output collected.
fn simt_rtl<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl")).args(args).output().unwrap()
}

/// `simt-rtl run` runs a kernel on the rust-hdl core, prints the counters of a run that matched
/// the interpreter, and writes the core's waveform.
#[test]
fn run_command_prints_the_counters_and_the_waveform() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-run-{}", std::process::id()));
    let vcd = dir.join("reduce.vcd");
    let out =
        simt_rtl(&["run", "kernels/reduce.s", "--policy", "gto", "--vcd", vcd.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("on the rust-hdl core `cu-core`")
            && stdout.contains("equal the reference interpreter's"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| divergent branches | 8 |") && stdout.contains("| IPC |"),
        "{stdout}"
    );
    let wave = std::fs::read_to_string(&vcd).unwrap();
    assert!(
        wave.contains("$enddefinitions")
            && wave.contains("issue_valid")
            && wave.contains("wb_data"),
        "{} is not the core's waveform",
        vcd.display()
    );
    // The local data share's writes are in it: a bank's write strobe goes high (reduce stores).
    let (defs, changes) = wave.split_once("$enddefinitions").unwrap();
    let lds = defs
        .split("$scope module exec $end")
        .nth(1)
        .and_then(|d| d.split("$scope module lds $end").nth(2));
    let bank = lds
        .and_then(|d| d.split("$scope module banks$0 $end").nth(1))
        .expect("the local data share's bank 0");
    let strobe = bank
        .lines()
        .take_while(|l| !l.contains("$upscope"))
        .find(|l| l.ends_with(" write_mask $end"))
        .and_then(|l| l.split_whitespace().nth(3))
        .expect("bank 0's write strobe");
    assert!(
        changes.lines().any(|l| l == format!("1{strobe}")),
        "no write into the local data share's bank 0 shown"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that fails still writes its waveform: one stopped at `--max-cycles` (vector_add takes
/// more than 45 cycles: its 40 instructions and their stalls) up to the limit, and one the
/// interpreter refuses (nested overflows tiny-core's stack of 2) as the core ran it.
#[test]
fn failing_runs_leave_their_waveform() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-limit-{}", std::process::id()));
    let vcd = dir.join("fail.vcd");
    let cases: [(&[&str], &str); 2] = [
        (&["kernels/vector_add.s", "--max-cycles", "45"], "did not finish within --max-cycles 45"),
        (&["kernels/nested.s", "--preset", "tiny-core"], "SIMT stack overflow (depth 2)"),
    ];
    for (args, why) in cases {
        let _ = std::fs::remove_file(&vcd);
        let mut all = vec!["run"];
        all.extend(args);
        all.extend(["--vcd", vcd.to_str().unwrap()]);
        let out = simt_rtl(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(why) && stderr.contains("waveform of the core's run"),
            "{all:?}: {stderr}"
        );
        let wave = std::fs::read_to_string(&vcd).unwrap();
        assert!(
            wave.contains("$enddefinitions") && wave.contains("issue_valid"),
            "{all:?}: not the core's waveform"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every kernel of `kernels/` ships with its expected values (written from its header), and
/// `simt-rtl run --expect` finds them all; the results it prints and writes as JSON are the
/// kernel's.
#[test]
fn every_kernel_leaves_its_expected_values_through_run() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut kernels: Vec<_> = std::fs::read_dir("kernels")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    kernels.sort();
    assert!(kernels.len() >= 5, "{kernels:?}");
    for kernel in kernels {
        let (expect, lds) = (kernel.with_extension("expect"), kernel.with_extension("lds"));
        assert!(expect.exists(), "{} ships without {}", kernel.display(), expect.display());
        let json = dir.join("result.json");
        let mut args = vec!["run".to_string(), kernel.display().to_string()];
        if lds.exists() {
            args.extend(["--lds".to_string(), lds.display().to_string()]);
        }
        args.extend(
            ["--expect", expect.to_str().unwrap(), "--json", json.to_str().unwrap()]
                .map(String::from),
        );
        let out = simt_rtl(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(
            stdout.contains("| warp | lane |") && stdout.contains("every value of"),
            "{stdout}"
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["schema"], "simt-rtl-run/3");
        assert_eq!(v["run"]["kernel"], kernel.display().to_string());
        assert_eq!(
            (&v["run"]["core"], &v["run"]["engine"]),
            (&"cu-core".into(), &"verilator".into())
        );
        assert_eq!(v["registers"].as_array().unwrap().len(), CORE_CU.warps);
        assert_eq!(v["registers"][0][0].as_array().unwrap().len(), 16);
        assert_eq!(v["lds"].as_array().unwrap().len(), 4 * CORE_CU.lds_rows);
        // The JSON holds the expected values too: each `w l r = v` line read back from it.
        for line in std::fs::read_to_string(&expect).unwrap().lines().filter(|l| l.starts_with('w'))
        {
            let (lhs, rhs) = line.split_once('=').unwrap();
            let ix: Vec<usize> = lhs.split_whitespace().map(|t| t[1..].parse().unwrap()).collect();
            let want: u64 = rhs.split('#').next().unwrap().trim().parse().unwrap();
            assert_eq!(v["registers"][ix[0]][ix[1]][ix[2]], want, "{}: {line}", kernel.display());
        }
        std::fs::remove_file(&json).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every kernel on the rust-hdl core, in lockstep with its model, leaves the interpreter's result;
/// the exported Verilog of that core (its local data share holding the kernel's input) replays
/// each run, followed by a program that loads every local-data-share word, under Verilator and
/// iverilog with every output equal on every cycle: the write-backs among them show every
/// register the kernel wrote and the memory it left.
#[test]
fn kernels_on_the_rust_hdl_core_and_its_verilog() {
    use simt_rtl::sim::verilog_sim::Simulator;
    use simt_rtl::verify::core_run::{run_rust_hdl, run_verilog};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/verilog-sim/cu/simt_core_kernels");
    for (k, name) in kernel_names().into_iter().enumerate() {
        let lds = lds_inputs(&mut Rng::new(7), CORE_CU);
        run_rust_hdl(CORE_CU, &kernel(&name), &lds, 100_000, None)
            .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        // Verilator for every kernel; iverilog (slower to run) for one.
        let sims: &[Simulator] = if k == 0 {
            &[Simulator::Verilator, Simulator::Iverilog]
        } else {
            &[Simulator::Verilator]
        };
        for &sim in sims {
            run_verilog(CORE_CU, &kernel(&name), &lds, 100_000, sim, &root.join(&name))
                .unwrap_or_else(|e| panic!("{name} under {}: {e:#}", sim.name()));
        }
    }
}

/// A core at sizes of a user's own, which no type of the crate has (2 warps of 4 lanes of 16
/// bits): `run_rust_hdl_on` runs the kernels on it beside its model and against the interpreter
/// (docs/src/library.md), and `run_rust_hdl` refuses it, naming the core.
#[test]
fn a_core_of_a_users_own_sizes_runs_the_kernels() {
    use simt_rtl::verify::core_run::{run_rust_hdl, run_rust_hdl_on};
    const MY_CORE: CoreParams =
        CoreParams { name: "my-core", purpose: "16-bit lanes", warps: 2, lane_bits: 16, ..CORE_CU };
    type MyCore = simt_rtl::sized_simt_core!(MY_CORE);
    let lds = lds_inputs(&mut Rng::new(7), MY_CORE);
    for name in ["reduce", "vector_add"] {
        let run = run_rust_hdl_on(MY_CORE, &kernel(name), &lds, 100_000, &|p, lds| {
            MyCore::with_lds(p, lds)
        })
        .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert!(run.counters.issued > 0, "{name}: {:?}", run.counters);
    }
    let e = run_rust_hdl(MY_CORE, &kernel("reduce"), &lds, 100_000, None).unwrap_err();
    assert!(format!("{e:#}").contains("core `my-core` has no rust-hdl type"), "{e:#}");
}

/// The larger cores `simt-rtl explore` measures are the same design: each runs a kernel on its
/// rust-hdl core beside its model (every output every cycle) and against the interpreter, and
/// explore's `cu-core` is, apart from its comments, the exported `rtl_out/cu/simt_core.v`.
#[test]
fn explored_cores_are_the_cu_core_at_other_sizes() {
    use simt_rtl::flow::explore::{core_verilog, CORES};
    use simt_rtl::verify::core_run::run_rust_hdl;
    // On a large stack: the 8-warp cores, built whole as one value, pass a test thread's 2 MiB.
    for core in &CORES[1..] {
        let lds = lds_inputs(&mut Rng::new(7), *core);
        let program = kernel("reduce");
        simt_rtl::sim::on_large_stack(|| run_rust_hdl(*core, &program, &lds, 100_000, None))
            .unwrap()
            .unwrap_or_else(|e| panic!("{}: {e:#}", core.name));
    }
    let code = |text: &str| -> Vec<String> {
        text.lines().filter(|l| !l.starts_with("//")).map(str::to_string).collect()
    };
    let exported = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/simt_core.v"),
    )
    .unwrap();
    assert_eq!(code(&core_verilog(CORES[0]).unwrap()), code(&exported));
}

/// The core against its model, every output on every cycle: random programs loaded through the
/// instruction-memory port and run to the end, under both issue policies, with resets in the
/// middle of runs and words overwritten in running programs (`SIMT_CORE_CYCLES` cycles per
/// configuration): the rust-hdl core for the first `export::RUST_HDL_CYCLES` (20,000), its
/// exported Verilog under Verilator for all of them.
#[test]
fn core_and_its_verilog_equal_the_model_every_cycle() {
    let cycles = simt_rtl::sim::cycles_from_env("SIMT_CORE_CYCLES", 250_000).unwrap();
    for (k, policy) in
        [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest].into_iter().enumerate()
    {
        // The GPGPU-Sim-exact timing too, under loose round robin.
        let exact = CoreParams { collector_timing: CollectorTiming::GpgpuSim, ..CORE_CU };
        let cores = if k == 0 { vec![CORE_CU, CORE_TINY, exact] } else { vec![CORE_CU, CORE_TINY] };
        for core in cores {
            let preset = format!("{} ({} collector)", core.name, core.collector_timing.name());
            let started = std::time::Instant::now();
            let core = CoreParams { policy, ..core };
            let (_, (runs, flags)) =
                simt_rtl::hw::core::simt_core::preset::run(core, 40 + k as u64, cycles).unwrap();
            eprintln!("{preset} {}: {cycles} cycles, {runs} runs ended, error flags raised {flags:#010b}, {:.0} cycles/s", policy.name(), cycles as f64 / started.elapsed().as_secs_f64());
            assert!(
                runs * 2_000 > cycles as u64,
                "{preset} {}: too few runs ended ({runs})",
                policy.name()
            );
            // Overwritten words overflow stacks, pop empty ones, issue illegal words and put
            // `bar` where warps are diverged.
            if cycles >= 250_000 {
                assert_eq!(
                    flags & 0b1010_0011,
                    0b1010_0011,
                    "{preset} {}: error flags raised {flags:#010b}",
                    policy.name()
                );
            }
        }
    }
}

/// `run --vcd` and `sim` write a GTKWave save file beside the waveform, with the signals grouped
/// by block, every one of them declared in the VCD.
#[test]
fn waveforms_come_with_gtkwave_save_files() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-gtkw-{}", std::process::id()));
    let vcd = dir.join("if_else.vcd");
    let out =
        simt_rtl(&["run", "kernels/if_else.s", "--show", "none", "--vcd", vcd.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let blocks = [
        "fetch",
        "I-buffer",
        "issue",
        "collector",
        "execute",
        "local data share",
        "write-back",
        "stack",
    ];
    check_gtkw(&dir.join("if_else.gtkw"), &vcd, &blocks);
    let out = simt_rtl(&["sim", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let demo = ["commands", "fetch", "warp status", "stack"];
    check_gtkw(&dir.join("scheduler_demo.gtkw"), &dir.join("scheduler_demo.vcd"), &demo);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checks the GTKWave save file `gtkw` against the VCD it names: every group in `groups` is
/// there, and every signal it shows is declared in the VCD, in its scope, with the width its
/// `[msb:0]` says (read here from the VCD's `$scope`/`$var` lines, not by the writer's code).
fn check_gtkw(gtkw: &std::path::Path, vcd: &std::path::Path, groups: &[&str]) {
    let save = std::fs::read_to_string(gtkw).unwrap();
    let wave = std::fs::read_to_string(vcd).unwrap();
    let mut declared = std::collections::HashSet::new();
    let mut scope: Vec<String> = vec![];
    for line in wave.lines().take_while(|l| !l.starts_with("$enddefinitions")) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() == Some(&"$scope") {
            scope.push(w[2].to_string());
        } else if w.first() == Some(&"$upscope") {
            scope.pop();
        } else if w.first() == Some(&"$var") {
            let width: usize = w[2].parse().unwrap();
            let range = if width == 1 { String::new() } else { format!("[{}:0]", width - 1) };
            declared.insert(format!("{}.{}{range}", scope.join("."), w[4]));
        }
    }
    for g in groups {
        assert!(
            save.lines().any(|l| l == format!("-{g}")),
            "group `{g}` missing from {}",
            gtkw.display()
        );
    }
    let shown: Vec<&str> = save.lines().filter(|l| l.starts_with("uut.")).collect();
    assert!(shown.len() >= groups.len(), "{save}");
    for s in shown {
        assert!(
            declared.contains(s),
            "{} shows `{s}`, which the VCD does not declare",
            gtkw.display()
        );
    }
    assert!(save.contains(&format!("[dumpfile] \"{}\"", vcd.canonicalize().unwrap().display())));
}

/// The old `exit`, which ended the whole warp (lanes pending on its stack were dropped), put back
/// into the exported core as a one-line mutant: the random differential stimulus (whose programs
/// run `exit` inside `if`s and loops) catches it under iverilog, where the exported core itself
/// matches the rust-hdl core on the same cycles.
#[test]
fn an_exit_that_ends_the_whole_warp_is_caught() {
    use simt_rtl::registry::exported_blocks;
    use simt_rtl::registry::CuBlocks;
    use simt_rtl::sim::verilog_sim::{compare_exact, simulate_verilog, Simulator};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let block = exported_blocks::<CuBlocks>()
        .unwrap()
        .into_iter()
        .find(|b| b.module == simt_rtl::hw::core::simt_core::MODULE)
        .unwrap();
    let rec = simt_rtl::registry::differential::<CuBlocks>(
        simt_rtl::hw::core::simt_core::MODULE,
        44,
        6_000,
    )
    .unwrap();
    let work = root.join("target/verilog-sim/cu/exit_mutant");
    let original = block.verilog_dut(&root.join("rtl_out"), "cu");
    let text = std::fs::read_to_string(&original.sources[0]).unwrap();
    let (from, to) = ("ends_warp = ends & chk_empty;", "ends_warp = ends;");
    assert_eq!(text.matches(from).count(), 1, "the mutation's text is not in simt_core.v once");
    std::fs::create_dir_all(&work).unwrap();
    let mut mutant = original.clone();
    mutant.sources = vec![work.join("simt_core.v")];
    std::fs::write(&mutant.sources[0], text.replacen(from, to, 1)).unwrap();
    for (dut, name, agrees) in [(&original, "original", true), (&mutant, "mutant", false)] {
        let out =
            simulate_verilog(Simulator::Iverilog, dut, &rec.inputs, &work.join(name)).unwrap();
        let same = compare_exact(name, &dut.outputs, &rec.outputs, &out);
        assert_eq!(same.is_ok(), agrees, "{name}: {same:?}");
    }
}

/// `run`'s two engines, the Verilator engine (the default) and the rust-hdl core in lockstep
/// with its model, leave the same registers, local data share and counters (cycles included:
/// both are the same hardware), under both issue policies; the engine is built once per Verilog
/// (a second request finds it in the cache).
#[test]
fn the_verilator_engine_and_the_lockstep_core_agree() {
    use simt_rtl::verify::fast_engine::engine;
    let dir = std::env::temp_dir().join(format!("simt-rtl-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for policy in ["lrr", "gto"] {
        let mut results = vec![];
        for lockstep in [false, true] {
            let json = dir.join(format!("{policy}-{lockstep}.json"));
            let mut args =
                vec!["run", "kernels/early_exit.s", "--policy", policy, "--show", "none"];
            args.extend(["--json", json.to_str().unwrap()]);
            if lockstep {
                args.push("--lockstep");
            }
            let out = simt_rtl(&args);
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            let engine =
                if lockstep { "equal to its model on every cycle" } else { "under Verilator" };
            assert!(stdout.contains(engine), "{args:?}: {stdout}");
            let mut v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
            let engine = if lockstep { "lockstep" } else { "verilator" };
            assert_eq!(v["run"]["engine"], engine, "{args:?}");
            v["run"]["engine"] = serde_json::Value::Null; // the one field that differs
            results.push(v);
        }
        assert_eq!(results[0], results[1], "{policy}: the engines differ");
        assert!(results[0]["counters"]["cycles"].as_u64().unwrap() > 0);
    }
    let built = std::cell::Cell::new(false);
    let first = engine(CORE_CU, &|_| built.set(true)).unwrap();
    let again = engine(CORE_CU, &|_| built.set(true)).unwrap();
    assert_eq!(first, again);
    assert!(!built.get(), "the engine was built again");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine's first build says so on stderr, terminal or not (here a pipe), and how long it
/// took; a run that finds it cached says nothing of a build. (Seconds: the `cu-core` engine
/// built into an empty cache, 1 s here with ccache, 5 s without.)
#[test]
fn the_engines_build_is_announced_and_timed() {
    let cache = std::env::temp_dir().join(format!("simt-rtl-fresh-cache-{}", std::process::id()));
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
            .args(["run", "kernels/loop.s", "--show", "none"])
            .env("SIMT_RTL_CACHE", &cache)
            .output()
            .unwrap()
    };
    let first = run();
    let stderr = String::from_utf8_lossy(&first.stderr).to_string();
    assert!(first.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("building the Verilator engine ")), "{stderr}");
    assert!(lines.iter().any(|l| l.starts_with("built the Verilator engine in ")), "{stderr}");
    let again = String::from_utf8_lossy(&run().stderr).to_string();
    assert!(!again.contains("Verilator engine"), "built again: {again}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// `simt-rtl kernels` gives each kernel in each configuration the counts of a run of the model
/// with that configuration (checked against the interpreter), and each configuration's mean IPC.
#[test]
fn kernels_command_tables_both_collector_timings() {
    let out = simt_rtl(&["kernels", "kernels/vector_add.s", "kernels/loop.s"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    for collector_timing in [CollectorTiming::GpgpuSim, CollectorTiming::Pipelined] {
        for policy in [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest] {
            let params = CoreParams { policy, collector_timing, ..CORE_CU };
            let lds = simt_rtl::isa::lds_words(
                &std::fs::read_to_string("kernels/vector_add.lds").unwrap(),
                "kernels/vector_add.lds",
                params,
            )
            .unwrap();
            let c = compare(params, &kernel("vector_add"), &lds, "vector_add");
            let row = format!(
                "| vector_add | {} | {} | {} | {} | {:.2} |",
                collector_timing.name(),
                policy.name(),
                c.cycles,
                c.issued,
                c.ipc()
            );
            assert!(table.contains(&row), "no `{row}` in\n{table}");
            let mean = format!("| {} | {} | ", collector_timing.name(), policy.name());
            assert_eq!(table.lines().filter(|l| l.starts_with(&mean)).count(), 1, "{table}");
        }
    }
}

/// The `cu` core's engine Verilog (`run --verilog`'s input) in a fresh temporary directory
/// named after `name`: `own.v` as it is and `core_board.v` with `from` (which must be in it)
/// replaced by `to`. Returns the directory, the mutant and the unchanged file.
fn mutant_engine_verilog(
    name: &str,
    from: &str,
    to: &str,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let verilog = simt_rtl::verify::fast_engine::engine_verilog(CORE_CU).unwrap();
    assert!(verilog.contains(from), "the mutation's text is not in the engine's Verilog");
    let dir = std::env::temp_dir().join(format!("simt-rtl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mutant, own) = (dir.join("core_board.v"), dir.join("own.v"));
    std::fs::write(&mutant, verilog.replacen(from, to, 1)).unwrap();
    std::fs::write(&own, &verilog).unwrap();
    (dir, mutant, own)
}

/// `run`'s check against the interpreter has teeth: the Verilator engine built from a core whose
/// lane 0 adds without carries (`run --verilog`) leaves other values than the interpreter, and
/// `run` prints the results it has, then names the differences in decimal, and exits 1.
#[test]
fn run_refuses_a_core_that_differs_from_the_interpreter() {
    let (from, to) = ("sum = la + lbx + carry_in;", "sum = la ^ lbx ^ carry_in;");
    let (dir, mutant, own) = mutant_engine_verilog("mutant-run", from, to);
    let out = simt_rtl(&["run", "kernels/vector_add.s", "--verilog", mutant.to_str().unwrap()]);
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("| warp | lane |"), "the results come first: {stdout}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains("the core's results differ from the interpreter's in")
            && last.contains(" lane 0 r")
            && !last.contains("0x"),
        "{stderr}"
    );
    // The same run on the core's own Verilog passes.
    let out = simt_rtl(&["run", "kernels/vector_add.s", "--verilog", own.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A barrier that lets a warp go as soon as it arrives (`run --verilog` with the core's Verilog
/// so changed) is caught: in a kernel whose last warp spins before it stores what the others
/// load past the barrier, they load other values than the interpreter's, and `run` exits 1
/// naming the differences. The core's own Verilog passes, and shows the barrier's wait cycles.
#[test]
fn a_barrier_that_releases_a_warp_early_is_caught() {
    let from = "let_go = ~launching & |waiting$q & ~|(present & ~waiting$q);";
    let (dir, mutant, own) =
        mutant_engine_verilog("mutant-bar", from, "let_go = ~launching & |waiting$q;");
    let kernel = dir.join("late_store.s");
    std::fs::write(
        &kernel,
        "warp r2\nlane r3\nli r4, 3\nseq r5, r2, r4\nbz r5, go, go\nli r6, 60\n\
         spin: addi r6, r6, -1\nbany r6, spin\ngo: join\naddi r1, r3, 7\nst r1, 0, 1\nbar\n\
         addi r7, r3, 12\nld r8, r7\nexit\n",
    )
    .unwrap();
    let run = |v: &std::path::Path| {
        let (k, v) = (kernel.to_str().unwrap(), v.to_str().unwrap());
        simt_rtl(&["run", k, "--show", "counters", "--lds", "random", "--verilog", v])
    };
    let out = run(&mutant);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the core's results differ from the interpreter's in"), "{stderr}");
    let out = run(&own);
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("| barrier wait cycles (the core's own) |"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A warp that reaches `bar` diverged: the core (model and, through the every-cycle differential,
/// the rust-hdl core) waits as at any barrier, ends, and raises error flag 7; `run` refuses the
/// kernel at the line, from the interpreter's fault.
#[test]
fn a_barrier_in_a_diverged_warp_raises_the_cores_flag() {
    use simt_rtl::hw::SimtCoreModel;
    let text = "lane r1\nbz r1, j, j\nbar\nj: join\nexit\n";
    for core in [CORE_CU, CORE_TINY] {
        let words: Vec<u32> = assemble(text).unwrap().iter().map(|i| i.encode()).collect();
        let mut model = SimtCoreModel::new(core, &words, &[]);
        let e = model.run(10_000).unwrap_err();
        assert_eq!(model.error_bits(), 1 << 7, "{}: {e:#}", core.name);
        assert!(format!("{e:#}").contains("`bar` in a diverged warp"), "{e:#}");
    }
    let dir = std::env::temp_dir().join(format!("simt-rtl-diverged-bar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = dir.join("diverged.s");
    std::fs::write(&kernel, text).unwrap();
    let out = simt_rtl(&["run", kernel.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let at =
        format!("{}:3: `bar`: warp 0 at instruction 2: `bar` in a diverged warp", kernel.display());
    assert!(stderr.contains(&at), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lane ALUs at the seed's lane sizes, 32 lanes of 32 bits with every extension (1,024-bit
/// operands, 16 port words each): rust-hdl against the model for its first 20,000 cycles, the
/// exported Verilog under Verilator for all 100,000.
#[test]
fn lane_alu_of_32_lanes_of_32_bits() {
    use simt_rtl::hw::core::lane_alu::stimulus::alu_stimulus;
    use simt_rtl::hw::LaneAluModel;
    use simt_rtl::params::{CollectorParams, SchedulerParams, Sizes, CU};
    const S: Sizes = Sizes::new(
        SchedulerParams { threads: 32, ..CU.scheduler },
        CollectorParams { lane_bits: 32, ..CU.collector },
        16,
    );
    type Alu = simt_rtl::sized_lane_alu!(S);
    let mut model = LaneAluModel { lanes: 32, lane_bits: 32, isa: Extensions::ALL };
    let make = || Alu::new(Extensions::ALL).unwrap();
    let rec = simt_rtl::export::differential_via_verilog(
        "lane_alu_32x32",
        make,
        &mut model,
        0x5EED_00A1,
        100_000,
        alu_stimulus(32, 32),
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    simt_rtl::hw::core::lane_alu::preset::every_op_code(&rec).unwrap();
}

/// The core at the seed's sizes (`seed-core`: 8 warps of 32 lanes of 32 bits, every
/// extension): every kernel on its model equals the interpreter, and the rust-hdl core equals
/// its model on every output of every cycle of `reduce` (a rust-hdl simulation of 1,024-bit
/// registers: one kernel here, the long runs outside the test command).
#[test]
fn seed_core_runs_the_kernels_as_the_interpreter_says() {
    use simt_rtl::params::CORE_SEED;
    use simt_rtl::verify::core_run::run_rust_hdl;
    let lds = lds_inputs(&mut Rng::new(7), CORE_SEED);
    for name in kernel_names() {
        let c = compare(CORE_SEED, &kernel(&name), &lds, &format!("{name} (seed-core)"));
        eprintln!("{name:10} seed-core: {c:?} ipc {:.2}", c.ipc());
    }
    let program = kernel("reduce");
    let t0 = std::time::Instant::now();
    let run =
        simt_rtl::sim::on_large_stack(|| run_rust_hdl(CORE_SEED, &program, &lds, 100_000, None))
            .unwrap()
            .unwrap_or_else(|e| panic!("reduce on the rust-hdl seed-core: {e:#}"));
    let cycles = run.counters.cycles;
    eprintln!(
        "reduce on the rust-hdl seed-core: {cycles} cycles in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

/// `run --preset seed-core K.s` picks `K.seed-core.expect` beside the kernel by itself (the
/// seed core's 32-bit values, where `K.expect` holds the cu core's), and every kernel that has
/// one leaves its values on the seed core: its exported Verilog on the Verilator engine, behind
/// its host link, every register, word and count also checked against the interpreter; also
/// the kernels of `kernels/seed-core/` (which need its extensions). About two and a half
/// minutes (and the engine's build, once): `spin.s` is 972,916 core cycles, and loading each
/// kernel's local data share and reading every register back through the serial port takes
/// 1.5 to 2.5 million.
#[test]
fn seed_core_kernels_leave_their_own_expected_values() {
    let mut expects: Vec<_> = ["kernels", "kernels/seed-core"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".seed-core.expect"))
        .collect();
    expects.sort();
    assert!(!expects.is_empty(), "no kernel has seed-core expectations");
    for expect in expects {
        let name = expect.file_name().unwrap().to_string_lossy().replace(".seed-core.expect", "");
        let kernel = expect.with_file_name(format!("{name}.s"));
        let out =
            simt_rtl(&["run", "--preset", "seed-core", "--show", "none", kernel.to_str().unwrap()]);
        let (stdout, stderr) =
            (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{}: {stderr}", kernel.display());
        // `using K.seed-core.expect beside it`, or `using K.lds and K.seed-core.expect beside it`.
        let using = stdout.lines().find(|l| l.contains(": using ")).unwrap_or_default();
        assert!(using.contains(&format!("{} beside it", expect.display())), "{stdout}");
        assert!(stdout.contains(&format!("every value of {}", expect.display())), "{stdout}");
    }
}
