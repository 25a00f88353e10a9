//! The blocks of each preset as concrete types: rust-hdl needs the sizes as const generics, so
//! every preset gets a type that names its blocks. [`with_preset!`](crate::with_preset) picks
//! one by name at run time.

use anyhow::Result;

use crate::boards::SelfTest;
use crate::hw::{
    BankArbiter, IBuffer, LaneAlu, LocalDataShare, OperandCollector, Order, PriorityEncoder,
    RegisterFile, RegisterMap, RoundRobinArbiter, Scoreboard, SeedWarpScheduler, SimtStack,
    SimtStackRam, WarpScheduler,
};
use crate::params::{EmptyTop, Preset, SchedulerMode, TopStorage, CU, SEED, TINY};
use crate::sim::Dut;

/// The blocks of one preset.
pub trait PresetBlocks: 'static {
    const PRESET: Preset;
    /// `(W, WW, T, A, D, SPW, E)` as the const generics spell them.
    const GENERICS: [usize; 7];
    type Scheduler: Dut + 'static;
    type SeedScheduler: Dut + 'static;
    type Stack: Dut + 'static;
    /// All warps' stacks in block RAM, as the scheduler holds them.
    type StackRam: Dut + 'static;
    type WarpEncoder: Dut + 'static;
    type WarpArbiter: Dut + 'static;
    /// `BankArbiter<B, BW, N, NW, K, Q, QW, QCW, BQ, RW, SQ>` of the preset's operand collector.
    const ARBITER_GENERICS: [usize; 11];
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
    fn operand_collector() -> Result<Self::OperandCollector>;
    fn register_file() -> Result<Self::RegisterFile>;
    fn register_map() -> Result<Self::RegisterMap>;
    fn local_data_share() -> Result<Self::LocalDataShare>;
    fn scoreboard() -> Result<Self::Scoreboard>;
    fn lane_alu() -> Result<Self::LaneAlu>;
    fn ibuffer() -> Result<Self::IBuffer>;
    /// The self-test top running `cycles` cycles, its expected signature computed by simulation.
    fn self_test(cycles: u64) -> Result<Self::SelfTest>;
}

macro_rules! preset_blocks {
    ($name:ident, $preset:expr, $w:literal, $ww:literal, $t:literal, $a:literal, $d:literal, $spw:literal, $e:literal,
     arbiter: $($g:literal),*;
     collector: $b:literal, $bw:literal, $n:literal, $nw:literal, $p:literal, $k:literal, $q:literal, $qw:literal, $qcw:literal, $bq:literal,
     $sq:literal, $rw:literal, $cww:literal, $rrw:literal, $ct:literal, $dw:literal, $td:literal, $u:literal, $uw:literal, $tg:literal;
     lds_row_bits: $lrw:literal) => {
        #[doc = concat!("The blocks of the `", stringify!($preset), "` preset.")]
        pub struct $name;
        impl PresetBlocks for $name {
            const PRESET: Preset = $preset;
            const GENERICS: [usize; 7] = [$w, $ww, $t, $a, $d, $spw, $e];
            type Scheduler = WarpScheduler<$w, $ww, $t, $a, $d, $spw>;
            type SeedScheduler = SeedWarpScheduler<$w, $ww, $t, $a, $d, $spw, $e>;
            type Stack = SimtStack<$t, $a, $d, $spw>;
            type StackRam = SimtStackRam<$w, $ww, $t, $a, $d, $spw>;
            type WarpEncoder = PriorityEncoder<$w, $ww>;
            type WarpArbiter = RoundRobinArbiter<$w, $ww>;
            const ARBITER_GENERICS: [usize; 11] = [$($g),*];
            type BankArbiter = BankArbiter<$($g),*>;
            type OperandCollector =
                OperandCollector<$b, $bw, $n, $nw, $p, $k, $q, $qw, $qcw, $bq, $sq, $rw, $cww, $rrw, $ct, $dw, $td, $u, $uw, $tg>;
            type RegisterFile = RegisterFile<$b, $bw, $rw, $ct, $dw, $td>;
            type RegisterMap = RegisterMap<$bw, $rw, $cww, $rrw>;
            type LocalDataShare = LocalDataShare<$ct, $ww, $dw, $lrw>;
            type Scoreboard = Scoreboard<$w, $ww, { 1 << $rrw }, $rrw>;
            type IBuffer = IBuffer<$w, $ww, $a>;
            type LaneAlu = LaneAlu<$ct, $dw, { $crate::params::clog2($dw) }, $td>;
            type SelfTest = SelfTest<$w, $ww, $t, $a, $d, $spw, $b, $bw, $n, $nw, $p, $k, $q, $qw, $qcw, $bq, $sq, $rw, $rrw, $dw, $td, $u, $uw, $tg>;
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
                BankArbiter::new(Self::PRESET.collector.one_bank_per_cu)
            }
            fn register_file() -> Result<Self::RegisterFile> {
                RegisterFile::new()
            }
            fn register_map() -> Result<Self::RegisterMap> {
                let c = Self::PRESET.collector;
                RegisterMap::new(c.banks, c.regs_per_warp, c.schedulers)
            }
            fn local_data_share() -> Result<Self::LocalDataShare> {
                if Self::PRESET.lds_rows != 1 << $lrw {
                    anyhow::bail!("preset `{}`: lds_rows = {} is not 2^{}", Self::PRESET.name, Self::PRESET.lds_rows, $lrw);
                }
                LocalDataShare::new(Self::PRESET.scheduler.warps)
            }
            fn scoreboard() -> Result<Self::Scoreboard> {
                if Self::PRESET.collector.regs_per_warp != 1 << $rrw {
                    anyhow::bail!("preset `{}`: regs_per_warp = {} is not 2^{}", Self::PRESET.name, Self::PRESET.collector.regs_per_warp, $rrw);
                }
                Scoreboard::new()
            }
            fn ibuffer() -> Result<Self::IBuffer> {
                IBuffer::new()
            }
            fn lane_alu() -> Result<Self::LaneAlu> {
                LaneAlu::new()
            }
            fn self_test(cycles: u64) -> Result<Self::SelfTest> {
                Self::PRESET.board_clock()?;
                SelfTest::for_board(&Self::PRESET, cycles)
            }
            fn operand_collector() -> Result<Self::OperandCollector> {
                let p = Self::PRESET;
                OperandCollector::new(p.collector, p.scheduler.warps, p.scheduler.threads)
            }
        }
    };
}

preset_blocks!(SeedBlocks, SEED, 8, 3, 32, 32, 8, 4, 64, arbiter: 8, 3, 8, 3, 6, 32, 5, 6, 256, 5, 8;
    collector: 8, 3, 8, 3, 2, 6, 32, 5, 6, 256, 8, 5, 3, 5, 32, 2, 64, 2, 1, 8; lds_row_bits: 8);
preset_blocks!(CuBlocks, CU, 4, 2, 8, 16, 4, 3, 24, arbiter: 4, 2, 2, 1, 3, 8, 3, 4, 32, 4, 4;
    collector: 4, 2, 2, 1, 1, 3, 8, 3, 4, 32, 4, 4, 2, 4, 8, 4, 32, 2, 1, 8; lds_row_bits: 4);
preset_blocks!(TinyBlocks, TINY, 2, 1, 4, 8, 2, 2, 12, arbiter: 2, 1, 2, 1, 3, 8, 3, 4, 16, 2, 2;
    collector: 2, 1, 2, 1, 1, 3, 8, 3, 4, 16, 2, 2, 1, 2, 4, 8, 32, 1, 1, 4; lds_row_bits: 4);

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

    fn check<B: PresetBlocks>() {
        let p = B::PRESET.scheduler;
        let [w, _, t, a, d, _, _] = B::GENERICS;
        assert_eq!(
            (w, t, a, d),
            (p.warps, p.threads, p.pc_width, p.stack_depth),
            "{}",
            B::PRESET.name
        );
        B::scheduler(SchedulerMode::SeedCompatible).unwrap();
        B::seed_scheduler().unwrap();
        let c = B::PRESET.collector;
        let [b, _, n, _, k, q, _, _, _, rw, _] = B::ARBITER_GENERICS;
        let rows = c.rows_per_bank(p.warps);
        assert_eq!(
            (b, n, k, q, 1 << rw),
            (c.banks, c.collector_units, c.push_lanes(), c.queue_depth(), rows),
            "{}",
            B::PRESET.name
        );
        B::bank_arbiter().unwrap();
        B::operand_collector().unwrap();
        B::register_file().unwrap();
        B::register_map().unwrap();
        B::local_data_share().unwrap();
        B::scoreboard().unwrap();
        B::lane_alu().unwrap();
        B::ibuffer().unwrap();
    }

    #[test]
    fn generics_match_presets() {
        check::<SeedBlocks>();
        check::<CuBlocks>();
        check::<TinyBlocks>();
    }
}
