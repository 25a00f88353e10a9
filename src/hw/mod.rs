//! The IP: every block as rust-hdl hardware, one folder per block, grouped by subsystem. A
//! block's folder holds its hardware (`mod.rs`), its plain-Rust cycle model (`model.rs`, written
//! from the seeds' algorithms, not from the rust-hdl code), its constrained-random stimulus
//! (`stimulus.rs`) and its formal properties (`<block>.sv`) side by side.
//!
//! | subsystem | blocks |
//! |---|---|
//! | [`common`] | priority encoder, round-robin arbiter, LFSR and MISR, lane RAM |
//! | [`scheduler`] | SIMT stack, stack RAM, warp scheduler (and the seed-compatible one) |
//! | [`collector`] | bank arbiter, register file, register map, operand collector |
//! | [`core`] | decoder, lane ALU, I-buffer, scoreboard, the SIMT core |
//! | [`lds`] | local data share |
//! | [`link`] | UART receiver and transmitter, host link |
//!
//! The board tops that wrap these blocks live apart, in [`crate::boards`].

pub mod collector;
pub mod common;
pub mod core;
pub mod lds;
pub mod link;
pub mod scheduler;

pub use self::collector::bank_arbiter::BankArbiter;
pub use self::collector::operand_collector::{model::OperandCollectorModel, OperandCollector};
pub use self::collector::register_file::RegisterFile;
pub use self::collector::register_map::{model::RegisterMapModel, RegisterMap};
pub use self::common::lane_ram::LaneRam;
pub use self::common::lfsr::{misr::Misr, Lfsr};
pub use self::common::priority_encoder::{model::PriorityEncoderModel, Order, PriorityEncoder};
pub use self::common::round_robin::{model::RoundRobinModel, RoundRobinArbiter};
pub use self::core::decoder::{model::DecoderModel, Decoder};
pub use self::core::ibuffer::{model::IBufferModel, IBuffer, IBufferRam};
pub use self::core::lane_alu::{model::LaneAluModel, LaneAlu};
pub use self::core::scoreboard::{model::ScoreboardModel, Scoreboard};
pub use self::core::simt_core::{model::SimtCoreModel, SimtCore};
pub use self::lds::local_data_share::{model::LocalDataShareModel, LocalDataShare};
pub use self::link::host_link::HostLink;
pub use self::link::uart::{rx::UartRx, tx::UartTx};
pub use self::scheduler::simt_stack::{model::SimtStackModel, SimtStack};
pub use self::scheduler::simt_stack_ram::{model::SimtStackRamModel, SimtStackRam};
pub use self::scheduler::warp_scheduler::model::{SeedWarpSchedulerModel, WarpSchedulerModel};
pub use self::scheduler::warp_scheduler::{seed::SeedWarpScheduler, WarpScheduler};
