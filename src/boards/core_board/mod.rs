//! CoreBoard: the board top that puts the `cu` [`SimtCore`](crate::hw::SimtCore) behind the USB
//! serial port (`CoreBoardSeed`: the same around the seed core, for its Verilator engine):
//! [`UartRx`] -> [`HostLink`](crate::hw::HostLink) -> [`UartTx`], the link driving the core's host port and recording
//! its write-backs ([`crate::link`] is the protocol, [`crate::link::Host`] the
//! host's side).
//!
//! Reset: the [`BoardReset`] (power-on, or the reset button) resets the link and the core;
//! the link's `reset` command resets the core alone. Neither clears the instruction memory, the
//! register file or the local data share.
//!
//! LEDs: 0 heartbeat (bit 25 of a cycle counter), 1 a run in progress, 2 capture on, 3 a core
//! error flag, 4 a link error flag, 5 an answer being sent.

pub mod byte_port;
pub mod preset;
pub mod sim_board;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::boards::BoardReset;
use crate::hw::core::simt_core::{SimtCoreCu, SimtCoreSeed};
use crate::hw::link::host_link::{HostLinkCu, HostLinkSeed};
use crate::hw::{UartRx, UartTx};
use crate::params::{CoreParams, CORE_CU, CORE_SEED};
use byte_port::{ByteLine, ByteRx, ByteTx};

/// The exported module (and file) name of the core's board top.
pub const MODULE: &str = "core_board";
/// The module name of `run`'s Verilator engine's top ([`engine_verilog`]).
pub const ENGINE_MODULE: &str = "core_engine";
pub use sim_board::SimBoard;

/// Defines the board top `$name` around the core of the [`CoreParams`] constant `$p` (its
/// rust-hdl type `$core`) and the host link of its sizes (`$link`), the host's bytes coming
/// through the receiver `$rx` and leaving through the transmitter `$tx`, whose lines
/// (`usb_rx`, `usb_tx`) are of type `$line`: the UART pair on a `Bit` for the board, the
/// engine's byte port ([`byte_port`]) on a 9-bit line for `run`'s Verilator engine. One
/// definition for every core size and port: a rust-hdl block's fields are concrete types.
macro_rules! core_board_type {
    ($(#[$doc:meta])* $name:ident = $p:expr, $core:ty, $link:ty, $rx:ty, $tx:ty, $line:ty) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// The board clock.
            pub clk: Signal<In, Clock>,
            /// Reset button, active low.
            pub rst_n: Signal<In, Bit>,
            /// The eight LEDs (see the module documentation).
            pub led: Signal<Out, Bits<8>>,
            /// The host's commands: the USB UART into the FPGA (the engine: a byte and its
            /// valid bit).
            pub usb_rx: Signal<In, $line>,
            /// The answers: the USB UART out of the FPGA, idle high (the engine: a byte and its
            /// valid bit).
            pub usb_tx: Signal<Out, $line>,
            receiver: $rx,
            transmitter: $tx,
            link: $link,
            core: $core,
            board_reset: BoardReset,
            heartbeat: DFF<Bits<26>>,
            /// Lane `l`'s bit offset in a register.
            lane_at: [Constant<Bits<16>>; { $p.threads }],
            reset_int: Signal<Local, Bit>,
            lane_value: Signal<Local, Bits<{ $p.lane_bits }>>,
            wb_word: Signal<Local, Bits<{ $p.threads * $p.lane_bits }>>,
            leds: Signal<Local, Bits<8>>,
        }

        impl $name {
            /// The core, its local data share holding `lds` at power-up, behind a serial port of
            /// `clocks_per_bit` cycles per bit (the engine's byte port: unused).
            pub fn new(clocks_per_bit: usize, lds: &[u32]) -> Result<Self> {
                Self::with_core(clocks_per_bit, $p, lds)
            }

            /// As [`new`](Self::new), with the core `params` describe (this board's core sizes, any
            /// issue policy and timing).
            pub fn with_core(clocks_per_bit: usize, params: CoreParams, lds: &[u32]) -> Result<Self> {
                Ok(Self {
                    clk: Default::default(),
                    rst_n: Default::default(),
                    led: Default::default(),
                    usb_rx: Default::default(),
                    usb_tx: Default::default(),
                    receiver: <$rx>::new(clocks_per_bit)?,
                    transmitter: <$tx>::new(clocks_per_bit)?,
                    link: <$link>::new()?,
                    core: <$core>::with_lds(params, lds)?,
                    board_reset: BoardReset::new()?,
                    heartbeat: Default::default(),
                    lane_at: std::array::from_fn(|l| {
                        Constant::new(((l * $p.lane_bits) as u64).to_bits())
                    }),
                    reset_int: Default::default(),
                    lane_value: Default::default(),
                    wb_word: Default::default(),
                    leds: Default::default(),
                })
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clk, heartbeat);
                self.receiver.clock.next = self.clk.val();
                self.transmitter.clock.next = self.clk.val();
                self.link.clock.next = self.clk.val();
                self.core.clock.next = self.clk.val();
                // Reset: button (synchronised) or power-on.
                self.board_reset.clock.next = self.clk.val();
                self.board_reset.rst_n.next = self.rst_n.val();
                self.reset_int.next = self.board_reset.reset.val();
                self.heartbeat.d.next = self.heartbeat.q.val() + 1;

                // Serial port <-> link
                self.receiver.reset.next = self.reset_int.val();
                self.receiver.rx.next = self.usb_rx.val();
                self.transmitter.reset.next = self.reset_int.val();
                self.link.reset.next = self.reset_int.val();
                self.link.rx_valid.next = self.receiver.data_valid.val();
                self.link.rx_data.next = self.receiver.data.val();
                self.link.rx_err.next = self.receiver.err_frame.val();
                self.link.tx_ready.next = self.transmitter.data_ready.val();
                self.transmitter.data_valid.next = self.link.tx_valid.val();
                self.transmitter.data.next = self.link.tx_data.val();
                self.usb_tx.next = self.transmitter.tx.val();

                // Link <-> core
                self.core.reset.next = self.reset_int.val() | self.link.core_reset.val();
                self.core.start.next = self.link.start.val();
                self.core.imem_write_valid.next = self.link.imem_write_valid.val();
                self.core.imem_write_addr.next = self.link.imem_write_addr.val();
                self.core.imem_write_data.next = self.link.imem_write_data.val();
                self.link.running.next = self.core.running.val();
                self.link.core_errors.next = self.core.errors.val();
                self.link.high_water.next = self.core.stack_high_water.val();
                self.link.counters[0].next = self.core.count_cycles.val();
                self.link.counters[1].next = self.core.count_issued.val();
                self.link.counters[2].next = self.core.count_scoreboard_stalls.val();
                self.link.counters[3].next = self.core.count_structural_stalls.val();
                self.link.counters[4].next = self.core.count_bank_stalls.val();
                self.link.counters[5].next = self.core.count_lds_conflicts.val();
                self.link.counters[6].next = self.core.count_divergent.val();
                self.link.counters[7].next = self.core.count_barrier_waits.val();
                self.wb_word.next = 0.into();
                for l in 0..$p.threads {
                    // (`bit_cast` cannot take an indexed expression: through a local.)
                    self.lane_value.next = self.core.wb_data[l].val();
                    self.wb_word.next = self.wb_word.val()
                        | (bit_cast::<{ $p.threads * $p.lane_bits }, { $p.lane_bits }>(
                            self.lane_value.val(),
                        ) << self.lane_at[l].val());
                }
                self.link.wb_valid.next = self.core.wb_valid.val();
                self.link.wb_warp.next = self.core.wb_warp.val();
                self.link.wb_reg.next = self.core.wb_reg.val();
                self.link.wb_mask.next = self.core.wb_mask.val();
                self.link.wb_data.next = self.wb_word.val();

                // LEDs. Each bit through a 1-bit local (see `SelfTest`).
                self.leds.next = 0.into();
                self.leds.next = self.leds.val().replace_bit(0, self.heartbeat.q.val().get_bit(25));
                self.leds.next = self.leds.val().replace_bit(1, self.core.running.val());
                self.leds.next = self.leds.val().replace_bit(2, self.link.capture_enabled.val());
                self.leds.next = self.leds.val().replace_bit(3, self.core.errors.val().any());
                self.leds.next = self.leds.val().replace_bit(4, self.link.link_errors.val().any());
                self.leds.next = self.leds.val().replace_bit(5, self.link.tx_valid.val());
                self.led.next = self.leds.val();
            }
        }

        impl crate::sim::Dut for $name {
            crate::dut_ports!(clock: clk, inputs: [rst_n, usb_rx], outputs: [led, usb_tx]);
        }
    };
}

core_board_type!(
    /// The board top around the `cu` core.
    CoreBoard = CORE_CU,
    SimtCoreCu,
    HostLinkCu,
    UartRx,
    UartTx,
    Bit
);
core_board_type!(
    /// The board top around the seed core.
    CoreBoardSeed = CORE_SEED,
    SimtCoreSeed,
    HostLinkSeed,
    UartRx,
    UartTx,
    Bit
);
core_board_type!(
    /// `run`'s Verilator engine for the `cu` core: the board top with the byte port in place of
    /// the UARTs ([`byte_port`]).
    CoreEngine = CORE_CU,
    SimtCoreCu,
    HostLinkCu,
    ByteRx,
    ByteTx,
    ByteLine
);
core_board_type!(
    /// `run`'s Verilator engine for `seed-core`: the seed board top with the byte port.
    CoreEngineSeed = CORE_SEED,
    SimtCoreSeed,
    HostLinkSeed,
    ByteRx,
    ByteTx,
    ByteLine
);

/// The board top around the core `params` describe (the seed core's sizes, else the `cu`
/// core's), its serial port at `clocks_per_bit` cycles per bit, as Verilog module `module`
/// under `header`.
pub fn board_verilog(
    params: CoreParams,
    clocks_per_bit: usize,
    module: &str,
    header: &str,
) -> Result<String> {
    if params.sizes() == CORE_SEED.sizes() {
        crate::sim::on_large_stack(|| {
            export_top(CoreBoardSeed::with_core(clocks_per_bit, params, &[])?, module, header)
        })?
    } else {
        export_top(CoreBoard::with_core(clocks_per_bit, params, &[])?, module, header)
    }
}

fn export_top(mut top: impl Block, module: &str, header: &str) -> Result<String> {
    top.connect_all();
    crate::export::export_module(&top, module, header)
}

/// `run`'s Verilator engine's top around the core `params` describe (the seed core's sizes,
/// else the `cu` core's): the board top with the byte port ([`byte_port`]), as Verilog module
/// [`ENGINE_MODULE`] under `header`.
pub fn engine_verilog(params: CoreParams, header: &str) -> Result<String> {
    let module = ENGINE_MODULE;
    if params.sizes() == CORE_SEED.sizes() {
        let top = || CoreEngineSeed::with_core(4, params, &[]);
        crate::sim::on_large_stack(move || export_top(top()?, module, header))?
    } else {
        export_top(CoreEngine::with_core(4, params, &[])?, module, header)
    }
}
