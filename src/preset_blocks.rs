//! The blocks of each preset as concrete types: rust-hdl needs the sizes as const generics, so
//! every preset gets a type that names its blocks. [`with_preset!`](crate::with_preset) picks
//! one by name at run time.

use anyhow::Result;

use crate::boards::SelfTest;
use crate::hw::{
    BankArbiter, IBuffer, IBufferRam, LaneAlu, LocalDataShare, OperandCollector, Order,
    PriorityEncoder, RegisterFile, RegisterMap, RoundRobinArbiter, Scoreboard, SeedWarpScheduler,
    SimtStack, SimtStackRam, WarpScheduler,
};
pub use crate::params::PresetSizes;
use crate::params::{
    CollectorParams, CollectorTiming, EmptyTop, Preset, SchedulerMode, Sizes, TopStorage, CU, SEED,
    TINY,
};
use crate::sim::Dut;

/// The blocks of one preset.
pub trait PresetBlocks: PresetSizes {
    type Scheduler: Dut + 'static;
    type SeedScheduler: Dut + 'static;
    type Stack: Dut + 'static;
    /// All warps' stacks in block RAM, as the scheduler holds them.
    type StackRam: Dut + 'static;
    type WarpEncoder: Dut + 'static;
    type WarpArbiter: Dut + 'static;
    type BankArbiter: Dut + 'static;
    /// `OperandCollector<B, BW, N, NW, P, K, Q, QW, QCW, BQ, SQ, RW, WW, RRW, T, DW, TD, U, UW, G>`
    /// (its `new()` checks every one against the preset).
    type OperandCollector: Dut + 'static;
    type RegisterFile: Dut + 'static;
    type RegisterMap: Dut + 'static;
    /// `LocalDataShare<T, WW, DW, RW>`: the collector's lanes and lane width, `2^RW = lds_rows`.
    type LocalDataShare: Dut + 'static;
    /// `Scoreboard<W, WW, R, RRW>`: the scheduler's warps, the collector's registers per warp.
    type Scoreboard: Dut + 'static;
    /// `LaneAlu<T, DW, SW, TD>`: the collector's lanes and lane width.
    type LaneAlu: Dut + 'static;
    /// `IBuffer<W, WW, A>`: the scheduler's warps and pc width.
    type IBuffer: Dut + 'static;
    /// `IBufferRam<W, WW, A>`: the same, in block RAM.
    type IBufferRam: Dut + 'static;
    /// The board self-test top around this preset's scheduler and operand collector.
    type SelfTest: Dut + 'static;
    fn scheduler(mode: SchedulerMode) -> Result<Self::Scheduler>;
    fn seed_scheduler() -> Result<Self::SeedScheduler>;
    fn stack() -> Result<Self::Stack>;
    fn stack_ram(empty_top: EmptyTop, top_storage: TopStorage) -> Result<Self::StackRam>;
    fn warp_encoder(order: Order) -> Result<Self::WarpEncoder>;
    fn warp_arbiter() -> Result<Self::WarpArbiter>;
    /// The same arbiter with lookahead timing (inside the registered-mode scheduler).
    fn warp_arbiter_lookahead() -> Result<Self::WarpArbiter>;
    fn bank_arbiter() -> Result<Self::BankArbiter>;
    /// The preset's operand collector, with `timing` (the preset's own, or pipelined).
    fn operand_collector(timing: CollectorTiming) -> Result<Self::OperandCollector>;
    fn register_file() -> Result<Self::RegisterFile>;
    fn register_map() -> Result<Self::RegisterMap>;
    fn local_data_share() -> Result<Self::LocalDataShare>;
    fn scoreboard() -> Result<Self::Scoreboard>;
    fn lane_alu() -> Result<Self::LaneAlu>;
    fn ibuffer() -> Result<Self::IBuffer>;
    fn ibuffer_ram() -> Result<Self::IBufferRam>;
    /// The self-test top running `cycles` cycles, its expected signature computed by simulation.
    fn self_test(cycles: u64) -> Result<Self::SelfTest>;
}

macro_rules! preset_blocks {
    ($name:ident, $preset:ident, $sizes:ident) => {
        #[doc = concat!("The const generics of the `", stringify!($preset), "` preset's blocks.")]
        pub const $sizes: Sizes = Sizes::of(&$preset);
        #[doc = concat!("The blocks of the `", stringify!($preset), "` preset.")]
        pub struct $name;
        impl PresetSizes for $name {
            const PRESET: Preset = $preset;
        }
        impl PresetBlocks for $name {
            type Scheduler = crate::sized_warp_scheduler!($sizes);
            type SeedScheduler = crate::sized_seed_warp_scheduler!($sizes);
            type Stack = crate::sized_simt_stack!($sizes);
            type StackRam = crate::sized_simt_stack_ram!($sizes);
            type WarpEncoder = crate::sized_priority_encoder!($sizes);
            type WarpArbiter = crate::sized_round_robin_arbiter!($sizes);
            type BankArbiter = crate::sized_bank_arbiter!($sizes);
            type OperandCollector = crate::sized_operand_collector!($sizes);
            type RegisterFile = crate::sized_register_file!($sizes);
            type RegisterMap = crate::sized_register_map!($sizes);
            type LocalDataShare = crate::sized_local_data_share!($sizes);
            type Scoreboard = crate::sized_scoreboard!($sizes);
            type IBuffer = crate::sized_ibuffer!($sizes);
            type IBufferRam = crate::sized_ibuffer_ram!($sizes);
            type LaneAlu = crate::sized_lane_alu!($sizes);
            type SelfTest = crate::sized_self_test!($sizes);
            fn scheduler(mode: SchedulerMode) -> Result<Self::Scheduler> {
                WarpScheduler::new(mode)
            }
            fn seed_scheduler() -> Result<Self::SeedScheduler> {
                SeedWarpScheduler::new()
            }
            fn stack() -> Result<Self::Stack> {
                SimtStack::new()
            }
            fn stack_ram(empty_top: EmptyTop, top_storage: TopStorage) -> Result<Self::StackRam> {
                SimtStackRam::new(empty_top, top_storage)
            }
            fn warp_encoder(order: Order) -> Result<Self::WarpEncoder> {
                PriorityEncoder::new(order)
            }
            fn warp_arbiter() -> Result<Self::WarpArbiter> {
                RoundRobinArbiter::new()
            }
            fn warp_arbiter_lookahead() -> Result<Self::WarpArbiter> {
                RoundRobinArbiter::lookahead()
            }
            fn bank_arbiter() -> Result<Self::BankArbiter> {
                BankArbiter::new(
                    Self::PRESET.collector.one_bank_per_cu,
                    Self::PRESET.collector.sources,
                )
            }
            fn register_file() -> Result<Self::RegisterFile> {
                RegisterFile::new()
            }
            fn register_map() -> Result<Self::RegisterMap> {
                let c = Self::PRESET.collector;
                RegisterMap::new(c.banks, c.regs_per_warp, c.schedulers)
            }
            fn local_data_share() -> Result<Self::LocalDataShare> {
                LocalDataShare::new(Self::PRESET.scheduler.warps)
            }
            fn scoreboard() -> Result<Self::Scoreboard> {
                Scoreboard::new()
            }
            fn ibuffer() -> Result<Self::IBuffer> {
                IBuffer::new()
            }
            fn ibuffer_ram() -> Result<Self::IBufferRam> {
                IBufferRam::new()
            }
            fn lane_alu() -> Result<Self::LaneAlu> {
                LaneAlu::new()
            }
            fn self_test(cycles: u64) -> Result<Self::SelfTest> {
                Self::PRESET.board_clock()?;
                SelfTest::for_board(&Self::PRESET, cycles)
            }
            fn operand_collector(timing: CollectorTiming) -> Result<Self::OperandCollector> {
                let p = Self::PRESET;
                let c = CollectorParams { timing, ..p.collector };
                OperandCollector::new(c, p.scheduler.warps, p.scheduler.threads)
            }
        }
    };
}

preset_blocks!(SeedBlocks, SEED, SEED_SIZES);
preset_blocks!(CuBlocks, CU, CU_SIZES);
preset_blocks!(TinyBlocks, TINY, TINY_SIZES);

/// Runs `$body` with `$B` bound to the [`PresetBlocks`] type of the preset named `$name`; an
/// unknown name is an error naming the known presets.
#[macro_export]
macro_rules! with_preset {
    ($name:expr, $B:ident => $body:expr) => {{
        match $crate::params::preset($name)?.name {
            "seed" => {
                type $B = $crate::preset_blocks::SeedBlocks;
                $body
            }
            "cu" => {
                type $B = $crate::preset_blocks::CuBlocks;
                $body
            }
            "tiny" => {
                type $B = $crate::preset_blocks::TinyBlocks;
                $body
            }
            other => unreachable!("preset `{other}` has no block types"),
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block of the preset builds: each `new()` checks its const generics against the
    /// preset (`check_derived`).
    fn check<B: PresetBlocks>() {
        B::scheduler(SchedulerMode::SeedCompatible).unwrap();
        B::seed_scheduler().unwrap();
        B::stack().unwrap();
        B::stack_ram(EmptyTop::Zero, TopStorage::Registers).unwrap();
        B::bank_arbiter().unwrap();
        B::operand_collector(CollectorTiming::GpgpuSim).unwrap();
        B::operand_collector(CollectorTiming::Pipelined).unwrap();
        B::register_file().unwrap();
        B::register_map().unwrap();
        B::local_data_share().unwrap();
        B::scoreboard().unwrap();
        B::lane_alu().unwrap();
        B::ibuffer().unwrap();
    }

    #[test]
    fn every_block_of_every_preset_builds() {
        check::<SeedBlocks>();
        check::<CuBlocks>();
        check::<TinyBlocks>();
    }
}
