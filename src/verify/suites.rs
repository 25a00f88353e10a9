//! One differential run per exported block: the block against its model on that block's
//! constrained-random stimulus. The Rust differential tests and the exported-Verilog tests both
//! start from these runs (the Verilog replays the recorded stimulus).

use anyhow::{bail, Result};

use crate::export::differential_via_verilog;
use crate::hw::scheduler::simt_stack::stimulus::stack_stimulus;
use crate::hw::scheduler::simt_stack_ram::stimulus::stack_ram_stimulus;
use crate::hw::scheduler::warp_scheduler::stimulus::{scheduler_stimulus, seed_scheduler_stimulus};
use crate::hw::Order;
use crate::hw::{
    PriorityEncoderModel, RoundRobinModel, SeedWarpSchedulerModel, SimtStackModel,
    WarpSchedulerModel,
};
use crate::params::{
    CollectorTiming, CoreParams, EmptyTop, SchedulerMode, TopStorage, CORE_CU, CORE_TINY,
};
use crate::preset_blocks::PresetBlocks;
use crate::sim::rng::Rng;
use crate::sim::{run_differential, Dut, Recorded};

pub fn encoder<B: PresetBlocks>(order: Order, seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = PriorityEncoderModel { n, order };
    let name = format!("encoder_{}_{order:?}", B::PRESET.name);
    run_differential(
        &name,
        || B::warp_encoder(order).unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::common::priority_encoder::stimulus::encoder_stimulus(n),
    )
}

pub fn arbiter<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = RoundRobinModel::new(n);
    run_differential(
        &format!("arbiter_{}", B::PRESET.name),
        || B::warp_arbiter().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::common::round_robin::stimulus::arbiter_stimulus(n),
    )
}

/// The lookahead arbiter (`req` one cycle early) against the arbiter's model a cycle later.
pub fn arbiter_lookahead<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = crate::hw::common::round_robin::model::LookaheadRoundRobinModel::new(n);
    let name = format!("arbiter_lookahead_{}", B::PRESET.name);
    run_differential(
        &name,
        || B::warp_arbiter_lookahead().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::common::round_robin::stimulus::arbiter_stimulus(n),
    )
}

pub fn stack<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = SimtStackModel::new(p.stack_depth);
    run_differential(
        &format!("stack_{}", B::PRESET.name),
        || B::stack().unwrap(),
        &mut model,
        seed,
        cycles,
        stack_stimulus(p.threads, p.pc_width),
    )
}

pub fn stack_ram<B: PresetBlocks>(
    empty_top: EmptyTop,
    top_storage: TopStorage,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model =
        crate::hw::SimtStackRamModel::new(p.warps, p.stack_depth, empty_top, top_storage);
    let name = format!("stack_ram_{}_{empty_top:?}_{top_storage:?}", B::PRESET.name);
    run_differential(
        &name,
        || B::stack_ram(empty_top, top_storage).unwrap(),
        &mut model,
        seed,
        cycles,
        stack_ram_stimulus(p),
    )
}

pub fn scheduler<B: PresetBlocks>(
    mode: SchedulerMode,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = WarpSchedulerModel::new(p, mode);
    let name = format!("scheduler_{}_{}", B::PRESET.name, mode.name().replace([' ', ','], "_"));
    differential_via_verilog(
        &name,
        || B::scheduler(mode).unwrap(),
        &mut model,
        seed,
        cycles,
        scheduler_stimulus(p, true),
    )
}

/// The seed-port scheduler; `allow_overflow` false keeps pushes off full stacks (for the
/// comparison with the seed, whose stack has no overflow check).
pub fn seed_scheduler<B: PresetBlocks>(
    allow_overflow: bool,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = SeedWarpSchedulerModel::new(p);
    let name = format!("seed_scheduler_{}", B::PRESET.name);
    differential_via_verilog(
        &name,
        || B::seed_scheduler().unwrap(),
        &mut model,
        seed,
        cycles,
        seed_scheduler_stimulus(p, allow_overflow),
    )
}

/// The SIMT core `core` against its model, on random programs
/// ([`core_stimulus`](crate::hw::core::simt_core::stimulus::core_stimulus)); also the number of
/// runs that ended and the error flags raised.
pub fn simt_core(core: CoreParams, seed: u64, cycles: usize) -> Result<(Recorded, (u64, u64))> {
    use crate::hw::core::simt_core::{SimtCoreCu, SimtCoreTiny};
    let seen = std::rc::Rc::new(std::cell::Cell::new((0, 0)));
    let mut model = crate::hw::SimtCoreModel::new(core, &[], &[]);
    let stimulus = crate::hw::core::simt_core::stimulus::core_stimulus(core, 20_000, seen.clone());
    let name =
        format!("simt_core_{}_{}_{}", core.name, core.policy.name(), core.collector_timing.name());
    // The concrete core whose generics these sizes give (`new` refuses any other sizes).
    let recorded = if core.sizes() == CORE_TINY.sizes() {
        SimtCoreTiny::new(core)?;
        differential_via_verilog(
            &name,
            || SimtCoreTiny::new(core).unwrap(),
            &mut model,
            seed,
            cycles,
            stimulus,
        )
    } else {
        SimtCoreCu::new(core)?;
        differential_via_verilog(
            &name,
            || SimtCoreCu::new(core).unwrap(),
            &mut model,
            seed,
            cycles,
            stimulus,
        )
    }?;
    Ok((recorded, seen.get()))
}

/// The SIMT core exported with preset `B` (see [`Preset::core`](crate::params::Preset::core)).
fn core_of<B: PresetBlocks>() -> Result<CoreParams> {
    B::PRESET.core.ok_or_else(|| anyhow::anyhow!("preset `{}` has no SIMT core", B::PRESET.name))
}

/// `simt_core` of preset `B` against its model.
pub fn preset_simt_core<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    simt_core(core_of::<B>()?, seed, cycles).map(|(r, _)| r)
}

/// `simt_core_gpgpu_sim` of preset `B` (its core in the GPGPU-Sim-exact timing) against its
/// model.
pub fn preset_simt_core_gpgpu_sim<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let core = CoreParams { collector_timing: CollectorTiming::GpgpuSim, ..core_of::<B>()? };
    simt_core(core, seed, cycles).map(|(r, _)| r)
}

/// `priority_encoder_lowest` of preset `B` against its model.
pub fn preset_priority_encoder_lowest<B: PresetBlocks>(
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    encoder::<B>(Order::LowestFirst, seed, cycles)
}

/// `priority_encoder_highest` of preset `B` against its model.
pub fn preset_priority_encoder_highest<B: PresetBlocks>(
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    encoder::<B>(Order::HighestFirst, seed, cycles)
}

/// `round_robin_arbiter` of preset `B` against its model.
pub fn preset_round_robin_arbiter<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    arbiter::<B>(seed, cycles)
}

/// `simt_stack` of preset `B` against its model.
pub fn preset_simt_stack<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    stack::<B>(seed, cycles)
}

/// `simt_stack_ram` of preset `B` against its model.
pub fn preset_simt_stack_ram<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    stack_ram::<B>(fixed.empty_top(), fixed.top_storage(), seed, cycles)
}

/// `warp_scheduler` of preset `B` against its model.
pub fn preset_warp_scheduler<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    scheduler::<B>(SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy), seed, cycles)
}

/// `warp_scheduler_registered` of preset `B` against its model.
pub fn preset_warp_scheduler_registered<B: PresetBlocks>(
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    scheduler::<B>(SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy), seed, cycles)
}

/// `WarpScheduler` of preset `B` against its model.
pub fn preset_seed_warp_scheduler<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    seed_scheduler::<B>(true, seed, cycles)
}

/// `bank_arbiter` of preset `B` against its model.
pub fn preset_bank_arbiter<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let c = B::PRESET.collector;
    let rw = crate::params::clog2(c.rows_per_bank(B::PRESET.scheduler.warps));
    let sizes = (c.banks, c.collector_units, c.push_lanes(), c.queue_depth(), rw);
    let name = format!("bank_arbiter_{}", B::PRESET.name);
    bank_arbiter(&name, || B::bank_arbiter().unwrap(), sizes, c.one_bank_per_cu, true, seed, cycles)
}

/// `lfsr` of preset `B` against its model.
pub fn preset_lfsr<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let (taps, start) =
        (crate::hw::common::lfsr::model::TAPS_32, crate::hw::common::lfsr::model::LFSR_SEED);
    let mut model = crate::hw::common::lfsr::model::LfsrModel { taps, seed: start, state: 0 };
    run_differential(
        &format!("lfsr_{}", B::PRESET.name),
        || crate::hw::Lfsr::<32>::new(taps, start).unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::common::lfsr::stimulus::lfsr_stimulus(),
    )
}

/// `misr` of preset `B` against its model.
pub fn preset_misr<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let taps = crate::hw::common::lfsr::model::TAPS_32;
    let mut model = crate::hw::common::lfsr::model::MisrModel { taps, state: 0 };
    run_differential(
        &format!("misr_{}", B::PRESET.name),
        || crate::hw::Misr::<32>::new(taps).unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::common::lfsr::stimulus::misr_stimulus(),
    )
}

/// `board_reset` of preset `B` against its model.
pub fn preset_board_reset<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let mut model = crate::boards::board_reset::model::BoardResetModel::default();
    run_differential(
        &format!("board_reset_{}", B::PRESET.name),
        || crate::boards::BoardReset::new().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::boards::board_reset::stimulus::button_stimulus(),
    )
}

/// `uart_tx` of preset `B` against its model.
pub fn preset_uart_tx<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let cpb = crate::boards::ALCHITRY_CU_V1.clocks_per_bit();
    let mut model = crate::hw::link::uart::model::UartTxModel::new(cpb);
    run_differential(
        &format!("uart_tx_{}", B::PRESET.name),
        || crate::hw::UartTx::new(cpb).unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::link::uart::stimulus::tx_stimulus(),
    )
}

/// `uart_rx` of preset `B` against its model.
pub fn preset_uart_rx<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let cpb = crate::boards::ALCHITRY_CU_V1.clocks_per_bit();
    let mut model = crate::hw::link::uart::model::UartRxModel::new(cpb);
    run_differential(
        &format!("uart_rx_{}", B::PRESET.name),
        || crate::hw::UartRx::new(cpb).unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::link::uart::stimulus::rx_stimulus(cpb),
    )
}

/// `host_link` of preset `B` against its model.
pub fn preset_host_link<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let core = core_of::<B>()?;
    if core != CORE_CU {
        bail!(
            "preset `{}` has no host link (only the `{}` core has a board)",
            B::PRESET.name,
            CORE_CU.name
        );
    }
    let sizes = crate::hw::link::host_link::model::HostLinkSizes::of(&core);
    let mut model = crate::hw::link::host_link::model::HostLinkModel::new(sizes);
    let name = format!("host_link_{}", B::PRESET.name);
    run_differential(
        &name,
        || crate::hw::link::host_link::HostLinkCu::new().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::link::host_link::stimulus::host_link_stimulus(),
    )
}

/// `core_board` of preset `B` against its model.
pub fn preset_core_board<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    core_board(seed, cycles)
}

/// `register_map` of preset `B` against its model.
pub fn preset_register_map<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let c = B::PRESET.collector;
    let mut model = crate::hw::RegisterMapModel {
        banks: c.banks,
        regs_per_warp: c.regs_per_warp,
        schedulers: c.schedulers,
    };
    run_differential(
        &format!("register_map_{}", B::PRESET.name),
        || B::register_map().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::collector::register_map::stimulus::register_map_stimulus(
            B::PRESET.scheduler.warps,
            c.regs_per_warp,
        ),
    )
}

/// `register_file` of preset `B` against its model.
pub fn preset_register_file<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let row_bits = crate::params::clog2(p.collector.rows_per_bank(p.scheduler.warps));
    let sizes = (p.collector.banks, row_bits, p.scheduler.threads, p.collector.lane_bits);
    register_file(
        &format!("register_file_{}", p.name),
        || B::register_file().unwrap(),
        sizes,
        seed,
        cycles,
    )
}

/// `operand_collector` of preset `B` against its model.
pub fn preset_operand_collector<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    preset_collector::<B>(CollectorTiming::GpgpuSim, seed, cycles)
}

/// `operand_collector_pipelined` of preset `B` against its model.
pub fn preset_operand_collector_pipelined<B: PresetBlocks>(
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    preset_collector::<B>(CollectorTiming::Pipelined, seed, cycles)
}

fn preset_collector<B: PresetBlocks>(
    timing: CollectorTiming,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let p = B::PRESET;
    let module = crate::hw::collector::operand_collector::module_name(timing);
    let name = format!("{module}_{}", p.name);
    operand_collector(
        &name,
        || B::operand_collector(timing).unwrap(),
        crate::params::CollectorParams { timing, ..p.collector },
        (p.scheduler.warps, p.scheduler.threads),
        seed,
        cycles,
    )
}

/// `local_data_share` of preset `B` against its model.
pub fn preset_local_data_share<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let name = format!("local_data_share_{}", p.name);
    local_data_share(
        &name,
        || B::local_data_share().unwrap(),
        (p.scheduler.threads, p.scheduler.warps, p.collector.lane_bits, p.lds_rows),
        seed,
        cycles,
    )
}

/// `scoreboard` of preset `B` against its model.
pub fn preset_scoreboard<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let mut model = crate::hw::ScoreboardModel::new(p.scheduler.warps);
    let stim = crate::hw::core::scoreboard::stimulus::scoreboard_stimulus(
        p.scheduler.warps,
        p.collector.regs_per_warp,
    );
    run_differential(
        &format!("scoreboard_{}", p.name),
        || B::scoreboard().unwrap(),
        &mut model,
        seed,
        cycles,
        stim,
    )
}

/// `lane_alu` of preset `B` against its model.
pub fn preset_lane_alu<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let (lanes, bits) = (p.scheduler.threads, p.collector.lane_bits);
    let mut model = crate::hw::LaneAluModel { lanes, lane_bits: bits };
    differential_via_verilog(
        &format!("lane_alu_{}", p.name),
        || B::lane_alu().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::core::lane_alu::stimulus::alu_stimulus(lanes, bits),
    )
}

/// `decoder` of preset `B` against its model.
pub fn preset_decoder<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    run_differential(
        &format!("decoder_{}", B::PRESET.name),
        || crate::hw::Decoder::new().unwrap(),
        &mut crate::hw::DecoderModel,
        seed,
        cycles,
        crate::hw::core::decoder::stimulus::decoder_stimulus(),
    )
}

/// `ibuffer` of preset `B` against its model.
pub fn preset_ibuffer<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = crate::hw::IBufferModel::new(p.warps);
    run_differential(
        &format!("ibuffer_{}", B::PRESET.name),
        || B::ibuffer().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::core::ibuffer::stimulus::ibuffer_stimulus(p.warps, p.pc_width),
    )
}

/// The preset's I-buffer in block RAM against the I-buffer's model with its head registered.
pub fn preset_ibuffer_ram<B: PresetBlocks>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET.scheduler;
    let mut model = crate::hw::IBufferModel::registered(p.warps);
    run_differential(
        &format!("ibuffer_ram_{}", B::PRESET.name),
        || B::ibuffer_ram().unwrap(),
        &mut model,
        seed,
        cycles,
        crate::hw::core::ibuffer::stimulus::ibuffer_stimulus(p.warps, p.pc_width),
    )
}

/// A bank arbiter of `n` collector units over `b` banks against its model.
pub fn bank_arbiter<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    (banks, collectors, lanes, depth, row_bits): (usize, usize, usize, usize, usize),
    one_bank_per_cu: bool,
    respect_bound: bool,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = crate::hw::collector::bank_arbiter::model::BankArbiterModel::new(
        banks,
        collectors,
        lanes,
        depth,
        one_bank_per_cu,
    );
    let stim = crate::hw::collector::bank_arbiter::stimulus::arbiter_stimulus(
        banks,
        collectors,
        row_bits,
        respect_bound,
    );
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// A register file of `banks x 2^row_bits` rows of `lanes x lane_bits` against its model.
pub fn register_file<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    (banks, row_bits, lanes, lane_bits): (usize, usize, usize, usize),
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = crate::hw::collector::register_file::model::RegisterFileModel::new(
        banks,
        1 << row_bits,
        lanes,
        lane_bits,
    );
    let stim = crate::hw::collector::register_file::stimulus::register_file_stimulus(
        banks, row_bits, lanes, lane_bits,
    );
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// A local data share of `lanes` lanes for `warps` warps, `lane_bits`-bit words and `rows` rows
/// per bank against its model.
pub fn local_data_share<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    (lanes, warps, lane_bits, rows): (usize, usize, usize, usize),
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = crate::hw::LocalDataShareModel::new(lanes, lane_bits, rows);
    run_differential(
        name,
        make,
        &mut model,
        seed,
        cycles,
        crate::hw::lds::local_data_share::stimulus::lds_stimulus(lanes, warps, lane_bits),
    )
}

/// An operand collector with parameters `c` for `warps` warps of `threads` lanes against its
/// model, on [`collector_stimulus`](crate::hw::collector::operand_collector::stimulus::collector_stimulus).
pub fn operand_collector<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    c: crate::params::CollectorParams,
    (warps, threads): (usize, usize),
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = crate::hw::OperandCollectorModel::new(c, warps, threads);
    let stim =
        crate::hw::collector::operand_collector::stimulus::collector_stimulus(c, warps, threads);
    run_differential(name, make, &mut model, seed, cycles, stim)
}

/// An operand collector in the closed loop of [`CollectorEnv`](super::collector_env::CollectorEnv)
/// (scoreboarded issue, execution with write-back, shadow register file), compared with its
/// model every cycle; the last 10% of the cycles issue nothing so that everything drains.
/// Fails on any lost, duplicated or wrong instruction other than a WAR hazard, which it counts.
pub fn operand_collector_closed_loop<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    c: crate::params::CollectorParams,
    (warps, threads): (usize, usize),
    regs_used: usize,
    seed: u64,
    cycles: usize,
) -> Result<(Recorded, super::collector_env::EnvStats)> {
    let mut model = crate::hw::OperandCollectorModel::new(c, warps, threads);
    let mut env =
        super::collector_env::CollectorEnv::new(c, warps, threads, regs_used, cycles - cycles / 10);
    let rec = run_differential(name, make, &mut model, seed, cycles, |rng, m, cycle| {
        env.next_inputs(rng, m, cycle)
    })?;
    let stats = env.finish().map_err(|e| anyhow::anyhow!("{name} (seed {seed}): {e:#}"))?;
    Ok((rec, stats))
}

/// The core's board top driven through its serial lines by the host's side: random programs
/// (valid by construction) written, run with capture, the status polled and records read back,
/// until `cycles` cycles from power-up are recorded.
pub fn core_board(seed: u64, cycles: usize) -> Result<Recorded> {
    use crate::link::{Host, Serial};
    let cpb = crate::boards::CORE_BOARD_CLOCKS_PER_BIT;
    let mut host = Host::new(
        crate::boards::core_board::SimBoard::with_trace(cpb, &[], true)?,
        crate::params::CORE_CU,
    );
    host.max_polls = 1_000;
    let mut rng = Rng::new(seed);
    while host.serial.cycle < cycles {
        let program =
            crate::isa::programs::random_program(&mut rng, 8, crate::params::CORE_CU.stack_depth);
        let program = crate::isa::asm::assemble(&crate::isa::programs::assembly(&program))?;
        let capture = rng.chance(50);
        let mut session = || -> Result<()> {
            let status = host.run(&program, capture)?;
            for i in 0..status.captured.min(3) {
                host.record(i)?;
            }
            if rng.chance(20) {
                host.reset_core()?;
            }
            if rng.chance(10) {
                // An unknown command byte (flagged), then the `reset` command that clears it.
                let junk = (rng.bits(8) as u8..=255)
                    .chain(0..)
                    .find(|b| crate::link::Command::of(*b).is_none())
                    .unwrap_or(0);
                host.serial.send(&[junk])?;
                host.reset_core()?;
            }
            Ok(())
        };
        // A session cut short by the cycle budget is still a valid stimulus.
        if let Err(e) = session() {
            if host.serial.cycle < cycles {
                return Err(e);
            }
        }
    }
    let (mut inputs, mut outputs) = host.serial.trace.take().unwrap_or_default();
    inputs.truncate(cycles);
    outputs.truncate(cycles);
    let ports =
        crate::sim::PortNames::default().inputs(&["rst_n", "usb_rx"]).outputs(&["led", "usb_tx"]);
    ports.check(&crate::boards::CoreBoard::new(cpb, &[])?)?;
    Ok(Recorded { inputs, outputs, ports })
}
