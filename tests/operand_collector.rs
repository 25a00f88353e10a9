//! Random differential tests of the operand collector's blocks against their GPGPU-Sim-derived
//! models: every output on every cycle, `SIMT_OC_CYCLES` cycles per configuration (default
//! 125,000, so that each block gets at least 1,000,000 compared cycles per run; each of the two
//! register-file configurations gets four times that), for collector units x banks 8x8, 8x4,
//! 4x4, 2x4, in both allocator modes.

use simt_rtl::hw::collector::register_file::MODULE;
use simt_rtl::hw::collector::{bank_arbiter, operand_collector};
use simt_rtl::params::{CollectorParams, SchedulerParams, Sizes, CU};

fn cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_OC_CYCLES", 125_000).unwrap()
}

const LANES: usize = 6;
const ROW_BITS: usize = 4;

/// The sizes of an arbiter of `n` collector units and `b` banks, 2 input ports (6 request lanes)
/// and 16 rows per bank (`b` warps of 16 registers).
const fn arbiter_sizes(n: usize, b: usize) -> Sizes {
    let c = CollectorParams {
        banks: b,
        collector_units: n,
        in_ports: 2,
        regs_per_warp: 16,
        ..CU.collector
    };
    Sizes::new(
        SchedulerParams { warps: b, ..CU.scheduler },
        CollectorParams { sources: 3, ..c },
        16,
    )
}

macro_rules! arbiter_config {
    ($name:ident, $n:literal x $b:literal) => {
        mod $name {
            use super::*;
            const SIZES: Sizes = arbiter_sizes($n, $b);
            type Arb = simt_rtl::sized_bank_arbiter!(SIZES);
            fn run(one_bank_per_cu: bool, respect_bound: bool) {
                let depth = (3 * $n as usize).next_power_of_two();
                let start = std::time::Instant::now();
                let name = format!(
                    "bank_arbiter_{}x{}_{}",
                    $n,
                    $b,
                    if one_bank_per_cu { "one_bank" } else { "multi_bank" }
                );
                let rec = bank_arbiter::preset::run(
                    &name,
                    || Arb::new(one_bank_per_cu, 3).unwrap(),
                    ($b, $n, LANES, depth, ROW_BITS),
                    one_bank_per_cu,
                    respect_bound,
                    0xA7B1_2026,
                    cycles(),
                )
                .unwrap();
                let secs = start.elapsed().as_secs_f64();
                eprintln!("{name}: {} cycles, {:.0} cycles/s", cycles(), cycles() as f64 / secs);
                // Coverage: grants happened, write-backs blocked banks with pending reads.
                let grants: u64 =
                    rec.output("grant").unwrap().iter().map(|g| g.count_ones() as u64).sum();
                assert!(grants > cycles() as u64 / 4, "only {grants} grants");
                let overflowed = rec.output("err_overflow").unwrap().contains(&1);
                assert_eq!(
                    overflowed, !respect_bound,
                    "err_overflow raised exactly when pushes may overflow"
                );
            }
            #[test]
            fn multi_bank_per_cu() {
                run(false, true);
            }
            #[test]
            fn one_bank_per_cu() {
                run(true, true);
            }
            #[test]
            fn overflow_is_dropped_and_flagged() {
                run(false, false);
            }
        }
    };
}

arbiter_config!(cu8_banks8, 8 x 8);
arbiter_config!(cu8_banks4, 8 x 4);
arbiter_config!(cu4_banks4, 4 x 4);
arbiter_config!(cu2_banks4, 2 x 4);

/// The sizes of a register file of `banks` banks of `rows` rows (warps of 16 registers) and
/// `threads` lanes of `lane_bits` bits.
const fn register_file_sizes(banks: usize, rows: usize, threads: usize, lane_bits: usize) -> Sizes {
    Sizes::new(
        SchedulerParams { warps: banks * rows / 16, threads, ..CU.scheduler },
        CollectorParams { banks, lane_bits, ..CU.collector },
        16,
    )
}

mod register_file {
    use super::*;

    const BANKS4_ROWS16: Sizes = register_file_sizes(4, 16, 4, 8);
    const BANKS8_ROWS32: Sizes = register_file_sizes(8, 32, 2, 16);

    #[test]
    fn banks4_rows16_lanes4x8() {
        simt_rtl::hw::collector::register_file::preset::run(
            "register_file_4x16",
            || <simt_rtl::sized_register_file!(BANKS4_ROWS16)>::new().unwrap(),
            (4, 4, 4, 8),
            0x5EED_0F11,
            4 * cycles(),
        )
        .unwrap();
    }
    #[test]
    fn banks8_rows32_lanes2x16() {
        simt_rtl::hw::collector::register_file::preset::run(
            "register_file_8x32",
            || <simt_rtl::sized_register_file!(BANKS8_ROWS32)>::new().unwrap(),
            (8, 5, 2, 16),
            0x5EED_0F12,
            4 * cycles(),
        )
        .unwrap();
    }
}

/// A register file at the seed's lane sizes, 32 lanes of 32 bits (1,024-bit rows, carried as 16
/// port words each): rust-hdl against the model, then the exported Verilog under iverilog and
/// Verilator against that run.
#[test]
fn register_file_of_32_lanes_of_32_bits() {
    const RF: Sizes = register_file_sizes(4, 16, 32, 32);
    type Rf = simt_rtl::sized_register_file!(RF);
    let run = |cycles| {
        simt_rtl::hw::collector::register_file::preset::run(
            "register_file_32x32",
            || Rf::new().unwrap(),
            (4, 4, 32, 32),
            0x5EED_0F13,
            cycles,
        )
        .unwrap()
    };
    let rec = run(20_000);
    let work = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/verilog-sim/register_file_32x32");
    replay_register_file(Rf::new, "// register file, 32 x 32-bit lanes (test)\n", &rec, &work);
}

/// Exports the register file `make` builds to `work/<MODULE>.v` and replays `rec` on it under
/// iverilog and Verilator.
fn replay_register_file<D: simt_rtl::sim::Dut>(
    make: impl Fn() -> anyhow::Result<D>,
    header: &str,
    rec: &simt_rtl::sim::Recorded,
    work: &std::path::Path,
) {
    use simt_rtl::sim::verilog_sim::Simulator;
    for sim in [Simulator::Iverilog, Simulator::Verilator] {
        let dir = work.join(sim.name());
        simt_rtl::export::check_exported(sim, make().unwrap(), (MODULE, header), rec, &dir)
            .unwrap_or_else(|e| panic!("{}: {e:#}", sim.name()));
    }
}

/// The register file's Verilog (its banks are hand-written `LaneRam` Verilog with a hand-written
/// Rust model, so this is the check that the two agree), for the cu-sized configuration: under
/// iverilog and Verilator against the rust-hdl run, lint-clean, and mapped onto SB_RAM40_4K.
/// (In rtl_out/ it is inside `operand_collector`, checked again there.)
#[test]
fn register_file_verilog() {
    const RF: Sizes = register_file_sizes(4, 16, 8, 8);
    type Rf = simt_rtl::sized_register_file!(RF);
    let cycles = simt_rtl::sim::cycles_from_env("SIMT_VERILOG_CYCLES", 20_000).unwrap();
    let rec = simt_rtl::hw::collector::register_file::preset::run(
        "register_file_cu",
        || Rf::new().unwrap(),
        (4, 4, 8, 8),
        0x0E1A_0F11,
        cycles,
    )
    .unwrap();
    let work = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/verilog-sim/cu/register_file_pattern");
    replay_register_file(Rf::new, "// register file, cu sizes (test)\n", &rec, &work);
    let file = work.join("verilator").join(format!("{MODULE}.v"));
    simt_rtl::flow::verilator_lint(&file, MODULE).unwrap();
    let stats = simt_rtl::flow::synth_ice40(&file, MODULE).unwrap();
    eprintln!("{MODULE} (cu sizes): {stats:?}");
    assert_eq!(stats.block_rams, 16, "4 banks x 64-bit rows = 4 x 4 SB_RAM40_4K");
}

/// The whole operand collector against `opndcoll_rfu_t::step()` (the model): 4 warps of 4 lanes
/// x 8 bits, 16 registers per warp, 2 input ports, 2 unit types. Each run cycles through the
/// four combinations of write-backs on/off and output back-pressure on/off.
mod collector {
    use super::*;
    use simt_rtl::hw::OperandCollector;
    use simt_rtl::params::{CollectorParams, CollectorTiming};
    use simt_rtl::sim::{Dut, Recorded};

    const SHAPE: (usize, usize) = (4, 4);

    fn params(banks: usize, collector_units: usize) -> CollectorParams {
        CollectorParams {
            banks,
            collector_units,
            in_ports: 2,
            regs_per_warp: 16,
            one_bank_per_cu: false,
            unit_types: 2,
            specialized: false,
            schedulers: 1,
            in_order_per_warp: false,
            lane_bits: 8,
            tag_bits: 8,
            sources: 3,
            timing: CollectorTiming::GpgpuSim,
        }
    }

    /// Sums of an output column over the run.
    fn column<D: Dut>(dut: &D, rec: &Recorded, name: &str) -> Vec<u64> {
        let ports = dut.output_ports();
        let i =
            ports.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("no output {name}"));
        rec.outputs.iter().map(|o| o[i]).collect()
    }

    fn run<D: Dut>(name: &str, make: impl Fn() -> D, c: CollectorParams) {
        let start = std::time::Instant::now();
        let rec =
            operand_collector::preset::run(name, &make, c, SHAPE, 0x0C0C_2026, cycles()).unwrap();
        let secs = start.elapsed().as_secs_f64();
        eprintln!("{name}: {} cycles, {:.0} cycles/s", cycles(), cycles() as f64 / secs);
        // Coverage: instructions flowed, banks conflicted, output registers were held.
        let dut = make();
        let dispatched: u64 =
            column(&dut, &rec, "dispatch").iter().map(|d| d.count_ones() as u64).sum();
        let grants: u64 = column(&dut, &rec, "grant").iter().map(|g| g.count_ones() as u64).sum();
        let held = column(&dut, &rec, "out_valid$0")
            .iter()
            .zip(rec.inputs.iter())
            .filter(|(v, _)| **v == 1)
            .count();
        let stalls = column(&dut, &rec, "count_stall").iter().max().copied().unwrap_or(0);
        eprintln!("  dispatched {dispatched}, grants {grants}, output 0 valid {held} cycles, max stall count {stalls}");
        assert!(dispatched > cycles() as u64 / 10, "only {dispatched} dispatches");
        assert!(grants > dispatched, "grants {grants} vs dispatches {dispatched}");
        assert!(stalls > 0, "no bank-conflict stall seen");
        if !c.unit_types.is_power_of_two() {
            assert!(
                column(&dut, &rec, "err_unit").contains(&1),
                "a bad unit type was never flagged"
            );
        }
        assert!(!column(&dut, &rec, "err_overflow").contains(&1), "a bank queue overflowed");
        let bad_source = column(&dut, &rec, "err_source").contains(&1);
        assert_eq!(bad_source, c.sources < 3, "a register beyond `sources` flagged: {bad_source}");
        let (ready_when_full, fewest) = timing_signature(&rec, c);
        eprintln!("  ready with every unit busy: {ready_when_full} cycles; fewest cycles from allocation to dispatch: {fewest}");
        match c.timing {
            // A unit freed by dispatch takes an instruction in the same cycle; reads are granted
            // the cycle after allocation, dispatched the one after.
            CollectorTiming::GpgpuSim => {
                assert!(ready_when_full > 0, "no unit freed by dispatch was reallocated at once");
                assert_eq!(fewest, 2);
            }
            // Only units free before the cycle are offered; reads are as fast.
            CollectorTiming::Pipelined => {
                assert_eq!(ready_when_full, 0, "a unit freed by dispatch was offered at once");
                assert_eq!(fewest, 2);
            }
        }
    }

    /// Read from the block's own ports: the cycles in which an input port was ready while every
    /// collector unit was busy, and the fewest cycles from taking an instruction with a register
    /// operand to dispatching it.
    fn timing_signature(rec: &Recorded, c: CollectorParams) -> (usize, usize) {
        let col = |name: String| rec.output(&name).or_else(|_| rec.input(&name)).unwrap();
        let (reset, busy, dispatch) =
            (col("reset".into()), col("busy".into()), col("dispatch".into()));
        let all = (1u64 << c.collector_units) - 1;
        let (mut ready_when_full, mut fewest) = (0, usize::MAX);
        let mut taken_at: Vec<Option<usize>> = vec![None; c.collector_units];
        let ports: Vec<[Vec<u64>; 4]> = (0..c.in_ports)
            .map(|p| {
                ["in_valid", "in_ready", "in_cu", "in_src_valid"].map(|f| col(format!("{f}${p}")))
            })
            .collect();
        for t in 0..reset.len() {
            for (n, at) in taken_at.iter_mut().enumerate() {
                if dispatch[t] >> n & 1 == 1 {
                    fewest = fewest.min(at.take().map_or(usize::MAX, |a| t - a));
                }
            }
            for [valid, ready, cu, src_valid] in &ports {
                ready_when_full += (ready[t] == 1 && busy[t] == all) as usize;
                if valid[t] == 1 && ready[t] == 1 && src_valid[t] != 0 {
                    taken_at[cu[t] as usize] = Some(t);
                } else if valid[t] == 1 && ready[t] == 1 {
                    taken_at[cu[t] as usize] = None;
                }
            }
            if reset[t] == 1 {
                taken_at.fill(None);
            }
        }
        (ready_when_full, fewest)
    }

    macro_rules! collector_config {
        ($name:ident, $n:literal x $b:literal, |$c:ident| $tweak:expr, $($g:literal),*) => {
            #[test]
            fn $name() {
                #[allow(unused_mut)]
                let mut $c = params($b, $n);
                #[allow(clippy::no_effect)] // a configuration without a tweak passes `()`
                $tweak;
                run(stringify!($name), || OperandCollector::<$($g),*>::new($c, SHAPE.0, SHAPE.1).unwrap(), $c);
            }
        };
    }

    // OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>
    collector_config!(cu8_banks8, 8 x 8, |c| (), 8, 3, 8, 3, 2, 6, 32, 5, 6, 256, 8, 3, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu8_banks4, 8 x 4, |c| (), 4, 2, 8, 3, 2, 6, 32, 5, 6, 128, 8, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu4_banks4, 4 x 4, |c| (), 4, 2, 4, 2, 2, 6, 16, 4, 5, 64, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu2_banks4, 2 x 4, |c| (), 4, 2, 2, 1, 2, 6, 8, 3, 4, 32, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    // The options: booksim's one-bank matching with in-order warps, specialized sets, sub-cores.
    collector_config!(cu4_banks4_one_bank_in_order, 4 x 4, |c| { c.one_bank_per_cu = true; c.in_order_per_warp = true }, 4, 2, 4, 2, 2, 6, 16, 4, 5, 64, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu8_banks4_specialized, 8 x 4, |c| c.specialized = true, 4, 2, 8, 3, 2, 6, 32, 5, 6, 128, 8, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    // Three unit types in 2-bit unit fields: the stimulus sometimes names type 3, which must be
    // refused (never taken) and flagged.
    collector_config!(cu4_banks4_three_units, 4 x 4, |c| c.unit_types = 3, 4, 2, 4, 2, 2, 6, 16, 4, 5, 64, 4, 4, 2, 4, 4, 8, 32, 3, 2, 8);
    // Two register sources (the core's ISA): queues of 2 N entries; the stimulus sometimes
    // names a register in slot 2, which must be dropped and flagged.
    collector_config!(cu4_banks4_two_sources, 4 x 4, |c| c.sources = 2, 4, 2, 4, 2, 2, 6, 8, 3, 4, 32, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu8_banks8_sub_core, 8 x 8, |c| c.schedulers = 2, 8, 3, 8, 3, 2, 6, 32, 5, 6, 256, 8, 3, 2, 4, 4, 8, 32, 2, 1, 8);
    // Pipelined timing: the same traffic and options, the unit freed by dispatch taken a cycle
    // later.
    collector_config!(cu8_banks4_pipelined, 8 x 4, |c| c.timing = CollectorTiming::Pipelined, 4, 2, 8, 3, 2, 6, 32, 5, 6, 128, 8, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu2_banks4_pipelined, 2 x 4, |c| c.timing = CollectorTiming::Pipelined, 4, 2, 2, 1, 2, 6, 8, 3, 4, 32, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu4_banks4_one_bank_in_order_pipelined, 4 x 4, |c| { c.one_bank_per_cu = true; c.in_order_per_warp = true; c.timing = CollectorTiming::Pipelined }, 4, 2, 4, 2, 2, 6, 16, 4, 5, 64, 4, 4, 2, 4, 4, 8, 32, 2, 1, 8);
    collector_config!(cu8_banks4_specialized_pipelined, 8 x 4, |c| { c.specialized = true; c.timing = CollectorTiming::Pipelined }, 4, 2, 8, 3, 2, 6, 32, 5, 6, 128, 8, 4, 2, 4, 4, 8, 32, 2, 1, 8);
}

/// Nothing lost, duplicated or read wrong: the collector in a closed loop with a scoreboarded
/// issue stage, an execution stage writing back, and a shadow register file (see
/// `simt_rtl::verify::collector_env`), compared with its model every cycle.
mod closed_loop {
    use super::*;
    use simt_rtl::params::CollectorTiming;

    const SHAPE: (usize, usize) = (4, 4);

    /// A collector of `collector_units` units and `sources` source slots at [`params`]' sizes,
    /// serving 4 warps of 4 lanes.
    const fn sizes(collector_units: usize, sources: usize) -> Sizes {
        let c = CollectorParams { sources, ..params(collector_units, true) };
        Sizes::new(SchedulerParams { warps: SHAPE.0, threads: SHAPE.1, ..CU.scheduler }, c, 16)
    }
    const U4: Sizes = sizes(4, 3);
    const U8: Sizes = sizes(8, 3);
    const U4_SOURCES2: Sizes = sizes(4, 2);
    type Cu4Banks4 = simt_rtl::sized_operand_collector!(U4);
    type Cu8Banks4 = simt_rtl::sized_operand_collector!(U8);
    /// [`Cu4Banks4`] with two source slots (the core's ISA): queues of 8.
    type Cu4Banks4Sources2 = simt_rtl::sized_operand_collector!(U4_SOURCES2);

    const fn params(collector_units: usize, in_order_per_warp: bool) -> CollectorParams {
        CollectorParams {
            banks: 4,
            collector_units,
            in_ports: 2,
            regs_per_warp: 16,
            one_bank_per_cu: false,
            unit_types: 2,
            specialized: false,
            schedulers: 1,
            in_order_per_warp,
            lane_bits: 8,
            tag_bits: 8,
            sources: 3,
            timing: CollectorTiming::GpgpuSim,
        }
    }

    fn closed_cycles() -> usize {
        (cycles() / 4).max(2_000)
    }

    /// `make()`'s collector with parameters `c` in the closed loop over registers
    /// `0..regs_used`, from `seed`: what the environment saw.
    fn closed_loop<D: simt_rtl::sim::Dut>(
        name: &str,
        make: impl Fn() -> D,
        c: CollectorParams,
        regs_used: usize,
        seed: u64,
    ) -> simt_rtl::verify::collector_env::EnvStats {
        let (_, stats) = simt_rtl::verify::collector_env::operand_collector_closed_loop(
            name,
            make,
            c,
            SHAPE,
            regs_used,
            seed,
            closed_cycles(),
        )
        .unwrap();
        eprintln!("{name}: {stats:?}");
        stats
    }

    /// No WAR hazard, and a tenth of the cycles or more saw an instruction complete.
    fn in_order_and_busy(stats: &simt_rtl::verify::collector_env::EnvStats) {
        assert_eq!(stats.war_hazards, 0);
        assert!(stats.completed > closed_cycles() as u64 / 10, "{stats:?}");
    }

    /// The WAR hazard of seed 002 exists without the in-order option: a younger instruction
    /// overwrites a register before an older one of its warp has read it. Registers 0..6 only,
    /// so that operands queue behind each other.
    #[test]
    fn war_hazard_without_in_order() {
        let mut c = params(8, false);
        c.one_bank_per_cu = true;
        let stats = closed_loop(
            "closed_loop_war",
            || Cu8Banks4::new(c, SHAPE.0, SHAPE.1).unwrap(),
            c,
            4,
            0xC105_ED01,
        );
        assert!(stats.war_hazards > 0, "the hazard never showed: {stats:?}");
    }

    /// ... and is gone with it, on the same traffic.
    #[test]
    fn no_war_hazard_with_in_order() {
        let mut c = params(8, true);
        c.one_bank_per_cu = true;
        let stats = closed_loop(
            "closed_loop_in_order",
            || Cu8Banks4::new(c, SHAPE.0, SHAPE.1).unwrap(),
            c,
            4,
            0xC105_ED01,
        );
        in_order_and_busy(&stats);
    }

    /// All registers, specialized sets: every instruction leaves once, correct.
    #[test]
    fn specialized_in_order_all_registers() {
        let mut c = params(4, true);
        c.specialized = true;
        let stats = closed_loop(
            "closed_loop_specialized",
            || Cu4Banks4::new(c, SHAPE.0, SHAPE.1).unwrap(),
            c,
            16,
            0xC105_ED02,
        );
        in_order_and_busy(&stats);
    }

    /// Two source slots, as the core's ISA has: the environment offers registers only in
    /// those, and every instruction leaves once, correct.
    #[test]
    fn two_sources_in_order_all_registers() {
        let c = CollectorParams { sources: 2, ..params(4, true) };
        let stats = closed_loop(
            "closed_loop_two_sources",
            || Cu4Banks4Sources2::new(c, SHAPE.0, SHAPE.1).unwrap(),
            c,
            16,
            0xC105_ED04,
        );
        in_order_and_busy(&stats);
    }

    /// Pipelined timing, in order, all registers: every instruction leaves once, correct.
    #[test]
    fn pipelined_in_order_all_registers() {
        let mut c = params(8, true);
        c.timing = CollectorTiming::Pipelined;
        let stats = closed_loop(
            "closed_loop_pipelined",
            || Cu8Banks4::new(c, SHAPE.0, SHAPE.1).unwrap(),
            c,
            16,
            0xC105_ED03,
        );
        in_order_and_busy(&stats);
    }
}
