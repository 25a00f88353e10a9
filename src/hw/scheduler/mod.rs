//! The warp scheduler and its SIMT stacks (seed 003): which warp issues next, and each warp's
//! reconvergence stack.

pub mod simt_stack;
pub mod simt_stack_ram;
pub mod warp_scheduler;

pub use simt_stack::{model::SimtStackModel, SimtStack};
pub use simt_stack_ram::{model::SimtStackRamModel, SimtStackRam};
pub use warp_scheduler::model::{SeedWarpSchedulerModel, WarpSchedulerModel};
pub use warp_scheduler::{seed::SeedWarpScheduler, WarpScheduler};
