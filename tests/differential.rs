//! Random differential tests: each rust-hdl block against its reference model, same seeded
//! constrained-random stimulus, every output compared on every cycle, for every preset and mode.
//! Cycles per run: `SIMT_CYCLES` (default 1,000,000). A failure prints the seed and the cycle and
//! writes a VCD of the failing window under `target/sim-failures/`.

use simt_rtl::hw::common::{priority_encoder, round_robin};
use simt_rtl::hw::scheduler::simt_stack::model::{StackIn, StackOut};
use simt_rtl::hw::scheduler::simt_stack_ram::model::{StackRamIn, StackRamOut};
use simt_rtl::hw::scheduler::warp_scheduler::model::{SchedIn, SchedOut};
use simt_rtl::hw::scheduler::{simt_stack, simt_stack_ram, warp_scheduler};
use simt_rtl::hw::Order;
use simt_rtl::params::{EmptyTop, FetchPolicy, SchedulerMode, TopStorage};
use simt_rtl::registry::*;
use simt_rtl::sim::PortStruct;

fn cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_CYCLES", 1_000_000).unwrap()
}

const SEED: u64 = 0x5EED_2026;

/// Runs one differential suite and reports its speed (cycles per second, block and model
/// together; see `cargo test --test differential -- --nocapture`).
fn timed<T>(what: String, run: impl FnOnce() -> T) -> T {
    let start = std::time::Instant::now();
    let out = run();
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{what}: {} cycles in {secs:.2} s = {:.0} cycles/s",
        cycles(),
        cycles() as f64 / secs
    );
    out
}

fn encoder<B: PresetBlocks>() {
    for order in [Order::LowestFirst, Order::HighestFirst] {
        timed(format!("{} encoder {order:?}", B::PRESET.name), || {
            priority_encoder::preset::differential::<B>(order, SEED, cycles()).unwrap()
        });
    }
}

fn arbiter<B: PresetBlocks>() {
    timed(format!("{} arbiter", B::PRESET.name), || {
        round_robin::preset::differential::<B>(SEED, cycles()).unwrap()
    });
}

fn arbiter_lookahead<B: PresetBlocks>() {
    timed(format!("{} lookahead arbiter", B::PRESET.name), || {
        round_robin::preset::lookahead_differential::<B>(SEED, cycles()).unwrap()
    });
}

fn stack<B: PresetBlocks>() {
    let rec = timed(format!("{} stack", B::PRESET.name), || {
        simt_stack::preset::differential::<B>(SEED, cycles()).unwrap()
    });
    // Coverage: the corners the issue names were reached.
    let (mut full_push, mut empty_pop, mut both) = (0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (StackIn::from_words(i), StackOut::from_words(o));
        full_push += (i.push == 1 && i.pop == 0 && o.full == 1) as usize;
        empty_pop += (i.pop == 1 && i.push == 0 && o.empty == 1) as usize;
        both += (i.push == 1 && i.pop == 1) as usize;
    }
    assert!(
        full_push > 10 && empty_pop > 10 && both > 10,
        "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}"
    );
}

fn stack_ram<B: PresetBlocks>(empty_top: EmptyTop, top_storage: TopStorage) {
    let rec = timed(
        format!("{} stack RAM, empty top {empty_top:?}, top in {top_storage:?}", B::PRESET.name),
        || {
            simt_stack_ram::preset::differential::<B>(empty_top, top_storage, SEED, cycles())
                .unwrap()
        },
    );
    // Coverage: pushes on full and pops on empty stacks, push with pop of one warp, a popped
    // warp's top shown in the next cycle, while it comes out of the RAM, and the top of a warp
    // pushed while it is shown.
    let (mut full_push, mut empty_pop, mut both, mut refill_seen, mut pushed_shown) =
        (0, 0, 0, 0, 0);
    for (k, (i, o)) in rec.inputs.iter().zip(&rec.outputs).enumerate() {
        let (i, o) = (StackRamIn::from_words(i), StackRamOut::from_words(o));
        full_push += (i.push & !i.pop & o.full != 0) as usize;
        empty_pop += (i.pop & !i.push & o.empty != 0) as usize;
        both += (i.push & i.pop != 0) as usize;
        if let Some(next) = rec.inputs.get(k + 1) {
            let next = StackRamIn::from_words(next);
            refill_seen += (i.pop & !i.push & !o.empty & !i.clear != 0
                && i.reset == 0
                && next.top_wid == i.pop_wid) as usize;
        }
        pushed_shown += (i.push >> i.top_wid & 1 == 1 && i.reset == 0) as usize;
    }
    assert!(
        full_push > 10 && empty_pop > 10 && both > 10 && refill_seen > 100 && pushed_shown > 100,
        "coverage: push on full {full_push}, pop on empty {empty_pop}, push+pop {both}, refills shown {refill_seen}, pushed tops shown {pushed_shown}"
    );
}

fn scheduler<B: PresetBlocks>(mode: SchedulerMode) {
    let rec = timed(format!("{} scheduler {}", B::PRESET.name, mode.name()), || {
        warp_scheduler::preset::differential::<B>(mode, SEED, cycles()).unwrap()
    });
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
    misuse_coverage(&rec);
}

/// The runtime misuse the random stimulus drives on purpose, each compared with the model on
/// every cycle (so its behaviour is the model's, defined one): a command's valid dropped or its
/// data changed while not ready, reset while warps run, and every error flag raised, then
/// cleared by a reset after which the scheduler fetches again.
fn misuse_coverage(rec: &simt_rtl::sim::Recorded) {
    let ins: Vec<SchedIn> = rec.inputs.iter().map(|w| SchedIn::from_words(w)).collect();
    let outs: Vec<SchedOut> = rec.outputs.iter().map(|w| SchedOut::from_words(w)).collect();
    let (mut dropped, mut changed, mut reset_busy) = (0, 0, 0);
    for t in 0..ins.len() - 1 {
        let (i, o, next) = (&ins[t], &outs[t], &ins[t + 1]);
        let waiting = i.warp_cmd_valid == 1 && o.warp_cmd_ready == 0 && i.reset == 0;
        dropped += (waiting && next.warp_cmd_valid == 0) as usize;
        changed += (waiting
            && next.warp_cmd_valid == 1
            && (next.warp_cmd_pc, next.warp_cmd_mask) != (i.warp_cmd_pc, i.warp_cmd_mask))
            as usize;
        reset_busy += (i.reset == 1 && o.active_mask != 0) as usize;
    }
    type Flag = fn(&SchedOut) -> u64;
    let flags: [(&str, Flag); 6] = [
        ("err_overflow", |o| o.err_overflow),
        ("err_underflow", |o| o.err_underflow),
        ("err_end_idle", |o| o.err_end_idle),
        ("err_branch_idle", |o| o.err_branch_idle),
        ("err_pop_idle", |o| o.err_pop_idle),
        ("err_ctl_idle", |o| o.err_ctl_idle),
    ];
    for (name, flag) in flags {
        // Raised, then a reset clears it, then a fetch before the flag rises again.
        let (mut raised, mut recovered, mut cleared) = (0, 0, false);
        for t in 1..outs.len() {
            raised += (flag(&outs[t - 1]) == 0 && flag(&outs[t]) != 0) as usize;
            if flag(&outs[t - 1]) != 0 && ins[t - 1].reset == 1 {
                assert_eq!(flag(&outs[t]), 0, "{name} survived a reset at cycle {}", t - 1);
                cleared = true;
            }
            if cleared
                && flag(&outs[t]) == 0
                && outs[t].inst_fetch_valid == 1
                && ins[t].inst_fetch_ready == 1
            {
                recovered += 1;
                cleared = false;
            }
        }
        assert!(
            raised > 10 && recovered > 10,
            "{name}: raised {raised} times, fetching again after the reset {recovered} times"
        );
    }
    assert!(dropped > 10 && changed > 10 && reset_busy > 10, "misuse: command dropped {dropped}, changed {changed} while not ready; resets with warps active {reset_busy}");
}

fn local_data_share<B: PresetBlocks>() {
    let p = B::PRESET;
    let rec = timed(format!("{} local data share", p.name), || {
        simt_rtl::registry::differential::<B>("local_data_share", SEED, cycles()).unwrap()
    });
    // Coverage: loads and stores taken, accesses that took several cycles (bank conflicts),
    // accesses taken back to back, requests held or changed while not ready, resets mid-access.
    let m = simt_rtl::hw::LocalDataShareModel::new(
        p.scheduler.threads,
        p.collector.lane_bits,
        p.lds_rows,
    );
    let (mut loads, mut stores, mut multi, mut back_to_back, mut reset_busy) = (0, 0, 0, 0, 0);
    let (mut since, mut max_cycles, mut busy) = (0, 0, false);
    let (req_ready, resp_valid) =
        (rec.output("req_ready").unwrap(), rec.output("resp_valid").unwrap());
    for (c, i) in rec.inputs.iter().enumerate() {
        let i = m.decode(i);
        let (ready, responded) = (req_ready[c] == 1, resp_valid[c] == 1);
        if i.reset {
            reset_busy += busy as usize;
            busy = false;
            continue;
        }
        since += 1;
        if responded {
            max_cycles = max_cycles.max(since);
        }
        if i.valid && ready {
            back_to_back += (busy && !responded) as usize;
            loads += !i.write as usize;
            stores += i.write as usize;
            multi += (since > 3) as usize;
            since = 0;
            busy = true;
        } else if responded {
            busy = false;
        }
    }
    let want = if p.scheduler.threads > 4 { 50 } else { 0 };
    assert!(
        loads > 1000 && stores > 1000 && multi > want && back_to_back > 100 && reset_busy > 10,
        "coverage: loads {loads}, stores {stores}, accesses longer than 2 cycles {multi} (longest {max_cycles}), back to back {back_to_back}, resets mid-access {reset_busy}"
    );
}

fn scoreboard<B: PresetBlocks>() {
    use simt_rtl::hw::core::scoreboard::model::{ScoreboardIn, ScoreboardOut};
    let rec = timed(format!("{} scoreboard", B::PRESET.name), || {
        simt_rtl::registry::differential::<B>("scoreboard", SEED, cycles()).unwrap()
    });
    // Coverage: hazards seen, a hazard cleared by the same cycle's release, both misuse flags.
    let (mut hazards, mut bypassed, mut double, mut free) = (0, 0, 0, 0);
    let mut model = simt_rtl::hw::ScoreboardModel::new(B::PRESET.scheduler.warps);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (si, so) = (ScoreboardIn::from_words(i), ScoreboardOut::from_words(o));
        hazards += so.hazard as usize;
        let without_release = ScoreboardIn { release_valid: 0, ..si };
        bypassed += (so.hazard == 0 && model.collides(&without_release)) as usize;
        double += (si.reset == 0
            && so.err_double_reserve == 0
            && si.reserve_valid == 1
            && model.reg_table[si.reserve_warp as usize].contains(&si.reserve_reg)
            && !(si.release_valid == 1
                && (si.release_warp, si.release_reg) == (si.reserve_warp, si.reserve_reg)))
            as usize;
        free += (si.reset == 0
            && si.release_valid == 1
            && !model.reg_table[si.release_warp as usize].contains(&si.release_reg))
            as usize;
        simt_rtl::sim::CycleModel::step(&mut model, i);
    }
    assert!(hazards > 1000 && bypassed > 100 && double > 10 && free > 10, "coverage: hazards {hazards}, cleared by the same cycle's release {bypassed}, double reservations {double}, releases of free registers {free}");
}

fn lane_alu<B: PresetBlocks>() {
    let rec = timed(format!("{} lane ALU", B::PRESET.name), || {
        simt_rtl::registry::differential::<B>("lane_alu", SEED, cycles()).unwrap()
    });
    // Coverage: every op code, undefined ones included.
    let mut seen = [0usize; 16];
    rec.inputs.iter().for_each(|i| seen[i[0] as usize] += 1);
    assert!(seen.iter().all(|&n| n > 10), "op codes seen: {seen:?}");
}

/// The decoder is the same for every preset.
#[test]
fn decoder() {
    let rec = timed("decoder".into(), || {
        simt_rtl::registry::differential::<CuBlocks>("decoder", SEED, cycles()).unwrap()
    });
    // Coverage: every kind, and illegal opcodes.
    let mut kinds = [0usize; simt_rtl::hw::core::decoder::Kind::ALL.len()];
    let mut illegal = 0;
    for (kind, legal) in rec.output("kind").unwrap().into_iter().zip(rec.output("legal").unwrap()) {
        kinds[kind as usize] += 1;
        illegal += (legal == 0) as usize;
    }
    assert!(kinds.iter().all(|&n| n > 100) && illegal > 100, "kinds {kinds:?}, illegal {illegal}");
}

/// `ibuffer` (flip-flops) or `ibuffer_ram` (block RAM, its head a cycle later).
fn ibuffer<B: PresetBlocks>(module: &str) {
    use simt_rtl::hw::core::ibuffer::model::{IBufferIn, IBufferOut};
    let rec = timed(format!("{} {module}", B::PRESET.name), || {
        simt_rtl::registry::differential::<B>(module, SEED, cycles()).unwrap()
    });
    // Coverage: a full warp issued and filled in one cycle, flushes of a non-empty buffer, both flags.
    let (mut full_swap, mut flushed, mut fill_full, mut issue_empty) = (0, 0, 0, 0);
    for (i, o) in rec.inputs.iter().zip(&rec.outputs) {
        let (i, o) = (IBufferIn::from_words(i), IBufferOut::from_words(o));
        if i.reset == 1 {
            continue;
        }
        let has_space = |w: u64| o.space >> w & 1 == 1;
        let has_head = |w: u64| o.head_valid >> w & 1 == 1;
        full_swap += (i.fill_valid == 1
            && i.issue_valid == 1
            && i.fill_warp == i.issue_warp
            && !has_space(i.fill_warp)) as usize;
        flushed += (i.flush_valid == 1 && has_head(i.flush_warp)) as usize;
        fill_full += (i.fill_valid == 1
            && !has_space(i.fill_warp)
            && !(i.issue_valid == 1 && i.issue_warp == i.fill_warp)) as usize;
        issue_empty += (i.issue_valid == 1 && !has_head(i.issue_warp)) as usize;
    }
    assert!(full_swap > 100 && flushed > 100 && fill_full > 10 && issue_empty > 10, "coverage: full warp issued and filled {full_swap}, flushes {flushed}, fills of full {fill_full}, issues of empty {issue_empty}");
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
            fn round_robin_arbiter_lookahead() {
                arbiter_lookahead::<$B>();
            }
            #[test]
            fn simt_stack() {
                stack::<$B>();
            }
            #[test]
            fn simt_stack_ram_empty_top_slot_zero() {
                stack_ram::<$B>(EmptyTop::SlotZero, TopStorage::Registers);
            }
            #[test]
            fn simt_stack_ram_empty_top_zero() {
                stack_ram::<$B>(EmptyTop::Zero, TopStorage::Registers);
            }
            #[test]
            fn simt_stack_ram_top_in_ram() {
                stack_ram::<$B>(EmptyTop::Zero, TopStorage::Ram);
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
            fn warp_scheduler_registered_round_robin() {
                scheduler::<$B>(SchedulerMode::Registered(FetchPolicy::RoundRobin));
            }
            #[test]
            fn register_map() {
                timed(format!("{} register map", <$B>::PRESET.name), || {
                    simt_rtl::registry::differential::<$B>("register_map", SEED, cycles()).unwrap()
                });
            }
            #[test]
            fn local_data_share() {
                super::local_data_share::<$B>();
            }
            #[test]
            fn scoreboard() {
                super::scoreboard::<$B>();
            }
            #[test]
            fn lane_alu() {
                super::lane_alu::<$B>();
            }
            #[test]
            fn ibuffer() {
                super::ibuffer::<$B>("ibuffer");
            }
            #[test]
            fn ibuffer_ram() {
                super::ibuffer::<$B>("ibuffer_ram");
            }
            #[test]
            fn seed_port_wrapper() {
                timed(format!("{} seed-port wrapper", <$B>::PRESET.name), || {
                    warp_scheduler::preset::seed_differential::<$B>(true, SEED, cycles()).unwrap()
                });
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
        let rec = timed("lfsr".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("lfsr", SEED, cycles()).unwrap()
        });
        // Cycle 0 shows the power-up state 0; from the first reset on the state is never 0.
        assert!(
            rec.output("value").unwrap()[1..].iter().all(|&v| v != 0),
            "the LFSR reached state 0"
        );
    }

    #[test]
    fn misr() {
        timed("misr".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("misr", SEED, cycles()).unwrap()
        });
    }

    #[test]
    fn bad_taps_and_seeds_are_refused() {
        use simt_rtl::hw::{Lfsr, Misr};
        let err = |r: anyhow::Result<_>| format!("{:#}", r.map(|_: ()| ()).unwrap_err());
        assert!(
            err(Lfsr::<16>::new(0x0400, 1).map(drop)).contains("`taps` = 0x400 must have bit 15")
        );
        assert!(err(Lfsr::<16>::new(0xB400, 0).map(drop)).contains("`seed` = 0x0 must be non-zero"));
        assert!(err(Lfsr::<16>::new(0x1B400, 1).map(drop)).contains("no bit above it"));
        assert!(err(Misr::<8>::new(0x100).map(drop)).contains("`taps` = 0x100 must have bit 7"));
    }
}

/// The host link's serial transmitter and receiver.
mod host_link {
    use super::*;
    use simt_rtl::hw::{UartRx, UartTx};
    use simt_rtl::sim::differential::{clock_edge, cycle_outputs, prepare};

    #[test]
    fn uart_tx() {
        let rec = timed("uart_tx".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("uart_tx", SEED, cycles()).unwrap()
        });
        let starts =
            rec.output("tx").unwrap().windows(2).filter(|w| w[0] == 1 && w[1] == 0).count();
        assert!(starts > cycles() / 2000, "only {starts} frames sent");
    }

    #[test]
    fn uart_rx() {
        let rec = timed("uart_rx".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("uart_rx", SEED, cycles()).unwrap()
        });
        let bytes = rec.output("data_valid").unwrap().iter().filter(|&&v| v == 1).count();
        let frame_errors = rec.output("err_frame").unwrap();
        let errors = frame_errors.windows(2).filter(|w| w[0] == 0 && w[1] == 1).count();
        assert!(
            bytes > cycles() / 3000 && errors > 0,
            "{bytes} bytes, {errors} framing errors: the line exercised too little"
        );
    }

    /// Bytes sent by the rust-hdl transmitter, back to back, arrive through the rust-hdl
    /// receiver unchanged, at the slowest and at the board's rate.
    #[test]
    fn transmitter_into_receiver() {
        for cpb in [4, 7, simt_rtl::boards::ALCHITRY_CU_V1.clocks_per_bit()] {
            let (mut tx, mut rx) = (UartTx::new(cpb).unwrap(), UartRx::new(cpb).unwrap());
            prepare(&mut tx).unwrap();
            prepare(&mut rx).unwrap();
            let bytes: Vec<u64> = (0..40).map(|i| (i * 37 + 5) % 256).collect();
            let (mut sent, mut got, mut line) = (0, vec![], 1);
            for cycle in 0..(bytes.len() + 2) * 11 * cpb {
                let reset = (cycle == 0) as u64;
                let offer = sent < bytes.len();
                let t = cycle_outputs(
                    &mut tx,
                    &[reset, offer as u64, *bytes.get(sent).unwrap_or(&0)],
                    cycle,
                )
                .unwrap();
                let r = cycle_outputs(&mut rx, &[reset, line], cycle).unwrap();
                if r[0] == 1 {
                    got.push(r[1]);
                }
                assert_eq!(r[2], 0, "framing error at cycle {cycle}");
                if reset == 0 && offer && t[0] == 1 {
                    sent += 1;
                }
                line = t[1];
                clock_edge(&mut tx, cycle).unwrap();
                clock_edge(&mut rx, cycle).unwrap();
            }
            assert_eq!(got, bytes, "clocks_per_bit {cpb}");
        }
    }

    #[test]
    fn host_link() {
        use simt_rtl::hw::link::host_link::model::LinkOut;
        use simt_rtl::sim::PortStruct;
        let rec = timed("host_link".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("host_link", SEED, cycles()).unwrap()
        });
        let outs: Vec<LinkOut> = rec.outputs.iter().map(|o| LinkOut::from_words(o)).collect();
        let count = |f: fn(&LinkOut) -> bool| outs.iter().filter(|o| f(o)).count();
        let (writes, starts, resets, replies) = (
            count(|o| o.imem_write_valid == 1),
            count(|o| o.start == 1),
            count(|o| o.core_reset == 1),
            count(|o| o.tx_valid == 1),
        );
        let flags = outs.iter().fold(0, |a, o| a | o.link_errors);
        eprintln!("host link: {writes} words written, {starts} starts, {resets} core resets, {replies} cycles answering, flags seen {flags:#b}");
        assert!(
            writes > 1000 && starts > 100 && resets > 10 && replies > 10_000 && flags == 0b1111,
            "the traffic exercised too little"
        );
    }

    #[test]
    fn board_reset() {
        let rec = timed("board_reset".into(), || {
            simt_rtl::registry::differential::<CuBlocks>("board_reset", SEED, cycles()).unwrap()
        });
        let presses = rec
            .output("reset")
            .unwrap()
            .windows(2)
            .skip(20)
            .filter(|w| w[0] == 0 && w[1] == 1)
            .count();
        assert!(presses > 1000, "only {presses} button resets");
    }

    #[test]
    fn bad_rates_are_refused() {
        let err = |r: anyhow::Result<()>| format!("{:#}", r.unwrap_err());
        assert!(err(UartTx::new(3).map(drop)).contains("`clocks_per_bit` = 3 is out of range"));
        assert!(
            err(UartRx::new(70_000).map(drop)).contains("`clocks_per_bit` = 70000 is out of range")
        );
    }
}

/// A model whose ports disagree with its block's is refused before the first cycle, and the
/// error names the port: here the MISR's model with its `enable` and `data` inputs swapped.
#[test]
fn a_model_whose_ports_differ_from_the_block_is_refused_naming_the_port() {
    use simt_rtl::hw::common::lfsr::model::{MisrModel, TAPS_32};
    use simt_rtl::sim::{run_differential, CycleModel, PortNames};
    struct Swapped(MisrModel);
    impl CycleModel for Swapped {
        fn ports(&self) -> PortNames {
            PortNames::default().inputs(&["reset", "data", "enable"]).outputs(&["signature"])
        }
        fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
            self.0.outputs(inputs)
        }
        fn step(&mut self, inputs: &[u64]) {
            self.0.step(inputs)
        }
    }
    let model = MisrModel { taps: TAPS_32, state: 0 };
    let misr = || simt_rtl::hw::Misr::<32>::new(TAPS_32).unwrap();
    let good =
        run_differential("misr_ports", misr, &mut model.clone(), 1, 10, |_, _, _| vec![0; 3]);
    assert!(good.is_ok(), "{:#}", good.unwrap_err());
    let err =
        run_differential("misr_ports", misr, &mut Swapped(model), 1, 10, |_, _, _| vec![0; 3])
            .unwrap_err();
    assert!(
        format!("{err:#}").contains("input port 1 is `enable` where its model's is `data`"),
        "{err:#}"
    );
}

/// The Verilog part of a long run has teeth: a model that differs from the block only after the
/// rust-hdl block has stopped (here the MISR's, its signature's lowest bit flipped from cycle
/// 25,000 on) is caught by the exported Verilog under Verilator, at that cycle.
#[test]
fn a_difference_after_the_rust_hdl_cycles_is_caught_on_the_verilog() {
    use simt_rtl::export::{differential_via_verilog, RUST_HDL_CYCLES};
    use simt_rtl::hw::common::lfsr::model::{MisrModel, TAPS_32};
    use simt_rtl::sim::{CycleModel, PortNames};
    struct LateLie(MisrModel, usize);
    impl CycleModel for LateLie {
        fn ports(&self) -> PortNames {
            self.0.ports()
        }
        fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
            let mut out = self.0.outputs(inputs);
            out[0] ^= (self.1 >= 25_000) as u64;
            out
        }
        fn step(&mut self, inputs: &[u64]) {
            self.0.step(inputs);
            self.1 += 1;
        }
    }
    const { assert!(RUST_HDL_CYCLES < 25_000) };
    let misr = || simt_rtl::hw::Misr::<32>::new(TAPS_32).unwrap();
    let stimulus = |rng: &mut simt_rtl::sim::Rng, _: &LateLie, c: usize| {
        vec![(c == 0) as u64, rng.next_u64() & 1, rng.next_u64() & 0xFFFF_FFFF]
    };
    let mut model = LateLie(MisrModel { taps: TAPS_32, state: 0 }, 0);
    let err = differential_via_verilog("misr_late_lie", misr, &mut model, 7, 30_000, stimulus)
        .unwrap_err();
    assert!(
        format!("{err:#}").contains("exported Verilog differs from the recorded run")
            && format!("{err:#}").contains("at cycle 25000"),
        "{err:#}"
    );
    let kept = simt_rtl::export::differential_dir("misr_late_lie", 7);
    assert!(kept.is_dir(), "the failing run's directory is kept for reading");
    let _ = std::fs::remove_dir_all(kept);
}
