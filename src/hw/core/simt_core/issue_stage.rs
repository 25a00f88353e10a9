//! IssueStage: the [`SimtCore`](super::SimtCore)'s issue. The policy's candidate warp (loose
//! round robin over the warps with an instruction at their I-buffer's head, or greedy then
//! oldest: the last warp issued while it has one, else the lowest), its head decoded and checked
//! against the [`Scoreboard`] (which it owns: issue reserves a destination, write-back releases
//! it) and against the unit it needs (a collector unit for ALU, branch and memory
//! instructions; the scheduler's warp-set port for `join`, `jmp` and an `exit` with entries
//! pending). An instruction that fires goes to the collector, or acts here: `join` pops its
//! warp's stack and redirects it to the popped entry (an empty stack is flagged by the stack, and
//! the warp goes on after the `join`), `jmp` redirects it, and `exit` ends the active lanes:
//! it pops and redirects as `join` does, or ends the warp when its stack is empty. Each warp's
//! exited lanes are kept here and left out of every mask a pop restores; an instruction fetched
//! with no lane left acts as `exit`.

use rust_hdl::prelude::*;

use super::RRW;
use crate::hw::core::decoder::Kind;
use crate::hw::{Decoder, Order, PriorityEncoder, RoundRobinArbiter, Scoreboard};

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
    /// The I-buffer's heads: which warps have one, and the candidate's instruction and index.
    pub head_valid: Signal<In, Bits<W>>,
    pub head_inst: Signal<In, Bits<32>>,
    pub head_pc: Signal<In, Bits<IA>>,
    /// Each warp's active lanes (as fetched), and whose SIMT stack is empty.
    pub masks: [Signal<In, Bits<T>>; W],
    pub stack_empty: Signal<In, Bits<W>>,
    /// The top of the candidate's stack (what a `join` restores).
    pub pop_mask: Signal<In, Bits<T>>,
    pub pop_pc: Signal<In, Bits<A>>,
    /// A collector unit can take an instruction; the warp-set port is taken by a branch.
    pub unit_ready: Signal<In, Bit>,
    pub port_busy: Signal<In, Bit>,
    /// This cycle's write-back releases its register.
    pub release_valid: Signal<In, Bit>,
    pub release_warp: Signal<In, Bits<WW>>,
    pub release_reg: Signal<In, Bits<RRW>>,
    /// The candidate warp, and whether its instruction issues.
    pub warp: Signal<Out, Bits<WW>>,
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
    /// To the scheduler: pop (`join`), end (`exit`), and the warp set: issue's redirect (`join`,
    /// `jmp`), else the branch unit's (the two never meet: issue waits while the port is busy).
    pub pop: Signal<Out, Bit>,
    pub end_warp: Signal<Out, Bit>,
    pub set_valid: Signal<Out, Bit>,
    pub set_warp: Signal<Out, Bits<WW>>,
    pub set_mask: Signal<Out, Bits<T>>,
    pub set_pc: Signal<Out, Bits<A>>,
    /// Trace: the warp and instruction index issued (0 when none is).
    pub trace_warp: Signal<Out, Bits<WW>>,
    pub trace_pc: Signal<Out, Bits<IA>>,
    /// A branch or `bany` issues (its index is kept for its resolution).
    pub branch: Signal<Out, Bit>,
    /// Some warp has a register in flight; the scoreboard's sticky misuse flags, ORed.
    pub pending: Signal<Out, Bit>,
    pub err_scoreboard: Signal<Out, Bit>,
    dec: Decoder,
    sb: Scoreboard<W, WW, 16, RRW>,
    rr: RoundRobinArbiter<W, WW>,
    oldest: PriorityEncoder<W, WW>,
    greedy_valid: DFF<Bit>,
    greedy: DFF<Bits<WW>>,
    /// Each warp's lanes that ran `exit` (cleared when the warp ends).
    exited: [DFF<Bits<T>>; W],
    gto: Constant<Bit>,
    two: Constant<Bits<8>>,
    k_alu: Constant<Bits<4>>,
    k_st: Constant<Bits<4>>,
    k_ld: Constant<Bits<4>>,
    k_branch: Constant<Bits<4>>,
    k_join: Constant<Bits<4>>,
    k_jmp: Constant<Bits<4>>,
    k_bany: Constant<Bits<4>>,
    k_exit: Constant<Bits<4>>,
    cand_valid: Signal<Local, Bit>,
    cand: Signal<Local, Bits<WW>>,
    cand_mask: Signal<Local, Bits<T>>,
    cand_empty: Signal<Local, Bit>,
    cand_exited: Signal<Local, Bits<T>>,
    kind: Signal<Local, Bits<4>>,
    /// The candidate acts as `exit`, and (its stack empty) ends its warp.
    ends: Signal<Local, Bit>,
    ends_warp: Signal<Local, Bit>,
    to_alu: Signal<Local, Bit>,
    to_lds: Signal<Local, Bit>,
    blocked: Signal<Local, Bit>,
    fires: Signal<Local, Bit>,
    pc_wide: Signal<Local, Bits<A>>,
    set_v: Signal<Local, Bit>,
    set_m: Signal<Local, Bits<T>>,
    set_p: Signal<Local, Bits<A>>,
    unit_l: Signal<Local, Bits<1>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize>
    IssueStage<W, WW, T, A, IA>
{
    /// `gto`: greedy then oldest (else loose round robin).
    pub fn new(gto: bool) -> anyhow::Result<Self> {
        let k = |kind: Kind| Constant::new((kind as u64).to_bits());
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            head_valid: Default::default(),
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
            pending: Default::default(),
            err_scoreboard: Default::default(),
            dec: Decoder::new()?,
            sb: Scoreboard::new()?,
            rr: RoundRobinArbiter::new()?,
            oldest: PriorityEncoder::new(Order::LowestFirst)?,
            greedy_valid: Default::default(),
            greedy: Default::default(),
            exited: std::array::from_fn(|_| Default::default()),
            gto: Constant::new(gto),
            two: Constant::new(2u64.to_bits()),
            k_alu: k(Kind::Alu),
            k_st: k(Kind::St),
            k_ld: k(Kind::Ld),
            k_branch: k(Kind::Branch),
            k_join: k(Kind::Join),
            k_jmp: k(Kind::Jmp),
            k_bany: k(Kind::Bany),
            k_exit: k(Kind::Exit),
            cand_valid: Default::default(),
            cand: Default::default(),
            cand_mask: Default::default(),
            cand_empty: Default::default(),
            cand_exited: Default::default(),
            kind: Default::default(),
            ends: Default::default(),
            ends_warp: Default::default(),
            to_alu: Default::default(),
            to_lds: Default::default(),
            blocked: Default::default(),
            fires: Default::default(),
            pc_wide: Default::default(),
            set_v: Default::default(),
            set_m: Default::default(),
            set_p: Default::default(),
            unit_l: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Logic
    for IssueStage<W, WW, T, A, IA>
{
    // Not split: one issue decision read top to bottom (the candidate, its checks, what it does
    // at once), its only state the greedy warp and the exited lanes; a sub-block would cut it.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, greedy_valid, greedy);
        self.sb.clock.next = self.clock.val();
        self.sb.reset.next = self.reset.val();
        self.rr.clock.next = self.clock.val();
        self.rr.reset.next = self.reset.val();
        // The policy's candidate
        self.rr.req.next = self.head_valid.val();
        self.rr.advance.next = self.rr.valid.val();
        self.rr.req_taken.next = 0.into(); // (read by a lookahead arbiter only)
        self.oldest.req.next = self.head_valid.val();
        if self.gto.val() {
            self.cand_valid.next = self.oldest.valid.val();
            self.cand.next = self.oldest.index.val();
            for w in 0..W {
                if self.greedy_valid.q.val()
                    & (self.greedy.q.val().index() == w)
                    & self.head_valid.val().get_bit(w)
                {
                    self.cand.next = self.greedy.q.val();
                }
            }
        } else {
            self.cand_valid.next = self.rr.valid.val();
            self.cand.next = self.rr.index.val();
        }
        self.dec.inst.next = self.head_inst.val();
        self.kind.next = self.dec.kind.val();
        self.cand_mask.next = 0.into();
        self.cand_empty.next = false;
        self.cand_exited.next = 0.into();
        for w in 0..W {
            if self.cand.val().index() == w {
                self.cand_mask.next = self.masks[w].val();
                self.cand_empty.next = self.stack_empty.val().get_bit(w);
                self.cand_exited.next = self.exited[w].q.val();
            }
        }
        // `exit`, or a warp with no lane left: the active lanes end
        self.ends.next = (self.kind.val() == self.k_exit.val()) | !self.cand_mask.val().any();
        self.ends_warp.next = self.ends.val() & self.cand_empty.val();
        // Checked: the scoreboard, the unit or port it needs
        self.sb.check_warp.next = self.cand.val();
        self.sb.check_src[0].next = self.dec.ra.val();
        self.sb.check_src[1].next = self.dec.rb.val();
        self.sb.check_src[2].next = 0.into();
        self.sb.check_src_valid.next = bit_cast::<3, 2>(self.dec.src_valid.val());
        self.sb.check_dst.next = self.dec.rd.val();
        self.sb.check_dst_valid.next = self.dec.rd_valid.val();
        self.to_alu.next = (self.kind.val() == self.k_alu.val())
            | (self.kind.val() == self.k_branch.val())
            | (self.kind.val() == self.k_bany.val());
        self.to_lds.next =
            (self.kind.val() == self.k_st.val()) | (self.kind.val() == self.k_ld.val());
        if self.ends.val() {
            self.blocked.next = self.port_busy.val() & !self.ends_warp.val();
        } else if (self.kind.val() == self.k_join.val()) | (self.kind.val() == self.k_jmp.val()) {
            self.blocked.next = self.port_busy.val();
        } else {
            self.blocked.next = (self.to_alu.val() | self.to_lds.val()) & !self.unit_ready.val();
        }
        self.fires.next = self.cand_valid.val() & !self.sb.hazard.val() & !self.blocked.val();
        self.sb.reserve_valid.next = self.fires.val() & self.dec.rd_valid.val() & !self.ends.val();
        self.sb.reserve_warp.next = self.cand.val();
        self.sb.reserve_reg.next = self.dec.rd.val();
        self.sb.release_valid.next = self.release_valid.val();
        self.sb.release_warp.next = self.release_warp.val();
        self.sb.release_reg.next = self.release_reg.val();
        // What it does here: `join`, `jmp` and `exit` (unless it ends the warp) redirect the warp
        self.set_v.next = false;
        self.set_m.next = self.cand_mask.val();
        self.set_p.next = 0.into();
        self.pc_wide.next = 0.into();
        if self.fires.val() & (self.kind.val() == self.k_join.val()) & !self.ends.val() {
            self.set_v.next = true;
            if self.cand_empty.val() {
                // Flagged by the stack; the warp goes on after the `join`
                self.pc_wide.next = bit_cast::<A, IA>(self.head_pc.val()) + 1;
                self.set_p.next = self.pc_wide.val() << self.two.val();
            } else {
                self.set_m.next = self.pop_mask.val() & !self.cand_exited.val();
                self.set_p.next = self.pop_pc.val();
            }
        }
        if self.fires.val() & self.ends.val() & !self.ends_warp.val() {
            self.set_v.next = true;
            self.set_m.next =
                self.pop_mask.val() & !(self.cand_exited.val() | self.cand_mask.val());
            self.set_p.next = self.pop_pc.val();
        }
        if self.fires.val() & (self.kind.val() == self.k_jmp.val()) & !self.ends.val() {
            self.pc_wide.next = bit_cast::<A, 11>(self.dec.target.val());
            self.set_v.next = true;
            self.set_p.next = self.pc_wide.val() << self.two.val();
        }
        self.unit_l.next = 0.into();
        if self.to_lds.val() {
            self.unit_l.next = 1.into();
        }
        // Outputs, each written once
        self.warp.next = self.cand.val();
        self.fire.next = self.fires.val();
        self.hazard.next = self.cand_valid.val() & self.sb.hazard.val();
        self.struct_stall.next = self.cand_valid.val() & !self.sb.hazard.val() & self.blocked.val();
        self.illegal.next = self.fires.val() & !self.dec.legal.val();
        self.to_unit.next =
            self.fires.val() & (self.to_alu.val() | self.to_lds.val()) & !self.ends.val();
        self.unit.next = self.unit_l.val();
        self.dst.next = self.dec.rd.val();
        self.mask.next = self.cand_mask.val();
        self.src_valid.next = bit_cast::<3, 2>(self.dec.src_valid.val());
        self.src_a.next = self.dec.ra.val();
        self.src_b.next = self.dec.rb.val();
        self.pop.next = self.fires.val()
            & !self.ends_warp.val()
            & ((self.kind.val() == self.k_join.val()) | self.ends.val());
        self.end_warp.next = self.fires.val() & self.ends_warp.val();
        if self.set_v.val() {
            self.set_valid.next = true;
            self.set_warp.next = self.cand.val();
            self.set_mask.next = self.set_m.val();
            self.set_pc.next = self.set_p.val();
        } else {
            self.set_valid.next = self.branch_set_valid.val();
            self.set_warp.next = self.branch_set_warp.val();
            self.set_mask.next = self.branch_set_mask.val();
            self.set_pc.next = self.branch_set_pc.val();
        }
        if self.fires.val() {
            self.trace_warp.next = self.cand.val();
            self.trace_pc.next = self.head_pc.val();
        } else {
            self.trace_warp.next = 0.into();
            self.trace_pc.next = 0.into();
        }
        self.branch.next = self.fires.val()
            & !self.ends.val()
            & ((self.kind.val() == self.k_branch.val()) | (self.kind.val() == self.k_bany.val()));
        self.pending.next = self.sb.pending.val().any();
        self.err_scoreboard.next =
            self.sb.err_double_reserve.val() | self.sb.err_release_free.val();
        self.greedy_valid.d.next = self.fires.val();
        self.greedy.d.next = self.cand.val();
        for w in 0..W {
            self.exited[w].clock.next = self.clock.val();
            self.exited[w].d.next = self.exited[w].q.val();
            if self.fires.val() & self.ends.val() & (self.cand.val().index() == w) {
                if self.ends_warp.val() {
                    self.exited[w].d.next = 0.into();
                } else {
                    self.exited[w].d.next = self.exited[w].q.val() | self.cand_mask.val();
                }
            }
            if self.reset.val() {
                self.exited[w].d.next = 0.into();
            }
        }
        if self.reset.val() {
            self.greedy_valid.d.next = false;
        }
    }
}
