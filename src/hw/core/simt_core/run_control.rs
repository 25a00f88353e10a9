//! RunControl: the [`SimtCore`](super::SimtCore)'s run: launching every warp after `start`
//! (one warp command a cycle), `running` until every warp has exited and nothing is in flight,
//! each warp's SIMT-stack depth and their high-water mark, the run's counters and the sticky
//! illegal-instruction flag, and the core's error flags.

use rust_hdl::prelude::*;

use crate::params::ERROR_FLAGS;

/// `W` warps (`WW` bits, `LW = WW + 1` launch-counter bits), stack depth `D` (`SPW` bits).
#[derive(LogicBlock)]
pub struct RunControl<
    const W: usize,
    const WW: usize,
    const LW: usize,
    const D: usize,
    const SPW: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Launch every warp (taken while not running).
    pub start: Signal<In, Bit>,
    /// The scheduler takes a warp command this cycle if one is offered.
    pub cmd_ready: Signal<In, Bit>,
    /// Every warp idle and nothing in flight (fetch, collector, execution units, scoreboard).
    pub drained: Signal<In, Bit>,
    /// This cycle's stack push (its warp), and the pop or end of warp `warp` at issue.
    pub push_valid: Signal<In, Bit>,
    pub push_warp: Signal<In, Bits<WW>>,
    pub pop: Signal<In, Bit>,
    pub end_warp: Signal<In, Bit>,
    pub warp: Signal<In, Bits<WW>>,
    /// What issue did this cycle: issued, waited on the scoreboard, found no unit or port,
    /// issued an illegal instruction; and a branch split its warp.
    pub fire: Signal<In, Bit>,
    pub hazard: Signal<In, Bit>,
    pub struct_stall: Signal<In, Bit>,
    pub illegal: Signal<In, Bit>,
    pub divergent: Signal<In, Bit>,
    /// Some warp waits at a barrier.
    pub barrier_wait: Signal<In, Bit>,
    /// The other blocks' sticky flags: stack overflow and underflow (any warp), a command for
    /// an idle warp, scoreboard, I-buffer and collector misuse, `bar` in a diverged warp.
    pub err_stack_overflow: Signal<In, Bit>,
    pub err_stack_underflow: Signal<In, Bit>,
    pub err_idle: Signal<In, Bit>,
    pub err_scoreboard: Signal<In, Bit>,
    pub err_ibuf: Signal<In, Bit>,
    pub err_collector: Signal<In, Bit>,
    pub err_barrier: Signal<In, Bit>,
    /// A warp command is offered (launching).
    pub cmd_valid: Signal<Out, Bit>,
    pub running: Signal<Out, Bit>,
    pub high_water: Signal<Out, Bits<SPW>>,
    pub count_cycles: Signal<Out, Bits<32>>,
    pub count_issued: Signal<Out, Bits<32>>,
    pub count_scoreboard_stalls: Signal<Out, Bits<32>>,
    pub count_structural_stalls: Signal<Out, Bits<32>>,
    pub count_divergent: Signal<Out, Bits<32>>,
    pub count_barrier_waits: Signal<Out, Bits<32>>,
    /// The core's error flags (see
    /// [`SimtCoreModel::error_bits`](crate::hw::SimtCoreModel::error_bits)).
    pub errors: Signal<Out, Bits<ERROR_FLAGS>>,
    launching: DFF<Bit>,
    launched: DFF<Bits<LW>>,
    running_q: DFF<Bit>,
    depth: [DFF<Bits<SPW>>; W],
    high: DFF<Bits<SPW>>,
    cycles_q: DFF<Bits<32>>,
    issued_q: DFF<Bits<32>>,
    sb_stalls_q: DFF<Bits<32>>,
    struct_stalls_q: DFF<Bits<32>>,
    divergent_q: DFF<Bits<32>>,
    barrier_waits_q: DFF<Bits<32>>,
    illegal_q: DFF<Bit>,
    warp_count: Constant<Bits<LW>>,
    depth_max: Constant<Bits<SPW>>,
    launch: Signal<Local, Bit>,
    launched_now: Signal<Local, Bit>,
    finished: Signal<Local, Bit>,
    active: Signal<Local, Bit>,
    pushes: Signal<Local, Bit>,
    d_next: Signal<Local, Bits<SPW>>,
    high_next: Signal<Local, Bits<SPW>>,
    flags: Signal<Local, Bits<ERROR_FLAGS>>,
}

impl<const W: usize, const WW: usize, const LW: usize, const D: usize, const SPW: usize> Default
    for RunControl<W, WW, LW, D, SPW>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            cmd_ready: Default::default(),
            drained: Default::default(),
            push_valid: Default::default(),
            push_warp: Default::default(),
            pop: Default::default(),
            end_warp: Default::default(),
            warp: Default::default(),
            fire: Default::default(),
            hazard: Default::default(),
            struct_stall: Default::default(),
            illegal: Default::default(),
            divergent: Default::default(),
            barrier_wait: Default::default(),
            err_stack_overflow: Default::default(),
            err_stack_underflow: Default::default(),
            err_idle: Default::default(),
            err_scoreboard: Default::default(),
            err_ibuf: Default::default(),
            err_collector: Default::default(),
            err_barrier: Default::default(),
            cmd_valid: Default::default(),
            running: Default::default(),
            high_water: Default::default(),
            count_cycles: Default::default(),
            count_issued: Default::default(),
            count_scoreboard_stalls: Default::default(),
            count_structural_stalls: Default::default(),
            count_divergent: Default::default(),
            count_barrier_waits: Default::default(),
            errors: Default::default(),
            launching: Default::default(),
            launched: Default::default(),
            running_q: Default::default(),
            depth: std::array::from_fn(|_| Default::default()),
            high: Default::default(),
            cycles_q: Default::default(),
            issued_q: Default::default(),
            sb_stalls_q: Default::default(),
            struct_stalls_q: Default::default(),
            divergent_q: Default::default(),
            barrier_waits_q: Default::default(),
            illegal_q: Default::default(),
            warp_count: Constant::new(W.to_bits()),
            depth_max: Constant::new(D.to_bits()),
            launch: Default::default(),
            launched_now: Default::default(),
            finished: Default::default(),
            active: Default::default(),
            pushes: Default::default(),
            d_next: Default::default(),
            high_next: Default::default(),
            flags: Default::default(),
        }
    }
}

impl<const W: usize, const WW: usize, const LW: usize, const D: usize, const SPW: usize> Logic
    for RunControl<W, WW, LW, D, SPW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            launching,
            launched,
            running_q,
            high,
            cycles_q,
            issued_q,
            sb_stalls_q,
            struct_stalls_q,
            divergent_q,
            barrier_waits_q,
            illegal_q
        );
        // Launch
        self.launch.next = self.launching.q.val() | (self.start.val() & !self.running_q.q.val());
        self.cmd_valid.next = self.launch.val();
        self.launched_now.next = self.launch.val() & self.cmd_ready.val();

        // Stack depths and their high-water mark
        self.high_next.next = self.high.q.val();
        for w in 0..W {
            self.depth[w].clock.next = self.clock.val();
            self.pushes.next = self.push_valid.val() & (self.push_warp.val().index() == w);
            self.d_next.next = self.depth[w].q.val();
            if self.pushes.val()
                & !(self.pop.val() & (self.warp.val().index() == w))
                & (self.depth[w].q.val() != self.depth_max.val())
            {
                self.d_next.next = self.depth[w].q.val() + 1;
            }
            if !self.pushes.val()
                & self.pop.val()
                & (self.warp.val().index() == w)
                & self.depth[w].q.val().any()
            {
                self.d_next.next = self.depth[w].q.val() - 1;
            }
            if self.end_warp.val() & (self.warp.val().index() == w) {
                self.d_next.next = 0.into();
            }
            // The mark follows the depths a cycle late, off the issue path (a pop at issue sets
            // `d_next`).
            if self.depth[w].q.val() > self.high_next.val() {
                self.high_next.next = self.depth[w].q.val();
            }
            self.depth[w].d.next = self.d_next.val();
            if self.reset.val() {
                self.depth[w].d.next = 0.into();
            }
        }
        self.high.d.next = self.high_next.val();

        // Running and counters
        self.finished.next = self.running_q.q.val() & !self.launching.q.val() & self.drained.val();
        self.active.next =
            (self.running_q.q.val() & !self.finished.val()) | self.launched_now.val();
        self.running_q.d.next = self.active.val();
        if self.launched_now.val() {
            if self.running_q.q.val() {
                self.launched.d.next = self.launched.q.val() + 1;
                self.launching.d.next = (self.launched.q.val() + 1) < self.warp_count.val();
            } else {
                self.launched.d.next = 1.into();
                self.launching.d.next = self.warp_count.val() > 1;
            }
        }
        if self.active.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
            if self.fire.val() {
                self.issued_q.d.next = self.issued_q.q.val() + 1;
            }
            if self.hazard.val() {
                self.sb_stalls_q.d.next = self.sb_stalls_q.q.val() + 1;
            }
            if self.struct_stall.val() {
                self.struct_stalls_q.d.next = self.struct_stalls_q.q.val() + 1;
            }
            if self.barrier_wait.val() {
                self.barrier_waits_q.d.next = self.barrier_waits_q.q.val() + 1;
            }
        }
        if self.divergent.val() {
            self.divergent_q.d.next = self.divergent_q.q.val() + 1;
        }
        if self.illegal.val() {
            self.illegal_q.d.next = true;
        }
        self.running.next = self.running_q.q.val();
        self.high_water.next = self.high.q.val();
        self.count_cycles.next = self.cycles_q.q.val();
        self.count_issued.next = self.issued_q.q.val();
        self.count_scoreboard_stalls.next = self.sb_stalls_q.q.val();
        self.count_structural_stalls.next = self.struct_stalls_q.q.val();
        self.count_divergent.next = self.divergent_q.q.val();
        self.count_barrier_waits.next = self.barrier_waits_q.q.val();
        self.flags.next = 0.into();
        self.flags.next = self.flags.val().replace_bit(0, self.err_stack_overflow.val());
        self.flags.next = self.flags.val().replace_bit(1, self.err_stack_underflow.val());
        self.flags.next = self.flags.val().replace_bit(2, self.err_idle.val());
        self.flags.next = self.flags.val().replace_bit(3, self.err_scoreboard.val());
        self.flags.next = self.flags.val().replace_bit(4, self.err_ibuf.val());
        self.flags.next = self.flags.val().replace_bit(5, self.illegal_q.q.val());
        self.flags.next = self.flags.val().replace_bit(6, self.err_collector.val());
        self.flags.next = self.flags.val().replace_bit(7, self.err_barrier.val());
        self.errors.next = self.flags.val();
        if self.reset.val() {
            self.launching.d.next = false;
            self.launched.d.next = 0.into();
            self.running_q.d.next = false;
            self.high.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.issued_q.d.next = 0.into();
            self.sb_stalls_q.d.next = 0.into();
            self.struct_stalls_q.d.next = 0.into();
            self.divergent_q.d.next = 0.into();
            self.barrier_waits_q.d.next = 0.into();
            self.illegal_q.d.next = false;
        }
    }
}
