//! Random differential tests: each rust-hdl block against its reference model, same seeded
//! constrained-random stimulus, every output compared on every cycle, for every preset and mode.
//! Cycles per run: `SIMT_CYCLES` (default 100,000). A failure prints the seed and the cycle and
//! writes a VCD of the failing window under `target/sim-failures/`.

use simt_rtl::blocks::Order;
use simt_rtl::model::simt_stack::{StackIn, StackOut};
use simt_rtl::model::simt_stack_ram::{StackRamIn, StackRamOut};
use simt_rtl::model::warp_scheduler::{SchedIn, SchedOut};
use simt_rtl::params::{EmptyTop, FetchPolicy, SchedulerMode};
use simt_rtl::preset_blocks::*;
use simt_rtl::verify::{suites, PortStruct};

fn cycles() -> usize {
    std::env::var("SIMT_CYCLES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

const SEED: u64 = 0x5EED_2026;

/// Runs one differential suite and reports its speed (cycles per second, block and model
/// together; see `cargo test --test differential -- --nocapture`).
fn timed<T>(what: String, run: impl FnOnce() -> T) -> T {
    let start = std::time::Instant::now();
    let out = run();
    let secs = start.elapsed().as_secs_f64();
    eprintln!("{what}: {} cycles in {secs:.2} s = {:.0} cycles/s", cycles(), cycles() as f64 / secs);
    out
}

fn encoder<B: PresetBlocks>() {
    for order in [Order::LowestFirst, Order::HighestFirst] {
        timed(format!("{} encoder {order:?}", B::PRESET.name), || suites::encoder::<B>(order, SEED, cycles()).unwrap());
    }
}

fn arbiter<B: PresetBlocks>() {
    timed(format!("{} arbiter", B::PRESET.name), || suites::arbiter::<B>(SEED, cycles()).unwrap());
}

fn stack<B: PresetBlocks>() {
    let rec = timed(format!("{} stack", B::PRESET.name), || suites::stack::<B>(SEED, cycles()).unwrap());
    // Coverage: the corners the issue names were reached.
    let (mut full_push, mut empty_pop, mut both) = (0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (StackIn::from_words(i), StackOut::from_words(o));
        full_push += (i.push == 1 && i.pop == 0 && o.full == 1) as usize;
        empty_pop += (i.pop == 1 && i.push == 0 && o.empty == 1) as usize;
        both += (i.push == 1 && i.pop == 1) as usize;
    }
    assert!(full_push > 10 && empty_pop > 10 && both > 10, "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}");
}

fn stack_ram<B: PresetBlocks>(empty_top: EmptyTop) {
    let rec = timed(format!("{} stack RAM, empty top {empty_top:?}", B::PRESET.name), || suites::stack_ram::<B>(empty_top, SEED, cycles()).unwrap());
    // Coverage: pushes on full and pops on empty stacks, push with pop of one warp, and a popped
    // warp's top shown in the next cycle, while it comes out of the RAM.
    let (mut full_push, mut empty_pop, mut both, mut refill_seen) = (0, 0, 0, 0);
    for (k, (i, o)) in rec.inputs.iter().zip(&rec.outputs).enumerate() {
        let (i, o) = (StackRamIn::from_words(i), StackRamOut::from_words(o));
        full_push += (i.push & !i.pop & o.full != 0) as usize;
        empty_pop += (i.pop & !i.push & o.empty != 0) as usize;
        both += (i.push & i.pop != 0) as usize;
        if let Some(next) = rec.inputs.get(k + 1) {
            let next = StackRamIn::from_words(next);
            refill_seen += (i.pop & !i.push & !o.empty & !i.clear != 0 && i.reset == 0 && next.top_wid == i.pop_wid) as usize;
        }
    }
    assert!(
        full_push > 10 && empty_pop > 10 && both > 10 && refill_seen > 100,
        "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}, refills shown {refill_seen}"
    );
}

fn scheduler<B: PresetBlocks>(mode: SchedulerMode) {
    let rec = timed(format!("{} scheduler {}", B::PRESET.name, mode.name()), || suites::scheduler::<B>(mode, SEED, cycles()).unwrap());
    let (mut busy_cmd, mut overflow, mut all_busy, mut fetches) = (0, 0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (SchedIn::from_words(i), SchedOut::from_words(o));
        busy_cmd += (i.warp_cmd_valid == 1 && o.warp_cmd_ready == 0 && i.reset == 0) as usize;
        overflow += (i.branch_ctl_valid == 1 && o.stack_full >> i.branch_ctl_wid & 1 == 1) as usize;
        all_busy += (o.idle_mask == 0) as usize;
        fetches += (o.inst_fetch_valid == 1 && i.inst_fetch_ready == 1) as usize;
    }
    assert!(
        busy_cmd > 10 && overflow > 10 && all_busy > 100 && fetches > cycles() / 10,
        "coverage: command while all busy {busy_cmd}, push on full {overflow}, all busy {all_busy}, fetches {fetches}"
    );
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
            fn simt_stack_ram_empty_top_slot_zero() {
                stack_ram::<$B>(EmptyTop::SlotZero);
            }
            #[test]
            fn simt_stack_ram_empty_top_zero() {
                stack_ram::<$B>(EmptyTop::Zero);
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
                timed(format!("{} seed-port wrapper", <$B>::PRESET.name), || suites::seed_scheduler::<$B>(true, SEED, cycles()).unwrap());
            }
        }
    };
}

per_preset!(seed, SeedBlocks);
per_preset!(cu, CuBlocks);
per_preset!(tiny, TinyBlocks);

/// The board self-test's LFSR and MISR (the same for every preset).
mod self_test {
    use super::*;

    #[test]
    fn lfsr() {
        let rec = timed("lfsr".into(), || suites::for_module::<CuBlocks>("lfsr", SEED, cycles()).unwrap());
        // Cycle 0 shows the power-up state 0; from the first reset on the state is never 0.
        assert!(rec.outputs.iter().skip(1).all(|o| o[0] != 0), "the LFSR reached state 0");
    }

    #[test]
    fn misr() {
        timed("misr".into(), || suites::for_module::<CuBlocks>("misr", SEED, cycles()).unwrap());
    }

    #[test]
    fn bad_taps_and_seeds_are_refused() {
        use simt_rtl::blocks::{Lfsr, Misr};
        let err = |r: anyhow::Result<_>| format!("{:#}", r.map(|_: ()| ()).unwrap_err());
        assert!(err(Lfsr::<16>::new(0x0400, 1).map(drop)).contains("`taps` = 0x400 must have bit 15"));
        assert!(err(Lfsr::<16>::new(0xB400, 0).map(drop)).contains("`seed` = 0x0 must be non-zero"));
        assert!(err(Lfsr::<16>::new(0x1B400, 1).map(drop)).contains("no bit above it"));
        assert!(err(Misr::<8>::new(0x100).map(drop)).contains("`taps` = 0x100 must have bit 7"));
    }
}
