//! RegisterMap: where a warp's register lives in the banked register file: GPGPU-Sim's
//! `register_bank()` (seed 000) with its warp shift, the layout seed 002 draws.
//!
//! Warp `w`'s register `r` is in bank `(r + w) mod B`. With the sub-core model (`S > 1`
//! schedulers, warp `w` issued by scheduler `w mod S`) each scheduler owns `BS = B / S` banks:
//! bank `(r + w) mod BS + (w mod S) * BS`. The row is `(w / S) * (R / BS) + r / BS`, so that no
//! two registers of any warps share a (bank, row): every bank has `W * R / B` rows.
//! Combinational.

pub mod model;
pub mod preset;
pub mod stimulus;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::params::{check_derived, check_pow2, clog2};
use crate::sim::{Claim, Mutant};

/// `BW = clog2 B` bank bits, `RW = clog2(W R / B)` row bits, `WW = clog2 W` warp bits,
/// `RRW = clog2 R` register bits.
#[derive(LogicBlock)]
pub struct RegisterMap<const BW: usize, const RW: usize, const WW: usize, const RRW: usize> {
    /// Warp id.
    pub warp: Signal<In, Bits<WW>>,
    /// Register number within the warp.
    pub regnum: Signal<In, Bits<RRW>>,
    /// Its bank.
    pub bank: Signal<Out, Bits<BW>>,
    /// Its row in that bank.
    pub row: Signal<Out, Bits<RW>>,
    local_mask: Constant<Bits<BW>>,
    sched_mask: Constant<Bits<BW>>,
    sched_shift: Constant<Bits<8>>,
    warp_row_shift: Constant<Bits<8>>,
    warp_row_pos: Constant<Bits<8>>,
    reg_row_shift: Constant<Bits<8>>,
    sum: Signal<Local, Bits<BW>>,
    sched: Signal<Local, Bits<BW>>,
    warp_row: Signal<Local, Bits<RW>>,
    reg_row: Signal<Local, Bits<RRW>>,
}

/// [`RegisterMap`] at the sizes `$s`, a [`Sizes`](crate::params::Sizes) constant: the const generics
/// computed from it, and sizes that break a rule refused when the crate that names the type is
/// built (`Sizes::valid`).
#[macro_export]
macro_rules! sized_register_map {
    ($s:expr) => {
        $crate::sized_type!([$crate::hw::RegisterMap] $s; BW, RW, WW, RRW)
    };
}

impl<const BW: usize, const RW: usize, const WW: usize, const RRW: usize>
    RegisterMap<BW, RW, WW, RRW>
{
    /// `banks` (B, 2^BW) and `regs_per_warp` (R, 2^RRW) powers of two with R >= B, 2^WW warps,
    /// `schedulers` (S) a power of two leaving at least 2 banks each.
    pub fn new(banks: usize, regs_per_warp: usize, schedulers: usize) -> Result<Self> {
        check_pow2("banks (B)", banks, 2, 16)?;
        check_pow2("regs_per_warp (R)", regs_per_warp, banks, 256)?;
        check_pow2("schedulers (S)", schedulers, 1, banks / 2)?;
        check_derived("BW", BW, "clog2(B)", clog2(banks))?;
        check_derived("RRW", RRW, "clog2(R)", clog2(regs_per_warp))?;
        check_pow2("warps (2^WW)", 1 << WW, schedulers.max(2), 32)?;
        check_derived("RW", RW, "clog2(W * R / B)", WW + RRW - BW)?;
        let per_sched = banks / schedulers;
        let bits = |v: usize| Constant::new(v.to_bits());
        let amount = |v: usize| Constant::new(v.to_bits());
        Ok(Self {
            warp: Default::default(),
            regnum: Default::default(),
            bank: Default::default(),
            row: Default::default(),
            local_mask: bits(per_sched - 1),
            sched_mask: bits((banks - 1) & !(per_sched - 1)),
            sched_shift: amount(clog2(per_sched)),
            warp_row_shift: amount(clog2(schedulers)),
            warp_row_pos: amount(clog2(regs_per_warp / per_sched)),
            reg_row_shift: amount(clog2(per_sched)),
            sum: Default::default(),
            sched: Default::default(),
            warp_row: Default::default(),
            reg_row: Default::default(),
        })
    }
}

impl<const BW: usize, const RW: usize, const WW: usize, const RRW: usize> Logic
    for RegisterMap<BW, RW, WW, RRW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Each step lands in a local of its own width, so Verilog and Rust truncate alike.
        self.sum.next =
            bit_cast::<BW, RRW>(self.regnum.val()) + bit_cast::<BW, WW>(self.warp.val());
        self.sched.next = bit_cast::<BW, WW>(self.warp.val());
        self.sched.next = self.sched.val() << self.sched_shift.val();
        self.bank.next =
            (self.sum.val() & self.local_mask.val()) | (self.sched.val() & self.sched_mask.val());
        self.warp_row.next = bit_cast::<RW, WW>(self.warp.val());
        self.warp_row.next = self.warp_row.val() >> self.warp_row_shift.val();
        self.warp_row.next = self.warp_row.val() << self.warp_row_pos.val();
        self.reg_row.next = self.regnum.val() >> self.reg_row_shift.val();
        self.row.next = self.warp_row.val() | bit_cast::<RW, RRW>(self.reg_row.val());
    }
}

impl<const BW: usize, const RW: usize, const WW: usize, const RRW: usize> crate::sim::Dut
    for RegisterMap<BW, RW, WW, RRW>
{
    crate::dut_ports!(inputs: [warp, regnum], outputs: [bank, row]);
}

/// The formal properties (`register_map.sv` beside this file: its wrapper and the wrapper's
/// parameters at a preset).
pub const PROPERTIES: crate::sim::Properties = crate::sim::Properties {
    properties: "src/hw/collector/register_map/register_map.sv",
    text: include_str!("register_map.sv"),
    wrapper: "register_map_props",
    parameters: |p| {
        let c = p.collector;
        vec![
            ("WW", p.scheduler.warp_id_width()),
            ("RRW", crate::params::clog2(c.regs_per_warp)),
            ("W", p.scheduler.warps),
            ("R", c.regs_per_warp),
            ("S", c.schedulers),
        ]
        .into_iter()
        .chain(super::bank_sizes(p))
        .collect()
    },
    claims: &[Claim::cu(&[
        "two_registers_never_share_a_bank_row",
        "row_inside_the_bank",
        "bank_of_the_warps_scheduler",
    ])],
    // The warp's part of the row dropped: two warps' registers land on one row.
    mutants: &[Mutant::cu(
        "row_without_warp",
        "row = warp_row | ((reg_row) & 4'hf);",
        "row = ((reg_row) & 4'hf);",
        &["two_registers_never_share_a_bank_row"],
    )],
};
