//! IssueStage: the [`SimtCore`](super::SimtCore)'s issue. The policy's candidate warp (loose
//! round robin over the warps with an instruction at their I-buffer's head, or greedy then
//! oldest: the last warp issued while it has one, else the lowest), its head decoded and checked
//! against the [`Scoreboard`] (which it owns: issue reserves a destination, write-back releases
//! it) and against the unit it needs (a collector unit for ALU, branch and memory
//! instructions; the scheduler's warp-set port for `join`, `jmp` and an `exit` with entries
//! pending). An instruction that fires goes to the collector, or acts here: `join` pops its
//! warp's stack and redirects it to the popped entry (an empty stack is flagged by the stack, and
//! the warp goes on after the `join`), `jmp` redirects it, and `exit` ends the active lanes:
//! it pops and redirects as `join` does, or ends the warp when its stack is empty. `bar` goes to
//! the [`Barrier`](super::Barrier), with whether its warp is diverged there. Each warp's
//! exited lanes are kept (by [`WarpAction`]) and left out of every mask a pop restores; an
//! instruction fetched with no lane left acts as `exit`.
//!
//! Pipelined (the core with the pipelined collector), the candidate's head is selected into a
//! register and checked and issued the next cycle, so that no path runs from the policy
//! through the I-buffer's head into decode and the scoreboard: the head checked is the one
//! selected last cycle, and the policy selects next cycle's among the other warps (only the
//! checked warp's head can issue, so the others' stay). A selected head that does not issue is
//! dropped; its warp can be selected again the cycle after. A write-back releases its register
//! in the scoreboard a cycle later, so that no path runs from write-back into issue either; and
//! what a `join`, `jmp` or `exit` does to its warp (pop, end, set) is done the cycle after it
//! issues, while the branch unit waits, so that no path runs from issue into the SIMT stacks.

use rust_hdl::prelude::*;

use super::{IssueCandidate, WarpAction, RRW};
use crate::hw::core::decoder::Kind;
use crate::hw::{Decoder, Scoreboard};

/// `W` warps (`WW` bits), `T` lanes, `A`-bit byte pcs over `IA`-bit instruction indices.
#[derive(LogicBlock)]
pub struct IssueStage<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const IA: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The I-buffer's heads: which warps have one, and warp `head_warp`'s (the candidate's)
    /// instruction and index (pipelined: from an I-buffer that shows them a cycle after
    /// `head_warp` names the warp, the cycle they are checked).
    pub head_valid: Signal<In, Bits<W>>,
    pub head_warp: Signal<Out, Bits<WW>>,
    pub head_inst: Signal<In, Bits<32>>,
    pub head_pc: Signal<In, Bits<IA>>,
    /// Each warp's active lanes (as fetched), and whose SIMT stack is empty.
    pub masks: [Signal<In, Bits<T>>; W],
    pub stack_empty: Signal<In, Bits<W>>,
    /// The top of the checked warp's stack (what a `join` restores).
    pub pop_mask: Signal<In, Bits<T>>,
    pub pop_pc: Signal<In, Bits<A>>,
    /// A collector unit can take an instruction; the warp-set port is taken by a branch.
    pub unit_ready: Signal<In, Bit>,
    pub port_busy: Signal<In, Bit>,
    /// This cycle's write-back releases its register (pipelined: next cycle).
    pub release_valid: Signal<In, Bit>,
    pub release_warp: Signal<In, Bits<WW>>,
    pub release_reg: Signal<In, Bits<RRW>>,
    /// The checked head: its warp, instruction and index, and whether it issues.
    pub warp: Signal<Out, Bits<WW>>,
    pub inst: Signal<Out, Bits<32>>,
    pub pc: Signal<Out, Bits<IA>>,
    pub fire: Signal<Out, Bit>,
    /// Why it does not: the scoreboard, or no unit or port.
    pub hazard: Signal<Out, Bit>,
    pub struct_stall: Signal<Out, Bit>,
    /// It issues and is not a legal instruction.
    pub illegal: Signal<Out, Bit>,
    /// To the collector: the instruction's unit type (0 ALU and branches, 1 local data share),
    /// destination, lanes and sources.
    pub to_unit: Signal<Out, Bit>,
    pub unit: Signal<Out, Bits<1>>,
    pub dst: Signal<Out, Bits<RRW>>,
    pub mask: Signal<Out, Bits<T>>,
    pub src_valid: Signal<Out, Bits<3>>,
    pub src_a: Signal<Out, Bits<RRW>>,
    pub src_b: Signal<Out, Bits<RRW>>,
    /// The branch unit's redirect this cycle.
    pub branch_set_valid: Signal<In, Bit>,
    pub branch_set_warp: Signal<In, Bits<WW>>,
    pub branch_set_mask: Signal<In, Bits<T>>,
    pub branch_set_pc: Signal<In, Bits<A>>,
    /// To the scheduler: pop (`join`), end (`exit`) of warp `warp_acted`, and the warp set:
    /// issue's redirect (`join`, `jmp`), else the branch unit's (the two never meet: issue waits
    /// while the port is busy, and pipelined, holds the port while it acts).
    pub pop: Signal<Out, Bit>,
    pub end_warp: Signal<Out, Bit>,
    pub warp_acted: Signal<Out, Bits<WW>>,
    pub port_held: Signal<Out, Bit>,
    pub set_valid: Signal<Out, Bit>,
    pub set_warp: Signal<Out, Bits<WW>>,
    pub set_mask: Signal<Out, Bits<T>>,
    pub set_pc: Signal<Out, Bits<A>>,
    /// Trace: the warp and instruction index issued (0 when none is).
    pub trace_warp: Signal<Out, Bits<WW>>,
    pub trace_pc: Signal<Out, Bits<IA>>,
    /// A branch or `bany` issues (its index is kept for its resolution).
    pub branch: Signal<Out, Bit>,
    /// A `bar` issues (its warp is `warp`), and its warp's active lanes are not all its lanes
    /// that have not exited.
    pub bar: Signal<Out, Bit>,
    pub bar_diverged: Signal<Out, Bit>,
    /// Some warp has a register in flight (or, pipelined, an action pending); the scoreboard's
    /// sticky misuse flags, ORed.
    pub pending: Signal<Out, Bit>,
    pub err_scoreboard: Signal<Out, Bit>,
    dec: Decoder,
    sb: Scoreboard<W, WW, 16, RRW>,
    candidate: IssueCandidate<W, WW>,
    /// The warp issued last cycle (greedy then oldest keeps to it).
    greedy_valid: DFF<Bit>,
    greedy: DFF<Bits<WW>>,
    act: WarpAction<W, WW, T, A, IA>,
    /// Pipelined: the warp selected last cycle (the I-buffer shows its head now).
    sel_valid: DFF<Bit>,
    sel_warp: DFF<Bits<WW>>,
    /// Pipelined: last cycle's write-back, released now.
    rel_valid: DFF<Bit>,
    rel_warp: DFF<Bits<WW>>,
    rel_reg: DFF<Bits<RRW>>,
    pipelined: Constant<Bit>,
    k_alu: Constant<Bits<4>>,
    k_st: Constant<Bits<4>>,
    k_ld: Constant<Bits<4>>,
    k_stx: Constant<Bits<4>>,
    /// Built with `stx` (extension `stx`).
    has_stx: Constant<Bit>,
    /// Built with atomics (extension `atomic`), which go to the local data share too.
    has_atomic: Constant<Bit>,
    k_atomic: Constant<Bits<4>>,
    k_branch: Constant<Bits<4>>,
    k_join: Constant<Bits<4>>,
    k_jmp: Constant<Bits<4>>,
    k_bany: Constant<Bits<4>>,
    k_exit: Constant<Bits<4>>,
    k_bar: Constant<Bits<4>>,
    cand_valid: Signal<Local, Bit>,
    cand: Signal<Local, Bits<WW>>,
    /// The head checked, and its warp's lanes and whether its stack is empty.
    chk_valid: Signal<Local, Bit>,
    chk_warp: Signal<Local, Bits<WW>>,
    chk_inst: Signal<Local, Bits<32>>,
    chk_pc: Signal<Local, Bits<IA>>,
    chk_mask: Signal<Local, Bits<T>>,
    chk_empty: Signal<Local, Bit>,
    /// The checked warp's lanes that have not exited.
    chk_live: Signal<Local, Bits<T>>,
    kind: Signal<Local, Bits<4>>,
    /// The candidate acts as `exit`, and (its stack empty) ends its warp.
    ends: Signal<Local, Bit>,
    ends_warp: Signal<Local, Bit>,
    to_alu: Signal<Local, Bit>,
    to_lds: Signal<Local, Bit>,
    blocked: Signal<Local, Bit>,
    fires: Signal<Local, Bit>,
    unit_l: Signal<Local, Bits<1>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize>
    IssueStage<W, WW, T, A, IA>
{
    /// `gto`: greedy then oldest (else loose round robin); `pipelined`: the head is selected a
    /// cycle before it is checked.
    pub fn new(gto: bool, pipelined: bool, isa: crate::isa::Extensions) -> anyhow::Result<Self> {
        let k = |kind: Kind| Constant::new((kind as u64).to_bits());
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            head_valid: Default::default(),
            head_warp: Default::default(),
            head_inst: Default::default(),
            head_pc: Default::default(),
            masks: std::array::from_fn(|_| Default::default()),
            stack_empty: Default::default(),
            pop_mask: Default::default(),
            pop_pc: Default::default(),
            unit_ready: Default::default(),
            port_busy: Default::default(),
            release_valid: Default::default(),
            release_warp: Default::default(),
            release_reg: Default::default(),
            warp: Default::default(),
            inst: Default::default(),
            pc: Default::default(),
            fire: Default::default(),
            hazard: Default::default(),
            struct_stall: Default::default(),
            illegal: Default::default(),
            to_unit: Default::default(),
            unit: Default::default(),
            dst: Default::default(),
            mask: Default::default(),
            src_valid: Default::default(),
            src_a: Default::default(),
            src_b: Default::default(),
            pop: Default::default(),
            end_warp: Default::default(),
            warp_acted: Default::default(),
            port_held: Default::default(),
            branch_set_valid: Default::default(),
            branch_set_warp: Default::default(),
            branch_set_mask: Default::default(),
            branch_set_pc: Default::default(),
            set_valid: Default::default(),
            set_warp: Default::default(),
            set_mask: Default::default(),
            set_pc: Default::default(),
            trace_warp: Default::default(),
            trace_pc: Default::default(),
            branch: Default::default(),
            bar: Default::default(),
            bar_diverged: Default::default(),
            pending: Default::default(),
            err_scoreboard: Default::default(),
            dec: Decoder::new(isa)?,
            sb: Scoreboard::new()?,
            candidate: IssueCandidate::new(gto)?,
            greedy_valid: Default::default(),
            greedy: Default::default(),
            act: WarpAction::new(pipelined),
            sel_valid: Default::default(),
            sel_warp: Default::default(),
            rel_valid: Default::default(),
            rel_warp: Default::default(),
            rel_reg: Default::default(),
            pipelined: Constant::new(pipelined),
            k_alu: k(Kind::Alu),
            k_st: k(Kind::St),
            k_ld: k(Kind::Ld),
            k_stx: k(Kind::Stx),
            has_stx: Constant::new(isa.stx),
            has_atomic: Constant::new(isa.atomic),
            k_atomic: k(Kind::Atomic),
            k_branch: k(Kind::Branch),
            k_join: k(Kind::Join),
            k_jmp: k(Kind::Jmp),
            k_bany: k(Kind::Bany),
            k_exit: k(Kind::Exit),
            k_bar: k(Kind::Bar),
            cand_valid: Default::default(),
            cand: Default::default(),
            chk_valid: Default::default(),
            chk_warp: Default::default(),
            chk_inst: Default::default(),
            chk_pc: Default::default(),
            chk_mask: Default::default(),
            chk_empty: Default::default(),
            chk_live: Default::default(),
            kind: Default::default(),
            ends: Default::default(),
            ends_warp: Default::default(),
            to_alu: Default::default(),
            to_lds: Default::default(),
            blocked: Default::default(),
            fires: Default::default(),
            unit_l: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Logic
    for IssueStage<W, WW, T, A, IA>
{
    // One issue decision read top to bottom (the candidate, the head checked, its checks, what
    // it decides), its only state the selected head and the delayed release; the candidate
    // comes from `candidate`, what it does to the warp (and the exited lanes) from `act`.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, greedy_valid, greedy, sel_valid, sel_warp);
        dff_setup!(self, clock, rel_valid, rel_warp, rel_reg);
        self.sb.clock.next = self.clock.val();
        self.sb.reset.next = self.reset.val();
        // The policy's candidate, among the warps with a head (pipelined: but the one checked)
        self.candidate.clock.next = self.clock.val();
        self.candidate.reset.next = self.reset.val();
        self.candidate.head_valid.next = self.head_valid.val();
        self.candidate.exclude_valid.next = self.pipelined.val() & self.sel_valid.q.val();
        self.candidate.exclude_warp.next = self.sel_warp.q.val();
        self.candidate.greedy_valid.next = self.greedy_valid.q.val();
        self.candidate.greedy.next = self.greedy.q.val();
        self.cand_valid.next = self.candidate.valid.val();
        self.cand.next = self.candidate.warp.val();
        self.head_warp.next = self.cand.val();
        // The head checked: the candidate's, or (pipelined) the one selected last cycle
        self.sel_valid.d.next = self.cand_valid.val();
        self.sel_warp.d.next = self.cand.val();
        // (Pipelined, the I-buffer's head is registered: it shows the head named last cycle.)
        self.chk_inst.next = self.head_inst.val();
        self.chk_pc.next = self.head_pc.val();
        if self.pipelined.val() {
            self.chk_valid.next = self.sel_valid.q.val();
            self.chk_warp.next = self.sel_warp.q.val();
        } else {
            self.chk_valid.next = self.cand_valid.val();
            self.chk_warp.next = self.cand.val();
        }
        self.dec.inst.next = self.chk_inst.val();
        self.kind.next = self.dec.kind.val();
        self.chk_mask.next = 0.into();
        self.chk_empty.next = false;
        for w in 0..W {
            if self.chk_warp.val().index() == w {
                self.chk_mask.next = self.masks[w].val();
                self.chk_empty.next = self.stack_empty.val().get_bit(w);
            }
        }
        // `exit`, or a warp with no lane left: the active lanes end
        self.ends.next = (self.kind.val() == self.k_exit.val()) | !self.chk_mask.val().any();
        self.ends_warp.next = self.ends.val() & self.chk_empty.val();
        // Checked: the scoreboard, the unit or port it needs
        self.sb.check_warp.next = self.chk_warp.val();
        self.sb.check_src[0].next = self.dec.ra.val();
        self.sb.check_src[1].next = self.dec.rb.val();
        self.sb.check_src[2].next = 0.into();
        self.sb.check_src_valid.next = bit_cast::<3, 2>(self.dec.src_valid.val());
        self.sb.check_dst.next = self.dec.rd.val();
        self.sb.check_dst_valid.next = self.dec.rd_valid.val();
        self.to_alu.next = (self.kind.val() == self.k_alu.val())
            | (self.kind.val() == self.k_branch.val())
            | (self.kind.val() == self.k_bany.val());
        self.to_lds.next = (self.kind.val() == self.k_st.val())
            | (self.kind.val() == self.k_ld.val())
            | (self.has_stx.val() & (self.kind.val() == self.k_stx.val()))
            | (self.has_atomic.val() & (self.kind.val() == self.k_atomic.val()));
        if self.ends.val() {
            self.blocked.next = self.port_busy.val() & !self.ends_warp.val();
        } else if (self.kind.val() == self.k_join.val()) | (self.kind.val() == self.k_jmp.val()) {
            self.blocked.next = self.port_busy.val();
        } else {
            self.blocked.next = (self.to_alu.val() | self.to_lds.val()) & !self.unit_ready.val();
        }
        self.fires.next = self.chk_valid.val() & !self.sb.hazard.val() & !self.blocked.val();
        self.sb.reserve_valid.next = self.fires.val() & self.dec.rd_valid.val() & !self.ends.val();
        self.sb.reserve_warp.next = self.chk_warp.val();
        self.sb.reserve_reg.next = self.dec.rd.val();
        self.rel_valid.d.next = self.release_valid.val();
        self.rel_warp.d.next = self.release_warp.val();
        self.rel_reg.d.next = self.release_reg.val();
        if self.pipelined.val() {
            self.sb.release_valid.next = self.rel_valid.q.val();
            self.sb.release_warp.next = self.rel_warp.q.val();
            self.sb.release_reg.next = self.rel_reg.q.val();
        } else {
            self.sb.release_valid.next = self.release_valid.val();
            self.sb.release_warp.next = self.release_warp.val();
            self.sb.release_reg.next = self.release_reg.val();
        }
        // What it does to its warp (`join`, `jmp`, `exit`), by `act`: at once, or (pipelined)
        // the next cycle; the warp-set port is `act`'s, else the branch unit's
        self.act.clock.next = self.clock.val();
        self.act.reset.next = self.reset.val();
        self.act.fire.next = self.fires.val();
        self.act.kind_join.next = self.kind.val() == self.k_join.val();
        self.act.kind_jmp.next = self.kind.val() == self.k_jmp.val();
        self.act.target.next = self.dec.target.val();
        self.act.ends.next = self.ends.val();
        self.act.ends_warp.next = self.ends_warp.val();
        self.act.stack_empty.next = self.chk_empty.val();
        self.act.in_warp.next = self.chk_warp.val();
        self.act.in_mask.next = self.chk_mask.val();
        self.act.in_pc.next = self.chk_pc.val();
        self.act.branch_set_valid.next = self.branch_set_valid.val();
        self.act.branch_set_warp.next = self.branch_set_warp.val();
        self.act.branch_set_mask.next = self.branch_set_mask.val();
        self.act.branch_set_pc.next = self.branch_set_pc.val();
        self.act.pop_mask.next = self.pop_mask.val();
        self.act.pop_pc.next = self.pop_pc.val();
        self.chk_live.next = self.act.in_live.val();
        self.unit_l.next = 0.into();
        if self.to_lds.val() {
            self.unit_l.next = 1.into();
        }
        // Outputs, each written once
        self.warp.next = self.chk_warp.val();
        self.inst.next = self.chk_inst.val();
        self.pc.next = self.chk_pc.val();
        self.fire.next = self.fires.val();
        self.hazard.next = self.chk_valid.val() & self.sb.hazard.val();
        self.struct_stall.next = self.chk_valid.val() & !self.sb.hazard.val() & self.blocked.val();
        self.illegal.next = self.fires.val() & !self.dec.legal.val();
        self.to_unit.next =
            self.fires.val() & (self.to_alu.val() | self.to_lds.val()) & !self.ends.val();
        self.unit.next = self.unit_l.val();
        self.dst.next = self.dec.rd.val();
        self.mask.next = self.chk_mask.val();
        self.src_valid.next = bit_cast::<3, 2>(self.dec.src_valid.val());
        self.src_a.next = self.dec.ra.val();
        self.src_b.next = self.dec.rb.val();
        self.pop.next = self.act.pop.val();
        self.end_warp.next = self.act.end_warp.val();
        self.port_held.next = self.act.pending.val();
        self.warp_acted.next = self.act.warp.val();
        self.set_valid.next = self.act.set_valid.val();
        self.set_warp.next = self.act.set_warp.val();
        self.set_mask.next = self.act.set_mask.val();
        self.set_pc.next = self.act.set_pc.val();
        if self.fires.val() {
            self.trace_warp.next = self.chk_warp.val();
            self.trace_pc.next = self.chk_pc.val();
        } else {
            self.trace_warp.next = 0.into();
            self.trace_pc.next = 0.into();
        }
        self.branch.next = self.fires.val()
            & !self.ends.val()
            & ((self.kind.val() == self.k_branch.val()) | (self.kind.val() == self.k_bany.val()));
        self.bar.next = self.fires.val() & !self.ends.val() & (self.kind.val() == self.k_bar.val());
        self.bar_diverged.next = self.chk_mask.val() != self.chk_live.val();
        self.pending.next = self.sb.pending.val().any() | self.act.pending.val();
        self.err_scoreboard.next =
            self.sb.err_double_reserve.val() | self.sb.err_release_free.val();
        self.greedy_valid.d.next = self.fires.val();
        self.greedy.d.next = self.chk_warp.val();
        if self.reset.val() {
            self.greedy_valid.d.next = false;
            self.sel_valid.d.next = false;
            self.rel_valid.d.next = false;
        }
    }
}
