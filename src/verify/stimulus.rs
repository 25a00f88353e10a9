//! Constrained-random stimulus for each block. Rates change every [`PHASE`] cycles between
//! profiles, so that long runs visit the corners: stacks filled to full and past it, pops of
//! empty stacks, simultaneous push and pop, every warp busy, commands while no warp is idle.

use crate::model::simt_stack::StackIn;
use crate::model::simt_stack_ram::StackRamIn;
use crate::model::warp_scheduler::{SchedIn, SeedIn, SeedWarpSchedulerModel, WarpSchedulerModel};
use crate::params::SchedulerParams;
use crate::sim::rng::Rng;
use crate::sim::PortStruct;

/// Cycles between profile changes.
pub const PHASE: usize = 500;

/// Random request vectors for an encoder or arbiter: dense, sparse and single-bit patterns.
pub fn requests(rng: &mut Rng, n: usize) -> u64 {
    match rng.below(4) {
        0 => rng.bits(n),
        1 => rng.bits(n) & rng.bits(n) & rng.bits(n),
        2 => 1 << rng.below(n as u64),
        _ => rng.bits(n) | rng.bits(n),
    }
}

/// Stimulus for a SIMT stack: push-heavy, pop-heavy and balanced phases, rare clears and resets.
pub fn stack_stimulus(
    threads: usize,
    pc_width: usize,
) -> impl FnMut(&mut Rng, &crate::model::SimtStackModel, usize) -> Vec<u64> {
    let mut push_rate = 50;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [15, 50, 85][rng.below(3) as usize];
        }
        StackIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(20)) as u64,
            push: rng.chance(push_rate) as u64,
            pop: rng.chance(100 - push_rate) as u64,
            clear: (rng.chance(1) && rng.chance(50)) as u64,
            push_mask: rng.bits(threads),
            push_pc: rng.bits(pc_width),
        }
        .to_words()
    }
}

/// Stimulus for [`SimtStackRam`](crate::blocks::SimtStackRam): as for one stack, with at most
/// one warp pushed and one popped per cycle (its contract), the same warp now and then, a clear
/// of any warps, and any warp's top shown.
pub fn stack_ram_stimulus(
    p: SchedulerParams,
) -> impl FnMut(&mut Rng, &crate::model::SimtStackRamModel, usize) -> Vec<u64> {
    let mut push_rate = 50;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [15, 50, 85][rng.below(3) as usize];
        }
        let push_wid = rng.below(p.warps as u64);
        let pop_wid = if rng.chance(20) { push_wid } else { rng.below(p.warps as u64) };
        StackRamIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(20)) as u64,
            push: (rng.chance(push_rate) as u64) << push_wid,
            push_wid,
            push_mask: rng.bits(p.threads),
            push_pc: rng.bits(p.pc_width),
            pop: (rng.chance(100 - push_rate) as u64) << pop_wid,
            pop_wid,
            clear: if rng.chance(2) { rng.bits(p.warps) } else { 0 },
            top_wid: if rng.chance(50) { pop_wid } else { rng.below(p.warps as u64) },
        }
        .to_words()
    }
}

/// Rates (percent per cycle) of each scheduler input.
#[derive(Clone, Copy, Debug)]
struct Profile {
    cmd: u64,
    ctl: u64,
    branch: u64,
    end: u64,
    pop: u64,
    set: u64,
    fetch: u64,
}

const PROFILES: [Profile; 4] = [
    // Balanced traffic.
    Profile { cmd: 30, ctl: 40, branch: 20, end: 10, pop: 20, set: 15, fetch: 60 },
    // Launch-heavy: every warp busy, commands while none is idle.
    Profile { cmd: 80, ctl: 50, branch: 10, end: 3, pop: 10, set: 10, fetch: 70 },
    // Divergence-heavy: stacks fill to full and past it.
    Profile { cmd: 40, ctl: 30, branch: 70, end: 2, pop: 15, set: 25, fetch: 50 },
    // Reconvergence-heavy: pops of empty stacks, ends of idle warps.
    Profile { cmd: 15, ctl: 30, branch: 20, end: 25, pop: 60, set: 20, fetch: 50 },
];

/// Stimulus for the warp scheduler. With `allow_overflow` false, no push is aimed at a stack the
/// model says is full (the seed's stack has no such check, so the seed comparison avoids it).
pub fn scheduler_stimulus(
    p: SchedulerParams,
    allow_overflow: bool,
) -> impl FnMut(&mut Rng, &WarpSchedulerModel, usize) -> Vec<u64> {
    let mut prof = PROFILES[0];
    let ww = p.warp_id_width();
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            prof = PROFILES[rng.below(PROFILES.len() as u64) as usize];
        }
        let mut i = SchedIn {
            reset: (cycle == 0 || rng.chance(1) && rng.chance(10)) as u64,
            warp_cmd_valid: rng.chance(prof.cmd) as u64,
            warp_cmd_pc: rng.bits(p.pc_width),
            warp_cmd_mask: rng.bits(p.threads),
            warp_ctl_valid: rng.chance(prof.ctl) as u64,
            warp_ctl_wid: rng.bits(ww),
            warp_ctl_active: rng.chance(75) as u64,
            branch_ctl_valid: rng.chance(prof.branch) as u64,
            branch_ctl_wid: rng.bits(ww),
            branch_ctl_mask: rng.bits(p.threads),
            branch_ctl_pc: rng.bits(p.pc_width),
            end_ctl_valid: rng.chance(prof.end) as u64,
            end_ctl_wid: rng.bits(ww),
            warp_pop_valid: rng.chance(prof.pop) as u64,
            warp_pop_wid: rng.bits(ww),
            warp_set_valid: rng.chance(prof.set) as u64,
            warp_set_wid: rng.bits(ww),
            warp_set_pc: rng.bits(p.pc_width),
            warp_set_mask: rng.bits(p.threads),
            inst_fetch_ready: rng.chance(prof.fetch) as u64,
        };
        if !allow_overflow
            && i.branch_ctl_valid == 1
            && model.stacks[i.branch_ctl_wid as usize].is_full()
        {
            i.branch_ctl_valid = 0;
        }
        i.to_words()
    }
}

/// The seed-port form of a scheduler input: `branch_ctl_data = {mask, pc}`.
pub fn seed_inputs(i: &SchedIn, p: &SchedulerParams) -> SeedIn {
    SeedIn {
        reset: i.reset,
        warp_cmd_valid: i.warp_cmd_valid,
        warp_cmd_pc: i.warp_cmd_pc,
        warp_cmd_mask: i.warp_cmd_mask,
        warp_ctl_valid: i.warp_ctl_valid,
        warp_ctl_wid: i.warp_ctl_wid,
        warp_ctl_active: i.warp_ctl_active,
        branch_ctl_valid: i.branch_ctl_valid,
        branch_ctl_wid: i.branch_ctl_wid,
        branch_ctl_data: (i.branch_ctl_mask << p.pc_width) | i.branch_ctl_pc,
        end_ctl_valid: i.end_ctl_valid,
        end_ctl_wid: i.end_ctl_wid,
        warp_pop_valid: i.warp_pop_valid,
        warp_pop_wid: i.warp_pop_wid,
        inst_fetch_ready: i.inst_fetch_ready,
    }
}

/// Stimulus for the seed-port scheduler (see [`scheduler_stimulus`]).
pub fn seed_scheduler_stimulus(
    p: SchedulerParams,
    allow_overflow: bool,
) -> impl FnMut(&mut Rng, &SeedWarpSchedulerModel, usize) -> Vec<u64> {
    let mut inner = scheduler_stimulus(p, allow_overflow);
    move |rng, model, cycle| {
        let words = inner(rng, &model.core, cycle);
        seed_inputs(&SchedIn::from_words(&words), &p).to_words()
    }
}

/// Stimulus for a bank arbiter with `lanes` push lanes: bursts of requests and quiet phases,
/// write-backs on random banks; with `respect_bound`, no cycle pushes more than the queues can
/// take (as the collector units guarantee), otherwise pushes may overflow.
pub fn arbiter_stimulus(
    banks: usize,
    collectors: usize,
    row_bits: usize,
    respect_bound: bool,
) -> impl FnMut(&mut Rng, &crate::model::bank_arbiter::BankArbiterModel, usize) -> Vec<u64> {
    use crate::model::bank_arbiter::{ArbiterInputs, Op};
    let mut push_rate = 30;
    let mut write_rate = 30;
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            push_rate = [5, 30, 60, 90][rng.below(4) as usize];
            write_rate = [0, 30, 70][rng.below(3) as usize];
        }
        let mut i = ArbiterInputs {
            reset: cycle == 0 || rng.chance(1) && rng.chance(10),
            ..Default::default()
        };
        let mut room: Vec<usize> = model.queues.iter().map(|q| model.depth - q.len()).collect();
        for _ in 0..model.lanes {
            if !rng.chance(push_rate) {
                continue;
            }
            // Without the bound, half the requests go to bank 0 so that its queue overflows.
            let hot = !respect_bound && rng.chance(50);
            let bank = if hot { 0 } else { rng.below(banks as u64) as usize };
            if respect_bound && room[bank] == 0 {
                continue;
            }
            room[bank] = room[bank].saturating_sub(1);
            let op = Op {
                cu: rng.below(collectors as u64) as usize,
                slot: rng.below(3) as usize,
                row: rng.bits(row_bits) as usize,
            };
            i.pushes.push((bank, op));
        }
        if rng.chance(write_rate) {
            i.write = Some(rng.below(banks as u64) as usize);
        }
        model.encode(&i)
    }
}

/// Stimulus for a register file: random rows on every bank, lane-masked writes; phases that
/// read the row being written and phases that hammer a few rows.
pub fn register_file_stimulus(
    banks: usize,
    row_bits: usize,
    lanes: usize,
    lane_bits: usize,
) -> impl FnMut(&mut Rng, &crate::model::register_file::RegisterFileModel, usize) -> Vec<u64> {
    let mut hot = false;
    move |rng, _model, cycle| {
        if cycle % PHASE == 0 {
            hot = rng.chance(50);
        }
        let row = |rng: &mut Rng| if hot { rng.bits(1) } else { rng.bits(row_bits) };
        let mut w: Vec<u64> = (0..banks).map(|_| row(rng)).collect();
        let write = rng.chance(60);
        let bank = rng.below(banks as u64);
        // Sometimes write the very row that bank reads this cycle.
        let wrow = if rng.chance(25) { w[bank as usize] } else { row(rng) };
        w.extend([write as u64, bank, wrow, rng.bits(lanes), rng.bits(lanes * lane_bits)]);
        w
    }
}

/// Stimulus for an operand collector: instructions on every port (load from light to
/// saturating, registers spread over all or crowded into a few banks), write-backs on and off,
/// output back-pressure on and off (the four combinations in turn, one per phase), rare resets
/// and rare instructions for a unit type that does not exist.
pub fn collector_stimulus(
    c: crate::params::CollectorParams,
    warps: usize,
    threads: usize,
) -> impl FnMut(&mut Rng, &crate::model::OperandCollectorModel, usize) -> Vec<u64> {
    use crate::model::operand_collector::{Inst, OcInputs, WriteBack};
    let (mut load, mut crowded) = (100, false);
    let unit_bits = crate::params::clog2(c.unit_types).max(1);
    move |rng, model, cycle| {
        let phase = cycle / PHASE;
        if cycle % PHASE == 0 {
            load = [20, 60, 100][rng.below(3) as usize];
            crowded = rng.chance(40);
        }
        let (writebacks, back_pressure) = (phase % 2 == 1, phase / 2 % 2 == 1);
        let reg = |rng: &mut Rng| {
            if crowded {
                rng.below(3) as usize
            } else {
                rng.below(c.regs_per_warp as u64) as usize
            }
        };
        let ports = (0..c.in_ports)
            .map(|_| {
                let unit = if rng.chance(1) && rng.chance(5) {
                    rng.bits(unit_bits) as usize
                } else {
                    rng.below(c.unit_types as u64) as usize
                };
                let inst = Inst {
                    warp: rng.below(warps as u64) as usize,
                    unit,
                    tag: rng.bits(c.tag_bits),
                    dst: reg(rng),
                    mask: rng.bits(threads),
                    src_valid: if rng.chance(70) { 7 } else { rng.bits(3) as u8 },
                    src: [reg(rng), reg(rng), reg(rng)],
                };
                (rng.chance(load), inst)
            })
            .collect();
        let i = OcInputs {
            reset: cycle == 0 || (rng.chance(1) && rng.chance(10)),
            ports,
            out_ready: (0..c.unit_types).map(|_| !back_pressure || rng.chance(30)).collect(),
            wb: (writebacks && rng.chance(50)).then(|| WriteBack {
                warp: rng.below(warps as u64) as usize,
                reg: reg(rng),
                mask: if rng.chance(50) {
                    crate::sim::rng::mask(threads)
                } else {
                    rng.bits(threads)
                },
                data: rng.bits(threads * c.lane_bits),
            }),
        };
        model.encode(&i)
    }
}

/// Stimulus for a local data share: loads and stores at light to saturating rates; load
/// addresses spread over all words, crowded into a few words (broadcasts and highest-lane-wins
/// stores' conflicts) or conflict-free (lane `l` in bank `l mod 4`); strides 0, 1 and random;
/// full, random and single-lane masks. In half of the phases a request that is not taken is
/// held unchanged, as a well-behaved requester does; in the others it changes or is withdrawn
/// while not ready. Rare resets, also in the middle of an access.
pub fn lds_stimulus(
    lanes: usize,
    warps: usize,
    lane_bits: usize,
) -> impl FnMut(&mut Rng, &crate::model::LocalDataShareModel, usize) -> Vec<u64> {
    use crate::model::local_data_share::LdsIn;
    let (mut load, mut pattern, mut hold) = (100, 0, true);
    let mut last: Option<LdsIn> = None;
    let words = 1u64 << lane_bits;
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            load = [20, 60, 100][rng.below(3) as usize];
            pattern = rng.below(3);
            hold = rng.chance(50);
        }
        let reset = cycle == 0 || (rng.chance(1) && rng.chance(20));
        if let Some(req) = last.as_ref().filter(|_| hold && !model.ready()) {
            return model.encode(&LdsIn { reset, ..req.clone() });
        }
        let base = rng.bits(lane_bits);
        let addr = (0..lanes as u64)
            .map(|l| match pattern {
                0 => rng.bits(lane_bits),
                1 => base.wrapping_add(rng.below(3) * 5) % words,
                _ => (base * 4 + l) % words,
            })
            .collect();
        let mask = match rng.below(8) {
            0..=3 => crate::sim::rng::mask(lanes),
            4 | 5 => rng.bits(lanes),
            6 => 1 << rng.below(lanes as u64),
            _ => rng.bits(lanes) & rng.bits(lanes) & rng.bits(lanes),
        };
        let stride = match rng.below(4) {
            0 => 0,
            1 => 1,
            _ => rng.bits(crate::blocks::local_data_share::OFFSET_BITS),
        };
        let req = LdsIn {
            reset,
            valid: rng.chance(load),
            write: rng.chance(40),
            mask,
            warp: rng.below(warps as u64),
            index: if rng.chance(50) {
                rng.below(4)
            } else {
                rng.bits(crate::blocks::local_data_share::OFFSET_BITS)
            },
            stride,
            addr,
            data: (0..lanes).map(|_| rng.bits(lane_bits)).collect(),
        };
        last = req.valid.then(|| req.clone());
        model.encode(&req)
    }
}

/// Stimulus for a scoreboard: an issue stage that checks an instruction and reserves its
/// destination when there is no hazard, and a write-back that releases registers in flight, in
/// random order; registers spread over all or crowded into a few; in misuse phases reserves and
/// releases ignore the scoreboard (double reservations, releases of free registers). Rare resets.
pub fn scoreboard_stimulus(
    warps: usize,
    regs: usize,
) -> impl FnMut(&mut Rng, &crate::model::ScoreboardModel, usize) -> Vec<u64> {
    use crate::model::scoreboard::ScoreboardIn;
    let (mut crowded, mut misuse, mut issue_rate, mut wb_rate) = (false, false, 50, 50);
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            crowded = rng.chance(40);
            misuse = rng.chance(20);
            issue_rate = [20, 60, 100][rng.below(3) as usize];
            wb_rate = [20, 60, 100][rng.below(3) as usize];
        }
        let reg = |rng: &mut Rng| {
            if crowded {
                rng.below(3.min(regs as u64))
            } else {
                rng.below(regs as u64)
            }
        };
        let in_flight: Vec<(u64, u64)> = model
            .reg_table
            .iter()
            .enumerate()
            .flat_map(|(w, t)| t.iter().map(move |&r| (w as u64, r)))
            .collect();
        let (release_warp, release_reg) = if !misuse && !in_flight.is_empty() {
            in_flight[rng.below(in_flight.len() as u64) as usize]
        } else {
            (rng.below(warps as u64), reg(rng))
        };
        let mut i = ScoreboardIn {
            reset: (cycle == 0 || (rng.chance(1) && rng.chance(10))) as u64,
            check_warp: rng.below(warps as u64),
            check_src0: reg(rng),
            check_src1: reg(rng),
            check_src2: reg(rng),
            check_src_valid: rng.bits(3),
            check_dst: reg(rng),
            check_dst_valid: rng.chance(80) as u64,
            release_valid: (rng.chance(wb_rate) && (misuse || !in_flight.is_empty())) as u64,
            release_warp,
            release_reg,
            ..Default::default()
        };
        // Issue: reserve the checked instruction's destination when it may go.
        let issue =
            rng.chance(issue_rate) && i.check_dst_valid == 1 && (misuse || !model.collides(&i));
        i.reserve_valid = issue as u64;
        (i.reserve_warp, i.reserve_reg) = if misuse && rng.chance(50) {
            (rng.below(warps as u64), reg(rng))
        } else {
            (i.check_warp, i.check_dst)
        };
        i.to_words()
    }
}

/// Stimulus for the lane ALU: every op code (also the undefined ones, rarely), lanes random,
/// zero, all ones, equal in `a` and `b`, and shift amounts across the lane width.
pub fn alu_stimulus(
    lanes: usize,
    bits: usize,
) -> impl FnMut(&mut Rng, &crate::model::LaneAluModel, usize) -> Vec<u64> {
    move |rng, _model, _cycle| {
        let lane = |rng: &mut Rng| match rng.below(6) {
            0 => 0,
            1 => crate::sim::rng::mask(bits),
            2 => rng.below(bits as u64 + 2),
            _ => rng.bits(bits),
        };
        let pack =
            |vals: Vec<u64>| vals.iter().enumerate().fold(0u64, |w, (l, v)| w | v << (l * bits));
        let a: Vec<u64> = (0..lanes).map(|_| lane(rng)).collect();
        let b: Vec<u64> =
            (0..lanes).map(|l| if rng.chance(20) { a[l] } else { lane(rng) }).collect();
        let op = if rng.chance(5) { rng.bits(4) } else { rng.below(11) };
        vec![op, pack(a), pack(b)]
    }
}

/// Stimulus for the I-buffer: fetch fills warps that have space (in misuse phases, any warp),
/// issue takes warps with an instruction (in misuse phases, any warp), flushes now and then;
/// fill and issue rates vary by phase so buffers run full and empty. Rare resets.
pub fn ibuffer_stimulus(
    warps: usize,
    pc_bits: usize,
) -> impl FnMut(&mut Rng, &crate::model::IBufferModel, usize) -> Vec<u64> {
    use crate::model::ibuffer::{IBufferIn, SLOTS};
    let (mut fill_rate, mut issue_rate, mut misuse) = (50, 50, false);
    move |rng, model, cycle| {
        if cycle % PHASE == 0 {
            fill_rate = [20, 60, 100][rng.below(3) as usize];
            issue_rate = [20, 60, 100][rng.below(3) as usize];
            misuse = rng.chance(20);
        }
        let pick = |rng: &mut Rng, ok: &dyn Fn(usize) -> bool| {
            let ws: Vec<usize> = (0..warps).filter(|&w| misuse || ok(w)).collect();
            (!ws.is_empty()).then(|| ws[rng.below(ws.len() as u64) as usize] as u64)
        };
        let fill = pick(rng, &|w| model.buffers[w].len() < SLOTS).filter(|_| rng.chance(fill_rate));
        let issue = pick(rng, &|w| !model.buffers[w].is_empty());
        IBufferIn {
            reset: (cycle == 0 || (rng.chance(1) && rng.chance(10))) as u64,
            fill_valid: fill.is_some() as u64,
            fill_warp: fill.unwrap_or(rng.below(warps as u64)),
            fill_inst: rng.bits(32),
            fill_pc: rng.bits(pc_bits),
            issue_warp: issue.unwrap_or(rng.below(warps as u64)),
            issue_valid: (issue.is_some() && rng.chance(issue_rate)) as u64,
            flush_valid: (rng.chance(3)) as u64,
            flush_warp: rng.below(warps as u64),
        }
        .to_words()
    }
}

/// Stimulus for the SIMT core: random programs (valid by construction,
/// [`random_program`](super::programs::random_program)) written through the instruction-memory
/// port with random gaps, started, and run to the end; now and then a reset in the middle of a
/// run, a start while running, or a random word written into a running program (which may
/// overflow the stack, pop an empty one, issue an illegal word or never end: a run that lasts
/// past `run_limit` cycles is reset). `seen` counts the runs that ended and collects every error
/// flag the model raised.
pub fn core_stimulus(
    params: crate::params::CoreParams,
    run_limit: usize,
    seen: std::rc::Rc<std::cell::Cell<(u64, u64)>>,
) -> impl FnMut(&mut Rng, &crate::model::SimtCoreModel, usize) -> Vec<u64> {
    use crate::model::simt_core::CoreIn;
    enum Phase {
        Load(Vec<u32>, usize),
        Run(usize),
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
                    let program = super::programs::random_program(rng, size, params.stack_depth);
                    let text = super::programs::assembly(&program);
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
                        phase = Phase::Run(0);
                    }
                }
            }
            Phase::Run(n) => {
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
                        // A random word, a `join` (pops what the program did not push), or a
                        // branch to itself (pushes until the stack overflows).
                        let at = rng.below(params.imem_words as u64);
                        let word = match rng.below(3) {
                            0 => rng.bits(32) as u32,
                            1 => crate::isa::Inst::Join.encode(),
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
                if let Phase::Run(n) = &mut phase {
                    *n += 1;
                }
            }
        }
        i.to_words()
    }
}
