//! SeedWarpScheduler: the seed-compatible [`WarpScheduler`] behind the seed's own ports.
//!
//! Exported as module `WarpScheduler` with exactly the port names, widths and meanings of the
//! seed's module (003), so a testbench written for the seed drives it unchanged. The one
//! difference is the reset: the seed resets asynchronously on `posedge reset`; this module resets
//! synchronously, at the first rising edge of `clk` with `reset` high (rust-hdl has no
//! asynchronous flip-flops). Hold `reset` high over at least one rising edge of `clk`; from that
//! edge on the two modules are in the same state. While `reset` is high and before that edge the
//! outputs still show the old state. Before the first reset the seed's registers are `x`; these
//! start at 0.
//!
//! The seed's `branch_ctl_data` and `pop_data_out` are `{mask, pc}`: `E = T + A` bits with the pc
//! in the low `A` bits.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::WarpScheduler;
use crate::params::{check_derived, SchedulerMode};

/// The seed-compatible scheduler behind the seed's own ports (the module's header).
#[derive(LogicBlock)]
pub struct SeedWarpScheduler<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const D: usize,
    const SPW: usize,
    const E: usize,
> {
    /// Clock.
    pub clk: Signal<In, Clock>,
    /// Reset, active high (synchronous here, asynchronous in the seed).
    pub reset: Signal<In, Bit>,
    // Warp command
    /// Launch a warp at `warp_cmd_pc` with `warp_cmd_mask`.
    pub warp_cmd_valid: Signal<In, Bit>,
    /// A launch is taken.
    pub warp_cmd_ready: Signal<Out, Bit>,
    /// The launched warp's pc.
    pub warp_cmd_pc: Signal<In, Bits<A>>,
    /// Its lane mask.
    pub warp_cmd_mask: Signal<In, Bits<T>>,
    // Warp control
    /// Set warp `warp_ctl_wid` active or not.
    pub warp_ctl_valid: Signal<In, Bit>,
    /// The control is taken.
    pub warp_ctl_ready: Signal<Out, Bit>,
    /// The warp.
    pub warp_ctl_wid: Signal<In, Bits<WW>>,
    /// Active (may fetch) or not.
    pub warp_ctl_active: Signal<In, Bit>,
    // Branch control: push `{mask, pc}`
    /// Push `branch_ctl_data` on warp `branch_ctl_wid`'s stack.
    pub branch_ctl_valid: Signal<In, Bit>,
    /// The push is taken.
    pub branch_ctl_ready: Signal<Out, Bit>,
    /// The warp.
    pub branch_ctl_wid: Signal<In, Bits<WW>>,
    /// The entry, `{mask, pc}`.
    pub branch_ctl_data: Signal<In, Bits<E>>,
    // End control
    /// End warp `end_ctl_wid`.
    pub end_ctl_valid: Signal<In, Bit>,
    /// The end is taken.
    pub end_ctl_ready: Signal<Out, Bit>,
    /// The warp.
    pub end_ctl_wid: Signal<In, Bits<WW>>,
    // Pop control
    /// Pop warp `warp_pop_wid`'s stack into its mask and pc.
    pub warp_pop_valid: Signal<In, Bit>,
    /// The warp.
    pub warp_pop_wid: Signal<In, Bits<WW>>,
    // Instruction fetch
    /// A warp fetches: its pc, mask and id.
    pub inst_fetch_valid: Signal<Out, Bit>,
    /// The fetch is taken.
    pub inst_fetch_ready: Signal<In, Bit>,
    /// The pc fetched.
    pub inst_fetch_pc: Signal<Out, Bits<A>>,
    /// The warp's lane mask.
    pub inst_fetch_mask: Signal<Out, Bits<T>>,
    /// The warp.
    pub inst_fetch_wid: Signal<Out, Bits<WW>>,
    // The seed's outputs "for simulation"
    /// Idle bit per warp.
    pub idle_id_out: Signal<Out, Bits<W>>,
    /// Active bit per warp.
    pub active_id_out: Signal<Out, Bits<W>>,
    /// `{mask, pc}` at the top of warp `warp_pop_wid`'s stack.
    pub pop_data_out: Signal<Out, Bits<E>>,
    core: WarpScheduler<W, WW, T, A, D, SPW>,
    pc_bits: Constant<Bits<8>>,
}

/// [`SeedWarpScheduler`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_seed_warp_scheduler {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::SeedWarpScheduler] $s; W, WW, T, A, D, SPW, E)
    };
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const E: usize,
    > SeedWarpScheduler<W, WW, T, A, D, SPW, E>
{
    /// Checks the parameters (as [`WarpScheduler::new`]) and `E = T + A`.
    pub fn new() -> Result<Self> {
        let core = WarpScheduler::new(SchedulerMode::SeedCompatible)?;
        check_derived("E", E, "T + A", T + A)?;
        Ok(Self {
            clk: Default::default(),
            reset: Default::default(),
            warp_cmd_valid: Default::default(),
            warp_cmd_ready: Default::default(),
            warp_cmd_pc: Default::default(),
            warp_cmd_mask: Default::default(),
            warp_ctl_valid: Default::default(),
            warp_ctl_ready: Default::default(),
            warp_ctl_wid: Default::default(),
            warp_ctl_active: Default::default(),
            branch_ctl_valid: Default::default(),
            branch_ctl_ready: Default::default(),
            branch_ctl_wid: Default::default(),
            branch_ctl_data: Default::default(),
            end_ctl_valid: Default::default(),
            end_ctl_ready: Default::default(),
            end_ctl_wid: Default::default(),
            warp_pop_valid: Default::default(),
            warp_pop_wid: Default::default(),
            inst_fetch_valid: Default::default(),
            inst_fetch_ready: Default::default(),
            inst_fetch_pc: Default::default(),
            inst_fetch_mask: Default::default(),
            inst_fetch_wid: Default::default(),
            idle_id_out: Default::default(),
            active_id_out: Default::default(),
            pop_data_out: Default::default(),
            core,
            pc_bits: Constant::new(A.to_bits()),
        })
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const E: usize,
    > Logic for SeedWarpScheduler<W, WW, T, A, D, SPW, E>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.core.clock.next = self.clk.val();
        self.core.reset.next = self.reset.val();
        self.core.warp_cmd_valid.next = self.warp_cmd_valid.val();
        self.core.warp_cmd_pc.next = self.warp_cmd_pc.val();
        self.core.warp_cmd_mask.next = self.warp_cmd_mask.val();
        self.core.warp_ctl_valid.next = self.warp_ctl_valid.val();
        self.core.warp_ctl_wid.next = self.warp_ctl_wid.val();
        self.core.warp_ctl_active.next = self.warp_ctl_active.val();
        self.core.branch_ctl_valid.next = self.branch_ctl_valid.val();
        self.core.branch_ctl_wid.next = self.branch_ctl_wid.val();
        self.core.branch_ctl_pc.next = bit_cast::<A, E>(self.branch_ctl_data.val());
        self.core.branch_ctl_mask.next =
            bit_cast::<T, E>(self.branch_ctl_data.val() >> self.pc_bits.val());
        self.core.end_ctl_valid.next = self.end_ctl_valid.val();
        self.core.end_ctl_wid.next = self.end_ctl_wid.val();
        self.core.warp_pop_valid.next = self.warp_pop_valid.val();
        self.core.warp_pop_wid.next = self.warp_pop_wid.val();
        // The seed has no warp set.
        self.core.warp_set_valid.next = false;
        self.core.warp_set_wid.next = 0.into();
        self.core.warp_set_pc.next = 0.into();
        self.core.warp_set_mask.next = 0.into();
        self.core.inst_fetch_ready.next = self.inst_fetch_ready.val();
        self.warp_cmd_ready.next = self.core.warp_cmd_ready.val();
        self.warp_ctl_ready.next = self.core.warp_ctl_ready.val();
        self.branch_ctl_ready.next = self.core.branch_ctl_ready.val();
        self.end_ctl_ready.next = self.core.end_ctl_ready.val();
        self.inst_fetch_valid.next = self.core.inst_fetch_valid.val();
        self.inst_fetch_pc.next = self.core.inst_fetch_pc.val();
        self.inst_fetch_mask.next = self.core.inst_fetch_mask.val();
        self.inst_fetch_wid.next = self.core.inst_fetch_wid.val();
        self.idle_id_out.next = self.core.idle_mask.val();
        self.active_id_out.next = self.core.active_mask.val();
        self.pop_data_out.next = (bit_cast::<E, T>(self.core.pop_data_mask.val())
            << self.pc_bits.val())
            | bit_cast::<E, A>(self.core.pop_data_pc.val());
    }
}

impl<
        const W: usize,
        const WW: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const SPW: usize,
        const E: usize,
    > crate::sim::Dut for SeedWarpScheduler<W, WW, T, A, D, SPW, E>
{
    crate::dut_ports!(
        clock: clk,
        inputs: [
            reset,
            warp_cmd_valid, warp_cmd_pc, warp_cmd_mask,
            warp_ctl_valid, warp_ctl_wid, warp_ctl_active,
            branch_ctl_valid, branch_ctl_wid, branch_ctl_data,
            end_ctl_valid, end_ctl_wid,
            warp_pop_valid, warp_pop_wid,
            inst_fetch_ready,
        ],
        outputs: [
            warp_cmd_ready, warp_ctl_ready, branch_ctl_ready, end_ctl_ready,
            inst_fetch_valid, inst_fetch_pc, inst_fetch_mask, inst_fetch_wid,
            idle_id_out, active_id_out, pop_data_out,
        ]
    );
}
