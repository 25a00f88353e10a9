//! The board's side of the host link: the UART and the protocol engine that loads, runs and
//! reads back the core. The host's side is [`crate::link`].

pub mod host_link;
pub mod uart;

pub use host_link::HostLink;
pub use uart::{rx::UartRx, tx::UartTx};
