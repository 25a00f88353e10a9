//! Reference model of [`OperandCollector`](crate::hw::OperandCollector): GPGPU-Sim's
//! `opndcoll_rfu_t::step()` (seed 000) line for line: `dispatch_ready_cu` (each dispatch unit's
//! `find_ready` over its own set, `m_last_cu` local to the set), `allocate_reads` (the
//! [`BankArbiterModel`]), `allocate_cu` per input port (first free unit of the port's set),
//! `add_read_requests`, with the register values of a plain register file. With
//! [`CollectorTiming::Pipelined`] a unit freed by dispatch is free from the next cycle.

use crate::hw::collector::bank_arbiter::model::{ArbiterInputs, BankArbiterModel, Op};
use crate::hw::collector::register_file::model::{RegisterFileModel, RowWrite};
use crate::hw::collector::register_map::model::RegisterMapModel;
use crate::params::{CollectorParams, CollectorTiming};
use crate::sim::wide::{word_count, Lanes};
use crate::sim::{CycleModel, PortNames};

/// An instruction as it enters the collector (`warp_inst_t` as far as the collector looks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inst {
    /// The issuing warp.
    pub warp: usize,
    /// The unit type it goes to (its output register).
    pub unit: usize,
    /// Its tag (the instruction word in the core).
    pub tag: u64,
    /// Its destination register.
    pub dst: usize,
    /// Its active lanes.
    pub mask: u64,
    /// Bit `s`: source operand `s` is a register.
    pub src_valid: u8,
    /// Its source registers, by slot.
    pub src: [usize; 3],
}

/// A write-back: lanes `mask` of warp `warp`'s register `reg`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteBack {
    /// The warp.
    pub warp: usize,
    /// The register.
    pub reg: usize,
    /// The lanes written.
    pub mask: u64,
    /// Each lane's value.
    pub data: Lanes,
}

/// One cycle's inputs, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OcInputs {
    /// Reset this cycle.
    pub reset: bool,
    /// Input port `p`'s fields, and whether it is valid.
    pub ports: Vec<(bool, Inst)>,
    /// Per output register: the execution unit takes it at this edge.
    pub out_ready: Vec<bool>,
    /// This cycle's write-back, if any.
    pub wb: Option<WriteBack>,
}

/// An output register (OC_EX): the instruction with its operand values; keeps its contents
/// when emptied, as the hardware's register does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutReg {
    /// It holds an instruction.
    pub valid: bool,
    /// The instruction.
    pub inst: Inst,
    /// Its operand values, by slot.
    pub ops: [Lanes; 3],
}

#[derive(Clone, Copy, Debug, Default)]
struct CollectorUnit {
    free: bool,
    inst: Inst,
    /// `m_not_ready`.
    not_ready: u8,
    /// Units holding older instructions of the same warp.
    older: u64,
    ops: [Lanes; 3],
}

/// What one cycle decides, before the clock edge.
#[derive(Clone, Debug, Default)]
pub struct Decisions {
    /// `(collector unit, output port)` dispatched, in dispatch-unit order.
    pub dispatched: Vec<(usize, usize)>,
    /// The dispatch pointers after this cycle.
    pub last: Vec<usize>,
    /// Per bank: the read it grants this cycle.
    pub grants: Vec<Option<Op>>,
    /// Per input port: a collector unit is free for it.
    pub in_ready: Vec<bool>,
    /// Per input port: the collector unit its instruction goes to.
    pub in_cu: Vec<usize>,
    /// `(port, unit)` allocated.
    pub allocated: Vec<(usize, usize)>,
    /// An offered instruction found no free collector unit.
    pub stall: bool,
    /// An offered instruction named a unit type the collector lacks.
    pub bad_unit: bool,
    /// An offered instruction named a register in a slot at or above `sources`.
    pub bad_source: bool,
}

#[derive(Clone, Debug)]
/// The cycle-level reference model of this folder's block (the module's header says what it follows).
pub struct OperandCollectorModel {
    /// The collector's sizes and timing.
    pub params: CollectorParams,
    /// Warps.
    pub warps: usize,
    /// Lanes per warp.
    pub threads: usize,
    map: RegisterMapModel,
    cus: Vec<CollectorUnit>,
    /// The collector units of each dispatch unit's set, and of each unit type's set.
    sets: Vec<Vec<usize>>,
    /// Each dispatch unit's `m_last_cu`, an index into its set.
    last: Vec<usize>,
    /// The bank arbiter (GPGPU-Sim's `arbiter_t`).
    pub arbiter: BankArbiterModel,
    /// The register file.
    pub rf: RegisterFileModel,
    /// The output registers, one per unit type.
    pub out: Vec<OutReg>,
    /// Instructions allocated a collector unit since reset.
    pub count_alloc: u32,
    /// Instructions dispatched since reset.
    pub count_dispatch: u32,
    /// Cycles an offered instruction found no free unit.
    pub count_stall: u32,
    /// Reads granted per bank since reset.
    pub count_grant: Vec<u32>,
    /// Sticky: an instruction named a unit type the collector lacks.
    pub err_unit: bool,
    /// Sticky: an instruction named a register in a slot at or above `sources`.
    pub err_source: bool,
}

impl OperandCollectorModel {
    /// The model in its state after reset, at these sizes.
    pub fn new(params: CollectorParams, warps: usize, threads: usize) -> Self {
        let c = params;
        let n = c.collector_units;
        let sets = (0..c.unit_types)
            .map(|u| {
                if c.specialized {
                    (u * n / c.unit_types..(u + 1) * n / c.unit_types).collect()
                } else {
                    (0..n).collect()
                }
            })
            .collect();
        let rows = c.rows_per_bank(warps);
        OperandCollectorModel {
            params,
            warps,
            threads,
            map: RegisterMapModel {
                banks: c.banks,
                regs_per_warp: c.regs_per_warp,
                schedulers: c.schedulers,
            },
            cus: vec![CollectorUnit { free: true, ..Default::default() }; n],
            sets,
            last: vec![0; c.unit_types],
            arbiter: BankArbiterModel::new(
                c.banks,
                n,
                c.push_lanes(),
                c.queue_depth(),
                c.one_bank_per_cu,
            ),
            rf: RegisterFileModel::new(c.banks, rows, threads, c.lane_bits),
            out: vec![OutReg::default(); c.unit_types],
            count_alloc: 0,
            count_dispatch: 0,
            count_stall: 0,
            count_grant: vec![0; c.banks],
            err_unit: false,
            err_source: false,
        }
    }

    /// Where warp `w`'s register `r` lives.
    pub fn locate(&self, w: usize, r: usize) -> (usize, usize) {
        self.map.locate(w, r)
    }

    /// Whether collector unit `c` is busy (holds an instruction).
    pub fn busy(&self, c: usize) -> bool {
        !self.cus[c].free
    }

    /// `collector_unit_t::ready()`, with the output registers as this cycle leaves them so far.
    fn ready(&self, c: usize, out_free: &[bool], freed: &[bool]) -> bool {
        let cu = &self.cus[c];
        !cu.free
            && !freed[c]
            && cu.not_ready == 0
            && (!self.params.in_order_per_warp || cu.older == 0)
            && out_free[cu.inst.unit]
    }

    /// The cycle's decisions, in `step()`'s order.
    pub fn decide(&self, i: &OcInputs) -> Decisions {
        let n = self.params.collector_units;
        let mut d = Decisions { last: self.last.clone(), ..Default::default() };
        // The execution stage runs before the collector: a register it drains is free.
        let mut out_free: Vec<bool> =
            self.out.iter().zip(&i.out_ready).map(|(o, &r)| !o.valid || r).collect();
        // dispatch_ready_cu(): every dispatch unit, in order, find_ready() then dispatch().
        let mut freed = vec![false; n];
        for (du, set) in self.sets.iter().enumerate() {
            for k in 0..set.len() {
                let local = (d.last[du] + k + 1) % set.len();
                let c = set[local];
                if self.ready(c, &out_free, &freed) {
                    d.last[du] = local;
                    freed[c] = true;
                    out_free[self.cus[c].inst.unit] = false;
                    d.dispatched.push((c, self.cus[c].inst.unit));
                    break;
                }
            }
        }
        // allocate_reads()
        d.grants = self.arbiter.grants(i.wb.map(|wb| self.locate(wb.warp, wb.reg).0));
        let mut collected = vec![0u8; n];
        for g in d.grants.iter().flatten() {
            collected[g.cu] |= 1 << g.slot;
        }
        d.stall = self.cus.iter().zip(&collected).any(|(cu, &got)| cu.not_ready & !got != 0);
        // allocate_cu(p) for every input port, in order; pipelined, from the units free before.
        let same_cycle = self.params.timing == CollectorTiming::GpgpuSim;
        let mut free: Vec<bool> =
            self.cus.iter().zip(&freed).map(|(cu, &f)| cu.free || (f && same_cycle)).collect();
        for (p, (valid, inst)) in i.ports.iter().enumerate() {
            let set: &[usize] =
                if inst.unit < self.params.unit_types { &self.sets[inst.unit] } else { &[] };
            d.bad_unit |= *valid && set.is_empty();
            d.bad_source |= *valid && inst.src_valid & !self.params.source_slots() != 0;
            let cu = set.iter().copied().find(|&c| free[c]);
            d.in_ready.push(cu.is_some());
            d.in_cu.push(cu.unwrap_or(0));
            if let (true, Some(c)) = (*valid, cu) {
                free[c] = false;
                d.allocated.push((p, c));
            }
        }
        d
    }

    /// Ports in the block's order (see the block's `Dut` impl).
    pub fn decode(&self, w: &[u64]) -> OcInputs {
        let c = self.params;
        let (p, u) = (c.in_ports, c.unit_types);
        let mut it = w.iter().copied();
        let mut take = |k: usize| -> Vec<u64> {
            (0..k).map(|_| it.next().expect("one word per input port")).collect()
        };
        let reset = take(1)[0] == 1;
        let [valid, warp, unit, tag, dst, mask, src_valid] = std::array::from_fn(|_| take(p));
        let src = take(3 * p);
        let out_ready = take(u).into_iter().map(|r| r == 1).collect();
        let wb = take(4);
        let wb_data = Lanes::from_words(&take(self.data_words()), self.threads, c.lane_bits);
        let ports = (0..p)
            .map(|j| {
                let inst = Inst {
                    warp: warp[j] as usize,
                    unit: unit[j] as usize,
                    tag: tag[j],
                    dst: dst[j] as usize,
                    mask: mask[j],
                    src_valid: src_valid[j] as u8,
                    src: std::array::from_fn(|s| src[3 * j + s] as usize),
                };
                (valid[j] == 1, inst)
            })
            .collect();
        let wb = (wb[0] == 1).then_some(WriteBack {
            warp: wb[1] as usize,
            reg: wb[2] as usize,
            mask: wb[3],
            data: wb_data,
        });
        OcInputs { reset, ports, out_ready, wb }
    }

    /// The inverse of [`decode`](Self::decode).
    pub fn encode(&self, i: &OcInputs) -> Vec<u64> {
        let mut w = vec![i.reset as u64];
        let field = |f: fn(&(bool, Inst)) -> u64| i.ports.iter().map(f).collect::<Vec<_>>();
        w.extend(field(|p| p.0 as u64));
        w.extend(field(|p| p.1.warp as u64));
        w.extend(field(|p| p.1.unit as u64));
        w.extend(field(|p| p.1.tag));
        w.extend(field(|p| p.1.dst as u64));
        w.extend(field(|p| p.1.mask));
        w.extend(field(|p| p.1.src_valid as u64));
        w.extend(i.ports.iter().flat_map(|p| p.1.src.map(|r| r as u64)));
        w.extend(i.out_ready.iter().map(|&r| r as u64));
        let wb = i.wb.unwrap_or_default();
        w.extend([i.wb.is_some() as u64, wb.warp as u64, wb.reg as u64, wb.mask]);
        w.extend(self.words(&wb.data));
        w
    }

    /// Bits of a warp register (every lane).
    pub fn data_bits(&self) -> usize {
        self.threads * self.params.lane_bits
    }

    /// Port words of a warp register.
    pub fn data_words(&self) -> usize {
        word_count(self.data_bits())
    }

    /// A warp register's port words.
    pub fn words(&self, lanes: &Lanes) -> Vec<u64> {
        lanes.to_words(self.threads, self.params.lane_bits)
    }

    /// One clock edge.
    pub fn step_with(&mut self, i: &OcInputs) {
        let d = self.decide(i);
        let wb_at = i.wb.map(|wb| (self.locate(wb.warp, wb.reg), wb));
        for (o, &r) in self.out.iter_mut().zip(&i.out_ready) {
            o.valid &= !r;
        }
        for &(c, u) in &d.dispatched {
            let cu = self.cus[c];
            self.out[u] = OutReg { valid: true, inst: cu.inst, ops: cu.ops };
            self.cus[c].free = true;
            for other in self.cus.iter_mut() {
                other.older &= !(1 << c);
            }
        }
        self.last = d.last.clone();
        for (b, g) in d.grants.iter().enumerate() {
            if let Some(op) = g {
                let cu = &mut self.cus[op.cu];
                cu.ops[op.slot] = self.rf.mem[b][op.row];
                cu.not_ready &= !(1 << op.slot);
                self.count_grant[b] = self.count_grant[b].wrapping_add(1);
            }
        }
        let mut pushes = vec![];
        for &(p, c) in &d.allocated {
            let slots = self.params.source_slots();
            let inst = Inst { src_valid: i.ports[p].1.src_valid & slots, ..i.ports[p].1 };
            let older = (0..self.cus.len())
                .filter(|&o| !self.cus[o].free && self.cus[o].inst.warp == inst.warp)
                .fold(0, |m, o| m | 1 << o);
            self.cus[c] = CollectorUnit {
                free: false,
                inst,
                not_ready: inst.src_valid,
                older,
                ops: [Lanes::default(); 3],
            };
            for s in 0..3 {
                if inst.src_valid >> s & 1 == 1 {
                    let (bank, row) = self.locate(inst.warp, inst.src[s]);
                    pushes.push((bank, Op { cu: c, slot: s, row }));
                }
            }
        }
        self.arbiter.step_with(&ArbiterInputs {
            reset: false,
            pushes,
            write: wb_at.map(|((b, _), _)| b),
        });
        self.count_alloc = self.count_alloc.wrapping_add(d.allocated.len() as u32);
        self.count_dispatch = self.count_dispatch.wrapping_add(d.dispatched.len() as u32);
        self.count_stall = self.count_stall.wrapping_add(d.stall as u32);
        self.err_unit |= d.bad_unit;
        self.err_source |= d.bad_source;
        // The register file has no reset: a write-back lands in any cycle.
        if let Some(((bank, row), wb)) = wb_at {
            let write = RowWrite { bank, row, mask: wb.mask, data: wb.data };
            self.rf.step_with(&[], Some(&write));
        }
        if i.reset {
            // Everything restarts but the register file and the contents of the emptied output
            // registers (the hardware resets only their valid bits).
            let rf = std::mem::replace(&mut self.rf, RegisterFileModel::new(1, 1, 1, 1));
            let out = std::mem::take(&mut self.out);
            *self = Self::new(self.params, self.warps, self.threads);
            self.rf = rf;
            self.out = out.into_iter().map(|o| OutReg { valid: false, ..o }).collect();
        }
    }
}

impl CycleModel for OperandCollectorModel {
    fn ports(&self) -> PortNames {
        let c = self.params;
        let (p, u) = (c.in_ports, c.unit_types);
        let mut names = PortNames::default().inputs(&["reset"]);
        for port in
            ["in_valid", "in_warp", "in_unit", "in_tag", "in_dst", "in_mask", "in_src_valid"]
        {
            names = names.input_array(port, p);
        }
        names = names.input_array("in_src", c.push_lanes()).input_array("out_ready", u);
        names = names.inputs(&["wb_valid", "wb_warp", "wb_reg", "wb_mask"]);
        names = names.input_wide("wb_data", self.data_bits());
        names = names.output_array("in_ready", p).output_array("in_cu", p);
        for port in ["out_valid", "out_warp", "out_tag", "out_dst", "out_mask", "out_src_valid"] {
            names = names.output_array(port, u);
        }
        for port in ["out_src0", "out_src1", "out_src2"] {
            names = names.output_array_wide(port, u, self.data_bits());
        }
        names
            .outputs(&["busy", "grant", "dispatch", "count_alloc", "count_dispatch", "count_stall"])
            .output_array("count_grant", c.banks)
            .outputs(&["err_unit", "err_overflow", "err_source"])
    }
    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let i = self.decode(inputs);
        let d = self.decide(&i);
        let mut w: Vec<u64> = d.in_ready.iter().map(|&r| r as u64).collect();
        w.extend(d.in_cu.iter().map(|&c| c as u64));
        let field = |f: fn(&OutReg) -> u64| self.out.iter().map(f).collect::<Vec<_>>();
        w.extend(field(|o| o.valid as u64));
        w.extend(field(|o| o.inst.warp as u64));
        w.extend(field(|o| o.inst.tag));
        w.extend(field(|o| o.inst.dst as u64));
        w.extend(field(|o| o.inst.mask));
        w.extend(field(|o| o.inst.src_valid as u64));
        for s in 0..3 {
            w.extend(self.out.iter().flat_map(|o| self.words(&o.ops[s])));
        }
        w.push((0..self.cus.len()).filter(|&c| self.busy(c)).fold(0, |m, c| m | 1 << c));
        w.push(
            d.grants
                .iter()
                .enumerate()
                .filter(|(_, g)| g.is_some())
                .fold(0, |m, (b, _)| m | 1 << b),
        );
        w.push(d.dispatched.iter().fold(0, |m, &(c, _)| m | 1 << c));
        w.extend([self.count_alloc, self.count_dispatch, self.count_stall].map(u64::from));
        w.extend(self.count_grant.iter().map(|&g| g as u64));
        w.push(self.err_unit as u64);
        w.push(self.arbiter.overflow as u64);
        w.push(self.err_source as u64);
        w
    }
    fn step(&mut self, inputs: &[u64]) {
        let i = self.decode(inputs);
        self.step_with(&i);
    }
}
