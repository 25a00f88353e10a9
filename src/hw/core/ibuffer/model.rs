//! Reference model of [`IBuffer`](crate::hw::IBuffer): GPGPU-Sim's per-warp I-buffer
//! (seed 001) as a queue of at most two `(instruction, pc)` per warp; and, built
//! [`registered`](IBufferModel::registered), of [`IBufferRam`](crate::hw::IBufferRam), whose
//! head shows a cycle later.

use std::collections::VecDeque;

use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

/// Slots per warp.
pub const SLOTS: usize = 2;

port_struct! {
    /// Inputs, in port order.
    pub struct IBufferIn { reset, fill_valid, fill_warp, fill_inst, fill_pc, head_warp, issue_warp, issue_valid, flush_valid, flush_warp }
}

port_struct! {
    /// Outputs, in port order.
    pub struct IBufferOut { space, head_valid, head_inst, head_pc, err_fill_full, err_issue_empty }
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct IBufferModel {
    /// Per warp: its `(instruction, pc)` pairs, the oldest first.
    pub buffers: Vec<VecDeque<(u64, u64)>>,
    /// Sticky: a fill found its warp's buffer full.
    pub fill_full: bool,
    /// Sticky: an issue found its warp's buffer empty.
    pub issue_empty: bool,
    /// `IBufferRam`'s head: what `IBuffer`'s showed before the last edge (`None`: the head
    /// shows at once, as `IBuffer`'s).
    shown: Option<(u64, u64)>,
}

impl IBufferModel {
    /// The model of `warps` empty I-buffers.
    pub fn new(warps: usize) -> Self {
        IBufferModel {
            buffers: vec![VecDeque::new(); warps],
            fill_full: false,
            issue_empty: false,
            shown: None,
        }
    }
    /// The model of `IBufferRam`: the head shows, after an edge, what `IBuffer`'s showed before
    /// it (the oldest instruction of the warp named, 0 when it had none).
    pub fn registered(warps: usize) -> Self {
        IBufferModel { shown: Some((0, 0)), ..Self::new(warps) }
    }
}

impl CycleModel for IBufferModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<IBufferIn, IBufferOut>()
    }
    #[allow(clippy::type_complexity)] // one closure over a warp's buffer, used three times
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = IBufferIn::from_words(inputs);
        let bits = |pred: &dyn Fn(&VecDeque<(u64, u64)>) -> bool| {
            self.buffers.iter().enumerate().filter(|(_, b)| pred(b)).fold(0, |m, (w, _)| m | 1 << w)
        };
        let (head_inst, head_pc) = self.shown.unwrap_or_else(|| {
            self.buffers[i.head_warp as usize].front().copied().unwrap_or_default()
        });
        IBufferOut {
            space: bits(&|b| b.len() < SLOTS),
            head_valid: bits(&|b| !b.is_empty()),
            head_inst,
            head_pc,
            err_fill_full: self.fill_full as u64,
            err_issue_empty: self.issue_empty as u64,
        }
        .to_words()
    }

    fn step(&mut self, inputs: &[u64]) {
        let i = IBufferIn::from_words(inputs);
        if self.shown.is_some() {
            let head = self.buffers[i.head_warp as usize].front().copied().unwrap_or_default();
            self.shown = Some(head);
        }
        if i.reset == 1 {
            let shown = self.shown;
            *self = IBufferModel { shown, ..IBufferModel::new(self.buffers.len()) };
            return;
        }
        if i.issue_valid == 1 && self.buffers[i.issue_warp as usize].pop_front().is_none() {
            self.issue_empty = true;
        }
        if i.fill_valid == 1 {
            let b = &mut self.buffers[i.fill_warp as usize];
            if b.len() == SLOTS {
                self.fill_full = true;
            } else {
                b.push_back((i.fill_inst, i.fill_pc));
            }
        }
        if i.flush_valid == 1 {
            self.buffers[i.flush_warp as usize].clear();
        }
    }
}
