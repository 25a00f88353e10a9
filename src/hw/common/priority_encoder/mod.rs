//! PriorityEncoder: picks one set bit out of a request vector.
//!
//! Two orders, fixed at elaboration: lowest index first, or highest index first (what the seed's
//! `PriorityEncoder` loop does: the last set bit it meets wins). Purely combinational.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_range, clog2, MAX_PORT_BITS};
use crate::sim::{Claim, Mutant};

/// Which set bit wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The lowest set bit wins.
    LowestFirst,
    /// The highest set bit wins.
    HighestFirst,
}

/// `N` requesters; `NW = clog2(N)` is the width of `index`.
#[derive(LogicBlock)]
pub struct PriorityEncoder<const N: usize, const NW: usize> {
    // Request
    /// One request bit per requester.
    pub req: Signal<In, Bits<N>>,
    // Result
    /// Some request bit is set.
    pub valid: Signal<Out, Bit>,
    /// Binary index of the chosen requester; 0 when `valid` is low.
    pub index: Signal<Out, Bits<NW>>,
    /// One-hot grant of the chosen requester; 0 when `valid` is low.
    pub grant: Signal<Out, Bits<N>>,
    highest_first: Constant<Bit>,
    found: Signal<Local, Bit>,
    pick: Signal<Local, Bits<NW>>,
    one_hot: Signal<Local, Bits<N>>,
}

/// [`PriorityEncoder`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_priority_encoder {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::PriorityEncoder] $s; W, WW)
    };
}

impl<const N: usize, const NW: usize> PriorityEncoder<N, NW> {
    /// Checks `N` (2..=32) and `NW = clog2(N)`.
    pub fn new(order: Order) -> Result<Self> {
        check_range("requesters (N)", N, 2, MAX_PORT_BITS)?;
        check_derived("NW", NW, "clog2(N)", clog2(N))?;
        Ok(Self {
            req: Default::default(),
            valid: Default::default(),
            index: Default::default(),
            grant: Default::default(),
            highest_first: Constant::new(order == Order::HighestFirst),
            found: Default::default(),
            pick: Default::default(),
            one_hot: Default::default(),
        })
    }
}

impl<const N: usize, const NW: usize> Logic for PriorityEncoder<N, NW> {
    #[hdl_gen]
    fn update(&mut self) {
        // Outputs are computed in locals and written once: a port written twice in one pass
        // glitches, and event-driven simulators (iverilog) can loop forever between modules.
        self.pick.next = 0.into();
        self.found.next = false;
        if self.highest_first.val() {
            // The seed's loop: every set bit overwrites the index, so the highest one wins.
            for i in 0..N {
                if self.req.val().get_bit(i) {
                    self.pick.next = i.to_bits();
                }
            }
        } else {
            for i in 0..N {
                if !self.found.val() & self.req.val().get_bit(i) {
                    self.pick.next = i.to_bits();
                    self.found.next = true;
                }
            }
        }
        // One-hot grant decoded from the index.
        self.one_hot.next = 0.into();
        for i in 0..N {
            if self.req.val().any() & (self.pick.val().index() == i) {
                self.one_hot.next = self.one_hot.val().replace_bit(i, true);
            }
        }
        self.valid.next = self.req.val().any();
        self.index.next = self.pick.val();
        self.grant.next = self.one_hot.val();
    }
}

impl<const N: usize, const NW: usize> crate::sim::Dut for PriorityEncoder<N, NW> {
    crate::dut_ports!(inputs: [req], outputs: [valid, index, grant]);
}

/// The formal properties of `priority_encoder_lowest` (`priority_encoder.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES_LOWEST: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/common/priority_encoder/priority_encoder.sv",
    text: include_str!("priority_encoder.sv"),
    wrapper: "priority_encoder_props",
    parameters: |p| {
        vec![("N", p.scheduler.warps), ("NW", p.scheduler.warp_id_width()), ("HIGHEST", 0)]
    },
    claims: &[Claim::cu(&[
        "valid_when_anyone_requests",
        "grant_is_the_first_request_in_order",
        "index_names_the_grant",
    ])],
    mutants: &[],
};

/// The formal properties of `priority_encoder_highest` (`priority_encoder.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES_HIGHEST: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/common/priority_encoder/priority_encoder.sv",
    text: include_str!("priority_encoder.sv"),
    wrapper: "priority_encoder_props",
    parameters: |p| {
        vec![("N", p.scheduler.warps), ("NW", p.scheduler.warp_id_width()), ("HIGHEST", 1)]
    },
    claims: PROPERTIES_LOWEST.claims,
    // Requester 0 is granted whenever it requests, beside the highest one.
    mutants: &[Mutant::cu(
        "highest_two_bits",
        "grant = one_hot;",
        "grant = one_hot | (req & 4'h1);",
        &["grant_is_the_first_request_in_order"],
    )],
};
