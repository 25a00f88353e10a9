//! The hardware local data share does what the ISA says: random `st` and `ld` instructions (and
//! `stx`, `atadd` and `atxch`, at presets whose core carries them) run
//! on the reference interpreter (`src/isa/interp.rs`, one instruction at a time, on a warp with a
//! random mask and random register values) and, as requests, on the rust-hdl `LocalDataShare`.
//! Every load and atomic returns the interpreter's registers, every access's conflict cycles are the
//! interpreter's, it answers exactly that many cycles plus two after it was taken, and the
//! counters agree. A last sweep loads every word a register can address.

use simt_rtl::hw::lds::local_data_share::model::LdsIn;
use simt_rtl::hw::lds::local_data_share::preset::{AtPreset, LdsShape};
use simt_rtl::hw::LocalDataShareModel;
use simt_rtl::isa::interp::{Config, Machine};
use simt_rtl::isa::Inst;
use simt_rtl::params::{Preset, Sizes, CU};
use simt_rtl::registry::*;
use simt_rtl::sim::differential::{clock_edge, cycle_outputs, prepare};
use simt_rtl::sim::rng::mask;
use simt_rtl::sim::{Dut, Rng};

/// Drives one request until it is answered; returns the cycles from the one it was taken in to
/// the one with `resp_valid`, and the outputs of that cycle.
fn access<D: Dut>(
    dut: &mut D,
    m: &LocalDataShareModel,
    req: &LdsIn,
    cycle: &mut usize,
) -> (usize, Vec<u64>) {
    let idle = LdsIn { addr: vec![0; m.lanes], data: vec![0; m.lanes], ..Default::default() };
    loop {
        let out = cycle_outputs(dut, &m.encode(req), *cycle).unwrap();
        clock_edge(dut, *cycle).unwrap();
        *cycle += 1;
        if dut.output(&out, "req_ready").unwrap() == 1 {
            break;
        }
    }
    for waited in 1..=2 * m.lanes + 1 {
        let out = cycle_outputs(dut, &m.encode(&idle), *cycle).unwrap();
        clock_edge(dut, *cycle).unwrap();
        *cycle += 1;
        if dut.output(&out, "resp_valid").unwrap() == 1 {
            return (waited, out);
        }
    }
    panic!("no response within {} cycles of the request", 2 * m.lanes + 1);
}

/// The register `stx` stores from (and an atomic's operand).
const DATA: u8 = 3;

/// The share `dut`, built at preset `p`'s sizes, against the interpreter on `instructions`
/// random accesses and the sweep.
fn agrees_with_interpreter<D: Dut>(p: Preset, mut dut: D, instructions: usize) {
    let (warps, lanes, bits) = (p.scheduler.warps, p.scheduler.threads, p.collector.lane_bits);
    let config = Config::of_preset(&p, u64::MAX);
    let mut machine = Machine::new(config, &[]).unwrap();
    let m = LdsShape::of(&p).model();
    prepare(&mut dut).unwrap();
    let mut cycle = 0;
    let reset =
        LdsIn { reset: true, addr: vec![0; lanes], data: vec![0; lanes], ..Default::default() };
    cycle_outputs(&mut dut, &m.encode(&reset), cycle).unwrap();
    clock_edge(&mut dut, cycle).unwrap();
    cycle += 1;
    let mut rng = Rng::new(0x1DA5_2026);
    let (ra, rd) = (1u8, 2u8);
    let loadable = (1usize << bits).min(config.lds_words());
    let sweep = (0..loadable).step_by(lanes).map(|first| (first, None));
    let random = (0..instructions).map(|_| (0, Some(rng.chance(50))));
    let mut conflicts = 0;
    for (first, store) in random.collect::<Vec<_>>().into_iter().chain(sweep) {
        let w = rng.below(warps as u64) as usize;
        // The middle test draws from the RNG, which the rest of the stimulus depends on.
        #[allow(clippy::if_same_then_else)]
        let lane_mask = if store.is_none() {
            mask(lanes)
        } else if rng.chance(50) {
            mask(lanes)
        } else {
            rng.bits(lanes).max(1)
        };
        let crowded = rng.chance(30);
        for l in 0..lanes {
            let value = match store {
                None => ((first + l) % loadable) as u64,
                Some(_) if crowded => rng.below(3),
                Some(_) => rng.bits(bits),
            };
            machine.regs[(w * lanes + l) * simt_rtl::isa::REGISTERS + ra as usize] = value as u32;
        }
        let scatter = store == Some(true) && config.isa.stx && rng.chance(30);
        let atomic = store == Some(false) && config.isa.atomic && rng.chance(40);
        if scatter || atomic {
            for l in 0..lanes {
                let value = rng.bits(bits) as u32;
                machine.regs[(w * lanes + l) * simt_rtl::isa::REGISTERS + DATA as usize] = value;
            }
        }
        let inst = match store {
            Some(true) if scatter => Inst::Stx { ra, rb: DATA, offset: None },
            Some(false) if atomic => Inst::Atomic {
                op: simt_rtl::isa::AtomicOp::ALL[rng.below(2) as usize],
                rd,
                ra,
                rb: DATA,
            },
            Some(true) => Inst::St {
                ra,
                index: rng.bits(7) as u8,
                stride: [0, 1, 2, rng.bits(7)][rng.below(4) as usize] as u8,
            },
            _ => Inst::Ld { rd, ra, offset: None },
        };
        machine.warps[w].mask = lane_mask as u32;
        machine.warps[w].pc = 0;
        let before = machine.counters.lds_conflict_cycles;
        machine.step(w, &[inst]).unwrap();
        let expected_conflicts = machine.counters.lds_conflict_cycles - before;
        let regs =
            |r: u8| (0..lanes).map(|l| machine.reg(w, l, r as usize) as u64).collect::<Vec<_>>();
        let req = match inst {
            Inst::St { index, stride, .. } => LdsIn {
                valid: true,
                write: true,
                mask: lane_mask,
                warp: w as u64,
                index: index as u64,
                stride: stride as u64,
                addr: vec![0; lanes],
                data: regs(ra),
                ..Default::default()
            },
            Inst::Stx { .. } => LdsIn {
                valid: true,
                write: true,
                scatter: true,
                mask: lane_mask,
                addr: regs(ra),
                data: regs(DATA),
                ..Default::default()
            },
            Inst::Atomic { op, .. } => LdsIn {
                valid: true,
                atomic: true,
                exchange: op == simt_rtl::isa::AtomicOp::Exchange,
                mask: lane_mask,
                addr: regs(ra),
                data: regs(DATA),
                ..Default::default()
            },
            _ => LdsIn {
                valid: true,
                mask: lane_mask,
                addr: regs(ra),
                data: vec![0; lanes],
                ..Default::default()
            },
        };
        let (waited, out) = access(&mut dut, &m, &req, &mut cycle);
        assert_eq!(
            waited as u64,
            expected_conflicts + 2,
            "{inst} on warp {w}, mask {lane_mask:#x}: answered {waited} cycles after it was taken"
        );
        conflicts += expected_conflicts;
        if let Inst::Ld { .. } | Inst::Atomic { .. } = inst {
            let got = &out[2..2 + lanes];
            for l in (0..lanes).filter(|l| lane_mask >> l & 1 == 1) {
                assert_eq!(
                    got[l],
                    machine.reg(w, l, rd as usize) as u64,
                    "{inst} on warp {w}, lane {l} (address {}): hardware and interpreter differ",
                    req.addr[l]
                );
            }
        }
        assert_eq!(
            (out[2 + lanes], out[3 + lanes]),
            (machine.counters.lds_accesses, conflicts),
            "accesses and conflict cycles after {inst}"
        );
    }
    assert!(
        conflicts > 0 || lanes == p.lds_banks,
        "{}: no bank conflict in {instructions} accesses",
        p.name
    );
}

#[test]
fn cu_local_data_share_agrees_with_the_interpreter() {
    agrees_with_interpreter(CuBlocks::PRESET, CuBlocks::local_data_share().unwrap(), 3000);
}

#[test]
fn seed_local_data_share_agrees_with_the_interpreter() {
    agrees_with_interpreter(SeedBlocks::PRESET, SeedBlocks::local_data_share().unwrap(), 1000);
}

#[test]
fn tiny_local_data_share_agrees_with_the_interpreter() {
    agrees_with_interpreter(TinyBlocks::PRESET, TinyBlocks::local_data_share().unwrap(), 3000);
}

/// The `cu` blocks' 8 lanes in 8 banks and in 2 (`lds_banks`), with scatters and atomics (no
/// core).
const EIGHT_BANKS: Preset = Preset { lds_banks: 8, core: None, ..CU };
const TWO_BANKS: Preset = Preset { lds_banks: 2, core: None, ..CU };
const EIGHT: Sizes = Sizes::of(&EIGHT_BANKS);
const TWO: Sizes = Sizes::of(&TWO_BANKS);

/// Bank counts other than R700's 4: `st` writes bank `t mod B`, row `(t / B) x stride + index`,
/// and conflicts follow `address mod B` (the interpreter's rule for any `B`).
#[test]
fn other_bank_counts_agree_with_the_interpreter() {
    let warps = CU.scheduler.warps;
    let eight = <simt_rtl::sized_local_data_share!(EIGHT)>::new(warps)
        .unwrap()
        .with_scatter(true)
        .with_atomics(true);
    agrees_with_interpreter(EIGHT_BANKS, eight, 2000);
    let two = <simt_rtl::sized_local_data_share!(TWO)>::new(warps)
        .unwrap()
        .with_scatter(true)
        .with_atomics(true);
    agrees_with_interpreter(TWO_BANKS, two, 2000);
}

/// The same shares against their model, every output every cycle, under the block's random
/// stimulus (200,000 cycles each).
#[test]
fn other_bank_counts_agree_with_the_model() {
    use simt_rtl::hw::lds::local_data_share::preset::run;
    let warps = CU.scheduler.warps;
    let make8 = || {
        <simt_rtl::sized_local_data_share!(EIGHT)>::new(warps)
            .unwrap()
            .with_scatter(true)
            .with_atomics(true)
    };
    run("lds_8_banks", make8, LdsShape::of(&EIGHT_BANKS), 8, 200_000).unwrap();
    let make2 = || {
        <simt_rtl::sized_local_data_share!(TWO)>::new(warps)
            .unwrap()
            .with_scatter(true)
            .with_atomics(true)
    };
    run("lds_2_banks", make2, LdsShape::of(&TWO_BANKS), 2, 200_000).unwrap();
}
