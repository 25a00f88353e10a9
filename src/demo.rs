//! The `simt-rtl sim` demo: a short directed scenario on the fixed-mode warp scheduler.
//! Three warps are launched, warp 0 diverges (its stack gets the reconvergence entry and the
//! else-path entry), fetches run round robin, then warp 0 pops back to its reconvergence point
//! and one warp ends.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::hw::scheduler::warp_scheduler::model::SchedIn;
use crate::hw::scheduler::warp_scheduler::preset::AtPreset;
use crate::params::SchedulerMode;
use crate::sim::differential::{write_vcd, CYCLE_PS};
use crate::sim::rng::mask;
use crate::sim::PortStruct;

/// The scenario's inputs, cycle by cycle.
/// Pcs fit 8 bits and warp ids the preset's warp count, so every preset runs it.
pub fn demo_stimulus(threads: usize, warps: usize) -> Vec<SchedIn> {
    let launched = warps.min(3) as u64;
    let all = mask(threads);
    let half = all & 0x5555_5555;
    let idle = SchedIn { inst_fetch_ready: 1, ..Default::default() };
    let mut v = vec![SchedIn { reset: 1, ..Default::default() }];
    for (k, pc) in [0x10u64, 0x40, 0x80].into_iter().enumerate() {
        v.push(SchedIn {
            warp_cmd_valid: 1,
            warp_cmd_pc: pc,
            warp_cmd_mask: all >> k,
            ..Default::default()
        });
    }
    // Warp 0 diverges: push {all, reconvergence pc} and {else lanes, else pc}.
    v.push(SchedIn {
        branch_ctl_valid: 1,
        branch_ctl_wid: 0,
        branch_ctl_mask: all,
        branch_ctl_pc: 0x30,
        ..idle
    });
    v.push(SchedIn {
        branch_ctl_valid: 1,
        branch_ctl_wid: 0,
        branch_ctl_mask: all & !half,
        branch_ctl_pc: 0x20,
        ..idle
    });
    for k in 0..6u64 {
        // Re-activate each warp after its fetch, as an issue stage would.
        v.push(SchedIn {
            warp_ctl_valid: 1,
            warp_ctl_wid: k % launched,
            warp_ctl_active: 1,
            ..idle
        });
    }
    // Warp 0 pops to its else path, then to the reconvergence point.
    v.push(SchedIn { warp_pop_valid: 1, warp_pop_wid: 0, ..Default::default() });
    v.push(SchedIn { warp_ctl_valid: 1, warp_ctl_wid: 0, warp_ctl_active: 1, ..idle });
    v.push(SchedIn { warp_pop_valid: 1, warp_pop_wid: 0, ..Default::default() });
    v.push(SchedIn { warp_ctl_valid: 1, warp_ctl_wid: 0, warp_ctl_active: 1, ..idle });
    v.push(SchedIn { end_ctl_valid: 1, end_ctl_wid: launched - 1, ..idle });
    v.extend(std::iter::repeat_n(idle, 3));
    v
}

/// The scheduler's signals for GTKWave, grouped (`sim` writes them beside the waveform).
pub const DEMO_GROUPS: &[crate::sim::gtkw::Group] = {
    use crate::sim::gtkw::Group;
    &[
        Group { name: "clock and reset", scope: "uut", prefixes: &["clock", "reset"] },
        Group {
            name: "commands",
            scope: "uut",
            prefixes: &[
                "warp_cmd_",
                "warp_ctl_",
                "branch_ctl_",
                "warp_pop_",
                "warp_set_",
                "end_ctl_",
            ],
        },
        Group { name: "fetch", scope: "uut", prefixes: &["inst_fetch_"] },
        Group {
            name: "warp status",
            scope: "uut",
            prefixes: &["idle_mask", "active_mask", "stack_", "pop_data_", "err_"],
        },
        Group {
            name: "stack",
            scope: "uut.stacks",
            prefixes: &["push", "pop", "top_", "empty", "full", "overflow", "underflow"],
        },
    ]
};

/// Signals the SVG shows.
pub const DEMO_SIGNALS: [&str; 12] = [
    "uut.clock",
    "uut.reset",
    "uut.warp_cmd_valid",
    "uut.warp_cmd_wid",
    "uut.branch_ctl_valid",
    "uut.warp_pop_valid",
    "uut.inst_fetch_valid",
    "uut.inst_fetch_wid",
    "uut.inst_fetch_pc",
    "uut.inst_fetch_mask",
    "uut.idle_mask",
    "uut.active_mask",
];

/// Runs the demo on preset `B` and writes `scheduler_demo.vcd`, its GTKWave save file
/// `scheduler_demo.gtkw` and `scheduler_demo.svg` in `out`.
pub fn run_demo<B: AtPreset>(out: &Path) -> Result<(PathBuf, PathBuf)> {
    let p = B::PRESET.scheduler;
    let inputs: Vec<Vec<u64>> =
        demo_stimulus(p.threads, p.warps).iter().map(|i| i.to_words()).collect();
    let dut = B::scheduler(SchedulerMode::Fixed(p.fetch_policy))?;
    let vcd = out.join("scheduler_demo.vcd");
    let svg = out.join("scheduler_demo.svg");
    write_vcd(dut, &inputs, 0, &vcd)?;
    crate::sim::gtkw::write_gtkw(&vcd, DEMO_GROUPS)?;
    let picture = draw(&vcd, inputs.len() as u64 * CYCLE_PS).context("drawing the SVG")?;
    crate::sim::write_whole(&svg, picture)?;
    Ok((vcd, svg))
}

/// The [`DEMO_SIGNALS`] of `vcd` from time 0 to `end` (ps) as an SVG picture, as tall as its
/// signals (rust-hdl's `vcd_to_svg` draws on a fixed 400-pixel canvas).
fn draw(vcd: &Path, end: u64) -> Result<String> {
    use rust_hdl::docs::vcd2svg::{display_metrics::DisplayMetrics, vcd_style::VCDStyle};
    let file =
        std::fs::File::open(vcd).with_context(|| format!("cannot read {}", vcd.display()))?;
    let traces =
        rust_hdl::docs::vcd2svg::trace_collection::TraceCollection::parse(&DEMO_SIGNALS, file)?;
    let mut metrics = DisplayMetrics {
        style: VCDStyle::gtkwave(),
        min_time: 0,
        max_time: end,
        ..Default::default()
    };
    metrics.canvas_height =
        metrics.timescale_height + (DEMO_SIGNALS.len() as u32 + 1) * metrics.signal_height;
    Ok(traces.as_svg(&metrics)?.to_string())
}
