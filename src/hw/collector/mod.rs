//! GPGPU-Sim's operand collector (seeds 000 and 002): the banked register file, where a warp's
//! registers live in it, the per-bank read queues and their allocator, and the collector units.

pub mod bank_arbiter;
pub mod operand_collector;
pub mod register_file;
pub mod register_map;

pub use bank_arbiter::BankArbiter;
pub use operand_collector::{model::OperandCollectorModel, OperandCollector};
pub use register_file::RegisterFile;
pub use register_map::{model::RegisterMapModel, RegisterMap};

/// The register file's banks: `B` banks (`BW` bits) of `2^RW` rows, as the register map lays them
/// out for the preset's warps.
fn bank_sizes(p: &crate::params::Preset) -> [(&'static str, usize); 3] {
    let c = p.collector;
    [
        ("B", c.banks),
        ("BW", crate::params::clog2(c.banks)),
        ("RW", crate::params::clog2(c.rows_per_bank(p.scheduler.warps))),
    ]
}

/// The bank queues' sizes, for wrappers whose invariants read the queues: entries per queue
/// `Q`, slot bits `QW`, count bits `QCW`.
fn queue_sizes(c: &crate::params::CollectorParams) -> [(&'static str, usize); 3] {
    let q = c.queue_depth();
    [("Q", q), ("QW", crate::params::clog2(q)), ("QCW", crate::params::clog2(q + 1))]
}
