//! `simt-rtl soak`: the random differential runs of the [registry](crate::registry) for as many cycles as
//! asked, block against model, every output compared on every cycle.
//!
//! A soak of N cycles runs in segments of [`SEGMENT`] cycles: segment `i` starts a fresh block and
//! model from power-up and uses seed `S + i`, so memory stays bounded (a run records its stimulus
//! for the failure VCD) and any failing segment is reproduced alone by
//! `simt-rtl soak --block M --cycles 1000000 --seed S+i`. Blocks run in parallel, one per core.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::registry::PresetBlocks;

/// Cycles per segment.
pub const SEGMENT: u64 = 1_000_000;

/// One block's soak.
#[derive(Clone, Debug)]
pub struct SoakRow {
    pub module: String,
    /// What simulated the block against its model: `rust-hdl`, or the rust-hdl block for the
    /// first cycles of each segment and its Verilog on Verilator for all of them.
    pub engines: String,
    pub cycles: u64,
    pub segments: u64,
    pub secs: f64,
}

/// The exported modules of preset `B` that `only` names (every one when it is empty), in the
/// registry's order; a name that is no exported module is refused, naming those that are.
pub fn modules<B: PresetBlocks>(only: &[String]) -> Result<Vec<String>> {
    super::whole_names(&exported::<B>(), only, ("an exported block", "blocks"), B::PRESET.name)
}

/// Every exported module of preset `B`, in the registry's order.
fn exported<B: PresetBlocks>() -> Vec<String> {
    crate::registry::entries::<B>().iter().map(|e| e.module.to_string()).collect()
}

/// What `soak` takes at preset `B`: its exported modules, then the blocks the registry checks
/// there without exporting them ([`unexported`]); `only` as [`modules`] takes it.
pub fn soakable<B: PresetBlocks>(only: &[String]) -> Result<Vec<String>> {
    let mut all = exported::<B>();
    all.extend(unexported::<B>().into_iter().map(|(folder, _)| folder_name(&folder).to_string()));
    super::whole_names(&all, only, ("a block `soak` checks", "blocks"), B::PRESET.name)
}

/// The folders that export nothing at preset `B` but have a differential check there named as
/// the folder (the seed core's host link, which only its board top for the Verilator engine
/// carries): each folder's path under the crate root and that check.
pub fn unexported<B: PresetBlocks>() -> Vec<(String, crate::registry::Check)> {
    let exporting: Vec<String> = crate::registry::folders::<B>()
        .into_iter()
        .filter(|(_, modules)| !modules.is_empty())
        .map(|(folder, _)| folder)
        .collect();
    crate::registry::checks::<B>()
        .into_iter()
        .filter(|(folder, _)| !exporting.contains(folder))
        .filter_map(|(folder, checks)| {
            let check = checks.into_iter().find(|c| c.name == folder_name(&folder))?;
            Some((folder, check))
        })
        .collect()
}

/// A folder's last name (`host_link` of `hw::link::host_link`).
fn folder_name(folder: &str) -> &str {
    folder.rsplit("::").next().unwrap_or(folder)
}

/// The sources a soak of `module` at preset `B` measured: its exported Verilog, or for a block
/// the preset does not export, the Rust files of its folder (block, model, stimulus).
pub fn inputs<B: PresetBlocks>(rtl: &std::path::Path, module: &str) -> Vec<std::path::PathBuf> {
    let Some((folder, _)) = unexported::<B>().into_iter().find(|(f, _)| folder_name(f) == module)
    else {
        return vec![rtl.join(B::PRESET.name).join(format!("{module}.v"))];
    };
    let dir = std::path::Path::new("src").join(folder.replace("::", "/"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Soaks each of `modules` for `cycles` cycles from seed `seed` on `jobs` threads; `progress`
/// gets a line whenever a segment ends. Stops at the first mismatch, with an error naming the
/// block, the segment's seed and the cycle.
pub fn soak<B: PresetBlocks>(
    modules: &[String],
    cycles: u64,
    seed: u64,
    jobs: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<SoakRow>> {
    if cycles == 0 {
        bail!("--cycles must be at least 1");
    }
    if jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<SoakRow>>> = Mutex::new(vec![None; modules.len()]);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.min(modules.len()) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= modules.len() || failure.lock().unwrap().is_some() {
                    return;
                }
                match soak_one::<B>(&modules[k], cycles, seed, progress) {
                    Ok(row) => rows.lock().unwrap()[k] = Some(row),
                    Err(e) => {
                        failure.lock().unwrap().get_or_insert(e);
                        return;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    Ok(rows.into_inner().unwrap().into_iter().flatten().collect())
}

/// One segment of a soak: its seed and cycles.
type SegmentRun<'a> = dyn Fn(u64, usize) -> Result<()> + 'a;

fn soak_one<B: PresetBlocks>(
    module: &str,
    cycles: u64,
    seed: u64,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<SoakRow> {
    // A block the preset checks without exporting it runs its check; an exported one its
    // entry's differential run.
    let unexported = unexported::<B>().into_iter().find(|(f, _)| folder_name(f) == module);
    let (engines, run): (String, Box<SegmentRun>) = match unexported {
        Some((_, check)) => ("rust-hdl".into(), Box::new(move |s, n| check.run(s, n).map(drop))),
        None => (
            engines_of::<B>(module, cycles)?,
            Box::new(|s, n| crate::registry::differential::<B>(module, s, n).map(drop)),
        ),
    };
    let start = Instant::now();
    let (mut done, mut segment) = (0u64, 0u64);
    while done < cycles {
        let n = (cycles - done).min(SEGMENT);
        let s = seed.wrapping_add(segment);
        run(s, n as usize)
            .with_context(|| format!("{module}: segment {segment} (seed {s}) of the soak"))?;
        done += n;
        segment += 1;
        let secs = start.elapsed().as_secs_f64();
        progress(&format!(
            "{module}: {done} of {cycles} cycles compared, {secs:.0} s, {:.0} cycles/s",
            done as f64 / secs
        ));
    }
    Ok(SoakRow {
        module: module.to_string(),
        engines,
        cycles,
        segments: segment,
        secs: start.elapsed().as_secs_f64(),
    })
}

/// What simulates exported module `module` of preset `B` in a soak of `cycles` cycles.
fn engines_of<B: PresetBlocks>(module: &str, cycles: u64) -> Result<String> {
    if !crate::registry::entry_of::<B>(module)?.replayed_on_verilator {
        return Ok("rust-hdl".to_string());
    }
    let on_block =
        crate::sim::cycles_from_env("SIMT_RUST_HDL_CYCLES", crate::export::RUST_HDL_CYCLES)?;
    let n = (on_block as u64).min(cycles.min(SEGMENT));
    Ok(format!("rust-hdl (the first {n} cycles of each segment), Verilator (every cycle)"))
}

/// A Markdown table of the soak: every row is a run that ended equal to its model (a soak that
/// meets a difference stops with an error and writes no table).
pub fn table(preset: &str, seed: u64, rows: &[SoakRow]) -> String {
    let mut t = format!("Soak of preset `{preset}`: every output compared with the model on every cycle; segment i of a block (of {SEGMENT} cycles) starts from power-up with seed {seed} + i.\n\n");
    t += "| block | preset | engines | cycles compared | first seed | segments | seconds | cycles/s | result |\n|---|---|---|---:|---:|---:|---:|---:|---|\n";
    for r in rows {
        t += &format!(
            "| {} | {preset} | {} | {} | {seed} | {} | {:.1} | {:.0} | equal on every cycle |\n",
            r.module,
            r.engines,
            r.cycles,
            r.segments,
            r.secs,
            r.cycles as f64 / r.secs
        );
    }
    t
}
