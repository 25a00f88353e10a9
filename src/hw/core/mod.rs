//! The SIMT core (seed 001's front end around the collector): barrier, decoder, lane ALU,
//! I-buffer, scoreboard, and the core that joins them with the scheduler, the collector and the local data
//! share.

pub mod barrier;
pub mod decoder;
pub mod ibuffer;
pub mod lane_alu;
pub mod scoreboard;
pub mod simt_core;

pub use barrier::{model::BarrierModel, Barrier};
pub use decoder::{model::DecoderModel, Decoder};
pub use ibuffer::{model::IBufferModel, IBuffer, IBufferRam};
pub use lane_alu::{model::LaneAluModel, LaneAlu};
pub use scoreboard::{model::ScoreboardModel, Scoreboard};
pub use simt_core::{model::SimtCoreModel, SimtCore};
