//! Reference model of [`SimtStackRam`](crate::hw::SimtStackRam): `W` independent
//! [`SimtStackModel`]s (the storage in block RAM must not change what a stack does), and the
//! top of the stack that `top_wid` names, then every warp's top (`tops_mask`, `tops_pc`) and the
//! stacks empty after the edge (`empty_next`). With [`TopStorage::Ram`] the top shown is the one
//! `top_wid` named a cycle ago, as it is now, and every warp's top reads zero.

use crate::hw::scheduler::simt_stack::model::{Entry, SimtStackModel};
use crate::params::{EmptyTop, TopStorage};
use crate::port_struct;
use crate::sim::{CycleModel, PortNames, PortStruct};

port_struct! {
    /// Inputs, in port order.
    pub struct StackRamIn { reset, push, push_wid, push_mask, push_pc, pop, pop_wid, clear, top_wid }
}
port_struct! {
    /// Outputs, in port order.
    pub struct StackRamOut { top_mask, top_pc, empty, full, overflow, underflow }
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct SimtStackRamModel {
    /// Each warp's stack.
    pub stacks: Vec<SimtStackModel>,
    /// Where the top is held: registers or the RAM.
    pub top_storage: TopStorage,
    /// [`TopStorage::Ram`]: the top shown this cycle (zero at power-up).
    pub shown_top: Entry,
}

impl SimtStackRamModel {
    /// The model of `warps` empty stacks of `depth` entries, their empty top and top storage as the mode gives them.
    pub fn new(warps: usize, depth: usize, empty_top: EmptyTop, top_storage: TopStorage) -> Self {
        SimtStackRamModel {
            stacks: vec![SimtStackModel::with_empty_top(depth, empty_top); warps],
            top_storage,
            shown_top: Entry::default(),
        }
    }
    /// One bit per warp of `f`.
    fn bits(&self, f: impl Fn(&SimtStackModel) -> bool) -> u64 {
        self.stacks.iter().enumerate().map(|(w, s)| (f(s) as u64) << w).sum()
    }
}

impl CycleModel for SimtStackRamModel {
    fn ports(&self) -> PortNames {
        let w = self.stacks.len();
        PortNames::of::<StackRamIn, StackRamOut>()
            .output_array("tops_mask", w)
            .output_array("tops_pc", w)
            .outputs(&["empty_next"])
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let top = match self.top_storage {
            TopStorage::Registers => {
                self.stacks[StackRamIn::from_words(inputs).top_wid as usize].top()
            }
            TopStorage::Ram => self.shown_top,
        };
        let in_registers = self.top_storage == TopStorage::Registers;
        let mut words = StackRamOut {
            top_mask: top.mask,
            top_pc: top.pc,
            empty: self.bits(SimtStackModel::is_empty),
            full: self.bits(SimtStackModel::is_full),
            overflow: self.bits(|s| s.overflow),
            underflow: self.bits(|s| s.underflow),
        }
        .to_words();
        words.extend(self.stacks.iter().map(|s| if in_registers { s.top().mask } else { 0 }));
        words.extend(self.stacks.iter().map(|s| if in_registers { s.top().pc } else { 0 }));
        let mut after = self.clone();
        after.step(inputs);
        words.push(after.bits(SimtStackModel::is_empty));
        words
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = StackRamIn::from_words(inputs);
        let entry = Entry { mask: i.push_mask, pc: i.push_pc };
        for (w, s) in self.stacks.iter_mut().enumerate() {
            let bit = |v: u64| (v >> w) & 1 == 1;
            s.step_with(i.reset == 1, bit(i.push), bit(i.pop), bit(i.clear), entry);
        }
        self.shown_top = self.stacks[i.top_wid as usize].top();
    }
}
