//! Scoreboard: GPGPU-Sim's `Scoreboard` (seed 001), the registers each warp has in flight.
//!
//! Issue reserves an instruction's destination register (`reserveRegisters`); write-back
//! releases it (`releaseRegister`). An instruction may issue only when none of its valid source
//! registers (read after write) nor its destination (write after write) is reserved for its warp
//! (`checkCollision`). As in GPGPU-Sim's `shader_core_ctx::cycle()`, where `writeback()` runs
//! before `issue()`, a register released in a cycle no longer blocks an instruction checked in
//! that cycle.
//!
//! Misuse has a defined outcome and a sticky flag, where GPGPU-Sim asserts or ignores it:
//! reserving a register that is reserved (and not released that cycle) leaves it reserved and
//! sets `err_double_reserve`; releasing a register that is not reserved changes nothing and sets
//! `err_release_free`. Reset (synchronous, active high) frees every register and clears the flags.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_pow2, check_warps, clog2};
use crate::sim::{Claim, Mutant};

/// `W` warps (`WW = clog2 W`), `R` registers per warp (`RRW = clog2 R`).
#[derive(LogicBlock)]
pub struct Scoreboard<const W: usize, const WW: usize, const R: usize, const RRW: usize> {
    /// Clock: reservations and releases take effect at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    // Check (combinational): may this warp's instruction issue?
    /// The warp whose instruction is checked.
    pub check_warp: Signal<In, Bits<WW>>,
    /// Source `s` is `check_src[s]` when bit `s` of `check_src_valid` is set.
    pub check_src: [Signal<In, Bits<RRW>>; 3],
    /// Bit `s`: `check_src[s]` is read.
    pub check_src_valid: Signal<In, Bits<3>>,
    /// The register it writes.
    pub check_dst: Signal<In, Bits<RRW>>,
    /// It writes `check_dst`.
    pub check_dst_valid: Signal<In, Bit>,
    /// A valid source or the destination is reserved (not counting this cycle's release).
    pub hazard: Signal<Out, Bit>,
    // Reserve (issue) and release (write-back), one each per cycle
    /// Reserve register `reserve_reg` of warp `reserve_warp` at this edge (issue).
    pub reserve_valid: Signal<In, Bit>,
    /// The warp.
    pub reserve_warp: Signal<In, Bits<WW>>,
    /// The register.
    pub reserve_reg: Signal<In, Bits<RRW>>,
    /// Release register `release_reg` of warp `release_warp` at this edge (write-back).
    pub release_valid: Signal<In, Bit>,
    /// The warp.
    pub release_warp: Signal<In, Bits<WW>>,
    /// The register.
    pub release_reg: Signal<In, Bits<RRW>>,
    // Status
    /// Bit `w`: warp `w` has a register reserved (GPGPU-Sim's `pendingWrites`).
    pub pending: Signal<Out, Bits<W>>,
    /// Sticky: a reserved register was reserved again.
    pub err_double_reserve: Signal<Out, Bit>,
    /// Sticky: a register that was not reserved was released.
    pub err_release_free: Signal<Out, Bit>,
    /// Bit `r` of `reserved[w]`: warp `w`'s register `r` is in flight.
    reserved: [DFF<Bits<R>>; W],
    double_reserve: DFF<Bit>,
    release_free: DFF<Bit>,
    /// The checked warp's reserved registers after this cycle's release.
    row: Signal<Local, Bits<R>>,
    released: Signal<Local, Bits<R>>,
    blocked: Signal<Local, Bit>,
}

/// [`Scoreboard`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_scoreboard {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::Scoreboard] $s; W, WW, R, RRW)
    };
}

impl<const W: usize, const WW: usize, const R: usize, const RRW: usize> Scoreboard<W, WW, R, RRW> {
    /// Checks `W` (a power of two, 2..=32), `R` (a power of two, 2..=32) and the derived widths.
    pub fn new() -> Result<Self> {
        check_warps("warps (W)", W)?;
        check_derived("WW", WW, "clog2(W)", clog2(W))?;
        check_pow2("regs_per_warp (R)", R, 2, 32)?;
        check_derived("RRW", RRW, "clog2(R)", clog2(R))?;
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            check_warp: Default::default(),
            check_src: std::array::from_fn(|_| Default::default()),
            check_src_valid: Default::default(),
            check_dst: Default::default(),
            check_dst_valid: Default::default(),
            hazard: Default::default(),
            reserve_valid: Default::default(),
            reserve_warp: Default::default(),
            reserve_reg: Default::default(),
            release_valid: Default::default(),
            release_warp: Default::default(),
            release_reg: Default::default(),
            pending: Default::default(),
            err_double_reserve: Default::default(),
            err_release_free: Default::default(),
            reserved: std::array::from_fn(|_| Default::default()),
            double_reserve: Default::default(),
            release_free: Default::default(),
            row: Default::default(),
            released: Default::default(),
            blocked: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const R: usize, const RRW: usize> Logic
    for Scoreboard<W, WW, R, RRW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, double_reserve, release_free);
        for w in 0..W {
            self.reserved[w].clock.next = self.clock.val();
        }
        // The checked warp's registers in flight, less the one written back this cycle.
        self.row.next = 0.into();
        for w in 0..W {
            if self.check_warp.val().index() == w {
                self.row.next = self.reserved[w].q.val();
            }
        }
        if self.release_valid.val() & (self.release_warp.val() == self.check_warp.val()) {
            self.row.next = self.row.val().replace_bit(self.release_reg.val().index(), false);
        }
        self.blocked.next =
            self.check_dst_valid.val() & self.row.val().get_bit(self.check_dst.val().index());
        for s in 0..3 {
            if self.check_src_valid.val().get_bit(s)
                & self.row.val().get_bit(self.check_src[s].val().index())
            {
                self.blocked.next = true;
            }
        }
        self.hazard.next = self.blocked.val();
        // Release, then reserve, at the edge.
        self.pending.next = 0.into();
        for w in 0..W {
            self.released.next = self.reserved[w].q.val();
            if self.release_valid.val() & (self.release_warp.val().index() == w) {
                if !self.reserved[w].q.val().get_bit(self.release_reg.val().index()) {
                    self.release_free.d.next = true;
                }
                self.released.next =
                    self.reserved[w].q.val().replace_bit(self.release_reg.val().index(), false);
            }
            self.reserved[w].d.next = self.released.val();
            if self.reserve_valid.val() & (self.reserve_warp.val().index() == w) {
                if self.released.val().get_bit(self.reserve_reg.val().index()) {
                    self.double_reserve.d.next = true;
                }
                self.reserved[w].d.next =
                    self.released.val().replace_bit(self.reserve_reg.val().index(), true);
            }
            if self.reserved[w].q.val().any() {
                self.pending.next = self.pending.val().replace_bit(w, true);
            }
            if self.reset.val() {
                self.reserved[w].d.next = 0.into();
            }
        }
        self.err_double_reserve.next = self.double_reserve.q.val();
        self.err_release_free.next = self.release_free.q.val();
        if self.reset.val() {
            self.double_reserve.d.next = false;
            self.release_free.d.next = false;
        }
    }
}

impl<const W: usize, const WW: usize, const R: usize, const RRW: usize> crate::sim::Dut
    for Scoreboard<W, WW, R, RRW>
{
    crate::dut_ports!(
        clock: clock,
        inputs: [reset, check_warp, check_src, check_src_valid, check_dst, check_dst_valid, reserve_valid, reserve_warp, reserve_reg, release_valid, release_warp, release_reg],
        outputs: [hazard, pending, err_double_reserve, err_release_free]
    );
}

/// The formal properties (`scoreboard.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/core/scoreboard/scoreboard.sv",
    text: include_str!("scoreboard.sv"),
    wrapper: "scoreboard_props",
    parameters: |p| {
        let r = p.collector.regs_per_warp;
        vec![
            ("W", p.scheduler.warps),
            ("WW", p.scheduler.warp_id_width()),
            ("R", r),
            ("RRW", crate::params::clog2(r)),
        ]
    },
    claims: &[Claim::cu(&[
        "hazard_is_a_register_in_flight",
        "pending_is_a_warp_with_registers_in_flight",
        "double_reservation_flagged",
        "release_of_a_free_register_flagged",
    ])],
    // The checked warp's release in the same cycle no longer clears the hazard (GPGPU-Sim's
    // writeback-before-issue order lost): an instruction waits a cycle longer than it must.
    mutants: &[Mutant::cu(
        "no_bypass",
        "row = (row & ~(1 << (release_reg)) | ((1'b0) << (release_reg)));",
        "row = row;",
        &["hazard_is_a_register_in_flight"],
    )],
};
