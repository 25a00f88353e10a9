//! The boards: their chips ([`chip`]), pins and clocks ([`pins`]), and the tops that put the IP of [`crate::hw`] on
//! them: the power-on reset, the self-tests and the core behind the host link.

pub mod board_reset;
pub mod chip;
pub mod collector_self_test;
pub mod core_board;
pub mod pins;
pub mod self_test;

pub use board_reset::BoardReset;
pub use chip::{Chip, Family};
pub use collector_self_test::CollectorSelfTest;
pub use core_board::CoreBoard;
pub use pins::*;
pub use self_test::SelfTest;
