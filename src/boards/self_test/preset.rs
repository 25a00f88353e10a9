//! This block at a preset's sizes: its type and constructor, and its registry entry, the
//! preset's board top (for presets with a board clock): `self_test.v`, the file the board flows
//! and the FuseSoC core's board target build.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::differential::{clock_edge, cycle_outputs, prepare};
use crate::sim::{Dut, PortNames, Recorded};

use super::SELF_TEST_CYCLES;

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The board self-test top around this preset's scheduler and operand collector.
    type SelfTest: Dut + 'static;
    /// The self-test top running `cycles` cycles, its expected signature computed by simulation.
    fn self_test(cycles: u64) -> Result<Self::SelfTest>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::boards::self_test::preset::AtPreset for $B {
            type SelfTest = $crate::sized_self_test!($S);
            fn self_test(cycles: u64) -> $crate::__anyhow::Result<Self::SelfTest> {
                let preset = <$B as $crate::params::PresetSizes>::PRESET;
                preset.board_clock()?;
                <$crate::sized_self_test!($S)>::for_board(&preset, cycles)
            }
        }
    };
}
pub(crate) use at_preset;

/// The board top, at presets with a board clock: 100,000 cycles of traffic, its expected
/// signature computed by simulating it.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    if B::PRESET.board_clock_mhz.is_none() {
        return vec![];
    }
    let run = format!(
        "{SELF_TEST_CYCLES} cycles; ports clk, rst_n (active low), led[7:0], usb_rx, usb_tx as in constraints/"
    );
    vec![entry::<B, _>(
        super::MODULE,
        "SelfTest",
        "board top: LFSR traffic into the warp scheduler and the operand collector, MISR signature checked against the simulated one, LEDs",
        vec![("Run", run)],
        || B::self_test(SELF_TEST_CYCLES),
        recorded::<B>,
        None,
    )
    .as_board_top()
    .mapped_by_board_build()]
}

/// The board top's first `cycles` cycles out of reset, its button and serial input idle, as the
/// rust-hdl top runs them: what its exported Verilog must repeat. It has no model; its own run
/// checks its signature (`tests/self_test.rs`). The seed is unused: the top makes its own
/// traffic.
pub fn recorded<B: AtPreset>(_seed: u64, cycles: usize) -> Result<Recorded> {
    idle_run(&mut B::self_test(SELF_TEST_CYCLES)?, cycles)
}

/// A board top's first `cycles` cycles with every input high (out of reset, `rst_n`; the serial
/// line idle), recorded.
pub fn idle_run<D: Dut>(top: &mut D, cycles: usize) -> Result<Recorded> {
    let mut rec = Recorded { ports: PortNames::of_dut(top), ..Recorded::default() };
    prepare(top)?;
    let idle: Vec<u64> = top.input_ports().iter().map(|p| crate::sim::rng::mask(p.width)).collect();
    for c in 0..cycles {
        rec.outputs.push(cycle_outputs(top, &idle, c)?);
        rec.inputs.push(idle.clone());
        clock_edge(top, c)?;
    }
    Ok(rec)
}

/// None in the differential suite: this block's differential runs are in `tests/self_test.rs`, its own signature checked to the end of its run.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![]
}
