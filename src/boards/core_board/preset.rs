//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry_at;
use crate::export::{Check, Entry};
use crate::params::{PresetSizes, CORE_CU};
use crate::sim::Recorded;

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::boards::core_board::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The board top around the `cu-core` (presets whose core is the `cu-core`).
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    let Some((core, sizes)) = crate::hw::core::simt_core::preset::core_preset::<B>() else {
        return vec![];
    };
    if core != CORE_CU {
        return vec![];
    }
    let cpb = crate::boards::CORE_BOARD_CLOCKS_PER_BIT;
    let (baud, mhz) = (crate::protocol::HOST_BAUD, crate::boards::CORE_BOARD_MHZ);
    let clock = format!(
        "{mhz} MHz from the iCE40 PLL; serial port {cpb} clocks per bit ({baud} baud at {mhz} MHz)"
    );
    vec![entry_at(
        sizes,
        super::MODULE,
        "CoreBoard",
        "board top: the SIMT core behind the USB serial port (UART, host link), LEDs",
        vec![
            ("Protocol", crate::hw::link::host_link::link_protocol(&core)),
            ("Clock", clock),
            (
                "Ports",
                "clk, rst_n (active low), led[7:0], usb_rx, usb_tx as in constraints/".into(),
            ),
        ],
        move || super::CoreBoard::new(cpb, &[]),
        differential::<B>,
        None,
    )
    .mapped_by_board_build()]
}

/// The board top of preset `B` against the host's side of the link.
pub fn differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    run(seed, cycles)
}

/// The core's board top driven through its serial lines by the host's side: random programs
/// (valid by construction) written, run with capture, the status polled and records read back,
/// until `cycles` cycles from power-up are recorded.
pub fn run(seed: u64, cycles: usize) -> Result<Recorded> {
    use crate::link::{Host, Serial};
    use crate::sim::rng::Rng;
    let cpb = crate::boards::CORE_BOARD_CLOCKS_PER_BIT;
    let mut host = Host::new(super::SimBoard::with_trace(cpb, &[], true)?, crate::params::CORE_CU);
    host.max_polls = 1_000;
    let mut rng = Rng::new(seed);
    while host.serial.cycle < cycles {
        let program = crate::isa::programs::random_program(
            &mut rng,
            8,
            crate::params::CORE_CU.stack_depth,
            crate::params::CORE_CU.isa,
        );
        let program = crate::isa::asm::assemble(&crate::isa::programs::assembly(&program))?;
        let capture = rng.chance(50);
        let mut session = || -> Result<()> {
            let status = host.run(&program, capture)?;
            for i in 0..status.captured.min(3) {
                host.record(i)?;
            }
            if rng.chance(20) {
                host.reset_core()?;
            }
            if rng.chance(10) {
                // An unknown command byte (flagged), then the `reset` command that clears it.
                let junk = (rng.bits(8) as u8..=255)
                    .chain(0..)
                    .find(|b| crate::link::Command::of(*b).is_none())
                    .unwrap_or(0);
                host.serial.send(&[junk])?;
                host.reset_core()?;
            }
            Ok(())
        };
        // A session cut short by the cycle budget is still a valid stimulus.
        if let Err(e) = session() {
            if host.serial.cycle < cycles {
                return Err(e);
            }
        }
    }
    let (mut inputs, mut outputs) = host.serial.trace.take().unwrap_or_default();
    inputs.truncate(cycles);
    outputs.truncate(cycles);
    let ports =
        crate::sim::PortNames::default().inputs(&["rst_n", "usb_rx"]).outputs(&["led", "usb_tx"]);
    ports.check(&super::CoreBoard::new(cpb, &[])?)?;
    Ok(Recorded { inputs, outputs, ports })
}

/// None in the differential suite: this block's differential runs are in `tests/core_board.rs`, kernels over its serial lines.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    vec![]
}
