//! `simt-rtl bench`: the operand collector under saturating uniform-random register traffic, in
//! both timings ([`CollectorTiming`]).
//!
//! Every input port offers an instruction every cycle, each with 3 source registers drawn
//! uniformly from all registers of a random warp; execution units always take their output
//! registers; no write-backs. Measured on the reference model, which the random differential
//! tests show to be cycle-exact with the rust-hdl block and the exported Verilog (the model is
//! about 50 times faster than simulating the block). Reads per second multiply reads per cycle
//! by an Fmax that the caller measures (place and route), where one is given.

use crate::hw::collector::operand_collector::model::{Inst, OcInputs};
use crate::hw::OperandCollectorModel;
use crate::params::{CollectorParams, CollectorTiming, CU};
use crate::sim::Rng;

/// One configuration's figures.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// What the row measures: `cu` (the `cu` preset's collector) or `bench` ([`bench_params`]).
    pub config: &'static str,
    pub timing: CollectorTiming,
    pub collector_units: usize,
    pub banks: usize,
    pub in_ports: usize,
    pub cycles: usize,
    /// Operands read per cycle (bank grants per cycle).
    pub reads_per_cycle: f64,
    /// Reads per cycle as a percentage of the B reads per cycle the banks allow.
    pub bank_utilisation: f64,
    /// Mean cycles from allocation (the input handshake) to dispatch.
    pub alloc_to_dispatch: f64,
    /// Instructions dispatched per cycle.
    pub ipc: f64,
    /// The exported block's Fmax over placements (worst, best), where measured.
    pub fmax_mhz: Option<(f64, f64)>,
}

impl BenchRow {
    /// Millions of operand reads per second at the worst placement's Fmax.
    pub fn mreads_per_second(&self) -> Option<f64> {
        self.fmax_mhz.map(|(worst, _)| self.reads_per_cycle * worst)
    }
}

/// The collector parameters the benchmark uses for `n` collector units, `b` banks, `p` ports.
pub fn bench_params(n: usize, b: usize, p: usize) -> CollectorParams {
    CollectorParams {
        banks: b,
        collector_units: n,
        in_ports: p,
        regs_per_warp: 32,
        one_bank_per_cu: false,
        unit_types: 2,
        specialized: false,
        schedulers: 1,
        in_order_per_warp: false,
        lane_bits: 8,
        tag_bits: 8,
        sources: 3,
        timing: CollectorTiming::GpgpuSim,
    }
}

/// The benchmark's warps and lanes, for [`bench_params`].
pub const BENCH_SHAPE: (usize, usize) = (8, 8);

/// Runs one configuration for `cycles` cycles, `warps` warps of `threads` lanes.
pub fn run_config(
    config: &'static str,
    c: CollectorParams,
    (warps, threads): (usize, usize),
    cycles: usize,
    seed: u64,
) -> BenchRow {
    let mut model = OperandCollectorModel::new(c, warps, threads);
    let mut rng = Rng::new(seed);
    let mut allocated_at = vec![0usize; c.collector_units];
    let (mut reads, mut dispatched, mut latency) = (0u64, 0u64, 0u64);
    for cycle in 0..cycles {
        let ports = (0..c.in_ports)
            .map(|_| {
                let warp = rng.below(warps as u64) as usize;
                let mut reg = || rng.below(c.regs_per_warp as u64) as usize;
                let src = [reg(), reg(), reg()];
                (
                    true,
                    Inst {
                        warp,
                        unit: rng.below(c.unit_types as u64) as usize,
                        tag: 0,
                        dst: 0,
                        mask: 0xff,
                        src_valid: 7,
                        src,
                    },
                )
            })
            .collect();
        let i =
            OcInputs { reset: cycle == 0, ports, out_ready: vec![true; c.unit_types], wb: None };
        let d = model.decide(&i);
        if cycle > 0 {
            reads += d.grants.iter().flatten().count() as u64;
            for &(cu, _) in &d.dispatched {
                latency += (cycle - allocated_at[cu]) as u64;
                dispatched += 1;
            }
            for &(_, cu) in &d.allocated {
                allocated_at[cu] = cycle;
            }
        }
        model.step_with(&i);
    }
    let n = (cycles - 1) as f64;
    BenchRow {
        config,
        timing: c.timing,
        collector_units: c.collector_units,
        banks: c.banks,
        in_ports: c.in_ports,
        cycles,
        reads_per_cycle: reads as f64 / n,
        bank_utilisation: 100.0 * reads as f64 / n / c.banks as f64,
        alloc_to_dispatch: latency as f64 / dispatched.max(1) as f64,
        ipc: dispatched as f64 / n,
        fmax_mhz: None,
    }
}

/// Each timing: the `cu` preset's collector (its warps and lanes), then the table of the README:
/// collector units x banks 8x8, 8x4, 4x4, 2x4, 2 input ports.
pub fn run_all(cycles: usize, seed: u64) -> Vec<BenchRow> {
    let shape = (CU.scheduler.warps, CU.scheduler.threads);
    let mut rows = vec![];
    for timing in CollectorTiming::ALL {
        rows.push(run_config(
            "cu",
            CollectorParams { timing, ..CU.collector },
            shape,
            cycles,
            seed,
        ));
        for (n, b) in [(8, 8), (8, 4), (4, 4), (2, 4)] {
            let c = CollectorParams { timing, ..bench_params(n, b, 2) };
            rows.push(run_config("bench", c, BENCH_SHAPE, cycles, seed));
        }
    }
    rows
}

/// Formats rows as a Markdown table.
pub fn table(rows: &[BenchRow]) -> String {
    let mut s = String::from("| config | timing | CUs x banks | ports | reads/cycle | bank utilisation | alloc -> dispatch (cycles) | instr/cycle | Fmax (MHz, placements) | reads/s (M, worst placement) |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for r in rows {
        let (fmax, per_second) = match (r.fmax_mhz, r.mreads_per_second()) {
            (Some((lo, hi)), Some(m)) => (format!("{lo:.1}-{hi:.1}"), format!("{m:.1}")),
            _ => ("-".into(), "-".into()),
        };
        s.push_str(&format!(
            "| {} | {} | {}x{} | {} | {:.2} | {:.1}% | {:.2} | {:.2} | {fmax} | {per_second} |\n",
            r.config,
            r.timing.name(),
            r.collector_units,
            r.banks,
            r.in_ports,
            r.reads_per_cycle,
            r.bank_utilisation,
            r.alloc_to_dispatch,
            r.ipc
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The physical limits hold: at most B reads per cycle, at most one dispatch per output port
    /// per cycle, and no instruction dispatched sooner than 2 cycles after allocation (requests
    /// queue at the edge, the grant comes the next cycle, dispatch the one after), in either
    /// timing.
    #[test]
    fn figures_respect_the_limits() {
        for timing in CollectorTiming::ALL {
            for (n, b) in [(8, 8), (2, 4)] {
                let c = CollectorParams { timing, ..bench_params(n, b, 2) };
                let r = run_config("bench", c, BENCH_SHAPE, 3_000, 1);
                assert!(r.reads_per_cycle <= b as f64 && r.reads_per_cycle > 0.5, "{r:?}");
                assert!(r.ipc <= 2.0 && r.ipc > 0.1, "{r:?}");
                assert!(r.alloc_to_dispatch >= 2.0, "{r:?}");
            }
        }
    }
}
