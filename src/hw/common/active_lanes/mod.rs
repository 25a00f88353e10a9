//! ActiveLanes: how many lanes of a warp's mask are active, and whether any or all are.
//!
//! What GPGPU-Sim counts per issued warp instruction (`active_count()`: the thread instructions
//! behind its SIMD efficiency), and what tells a warp-uniform branch (all lanes, or none, take
//! it) from a divergent one. Purely combinational.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_range, MAX_PORT_BITS};
use crate::sim::{Claim, Mutant};

/// The width of `count`: enough for every lane of the widest warp a port carries.
pub const COUNT_BITS: usize = 6;

/// `T` lanes.
#[derive(LogicBlock)]
pub struct ActiveLanes<const T: usize> {
    /// One bit per lane: the lane is active.
    pub mask: Signal<In, Bits<T>>,
    /// The number of active lanes.
    pub count: Signal<Out, Bits<COUNT_BITS>>,
    /// Some lane is active.
    pub any: Signal<Out, Bit>,
    /// Every lane is active.
    pub all: Signal<Out, Bit>,
    sum: Signal<Local, Bits<COUNT_BITS>>,
}

/// [`ActiveLanes`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const
/// generics computed from it, and sizes that break a rule refused when the crate that names the
/// type is built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_active_lanes {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::ActiveLanes] $s; T)
    };
}

impl<const T: usize> ActiveLanes<T> {
    /// Checks `T` (1..=32).
    pub fn new() -> Result<Self> {
        check_range("lanes (T)", T, 1, MAX_PORT_BITS)?;
        Ok(Self {
            mask: Default::default(),
            count: Default::default(),
            any: Default::default(),
            all: Default::default(),
            sum: Default::default(),
        })
    }
}

impl<const T: usize> Logic for ActiveLanes<T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.sum.next = 0.into();
        for l in 0..T {
            if self.mask.val().get_bit(l) {
                self.sum.next = self.sum.val() + 1;
            }
        }
        self.count.next = self.sum.val();
        self.any.next = self.mask.val().any();
        self.all.next = self.mask.val().all();
    }
}

impl<const T: usize> crate::sim::Dut for ActiveLanes<T> {
    crate::dut_ports!(inputs: [mask], outputs: [count, any, all]);
}

/// The formal properties (`active_lanes.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/common/active_lanes/active_lanes.sv",
    text: include_str!("active_lanes.sv"),
    wrapper: "active_lanes_props",
    parameters: |p| vec![("T", p.scheduler.threads), ("CW", COUNT_BITS)],
    claims: &[Claim::cu(&["count_is_the_set_bits", "any_and_all"])],
    // The last lane left out of the count.
    mutants: &[Mutant::cu(
        "last_lane_uncounted",
        "if (mask[7]) begin",
        "if (1'b0) begin",
        &["count_is_the_set_bits"],
    )],
};

#[cfg(test)]
mod tests {
    use super::ActiveLanes;

    /// A lane count outside 1..=32 is refused, naming the parameter and its range.
    #[test]
    fn lanes_out_of_range_are_refused() {
        for e in [ActiveLanes::<0>::new().err(), ActiveLanes::<33>::new().err()] {
            let e = e.expect("refused").to_string();
            assert!(e.contains("lanes (T)") && e.contains("between 1 and 32"), "{e}");
        }
        assert!(ActiveLanes::<1>::new().is_ok() && ActiveLanes::<32>::new().is_ok());
    }
}
