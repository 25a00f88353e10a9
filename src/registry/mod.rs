//! The registry: every exported block of a preset, once. An entry names the Verilog module, the
//! rust-hdl block and what it is in one line, builds the block for the preset, runs its random
//! differential test (the block against its reference model, on its stimulus), and names its
//! formal properties. `gen` and the manifest, the differential, exported-Verilog, soak and speed
//! suites, and `prove` all iterate [`entries`]; no other list of blocks exists.
//!
//! Adding a block: its files, then one `entry(...)` line here (see the book's "Adding a block").

use anyhow::{bail, Result};

use crate::export::entry::{entry, entry_at};
use crate::export::ExportedBlock;
pub use crate::export::{Entry, FormalBlock};
use crate::hw::collector::operand_collector::module_name;
use crate::hw::collector::operand_collector::{collector_summary, COLLECTOR_INTERFACE};
use crate::hw::core::simt_core::CORE_INTERFACE;
use crate::hw::lds::local_data_share::LDS_INTERFACE;
use crate::hw::link::host_link::link_protocol;
use crate::hw::Order;
use crate::params::{CollectorTiming, Preset, SchedulerMode, LFSR_SEED, TAPS_32};
use crate::preset_blocks::PresetBlocks;
use crate::sim::Recorded;
use crate::verify::suites as run;

/// Every exported block of preset `B`, in manifest order.
pub fn entries<B: PresetBlocks>() -> Vec<Entry> {
    let mut list = scheduler_entries::<B>();
    list.extend(collector_and_board_entries::<B>());
    list.extend(core_entries::<B>());
    list
}

/// The warp scheduler and its parts (seed 003).
fn scheduler_entries<B: PresetBlocks>() -> Vec<Entry> {
    let fixed = SchedulerMode::Fixed(B::PRESET.scheduler.fetch_policy);
    let registered = SchedulerMode::Registered(B::PRESET.scheduler.fetch_policy);
    let seed_mode = SchedulerMode::SeedCompatible;
    vec![
        entry::<B, _>("priority_encoder_lowest", "PriorityEncoder",
            "one-of-N priority encoder over the warps, lowest index first", vec![("Order", "lowest index first".into())],
            || B::warp_encoder(Order::LowestFirst), run::preset_priority_encoder_lowest::<B>, Some(crate::hw::common::priority_encoder::PROPERTIES_LOWEST)),
        entry::<B, _>("priority_encoder_highest", "PriorityEncoder",
            "one-of-N priority encoder over the warps, highest index first (the seed's order)", vec![("Order", "highest index first".into())],
            || B::warp_encoder(Order::HighestFirst), run::preset_priority_encoder_highest::<B>, Some(crate::hw::common::priority_encoder::PROPERTIES_HIGHEST)),
        entry::<B, _>("round_robin_arbiter", "RoundRobinArbiter",
            "round-robin arbiter over the warps, priority rotates past the last taken grant", vec![],
            B::warp_arbiter, run::preset_round_robin_arbiter::<B>, Some(crate::hw::common::round_robin::PROPERTIES)),
        entry::<B, _>("simt_stack", "SimtStack",
            "one warp's SIMT reconvergence stack of {mask, pc} with overflow/underflow flags", vec![],
            B::stack, run::preset_simt_stack::<B>, Some(crate::hw::scheduler::simt_stack::PROPERTIES)),
        entry::<B, _>("simt_stack_ram", "SimtStackRam",
            "every warp's SIMT stack in block RAM, tops in registers: the fixed-mode warp scheduler's stacks", vec![("Empty top", format!("{:?}", fixed.empty_top()))],
            move || B::stack_ram(fixed.empty_top(), fixed.top_storage()), run::preset_simt_stack_ram::<B>, Some(crate::hw::scheduler::simt_stack_ram::PROPERTIES)),
        entry::<B, _>("warp_scheduler", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode)", vec![("Mode", fixed.name())],
            move || B::scheduler(fixed), run::preset_warp_scheduler::<B>, Some(crate::hw::scheduler::warp_scheduler::PROPERTIES)),
        entry::<B, _>("warp_scheduler_registered", "WarpScheduler",
            "warp scheduler with per-warp SIMT stacks (fixed mode, commands registered: they act a cycle after they are offered)", vec![("Mode", registered.name())],
            move || B::scheduler(registered), run::preset_warp_scheduler_registered::<B>, None),
        entry::<B, _>("WarpScheduler", "SeedWarpScheduler",
            "the seed's WarpScheduler (003): seed-compatible mode behind the seed's ports", vec![("Mode", seed_mode.name())],
            B::seed_scheduler, run::preset_seed_warp_scheduler::<B>, None),
    ]
}

/// The operand collector's parts (seeds 000, 002), the board tops' helpers and the host link's
/// serial port.
fn collector_and_board_entries<B: PresetBlocks>() -> Vec<Entry> {
    let collector = || vec![("Collector", collector_summary(&B::PRESET))];
    let board = crate::boards::ALCHITRY_CU_V1;
    let cpb = board.clocks_per_bit();
    let rate = || {
        vec![(
            "Rate",
            format!(
                "{cpb} clocks per bit ({} baud at {} MHz)",
                crate::boards::HOST_BAUD,
                board.clock_mhz
            ),
        )]
    };
    vec![
        entry::<B, _>("bank_arbiter", "BankArbiter",
            "operand collector: per-bank read-request FIFOs and wavefront read allocator, write-back priority", collector(),
            B::bank_arbiter, run::preset_bank_arbiter::<B>, Some(crate::hw::collector::bank_arbiter::PROPERTIES)),
        entry::<B, _>("register_map", "RegisterMap",
            "operand collector: bank and row of a warp's register (GPGPU-Sim's register_bank())", collector(),
            B::register_map, run::preset_register_map::<B>, Some(crate::hw::collector::register_map::PROPERTIES)),
        entry::<B, _>("register_file", "RegisterFile",
            "operand collector: banked register file, one read per bank per cycle (latency 1), one lane-masked write", collector(),
            B::register_file, run::preset_register_file::<B>, Some(crate::hw::collector::register_file::PROPERTIES)),
        entry::<B, _>("lfsr", "Lfsr",
            "board self-test: 32-bit Galois LFSR (pseudo-random traffic)", vec![("Taps", format!("{TAPS_32:#010x}, seed {LFSR_SEED:#010x}"))],
            || crate::hw::Lfsr::<32>::new(TAPS_32, LFSR_SEED), run::preset_lfsr::<B>, None),
        entry::<B, _>("misr", "Misr",
            "board self-test: 32-bit multiple-input signature register", vec![("Taps", format!("{TAPS_32:#010x}"))],
            || crate::hw::Misr::<32>::new(TAPS_32), run::preset_misr::<B>, None),
        entry::<B, _>("board_reset", "BoardReset",
            "board tops: power-on reset and the synchronised reset button", vec![("Power-on", format!("{} cycles", crate::boards::board_reset::POR_CYCLES))],
            crate::boards::BoardReset::new, run::preset_board_reset::<B>, None),
        entry::<B, _>("uart_tx", "UartTx",
            "host link: 8N1 serial transmitter", rate(),
            move || crate::hw::UartTx::new(cpb), run::preset_uart_tx::<B>, None),
        entry::<B, _>("uart_rx", "UartRx",
            "host link: 8N1 serial receiver (two-flip-flop synchroniser, mid-bit sampling, framing-error flag)", rate(),
            move || crate::hw::UartRx::new(cpb), run::preset_uart_rx::<B>, None),
    ]
}

/// The SIMT core's parts (seeds 001, 004), the operand collector, and the preset's SIMT core
/// (`cu` and `tiny` have one); for `cu` also its host link and the board top that puts it
/// behind the serial port.
fn core_entries<B: PresetBlocks>() -> Vec<Entry> {
    let p = B::PRESET;
    let lds = format!(
        "banks={} rows_per_bank={} word_bits={} lanes={}",
        crate::isa::LDS_BANKS,
        p.lds_rows,
        p.collector.lane_bits,
        p.scheduler.threads
    );
    let mut list = vec![
        entry::<B, _>("local_data_share", "LocalDataShare",
            "R700 local data share (seed 004): 4 banks (bank = address mod 4), owner-computes stores, dynamic loads, bank conflicts serialised and counted",
            vec![("LDS", lds), ("Interface", LDS_INTERFACE.into())],
            B::local_data_share, run::preset_local_data_share::<B>, Some(crate::hw::lds::local_data_share::PROPERTIES)),
        entry::<B, _>("scoreboard", "Scoreboard",
            "GPGPU-Sim's scoreboard: registers in flight per warp, RAW/WAW hazard check (a same-cycle release counts), sticky misuse flags",
            vec![("Registers", format!("{} per warp", p.collector.regs_per_warp))],
            B::scoreboard, run::preset_scoreboard::<B>, Some(crate::hw::core::scoreboard::PROPERTIES)),
        entry::<B, _>("ibuffer", "IBuffer",
            "the SIMT core's per-warp instruction buffer: two slots per warp, fill, issue of the oldest, flush, misuse flags", vec![],
            B::ibuffer, run::preset_ibuffer::<B>, Some(crate::hw::core::ibuffer::PROPERTIES)),
        entry::<B, _>("ibuffer_ram", "IBufferRam",
            "the pipelined SIMT core's I-buffer: the same two slots per warp in block RAM, its head shown a cycle after it is named", vec![],
            B::ibuffer_ram, run::preset_ibuffer_ram::<B>, Some(crate::hw::core::ibuffer::RAM_PROPERTIES)),
        entry::<B, _>("decoder", "Decoder",
            "the SIMT core's instruction decode: opcode ROM from the ISA's decoder, register, immediate, target and store fields", vec![],
            crate::hw::Decoder::new, run::preset_decoder::<B>, None),
        entry::<B, _>("lane_alu", "LaneAlu",
            "the SIMT core's execution stage: one integer ALU per lane (the ISA's ALU ops), zero test for branches",
            vec![("Ops", "op codes 0..10: add sub and or xor shl shr slt seq pass_b lane; others give 0 and bad_op".into())],
            B::lane_alu, run::preset_lane_alu::<B>, None),
        entry::<B, _>(module_name(CollectorTiming::GpgpuSim), "OperandCollector",
            "GPGPU-Sim's operand collector (opndcoll_rfu_t): banked register file, bank arbiter, collector and dispatch units",
            vec![("Collector", collector_summary(&p)), ("Interface", COLLECTOR_INTERFACE.into())],
            || B::operand_collector(CollectorTiming::GpgpuSim), run::preset_operand_collector::<B>, Some(crate::hw::collector::operand_collector::PROPERTIES)),
    ];
    // For a board's clock: the same collector pipelined (presets with a board top).
    if p.board_clock_mhz.is_some() {
        list.push(entry::<B, _>(module_name(CollectorTiming::Pipelined), "OperandCollector",
            "the operand collector pipelined for clock speed: a unit freed by dispatch is allocated a cycle later",
            vec![("Collector", collector_summary(&p)), ("Timing", CollectorTiming::Pipelined.name().into()), ("Interface", COLLECTOR_INTERFACE.into())],
            || B::operand_collector(CollectorTiming::Pipelined), run::preset_operand_collector_pipelined::<B>, Some(crate::hw::collector::operand_collector::PIPELINED_PROPERTIES)));
    }
    list.extend(simt_core_entries::<B>());
    list
}

/// The preset's SIMT core, and for the `cu-core` its host link and board top.
fn simt_core_entries<B: PresetBlocks>() -> Vec<Entry> {
    use crate::hw::core::simt_core::{SimtCoreCu, SimtCoreTiny};
    let Some(core) = B::PRESET.core else { return vec![] };
    let summary = "the SIMT core: fetch, I-buffer, scoreboarded issue, operand collector, lane ALU, local data share, branch resolution into the SIMT stacks";
    let header_of = |core: crate::params::CoreParams| {
        vec![
        ("Core", format!(
            "warps={} threads={} lane_bits={} stack_depth={} lds_rows={} banks={} collector_units={} imem_words={} issue_policy={}",
            core.warps, core.threads, core.lane_bits, core.stack_depth, core.lds_rows, core.banks, core.collector_units, core.imem_words, core.policy.name()
        )),
        ("Timing", match core.collector_timing {
            CollectorTiming::GpgpuSim => "GPGPU-Sim's one-cycle operand collector, issue in one cycle",
            CollectorTiming::Pipelined => "pipelined: head selected a cycle ahead, issue latch, pipelined collector, registered release, control and local-data-share request",
        }.into()),
        ("Interface", CORE_INTERFACE.into()),
    ]
    };
    let header = header_of(core);
    let simt_core = run::preset_simt_core::<B>;
    // The core's headers state the core preset, not the blocks' (`cu-core`: 4 lanes, not 8).
    let sizes = Preset {
        name: core.name,
        purpose: core.purpose,
        scheduler: core.scheduler(),
        collector: core.collector(),
        lds_rows: core.lds_rows,
        ..B::PRESET
    };
    if core != crate::params::CORE_CU {
        return vec![entry_at(
            sizes,
            "simt_core",
            "SimtCore",
            summary,
            header,
            move || SimtCoreTiny::new(core),
            simt_core,
            None,
        )];
    }
    let cpb = crate::boards::CORE_BOARD_CLOCKS_PER_BIT;
    let (baud, mhz) = (crate::boards::HOST_BAUD, crate::boards::CORE_BOARD_MHZ);
    let clock = format!(
        "{mhz} MHz from the iCE40 PLL; serial port {cpb} clocks per bit ({baud} baud at {mhz} MHz)"
    );
    let exact = crate::params::CoreParams { collector_timing: CollectorTiming::GpgpuSim, ..core };
    let exact_header = header_of(exact);
    vec![
        entry_at(sizes, "simt_core", "SimtCore", summary, header, move || SimtCoreCu::new(core), simt_core, None),
        entry_at(sizes, "simt_core_gpgpu_sim", "SimtCore",
            "the SIMT core in the GPGPU-Sim-exact timing (the collector's one-cycle step, issue in one cycle)",
            exact_header, move || SimtCoreCu::new(exact), run::preset_simt_core_gpgpu_sim::<B>, None),
        entry_at(sizes, "host_link", "HostLink",
            "host link: the serial protocol engine between the UART and the SIMT core (writes, start, status, write-back capture)",
            vec![("Protocol", link_protocol())],
            crate::hw::link::host_link::HostLinkCu::new, run::preset_host_link::<B>, Some(crate::hw::link::host_link::PROPERTIES)),
        entry_at(sizes, "core_board", "CoreBoard",
            "board top: the SIMT core behind the USB serial port (UART, host link), LEDs",
            vec![("Protocol", link_protocol()), ("Clock", clock),
                 ("Ports", "clk, rst_n (active low), led[7:0], usb_rx, usb_tx as in constraints/".into())],
            move || crate::boards::CoreBoard::new(cpb, &[]), run::preset_core_board::<B>, None),
    ]
}

/// The entry of exported module `module` of preset `B`; an unknown module is an error naming
/// the preset's modules.
pub fn entry_of<B: PresetBlocks>(module: &str) -> Result<Entry> {
    let mut all = entries::<B>();
    match all.iter().position(|e| e.module == module) {
        Some(i) => Ok(all.swap_remove(i)),
        None => {
            let known: Vec<_> = all.iter().map(|e| e.module).collect();
            bail!(
                "preset `{}` exports no module `{module}` (it exports {})",
                B::PRESET.name,
                known.join(", ")
            )
        }
    }
}

/// Every exported block of preset `B`, built and exported, in manifest order.
pub fn exported_blocks<B: PresetBlocks>() -> Result<Vec<ExportedBlock>> {
    entries::<B>().iter().map(Entry::export).collect()
}

/// The blocks of preset `B` with formal properties.
pub fn formal_blocks<B: PresetBlocks>() -> Vec<FormalBlock> {
    entries::<B>().iter().filter_map(Entry::formal).collect()
}

/// The differential run of exported module `module` of preset `B` ([`Entry::differential`]).
pub fn differential<B: PresetBlocks>(module: &str, seed: u64, cycles: usize) -> Result<Recorded> {
    entry_of::<B>(module)?.differential(seed, cycles)
}
