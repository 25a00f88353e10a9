//! Plain-Rust, cycle-level reference models, one per block, named as in [`crate::blocks`].
//! They are written from the seeds' algorithms, not from the rust-hdl code, and define what the
//! blocks must do: the differential tests compare every output on every cycle against them.

pub mod bank_arbiter;
pub mod board_reset;
pub mod decoder;
pub mod host_link;
pub mod ibuffer;
pub mod lane_alu;
pub mod lfsr;
pub mod local_data_share;
pub mod operand_collector;
pub mod priority_encoder;
pub mod register_file;
pub mod register_map;
pub mod round_robin;
pub mod scoreboard;
pub mod simt_stack;
pub mod simt_stack_ram;
pub mod uart;
pub mod warp_scheduler;

pub use decoder::DecoderModel;
pub use ibuffer::IBufferModel;
pub use lane_alu::LaneAluModel;
pub use local_data_share::LocalDataShareModel;
pub use operand_collector::OperandCollectorModel;
pub use priority_encoder::PriorityEncoderModel;
pub use register_map::RegisterMapModel;
pub use round_robin::RoundRobinModel;
pub use scoreboard::ScoreboardModel;
pub use simt_stack::SimtStackModel;
pub use simt_stack_ram::SimtStackRamModel;
pub use warp_scheduler::{SeedWarpSchedulerModel, WarpSchedulerModel};
pub mod simt_core;
pub use simt_core::SimtCoreModel;
