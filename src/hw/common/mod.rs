//! Blocks the subsystems share: priority encoder, round-robin arbiter, active-lane counter, LFSR
//! and MISR, and the lane RAM the register file, the local data share and the host link keep
//! their words in.

pub mod active_lanes;
pub mod lane_ram;
pub mod lfsr;
pub mod priority_encoder;
pub mod round_robin;

pub use active_lanes::{model::ActiveLanesModel, ActiveLanes};
pub use lane_ram::LaneRam;
pub use lfsr::{misr::Misr, Lfsr};
pub use priority_encoder::{model::PriorityEncoderModel, Order, PriorityEncoder};
pub use round_robin::{model::RoundRobinModel, RoundRobinArbiter};
