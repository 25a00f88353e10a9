//! A front end at sizes of your own, in your own rust-hdl top: a 16-warp scheduler feeding an
//! 8-bank, 4-unit operand collector. The top is simulated against a model composed of the
//! crate's own models of the two blocks, every output compared on every cycle with the crate's
//! harness, and exported to Verilog.
//!
//! `cargo run --example front_end [OUT_DIR]` writes `OUT_DIR/front_end.v` (default
//! `target/examples/front_end`); the test command runs it as a test.

use anyhow::{bail, Context, Result};
use rust_hdl::prelude::*;
use simt_rtl::hw::collector::operand_collector::model::{Inst, OcInputs, WriteBack};
use simt_rtl::hw::scheduler::warp_scheduler::model::{SchedIn, SchedOut};
use simt_rtl::hw::{OperandCollectorModel, WarpSchedulerModel};
use simt_rtl::params::{
    CollectorParams, CollectorTiming, FetchPolicy, SchedulerMode, SchedulerParams, Sizes, CU,
};
use simt_rtl::sim::wide::Lanes;
use simt_rtl::sim::{CycleModel, PortNames, PortStruct, Rng};

/// 16 warps of 8 lanes; 8 banks, 4 collector units, one input port, 4-bit lanes (a register of
/// 32 bits).
const SCHEDULER: SchedulerParams = SchedulerParams { warps: 16, ..CU.scheduler };
const COLLECTOR: CollectorParams = CollectorParams {
    banks: 8,
    collector_units: 4,
    in_ports: 1,
    timing: CollectorTiming::GpgpuSim,
    ..CU.collector
};
const SIZES: Sizes = Sizes::new(SCHEDULER, COLLECTOR, 16);
const MODE: SchedulerMode = SchedulerMode::Fixed(FetchPolicy::RoundRobin);

type Scheduler = simt_rtl::sized_warp_scheduler!(SIZES);
type Collector = simt_rtl::sized_operand_collector!(SIZES);

/// The scheduler's fetched instruction goes into the collector's input port; its fields are
/// made up from the pc (tag: pc bits 7..0, unit: bit 0, destination: bits 5..2, sources:
/// bits 7..4, 8..5 and 9..6, two of them registers). Warps are launched and ended from outside,
/// and the collector's outputs and write-back port are the top's.
#[derive(LogicBlock)]
pub struct FrontEnd {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub launch_valid: Signal<In, Bit>,
    pub launch_pc: Signal<In, Bits<{ SIZES.A }>>,
    pub launch_mask: Signal<In, Bits<{ SIZES.T }>>,
    pub end_valid: Signal<In, Bit>,
    pub end_warp: Signal<In, Bits<{ SIZES.WW }>>,
    pub out_ready: [Signal<In, Bit>; SIZES.U],
    pub wb_valid: Signal<In, Bit>,
    pub wb_warp: Signal<In, Bits<{ SIZES.WW }>>,
    pub wb_reg: Signal<In, Bits<{ SIZES.RRW }>>,
    pub wb_mask: Signal<In, Bits<{ SIZES.T }>>,
    pub wb_data: Signal<In, Bits<{ SIZES.TD }>>,
    pub launch_ready: Signal<Out, Bit>,
    pub idle_mask: Signal<Out, Bits<{ SIZES.W }>>,
    pub fetch_valid: Signal<Out, Bit>,
    pub fetch_warp: Signal<Out, Bits<{ SIZES.WW }>>,
    pub out_valid: [Signal<Out, Bit>; SIZES.U],
    pub out_warp: [Signal<Out, Bits<{ SIZES.WW }>>; SIZES.U],
    pub out_tag: [Signal<Out, Bits<{ SIZES.G }>>; SIZES.U],
    pub out_src0: [Signal<Out, Bits<{ SIZES.TD }>>; SIZES.U],
    sched: Scheduler,
    collector: Collector,
}

impl FrontEnd {
    fn new() -> Result<Self> {
        Ok(FrontEnd {
            clock: Default::default(),
            reset: Default::default(),
            launch_valid: Default::default(),
            launch_pc: Default::default(),
            launch_mask: Default::default(),
            end_valid: Default::default(),
            end_warp: Default::default(),
            out_ready: Default::default(),
            wb_valid: Default::default(),
            wb_warp: Default::default(),
            wb_reg: Default::default(),
            wb_mask: Default::default(),
            wb_data: Default::default(),
            launch_ready: Default::default(),
            idle_mask: Default::default(),
            fetch_valid: Default::default(),
            fetch_warp: Default::default(),
            out_valid: Default::default(),
            out_warp: Default::default(),
            out_tag: Default::default(),
            out_src0: Default::default(),
            sched: Scheduler::new(MODE)?,
            collector: Collector::new(COLLECTOR, SCHEDULER.warps, SCHEDULER.threads)?,
        })
    }
}

impl Logic for FrontEnd {
    #[hdl_gen]
    fn update(&mut self) {
        self.sched.clock.next = self.clock.val();
        self.collector.clock.next = self.clock.val();
        self.sched.reset.next = self.reset.val();
        self.collector.reset.next = self.reset.val();
        // Warps in and out.
        self.sched.warp_cmd_valid.next = self.launch_valid.val();
        self.sched.warp_cmd_pc.next = self.launch_pc.val();
        self.sched.warp_cmd_mask.next = self.launch_mask.val();
        self.launch_ready.next = self.sched.warp_cmd_ready.val();
        self.sched.end_ctl_valid.next = self.end_valid.val();
        self.sched.end_ctl_wid.next = self.end_warp.val();
        self.idle_mask.next = self.sched.idle_mask.val();
        // Unused controls held off.
        self.sched.warp_ctl_valid.next = false;
        self.sched.warp_ctl_wid.next = 0.into();
        self.sched.warp_ctl_active.next = false;
        self.sched.branch_ctl_valid.next = false;
        self.sched.branch_ctl_wid.next = 0.into();
        self.sched.branch_ctl_mask.next = 0.into();
        self.sched.branch_ctl_pc.next = 0.into();
        self.sched.warp_pop_valid.next = false;
        self.sched.warp_pop_wid.next = 0.into();
        self.sched.warp_set_valid.next = false;
        self.sched.warp_set_wid.next = 0.into();
        self.sched.warp_set_pc.next = 0.into();
        self.sched.warp_set_mask.next = 0.into();
        // Fetch into the collector's input port, under its ready.
        self.fetch_valid.next = self.sched.inst_fetch_valid.val();
        self.fetch_warp.next = self.sched.inst_fetch_wid.val();
        self.collector.in_valid[0].next = self.sched.inst_fetch_valid.val();
        self.collector.in_warp[0].next = self.sched.inst_fetch_wid.val();
        self.collector.in_mask[0].next = self.sched.inst_fetch_mask.val();
        self.collector.in_tag[0].next = bit_cast::<8, 16>(self.sched.inst_fetch_pc.val());
        self.collector.in_unit[0].next = bit_cast::<1, 16>(self.sched.inst_fetch_pc.val());
        self.collector.in_dst[0].next = bit_cast::<4, 16>(self.sched.inst_fetch_pc.val() >> 2);
        self.collector.in_src_valid[0].next = 3.into();
        self.collector.in_src[0].next = bit_cast::<4, 16>(self.sched.inst_fetch_pc.val() >> 4);
        self.collector.in_src[1].next = bit_cast::<4, 16>(self.sched.inst_fetch_pc.val() >> 5);
        self.collector.in_src[2].next = bit_cast::<4, 16>(self.sched.inst_fetch_pc.val() >> 6);
        self.sched.inst_fetch_ready.next = self.collector.in_ready[0].val();
        // Write-back and the collector's outputs.
        self.collector.wb_valid.next = self.wb_valid.val();
        self.collector.wb_warp.next = self.wb_warp.val();
        self.collector.wb_reg.next = self.wb_reg.val();
        self.collector.wb_mask.next = self.wb_mask.val();
        self.collector.wb_data.next = self.wb_data.val();
        for u in 0..2 {
            self.collector.out_ready[u].next = self.out_ready[u].val();
            self.out_valid[u].next = self.collector.out_valid[u].val();
            self.out_warp[u].next = self.collector.out_warp[u].val();
            self.out_tag[u].next = self.collector.out_tag[u].val();
            self.out_src0[u].next = self.collector.out_src0[u].val();
        }
    }
}

impl simt_rtl::sim::Dut for FrontEnd {
    simt_rtl::dut_ports!(
        clock: clock,
        inputs: [reset, launch_valid, launch_pc, launch_mask, end_valid, end_warp, out_ready,
            wb_valid, wb_warp, wb_reg, wb_mask, wb_data],
        outputs: [launch_ready, idle_mask, fetch_valid, fetch_warp, out_valid, out_warp, out_tag,
            out_src0]
    );
}

/// The top's model: the crate's scheduler and collector models, joined by the same wiring.
struct FrontEndModel {
    sched: WarpSchedulerModel,
    collector: OperandCollectorModel,
}

/// One cycle of the joined models: the scheduler's and the collector's inputs.
struct Joined {
    sched: SchedIn,
    collector: OcInputs,
}

impl FrontEndModel {
    fn new() -> Self {
        FrontEndModel {
            sched: WarpSchedulerModel::new(SCHEDULER, MODE),
            collector: OperandCollectorModel::new(COLLECTOR, SCHEDULER.warps, SCHEDULER.threads),
        }
    }

    /// The fetched instruction as the wiring makes it from the pc.
    fn instruction(fetch: &SchedOut) -> Inst {
        let pc = fetch.inst_fetch_pc;
        Inst {
            warp: fetch.inst_fetch_wid as usize,
            unit: (pc & 1) as usize,
            tag: pc & 0xff,
            dst: (pc >> 2 & 0xf) as usize,
            mask: fetch.inst_fetch_mask,
            src_valid: 3,
            src: [4, 5, 6].map(|shift| (pc >> shift & 0xf) as usize),
        }
    }

    /// The blocks' inputs for the top's `w`: the collector's ready closes the loop, and the
    /// scheduler's fetch outputs must not depend on it (they do not in the hardware either).
    fn join(&self, w: &[u64]) -> Joined {
        let mut sched = SchedIn {
            reset: w[0],
            warp_cmd_valid: w[1],
            warp_cmd_pc: w[2],
            warp_cmd_mask: w[3],
            end_ctl_valid: w[4],
            end_ctl_wid: w[5],
            ..Default::default()
        };
        let fetch = self.sched.outputs_for(&sched);
        let collector = OcInputs {
            reset: w[0] == 1,
            ports: vec![(fetch.inst_fetch_valid == 1, Self::instruction(&fetch))],
            out_ready: vec![w[6] == 1, w[7] == 1],
            wb: (w[8] == 1).then_some(WriteBack {
                warp: w[9] as usize,
                reg: w[10] as usize,
                mask: w[11],
                data: Lanes::from_words(&w[12..13], SCHEDULER.threads, COLLECTOR.lane_bits),
            }),
        };
        let collector_out = self.collector.outputs(&self.collector.encode(&collector));
        sched.inst_fetch_ready = collector_out[0];
        Joined { sched, collector }
    }
}

impl CycleModel for FrontEndModel {
    fn ports(&self) -> PortNames {
        PortNames::default()
            .inputs(&["reset", "launch_valid", "launch_pc", "launch_mask", "end_valid"])
            .inputs(&["end_warp"])
            .input_array("out_ready", 2)
            .inputs(&["wb_valid", "wb_warp", "wb_reg", "wb_mask", "wb_data"])
            .outputs(&["launch_ready", "idle_mask", "fetch_valid", "fetch_warp"])
            .output_array("out_valid", 2)
            .output_array("out_warp", 2)
            .output_array("out_tag", 2)
            .output_array("out_src0", 2)
    }

    fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
        let j = self.join(inputs);
        let s = self.sched.outputs_for(&j.sched);
        let c = self.collector.outputs(&self.collector.encode(&j.collector));
        // The collector's outputs: in_ready, in_cu (one each), then two each of out_valid (k = 0),
        // out_warp (1), out_tag (2), out_dst, out_mask, out_src_valid and out_src0 (6).
        let column = |k: usize| [c[2 + 2 * k], c[3 + 2 * k]];
        let mut w = vec![s.warp_cmd_ready, s.idle_mask, s.inst_fetch_valid, s.inst_fetch_wid];
        for k in [0, 1, 2, 6] {
            w.extend(column(k));
        }
        w
    }

    fn step(&mut self, inputs: &[u64]) {
        let j = self.join(inputs);
        let collector = self.collector.encode(&j.collector);
        self.sched.step(&j.sched.to_words());
        self.collector.step(&collector);
    }
}

/// Random traffic: warps launched and ended, outputs taken, registers written back.
fn stimulus(rng: &mut Rng, _: &FrontEndModel, cycle: usize) -> Vec<u64> {
    vec![
        (cycle == 0) as u64,
        rng.chance(30) as u64,
        rng.bits(SIZES.A) & !3,
        rng.bits(SIZES.T) | 1,
        rng.chance(4) as u64,
        rng.bits(SIZES.WW),
        rng.chance(70) as u64,
        rng.chance(70) as u64,
        rng.chance(25) as u64,
        rng.bits(SIZES.WW),
        rng.bits(SIZES.RRW),
        rng.bits(SIZES.T),
        rng.bits(SIZES.TD),
    ]
}

const HEADER: &str =
    "// front_end: a scheduler feeding an operand collector (examples/front_end.rs)\n";

/// Simulates the top against the joined models for `cycles` cycles and writes its Verilog into
/// `out`; returns the file and how many instructions left the collector.
fn run(out: &std::path::Path, cycles: usize) -> Result<(std::path::PathBuf, u64)> {
    let mut model = FrontEndModel::new();
    let rec = simt_rtl::sim::run_differential(
        "front_end",
        || FrontEnd::new().expect("the sizes were checked when the example was built"),
        &mut model,
        0xF0E1_2026,
        cycles,
        stimulus,
    )?;
    let left: u64 = ["out_valid$0", "out_valid$1"]
        .iter()
        .map(|port| rec.output(port).map(|v| v.iter().sum::<u64>()))
        .sum::<Result<u64>>()?;
    if left == 0 {
        bail!("no instruction left the collector in {cycles} cycles");
    }
    let mut top = FrontEnd::new()?;
    top.connect_all();
    let verilog = simt_rtl::export::export_module(&top, "front_end", HEADER)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let file = out.join("front_end.v");
    simt_rtl::sim::write_whole(&file, verilog)?;
    Ok((file, left))
}

#[cfg_attr(test, allow(dead_code))]
fn main() -> Result<()> {
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| "target/examples/front_end".into(), std::path::PathBuf::from);
    let (file, left) = run(&out, 20_000)?;
    println!("front_end: 20000 cycles equal to the joined models, {left} instructions collected");
    println!("front_end: wrote {}", file.display());
    Ok(())
}

#[test]
fn the_front_end_equals_its_models_and_exports() {
    let out = std::env::temp_dir().join(format!("simt-rtl-front-end-{}", std::process::id()));
    let (file, _) = run(&out, 20_000).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("module front_end("), "{}", &text[..200.min(text.len())]);
    let _ = std::fs::remove_dir_all(&out);
}
