//! The hardware: rust-hdl blocks, one file per block, named after it.

pub mod priority_encoder;
pub mod round_robin;

pub use priority_encoder::{Order, PriorityEncoder};
pub use round_robin::RoundRobinArbiter;
pub mod simt_stack;
pub use simt_stack::SimtStack;
pub mod simt_stack_ram;
pub use simt_stack_ram::SimtStackRam;
pub mod warp_scheduler;
pub use warp_scheduler::WarpScheduler;
pub mod seed_warp_scheduler;
pub use seed_warp_scheduler::SeedWarpScheduler;
pub mod bank_arbiter;
pub use bank_arbiter::BankArbiter;
pub mod lane_ram;
pub use lane_ram::LaneRam;
pub mod register_file;
pub use register_file::RegisterFile;
pub mod register_map;
pub use register_map::RegisterMap;
pub mod local_data_share;
pub use local_data_share::LocalDataShare;
pub mod lane_alu;
pub use lane_alu::LaneAlu;
pub mod scoreboard;
pub use scoreboard::Scoreboard;
pub mod operand_collector;
pub use operand_collector::OperandCollector;
pub mod lfsr;
pub use lfsr::Lfsr;
pub mod misr;
pub use misr::Misr;
pub mod collector_self_test;
pub use collector_self_test::CollectorSelfTest;
pub mod self_test;
pub use self_test::SelfTest;
