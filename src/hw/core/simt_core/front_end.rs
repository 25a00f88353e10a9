//! FrontEnd: the [`SimtCore`](super::SimtCore)'s fetch and fill. The instruction memory (a
//! block RAM the host writes), the fetch of the warp the scheduler offers when its I-buffer has
//! space, and the fill of the word read into the [`IBuffer`] in the next cycle: a warp goes on
//! fetching after anything but control flow (the scheduler reactivates it), while a branch,
//! `join`, `jmp` or `exit` waits for its resolution, as does an instruction fetched with no
//! lane left (issue runs it as `exit`). Each warp's active lanes are kept as they were fetched.

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::hw::{Decoder, IBuffer, IBufferRam, LaneRam};

/// `W` warps (`WW` bits), `T` lanes, `A`-bit byte pcs over `2^IA` instruction words.
#[derive(LogicBlock)]
pub struct FrontEnd<
    const W: usize,
    const WW: usize,
    const T: usize,
    const A: usize,
    const IA: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The host writes instruction word `imem_write_addr`.
    pub imem_write_valid: Signal<In, Bit>,
    pub imem_write_addr: Signal<In, Bits<IA>>,
    pub imem_write_data: Signal<In, Bits<32>>,
    /// The scheduler's offer: a warp, its pc and lanes; taken when `fetch_ready`.
    pub fetch_valid: Signal<In, Bit>,
    pub fetch_wid: Signal<In, Bits<WW>>,
    pub fetch_pc: Signal<In, Bits<A>>,
    pub fetch_mask: Signal<In, Bits<T>>,
    pub fetch_ready: Signal<Out, Bit>,
    /// Reactivate warp `ctl_wid` (its fill was not control flow).
    pub ctl_valid: Signal<Out, Bit>,
    pub ctl_wid: Signal<Out, Bits<WW>>,
    /// The I-buffer's heads: which warps have one, and warp `head_warp`'s; issue of warp
    /// `issue_warp`'s head.
    pub head_valid: Signal<Out, Bits<W>>,
    pub head_warp: Signal<In, Bits<WW>>,
    pub head_inst: Signal<Out, Bits<32>>,
    pub head_pc: Signal<Out, Bits<IA>>,
    pub issue_valid: Signal<In, Bit>,
    pub issue_warp: Signal<In, Bits<WW>>,
    /// Each warp's lanes as fetched.
    pub masks: [Signal<Out, Bits<T>>; W],
    /// A word read from the instruction memory waits for its fill.
    pub busy: Signal<Out, Bit>,
    /// The I-buffer's sticky misuse flags, ORed.
    pub err_ibuf: Signal<Out, Bit>,
    imem: LaneRam<IA, 1, 32, 32>,
    ibuf: IBuffer<W, WW, IA>,
    /// The pipelined core's I-buffer (`registered_head`): the same in block RAM, its head shown
    /// a cycle after it is named. Both take the same inputs; the one not chosen has no load,
    /// and synthesis removes it.
    ibuf_ram: IBufferRam<W, WW, IA>,
    registered_head: Constant<Bit>,
    ib_space: Signal<Local, Bits<W>>,
    ib_err: Signal<Local, Bit>,
    dec: Decoder,
    fill_valid: DFF<Bit>,
    fill_warp: DFF<Bits<WW>>,
    fill_pc: DFF<Bits<A>>,
    wmask: [DFF<Bits<T>>; W],
    two: Constant<Bits<8>>,
    wm: Signal<Local, Bits<1>>,
    fill_mask: Signal<Local, Bits<T>>,
    space: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    fill_ctl: Signal<Local, Bit>,
    pc_wide: Signal<Local, Bits<A>>,
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize>
    FrontEnd<W, WW, T, A, IA>
{
    /// `registered_head`: the I-buffer in block RAM, whose head shows a cycle after issue names
    /// its warp (the pipelined core, which selects its head a cycle ahead).
    pub fn new(registered_head: bool, isa: crate::isa::Extensions) -> Result<Self> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            imem_write_valid: Default::default(),
            imem_write_addr: Default::default(),
            imem_write_data: Default::default(),
            fetch_valid: Default::default(),
            fetch_wid: Default::default(),
            fetch_pc: Default::default(),
            fetch_mask: Default::default(),
            fetch_ready: Default::default(),
            ctl_valid: Default::default(),
            ctl_wid: Default::default(),
            head_valid: Default::default(),
            head_warp: Default::default(),
            head_inst: Default::default(),
            head_pc: Default::default(),
            issue_valid: Default::default(),
            issue_warp: Default::default(),
            masks: std::array::from_fn(|_| Default::default()),
            busy: Default::default(),
            err_ibuf: Default::default(),
            imem: LaneRam::new()?,
            ibuf: IBuffer::new()?,
            ibuf_ram: IBufferRam::new()?,
            registered_head: Constant::new(registered_head),
            ib_space: Default::default(),
            ib_err: Default::default(),
            dec: Decoder::new(isa)?,
            fill_valid: Default::default(),
            fill_warp: Default::default(),
            fill_pc: Default::default(),
            wmask: std::array::from_fn(|_| Default::default()),
            two: Constant::new(2u64.to_bits()),
            wm: Default::default(),
            fill_mask: Default::default(),
            space: Default::default(),
            fire: Default::default(),
            fill_ctl: Default::default(),
            pc_wide: Default::default(),
        })
    }
}

impl<const W: usize, const WW: usize, const T: usize, const A: usize, const IA: usize> Logic
    for FrontEnd<W, WW, T, A, IA>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill_valid, fill_warp, fill_pc);
        self.imem.clock.next = self.clock.val();
        self.ibuf.clock.next = self.clock.val();
        self.ibuf.reset.next = self.reset.val();
        self.ibuf_ram.clock.next = self.clock.val();
        self.ibuf_ram.reset.next = self.reset.val();
        self.ib_space.next = self.ibuf.space.val();
        if self.registered_head.val() {
            self.ib_space.next = self.ibuf_ram.space.val();
        }
        // Instruction memory: the host's writes
        self.wm.next = 0.into();
        if self.imem_write_valid.val() {
            self.wm.next = 1.into();
        }
        self.imem.write_mask.next = self.wm.val();
        self.imem.write_address.next = self.imem_write_addr.val();
        self.imem.write_data.next = self.imem_write_data.val();
        // Fetch: the offered warp, when its I-buffer has space
        self.space.next = false;
        for w in 0..W {
            if self.fetch_wid.val().index() == w {
                self.space.next = self.ib_space.val().get_bit(w);
            }
        }
        self.fire.next = self.fetch_valid.val() & self.space.val();
        self.fetch_ready.next = self.fire.val();
        self.pc_wide.next = self.fetch_pc.val() >> self.two.val();
        self.imem.read_address.next = bit_cast::<IA, A>(self.pc_wide.val());
        self.fill_valid.d.next = self.fire.val();
        self.fill_warp.d.next = self.fetch_wid.val();
        self.fill_pc.d.next = self.fetch_pc.val();
        for w in 0..W {
            self.wmask[w].clock.next = self.clock.val();
            self.wmask[w].d.next = self.wmask[w].q.val();
            if self.fire.val() & (self.fetch_wid.val().index() == w) {
                self.wmask[w].d.next = self.fetch_mask.val();
            }
            if self.reset.val() {
                self.wmask[w].d.next = 0.into();
            }
            self.masks[w].next = self.wmask[w].q.val();
        }
        // Fill: the word read lands in the I-buffer; a warp goes on fetching after anything
        // but control flow (or an instruction with no lane left)
        self.fill_mask.next = 0.into();
        for w in 0..W {
            if self.fill_warp.q.val().index() == w {
                self.fill_mask.next = self.wmask[w].q.val();
            }
        }
        self.dec.inst.next = self.imem.read_data.val();
        self.fill_ctl.next = self.dec.control.val() | !self.fill_mask.val().any();
        self.ibuf.fill_valid.next = self.fill_valid.q.val();
        self.ibuf.fill_warp.next = self.fill_warp.q.val();
        self.ibuf.fill_inst.next = self.imem.read_data.val();
        self.pc_wide.next = self.fill_pc.q.val() >> self.two.val();
        self.ibuf.fill_pc.next = bit_cast::<IA, A>(self.pc_wide.val());
        self.ibuf.flush_valid.next = false;
        self.ibuf.flush_warp.next = 0.into();
        self.ibuf_ram.fill_valid.next = self.fill_valid.q.val();
        self.ibuf_ram.fill_warp.next = self.fill_warp.q.val();
        self.ibuf_ram.fill_inst.next = self.imem.read_data.val();
        self.ibuf_ram.fill_pc.next = bit_cast::<IA, A>(self.pc_wide.val());
        self.ibuf_ram.flush_valid.next = false;
        self.ibuf_ram.flush_warp.next = 0.into();
        self.ctl_valid.next = self.fill_valid.q.val() & !self.fill_ctl.val();
        self.ctl_wid.next = self.fill_warp.q.val();
        // Issue
        self.ibuf.issue_valid.next = self.issue_valid.val();
        self.ibuf.issue_warp.next = self.issue_warp.val();
        self.ibuf.head_warp.next = self.head_warp.val();
        self.ibuf_ram.issue_valid.next = self.issue_valid.val();
        self.ibuf_ram.issue_warp.next = self.issue_warp.val();
        self.ibuf_ram.head_warp.next = self.head_warp.val();
        self.head_valid.next = self.ibuf.head_valid.val();
        self.head_inst.next = self.ibuf.head_inst.val();
        self.head_pc.next = self.ibuf.head_pc.val();
        self.ib_err.next = self.ibuf.err_fill_full.val() | self.ibuf.err_issue_empty.val();
        if self.registered_head.val() {
            self.head_valid.next = self.ibuf_ram.head_valid.val();
            self.head_inst.next = self.ibuf_ram.head_inst.val();
            self.head_pc.next = self.ibuf_ram.head_pc.val();
            self.ib_err.next =
                self.ibuf_ram.err_fill_full.val() | self.ibuf_ram.err_issue_empty.val();
        }
        self.busy.next = self.fill_valid.q.val();
        self.err_ibuf.next = self.ib_err.val();
        if self.reset.val() {
            self.fill_valid.d.next = false;
        }
    }
}
