//! Reference model of [`SimtStack`](crate::hw::SimtStack).

use crate::params::EmptyTop;
use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct StackIn { reset, push, pop, clear, push_mask, push_pc }
}
port_struct! {
    /// Outputs, in port order.
    pub struct StackOut { top_mask, top_pc, empty, full, occupancy, overflow, underflow }
}

/// One stack entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The lane mask.
    pub mask: u64,
    /// The pc.
    pub pc: u64,
}

/// A stack of `depth` entries. Slots keep their contents when popped; the top of an empty stack
/// reads slot 0 (as the seed's does) or zero, as `empty_top` says.
#[derive(Clone, Debug)]
pub struct SimtStackModel {
    /// The entries, slot 0 at the bottom.
    pub slots: Vec<Entry>,
    /// The stack pointer: entries held.
    pub sp: usize,
    /// Sticky: a push found the stack full.
    pub overflow: bool,
    /// Sticky: a pop found it empty.
    pub underflow: bool,
    /// What the top of an empty stack reads.
    pub empty_top: EmptyTop,
}

impl SimtStackModel {
    /// The seed's behaviour: an empty stack's top reads slot 0.
    pub fn new(depth: usize) -> Self {
        Self::with_empty_top(depth, EmptyTop::SlotZero)
    }
    /// An empty stack of `depth` entries whose top reads as `empty_top` says when it is empty.
    pub fn with_empty_top(depth: usize, empty_top: EmptyTop) -> Self {
        SimtStackModel {
            slots: vec![Entry::default(); depth],
            sp: 0,
            overflow: false,
            underflow: false,
            empty_top,
        }
    }
    /// Its entries.
    pub fn depth(&self) -> usize {
        self.slots.len()
    }
    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.sp == 0
    }
    /// Whether every entry is taken.
    pub fn is_full(&self) -> bool {
        self.sp == self.depth()
    }
    /// The top entry; when empty, slot 0 or zero (`empty_top`).
    pub fn top(&self) -> Entry {
        match (self.sp, self.empty_top) {
            (0, EmptyTop::Zero) => Entry::default(),
            (sp, _) => self.slots[sp.saturating_sub(1)],
        }
    }
    /// One clock edge. Reset, then clear, win; a push with a pop is a pop followed by a push.
    pub fn step_with(&mut self, reset: bool, push: bool, pop: bool, clear: bool, entry: Entry) {
        if reset {
            self.sp = 0;
            self.overflow = false;
            self.underflow = false;
            return;
        }
        if clear {
            self.sp = 0;
            return;
        }
        if pop {
            if self.is_empty() {
                self.underflow = true;
            } else {
                self.sp -= 1;
            }
        }
        if push {
            if self.is_full() {
                self.overflow = true;
            } else {
                self.slots[self.sp] = entry;
                self.sp += 1;
            }
        }
    }
    /// The outputs in this state.
    pub fn outputs_now(&self) -> StackOut {
        let top = self.top();
        StackOut {
            top_mask: top.mask,
            top_pc: top.pc,
            empty: self.is_empty() as u64,
            full: self.is_full() as u64,
            occupancy: self.sp as u64,
            overflow: self.overflow as u64,
            underflow: self.underflow as u64,
        }
    }
}

impl CycleModel for SimtStackModel {
    fn ports(&self) -> PortNames {
        PortNames::of::<StackIn, StackOut>()
    }
    fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
        self.outputs_now().to_words()
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = StackIn::from_words(inputs);
        let entry = Entry { mask: i.push_mask, pc: i.push_pc };
        self.step_with(i.reset == 1, i.push == 1, i.pop == 1, i.clear == 1, entry);
    }
}
