//! Random differential tests: each rust-hdl block against its reference model, same seeded
//! constrained-random stimulus, every output compared on every cycle, for every preset.
//! Cycles per test: `SIMT_CYCLES` (default 100,000). A failure prints the seed and the cycle and
//! writes a VCD of the failing window under `target/sim-failures/`.

use simt_rtl::blocks::Order;
use simt_rtl::model::priority_encoder::EncoderIn;
use simt_rtl::model::round_robin::ArbiterIn;
use simt_rtl::model::warp_scheduler::{SchedIn, SchedOut};
use simt_rtl::model::*;
use simt_rtl::params::{FetchPolicy, SchedulerMode};
use simt_rtl::preset_blocks::*;
use simt_rtl::verify::stimulus::*;
use simt_rtl::verify::{run_differential, Dut, PortStruct};

fn cycles() -> usize {
    std::env::var("SIMT_CYCLES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

const SEED: u64 = 0x5EED_2026;

fn names(ports: Vec<simt_rtl::verify::Port>) -> Vec<String> {
    ports.into_iter().map(|p| p.name).collect()
}

fn encoder<B: PresetBlocks>() {
    let n = B::PRESET.scheduler.warps;
    for order in [Order::LowestFirst, Order::HighestFirst] {
        let dut = B::warp_encoder(order).unwrap();
        assert_eq!(names(dut.input_ports()), EncoderIn::NAMES);
        let mut model = PriorityEncoderModel { n, order };
        run_differential(&format!("encoder_{}_{order:?}", B::PRESET.name), || B::warp_encoder(order).unwrap(), &mut model, SEED, cycles() / 10, |rng, _, _| {
            EncoderIn { req: requests(rng, n) }.to_words()
        })
        .unwrap();
    }
}

fn arbiter<B: PresetBlocks>() {
    let n = B::PRESET.scheduler.warps;
    assert_eq!(names(B::warp_arbiter().unwrap().input_ports()), ArbiterIn::NAMES);
    let mut model = RoundRobinModel::new(n);
    run_differential(&format!("arbiter_{}", B::PRESET.name), || B::warp_arbiter().unwrap(), &mut model, SEED, cycles(), |rng, _, c| {
        ArbiterIn { reset: (c == 0 || rng.chance(1)) as u64, req: requests(rng, n), advance: rng.chance(70) as u64 }.to_words()
    })
    .unwrap();
}

fn stack<B: PresetBlocks>() {
    let p = B::PRESET.scheduler;
    let mut model = SimtStackModel::new(p.stack_depth);
    let rec = run_differential(&format!("stack_{}", B::PRESET.name), || B::stack().unwrap(), &mut model, SEED, cycles(), stack_stimulus(p.threads, p.pc_width)).unwrap();
    // Coverage: the corners the issue names were reached.
    let (mut full_push, mut empty_pop, mut both) = (0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        // inputs: reset, push, pop, clear, ...; outputs: top_mask, top_pc, empty, full, ...
        full_push += (i[1] == 1 && i[2] == 0 && o[3] == 1) as usize;
        empty_pop += (i[2] == 1 && i[1] == 0 && o[2] == 1) as usize;
        both += (i[1] == 1 && i[2] == 1) as usize;
    }
    assert!(full_push > 10 && empty_pop > 10 && both > 10, "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}");
}

fn scheduler<B: PresetBlocks>(mode: SchedulerMode) {
    let p = B::PRESET.scheduler;
    let dut = B::scheduler(mode).unwrap();
    assert_eq!(names(dut.input_ports()), SchedIn::NAMES);
    assert_eq!(names(dut.output_ports()), SchedOut::NAMES);
    let mut model = WarpSchedulerModel::new(p, mode);
    let name = format!("scheduler_{}_{}", B::PRESET.name, mode.name().replace([' ', ','], "_"));
    let rec = run_differential(&name, || B::scheduler(mode).unwrap(), &mut model, SEED, cycles(), scheduler_stimulus(p, true)).unwrap();
    let (mut busy_cmd, mut overflow, mut fetches) = (0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (SchedIn::from_words(i), SchedOut::from_words(o));
        busy_cmd += (i.warp_cmd_valid == 1 && o.warp_cmd_ready == 0 && i.reset == 0) as usize;
        overflow += (i.branch_ctl_valid == 1 && o.stack_full >> i.branch_ctl_wid & 1 == 1) as usize;
        fetches += (o.inst_fetch_valid == 1 && i.inst_fetch_ready == 1) as usize;
    }
    assert!(busy_cmd > 10 && overflow > 10 && fetches > 1000, "coverage: command while all busy {busy_cmd}, push on full {overflow}, fetches {fetches}");
}

fn seed_scheduler<B: PresetBlocks>() {
    let p = B::PRESET.scheduler;
    let mut model = SeedWarpSchedulerModel::new(p);
    run_differential(&format!("seed_scheduler_{}", B::PRESET.name), || B::seed_scheduler().unwrap(), &mut model, SEED, cycles(), seed_scheduler_stimulus(p, true)).unwrap();
}

macro_rules! per_preset {
    ($modname:ident, $B:ty) => {
        mod $modname {
            use super::*;
            #[test]
            fn priority_encoder() {
                encoder::<$B>();
            }
            #[test]
            fn round_robin_arbiter() {
                arbiter::<$B>();
            }
            #[test]
            fn simt_stack() {
                stack::<$B>();
            }
            #[test]
            fn warp_scheduler_seed_mode() {
                scheduler::<$B>(SchedulerMode::SeedCompatible);
            }
            #[test]
            fn warp_scheduler_fixed_round_robin() {
                scheduler::<$B>(SchedulerMode::Fixed(FetchPolicy::RoundRobin));
            }
            #[test]
            fn warp_scheduler_fixed_lowest() {
                scheduler::<$B>(SchedulerMode::Fixed(FetchPolicy::LowestIndex));
            }
            #[test]
            fn warp_scheduler_fixed_highest() {
                scheduler::<$B>(SchedulerMode::Fixed(FetchPolicy::HighestIndex));
            }
            #[test]
            fn seed_port_wrapper() {
                seed_scheduler::<$B>();
            }
        }
    };
}

per_preset!(seed, SeedBlocks);
per_preset!(cu, CuBlocks);
per_preset!(tiny, TinyBlocks);
