//! Each block's formal properties: the SystemVerilog wrapper beside the block, the wrapper
//! module in it and the wrapper's parameters for a preset. A block's registry entry names its
//! [`Properties`]; `simt-rtl prove` and `tests/formal.rs` take them from the registry.

use crate::params::{clog2, CollectorParams, Preset};

/// A block with formal properties, as `prove` checks it.
#[derive(Clone, Copy)]
pub struct FormalBlock {
    /// The exported module (`rtl_out/<preset>/<module>.v`).
    pub module: &'static str,
    /// The properties file, relative to the crate root.
    pub properties: &'static str,
    /// The wrapper module in it.
    pub wrapper: &'static str,
    /// The wrapper's parameters for a preset.
    pub parameters: fn(&Preset) -> Vec<(&'static str, usize)>,
}

/// A block's properties, before the registry gives them the block's module name.
#[derive(Clone, Copy)]
pub struct Properties {
    /// The properties file, relative to the crate root.
    pub properties: &'static str,
    /// The wrapper module in it.
    pub wrapper: &'static str,
    /// The wrapper's parameters for a preset.
    pub parameters: fn(&Preset) -> Vec<(&'static str, usize)>,
}

impl Properties {
    /// The properties of the exported module `module`.
    pub fn of(self, module: &'static str) -> FormalBlock {
        let Properties { properties, wrapper, parameters } = self;
        FormalBlock { module, properties, wrapper, parameters }
    }
}

/// `priority_encoder_lowest`'s properties.
pub const PRIORITY_ENCODER_LOWEST: Properties = Properties {
    properties: "src/blocks/priority_encoder.sv",
    wrapper: "priority_encoder_props",
    parameters: |p| {
        vec![("N", p.scheduler.warps), ("NW", p.scheduler.warp_id_width()), ("HIGHEST", 0)]
    },
};

/// `priority_encoder_highest`'s properties.
pub const PRIORITY_ENCODER_HIGHEST: Properties = Properties {
    properties: "src/blocks/priority_encoder.sv",
    wrapper: "priority_encoder_props",
    parameters: |p| {
        vec![("N", p.scheduler.warps), ("NW", p.scheduler.warp_id_width()), ("HIGHEST", 1)]
    },
};

/// `simt_stack`'s properties.
pub const SIMT_STACK: Properties = Properties {
    properties: "src/blocks/simt_stack.sv",
    wrapper: "simt_stack_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![
            ("T", s.threads),
            ("A", s.pc_width),
            ("D", s.stack_depth),
            ("SPW", s.stack_ptr_width()),
        ]
    },
};

/// `simt_stack_ram`'s properties.
pub const SIMT_STACK_RAM: Properties = Properties {
    properties: "src/blocks/simt_stack_ram.sv",
    wrapper: "simt_stack_ram_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![
            ("W", s.warps),
            ("WW", s.warp_id_width()),
            ("T", s.threads),
            ("A", s.pc_width),
            ("D", s.stack_depth),
            ("SPW", s.stack_ptr_width()),
            ("DP", s.stack_depth.next_power_of_two()),
        ]
    },
};

/// `warp_scheduler`'s properties.
pub const WARP_SCHEDULER: Properties = Properties {
    properties: "src/blocks/warp_scheduler.sv",
    wrapper: "warp_scheduler_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![("W", s.warps), ("WW", s.warp_id_width()), ("T", s.threads), ("A", s.pc_width)]
    },
};

/// `round_robin_arbiter`'s properties.
pub const ROUND_ROBIN_ARBITER: Properties = Properties {
    properties: "src/blocks/round_robin_arbiter.sv",
    wrapper: "round_robin_arbiter_props",
    parameters: |p| {
        let s = p.scheduler;
        vec![("N", s.warps), ("NW", s.warp_id_width())]
    },
};

/// `bank_arbiter`'s properties.
pub const BANK_ARBITER: Properties = Properties {
    properties: "src/blocks/bank_arbiter.sv",
    wrapper: "bank_arbiter_props",
    parameters: |p| {
        let c = p.collector;
        vec![
            ("N", c.collector_units),
            ("NW", clog2(c.collector_units)),
            ("K", c.push_lanes()),
            ("ONE_BANK", c.one_bank_per_cu as usize),
        ]
        .into_iter()
        .chain(bank_sizes(p))
        .chain(queue_sizes(&c))
        .collect()
    },
};

/// `register_map`'s properties.
pub const REGISTER_MAP: Properties = Properties {
    properties: "src/blocks/register_map.sv",
    wrapper: "register_map_props",
    parameters: |p| {
        let c = p.collector;
        vec![
            ("WW", p.scheduler.warp_id_width()),
            ("RRW", clog2(c.regs_per_warp)),
            ("W", p.scheduler.warps),
            ("R", c.regs_per_warp),
            ("S", c.schedulers),
        ]
        .into_iter()
        .chain(bank_sizes(p))
        .collect()
    },
};

/// `host_link`'s properties.
pub const HOST_LINK: Properties = Properties {
    properties: "src/blocks/host_link.sv",
    wrapper: "host_link_props",
    parameters: |_| {
        // Exported for the `cu` core's board only.
        let c = crate::params::CORE_CU;
        vec![
            ("WW", clog2(c.warps)),
            ("T", c.threads),
            ("TD", c.threads * c.lane_bits),
            ("IA", clog2(c.imem_words)),
            ("SPW", clog2(c.stack_depth + 1)),
        ]
    },
};

/// `ibuffer`'s properties.
pub const IBUFFER: Properties = Properties {
    properties: "src/blocks/ibuffer.sv",
    wrapper: "ibuffer_props",
    parameters: |p| {
        vec![
            ("W", p.scheduler.warps),
            ("WW", p.scheduler.warp_id_width()),
            ("A", p.scheduler.pc_width),
        ]
    },
};

/// `scoreboard`'s properties.
pub const SCOREBOARD: Properties = Properties {
    properties: "src/blocks/scoreboard.sv",
    wrapper: "scoreboard_props",
    parameters: |p| {
        let r = p.collector.regs_per_warp;
        vec![
            ("W", p.scheduler.warps),
            ("WW", p.scheduler.warp_id_width()),
            ("R", r),
            ("RRW", clog2(r)),
        ]
    },
};

/// `register_file`'s properties.
pub const REGISTER_FILE: Properties = Properties {
    properties: "src/blocks/register_file.sv",
    wrapper: "register_file_props",
    parameters: |p| {
        [("T", p.scheduler.threads), ("DW", p.collector.lane_bits)]
            .into_iter()
            .chain(bank_sizes(p))
            .collect()
    },
};

/// `local_data_share`'s properties.
pub const LOCAL_DATA_SHARE: Properties = Properties {
    properties: "src/blocks/local_data_share.sv",
    wrapper: "local_data_share_props",
    parameters: |p| {
        vec![
            ("T", p.scheduler.threads),
            ("WW", p.scheduler.warp_id_width()),
            ("DW", p.collector.lane_bits),
        ]
    },
};

/// `operand_collector`'s properties.
pub const OPERAND_COLLECTOR: Properties = Properties {
    properties: "src/blocks/operand_collector.sv",
    wrapper: "operand_collector_props",
    parameters: |p| {
        let c = p.collector;
        vec![
            ("B", c.banks),
            ("N", c.collector_units),
            ("NW", clog2(c.collector_units)),
            ("P", c.in_ports),
            ("WW", p.scheduler.warp_id_width()),
            ("RRW", clog2(c.regs_per_warp)),
            ("T", p.scheduler.threads),
            ("DW", c.lane_bits),
            ("U", c.unit_types),
            ("UW", clog2(c.unit_types).max(1)),
            ("G", c.tag_bits),
        ]
        .into_iter()
        .chain(queue_sizes(&c))
        .collect()
    },
};

/// The register file's banks: `B` banks (`BW` bits) of `2^RW` rows, as the register map lays them
/// out for the preset's warps.
fn bank_sizes(p: &Preset) -> [(&'static str, usize); 3] {
    let c = p.collector;
    [("B", c.banks), ("BW", clog2(c.banks)), ("RW", clog2(c.rows_per_bank(p.scheduler.warps)))]
}

/// The bank queues' sizes, for wrappers whose invariants read the queues: entries per queue
/// `Q`, slot bits `QW`, count bits `QCW`.
fn queue_sizes(c: &CollectorParams) -> [(&'static str, usize); 3] {
    let q = c.queue_depth();
    [("Q", q), ("QW", clog2(q)), ("QCW", clog2(q + 1))]
}
