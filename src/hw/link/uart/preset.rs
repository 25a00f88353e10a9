//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Recorded};

/// This block has one size for every preset; the registry states that it is at each.
pub trait AtPreset: PresetSizes {}

/// `impl AtPreset for $B` (the block's sizes are its own).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::link::uart::preset::AtPreset for $B {}
    };
}
pub(crate) use at_preset;

/// The clock the exported UARTs are sized for, MHz: the Alchitry Cu's oscillator (a test in
/// `boards` keeps the two equal).
pub const EXPORT_CLOCK_MHZ: u32 = 100;

/// Clock cycles per bit of the exported UARTs.
pub const EXPORT_CLOCKS_PER_BIT: usize =
    (EXPORT_CLOCK_MHZ as usize * 1_000_000) / crate::protocol::HOST_BAUD as usize;

/// The host link's serial port at the Alchitry Cu's clock.
pub fn entries<B: PresetSizes>() -> Vec<Entry> {
    let cpb = EXPORT_CLOCKS_PER_BIT;
    let rate = || {
        let baud = crate::protocol::HOST_BAUD;
        vec![("Rate", format!("{cpb} clocks per bit ({baud} baud at {EXPORT_CLOCK_MHZ} MHz)"))]
    };
    vec![
        entry::<B, _>("uart_tx", "UartTx",
            "host link: 8N1 serial transmitter", rate(),
            move || super::tx::UartTx::new(cpb), tx_differential::<B>, None),
        entry::<B, _>("uart_rx", "UartRx",
            "host link: 8N1 serial receiver (two-flip-flop synchroniser, mid-bit sampling, framing-error flag)", rate(),
            move || super::rx::UartRx::new(cpb), rx_differential::<B>, None).with_quick_synthesis_proof(),
    ]
}

/// The transmitter against its model.
pub fn tx_differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let cpb = EXPORT_CLOCKS_PER_BIT;
    let mut model = super::model::UartTxModel::new(cpb);
    let name = format!("uart_tx_{}", B::PRESET.name);
    let make = || super::tx::UartTx::new(cpb).unwrap();
    run_differential(&name, make, &mut model, seed, cycles, super::stimulus::tx_stimulus())
}

/// The receiver against its model.
pub fn rx_differential<B: PresetSizes>(seed: u64, cycles: usize) -> Result<Recorded> {
    let cpb = EXPORT_CLOCKS_PER_BIT;
    let mut model = super::model::UartRxModel::new(cpb);
    let name = format!("uart_rx_{}", B::PRESET.name);
    let make = || super::rx::UartRx::new(cpb).unwrap();
    run_differential(&name, make, &mut model, seed, cycles, super::stimulus::rx_stimulus(cpb))
}

/// The differential suite's checks (one size): frames sent; bytes received and framing errors
/// seen.
pub fn checks<B: PresetSizes>() -> Vec<Check> {
    let tx = Check::new("uart_tx", tx_differential::<B>).covering(|rec, cycles| {
        let starts = rec.output("tx")?.windows(2).filter(|w| w[0] == 1 && w[1] == 0).count();
        anyhow::ensure!(starts > cycles / 2000, "only {starts} frames sent");
        Ok(())
    });
    let rx = Check::new("uart_rx", rx_differential::<B>).covering(|rec, cycles| {
        let bytes = rec.output("data_valid")?.iter().filter(|&&v| v == 1).count();
        let frame_errors = rec.output("err_frame")?;
        let errors = frame_errors.windows(2).filter(|w| w[0] == 0 && w[1] == 1).count();
        anyhow::ensure!(
            bytes > cycles / 3000 && errors > 0,
            "{bytes} bytes, {errors} framing errors: the line exercised too little"
        );
        Ok(())
    });
    vec![tx.one_size(), rx.one_size()]
}
