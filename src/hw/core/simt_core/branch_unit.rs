//! BranchUnit: the [`SimtCore`](super::SimtCore)'s branch resolution, after the lane ALU. A
//! `branch` that leaves the ALU pushes its reconvergence entry and redirects its warp: to the
//! target if every active lane takes it, to the next instruction if none does; if the lanes
//! split, the fall-through lanes are pushed as a second entry and the taken lanes redirected in
//! the next cycle (`pending`, which holds the execute stage). A `bany` redirects the whole warp
//! when any active lane's operand is not zero. Each warp's last branch pc is kept here (written
//! at issue): the branch's next instruction follows it.

use rust_hdl::prelude::*;

use crate::hw::core::decoder::Kind;

/// `W` warps (`WW` bits), `T` lanes, `A`-bit byte pcs over `IA`-bit instruction indices.
#[derive(LogicBlock)]
pub struct BranchUnit<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const IA: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The instruction leaving the ALU this cycle (`fire`), its decoded fields, its warp and
    /// active lanes, and the ALU's `zero` mask of its operand `a`.
    pub fire: Signal<In, Bit>,
    pub kind: Signal<In, Bits<4>>,
    pub if_zero: Signal<In, Bit>,
    pub target: Signal<In, Bits<11>>,
    pub reconv: Signal<In, Bits<11>>,
    pub warp: Signal<In, Bits<WW>>,
    pub mask: Signal<In, Bits<T>>,
    pub zero: Signal<In, Bits<T>>,
    /// Issue records a branch's instruction index for its warp.
    pub record_valid: Signal<In, Bit>,
    pub record_warp: Signal<In, Bits<WW>>,
    pub record_pc: Signal<In, Bits<IA>>,
    /// The second half of a divergent branch waits: the execute stage holds.
    pub pending: Signal<Out, Bit>,
    /// The scheduler's branch and warp-set ports are taken this cycle.
    pub port_busy: Signal<Out, Bit>,
    /// A branch split its warp this cycle.
    pub divergent: Signal<Out, Bit>,
    /// The stack push and warp set this cycle asks of the scheduler.
    pub push_valid: Signal<Out, Bit>,
    pub push_warp: Signal<Out, Bits<WW>>,
    pub push_mask: Signal<Out, Bits<T>>,
    pub push_pc: Signal<Out, Bits<A>>,
    pub set_valid: Signal<Out, Bit>,
    pub set_warp: Signal<Out, Bits<WW>>,
    pub set_mask: Signal<Out, Bits<T>>,
    pub set_pc: Signal<Out, Bits<A>>,
    branch_pc: [DFF<Bits<IA>>; W],
    div_valid: DFF<Bit>,
    div_warp: DFF<Bits<WW>>,
    div_mask: DFF<Bits<T>>,
    div_pc: DFF<Bits<A>>,
    div_set_mask: DFF<Bits<T>>,
    div_set_pc: DFF<Bits<A>>,
    two: Constant<Bits<8>>,
    k_branch: Constant<Bits<4>>,
    k_bany: Constant<Bits<4>>,
    bpc: Signal<Local, Bits<IA>>,
    pc_wide: Signal<Local, Bits<A>>,
    pc_next: Signal<Local, Bits<A>>,
    pc_target: Signal<Local, Bits<A>>,
    pc_reconv: Signal<Local, Bits<A>>,
    zero_active: Signal<Local, Bits<T>>,
    taken: Signal<Local, Bits<T>>,
    fall: Signal<Local, Bits<T>>,
    busy_l: Signal<Local, Bit>,
    split_l: Signal<Local, Bit>,
    push_v: Signal<Local, Bit>,
    push_w: Signal<Local, Bits<WW>>,
    push_m: Signal<Local, Bits<T>>,
    push_p: Signal<Local, Bits<A>>,
    set_v: Signal<Local, Bit>,
    set_w: Signal<Local, Bits<WW>>,
    set_m: Signal<Local, Bits<T>>,
    set_p: Signal<Local, Bits<A>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Default
    for BranchUnit<W, WW, T, A, IA>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            fire: Default::default(),
            kind: Default::default(),
            if_zero: Default::default(),
            target: Default::default(),
            reconv: Default::default(),
            warp: Default::default(),
            mask: Default::default(),
            zero: Default::default(),
            record_valid: Default::default(),
            record_warp: Default::default(),
            record_pc: Default::default(),
            pending: Default::default(),
            port_busy: Default::default(),
            divergent: Default::default(),
            push_valid: Default::default(),
            push_warp: Default::default(),
            push_mask: Default::default(),
            push_pc: Default::default(),
            set_valid: Default::default(),
            set_warp: Default::default(),
            set_mask: Default::default(),
            set_pc: Default::default(),
            branch_pc: std::array::from_fn(|_| Default::default()),
            div_valid: Default::default(),
            div_warp: Default::default(),
            div_mask: Default::default(),
            div_pc: Default::default(),
            div_set_mask: Default::default(),
            div_set_pc: Default::default(),
            two: Constant::new(2u64.to_bits()),
            k_branch: Constant::new((Kind::Branch as u64).to_bits()),
            k_bany: Constant::new((Kind::Bany as u64).to_bits()),
            bpc: Default::default(),
            pc_wide: Default::default(),
            pc_next: Default::default(),
            pc_target: Default::default(),
            pc_reconv: Default::default(),
            zero_active: Default::default(),
            taken: Default::default(),
            fall: Default::default(),
            busy_l: Default::default(),
            split_l: Default::default(),
            push_v: Default::default(),
            push_w: Default::default(),
            push_m: Default::default(),
            push_p: Default::default(),
            set_v: Default::default(),
            set_w: Default::default(),
            set_m: Default::default(),
            set_p: Default::default(),
        }
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Logic
    for BranchUnit<W, WW, T, A, IA>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, div_valid, div_warp, div_mask, div_pc, div_set_mask, div_set_pc);
        for w in 0..W {
            self.branch_pc[w].clock.next = self.clock.val();
            self.branch_pc[w].d.next = self.branch_pc[w].q.val();
            if self.record_valid.val() & (self.record_warp.val().index() == w) {
                self.branch_pc[w].d.next = self.record_pc.val();
            }
        }
        // The branch's next instruction, its target and its reconvergence point (after the
        // `join` it names), as byte pcs
        self.bpc.next = 0.into();
        for w in 0..W {
            if self.warp.val().index() == w {
                self.bpc.next = self.branch_pc[w].q.val();
            }
        }
        self.pc_wide.next = bit_cast::<A, IA>(self.bpc.val()) + 1;
        self.pc_next.next = self.pc_wide.val() << self.two.val();
        self.pc_wide.next = bit_cast::<A, 11>(self.target.val());
        self.pc_target.next = self.pc_wide.val() << self.two.val();
        self.pc_wide.next = bit_cast::<A, 11>(self.reconv.val()) + 1;
        self.pc_reconv.next = self.pc_wide.val() << self.two.val();
        self.zero_active.next = self.zero.val() & self.mask.val();
        if self.if_zero.val() {
            self.taken.next = self.zero_active.val();
        } else {
            self.taken.next = self.mask.val() & !self.zero_active.val();
        }
        self.fall.next = self.mask.val() & !self.taken.val();
        self.pending.next = self.div_valid.q.val();
        self.div_valid.d.next = false;
        self.split_l.next = false;
        self.busy_l.next = false;
        self.push_v.next = false;
        self.push_w.next = self.warp.val();
        self.push_m.next = self.mask.val();
        self.push_p.next = self.pc_reconv.val();
        self.set_v.next = false;
        self.set_w.next = self.warp.val();
        self.set_m.next = self.mask.val();
        self.set_p.next = self.pc_next.val();
        if self.div_valid.q.val() {
            // The second half of a divergent branch
            self.busy_l.next = true;
            self.push_v.next = true;
            self.push_w.next = self.div_warp.q.val();
            self.push_m.next = self.div_mask.q.val();
            self.push_p.next = self.div_pc.q.val();
            self.set_v.next = true;
            self.set_w.next = self.div_warp.q.val();
            self.set_m.next = self.div_set_mask.q.val();
            self.set_p.next = self.div_set_pc.q.val();
        } else if self.fire.val() & (self.kind.val() == self.k_branch.val()) {
            self.busy_l.next = true;
            self.push_v.next = true;
            if self.taken.val().any() & self.fall.val().any() {
                self.split_l.next = true;
                self.div_valid.d.next = true;
                self.div_warp.d.next = self.warp.val();
                self.div_mask.d.next = self.fall.val();
                self.div_pc.d.next = self.pc_next.val();
                self.div_set_mask.d.next = self.taken.val();
                self.div_set_pc.d.next = self.pc_target.val();
            } else {
                self.set_v.next = true;
                if self.taken.val().any() {
                    self.set_p.next = self.pc_target.val();
                }
            }
        } else if self.fire.val() & (self.kind.val() == self.k_bany.val()) {
            self.busy_l.next = true;
            self.set_v.next = true;
            if (self.mask.val() & !self.zero.val()).any() {
                self.set_p.next = self.pc_target.val();
            }
        }
        // Outputs, each written once
        self.port_busy.next = self.busy_l.val();
        self.divergent.next = self.split_l.val();
        self.push_valid.next = self.push_v.val();
        self.push_warp.next = self.push_w.val();
        self.push_mask.next = self.push_m.val();
        self.push_pc.next = self.push_p.val();
        self.set_valid.next = self.set_v.val();
        self.set_warp.next = self.set_w.val();
        self.set_mask.next = self.set_m.val();
        self.set_pc.next = self.set_p.val();
        if self.reset.val() {
            self.div_valid.d.next = false;
            for w in 0..W {
                self.branch_pc[w].d.next = 0.into();
            }
        }
    }
}
