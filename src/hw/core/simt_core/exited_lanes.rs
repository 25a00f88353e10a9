//! ExitedLanes: each warp's lanes that ran `exit`, kept by the [`WarpAction`](super::WarpAction)
//! so that no mask a pop restores brings them back; cleared when the warp ends, and by reset.

use rust_hdl::prelude::*;

/// `W` warps (`WW` bits), `T` lanes.
#[derive(LogicBlock)]
pub struct ExitedLanes<const W: usize, const WW: usize, const T: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// An `exit` issues for the active lanes `mask` of warp `warp`; with `whole_warp` the warp
    /// ends (its stack is empty), which clears its lanes instead.
    pub exit_valid: Signal<In, Bit>,
    pub whole_warp: Signal<In, Bit>,
    pub warp: Signal<In, Bits<WW>>,
    pub mask: Signal<In, Bits<T>>,
    /// Each warp's exited lanes.
    pub lanes: [Signal<Out, Bits<T>>; W],
    exited: [DFF<Bits<T>>; W],
}

impl<const W: usize, const WW: usize, const T: usize> Default for ExitedLanes<W, WW, T> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            exit_valid: Default::default(),
            whole_warp: Default::default(),
            warp: Default::default(),
            mask: Default::default(),
            lanes: std::array::from_fn(|_| Default::default()),
            exited: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const W: usize, const WW: usize, const T: usize> Logic for ExitedLanes<W, WW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        for w in 0..W {
            self.exited[w].clock.next = self.clock.val();
            self.exited[w].d.next = self.exited[w].q.val();
            if self.exit_valid.val() & (self.warp.val().index() == w) {
                if self.whole_warp.val() {
                    self.exited[w].d.next = 0.into();
                } else {
                    self.exited[w].d.next = self.exited[w].q.val() | self.mask.val();
                }
            }
            if self.reset.val() {
                self.exited[w].d.next = 0.into();
            }
            self.lanes[w].next = self.exited[w].q.val();
        }
    }
}
