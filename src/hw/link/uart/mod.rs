//! The host link's serial port, 8N1: receiver ([`rx`]), transmitter ([`tx`]) and their models.

pub mod model;
pub mod preset;
pub mod rx;
pub mod stimulus;
pub mod tx;
