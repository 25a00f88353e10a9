//! The local data share (seed 004): R700's banked on-chip memory shared by a work-group's lanes.

pub mod local_data_share;

pub use local_data_share::{model::LocalDataShareModel, LocalDataShare};
