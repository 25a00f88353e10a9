//! The fast, single-threaded differential runner: a rust-hdl block and its reference model get
//! the same seeded constrained-random stimulus and every output is compared on every cycle.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header};
use rust_hdl::prelude::*;

use super::{CycleModel, Dut, PortNames, Rng};

/// Picoseconds per cycle in the VCD files: inputs change at the start, the clock rises halfway.
pub const CYCLE_PS: u64 = 10_000;
/// Cycles before a mismatch that its VCD shows.
pub const FAILURE_WINDOW: usize = 64;

/// The stimulus that was applied and the outputs the rust-hdl block gave, cycle by cycle, with
/// the names of the ports they are on.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    /// Each cycle's inputs, as the ports' words.
    pub inputs: Vec<Vec<u64>>,
    /// Each cycle's outputs (the block's, equal to the model's).
    pub outputs: Vec<Vec<u64>>,
    /// The ports' names.
    pub ports: PortNames,
}

impl Recorded {
    /// Input port `name` (`name$i` for element `i` of an array), every cycle.
    pub fn input(&self, name: &str) -> Result<Vec<u64>> {
        column(&self.inputs, &self.ports.inputs, name, "input")
    }
    /// Output port `name` (`name$i` for element `i` of an array), every cycle.
    pub fn output(&self, name: &str) -> Result<Vec<u64>> {
        column(&self.outputs, &self.ports.outputs, name, "output")
    }
    /// The first `cycles` cycles of this run (all of it when it is shorter).
    pub fn first(&self, cycles: usize) -> Recorded {
        Recorded {
            inputs: self.inputs.iter().take(cycles).cloned().collect(),
            outputs: self.outputs.iter().take(cycles).cloned().collect(),
            ports: self.ports.clone(),
        }
    }
}

fn column(words: &[Vec<u64>], names: &[String], name: &str, kind: &str) -> Result<Vec<u64>> {
    let at = super::port_index(names, name, kind)?;
    Ok(words.iter().map(|w| w[at]).collect())
}

/// Makes a block ready for the hand loop.
pub fn prepare<D: Dut>(dut: &mut D) -> Result<()> {
    dut.connect_all();
    dut.set_clock(false);
    settle(dut, 0)
}

fn settle<D: Dut>(dut: &mut D, cycle: usize) -> Result<()> {
    if !simulate(dut, 200) {
        bail!("the logic did not settle at cycle {cycle} (combinational loop?)");
    }
    Ok(())
}

/// Drives one cycle's inputs and returns the outputs sampled before the clock edge. The clock
/// falls here, with the new inputs, in one settling: the blocks act on rising edges only, so a
/// settling of the falling edge alone would change nothing and cost time.
pub fn cycle_outputs<D: Dut>(dut: &mut D, inputs: &[u64], cycle: usize) -> Result<Vec<u64>> {
    dut.set_clock(false);
    dut.drive(inputs);
    settle(dut, cycle)?;
    Ok(dut.sample())
}

/// The clock's rising edge (it falls at the next [`cycle_outputs`]).
pub fn clock_edge<D: Dut>(dut: &mut D, cycle: usize) -> Result<()> {
    dut.set_clock(true);
    settle(dut, cycle)
}

/// Where a long simulation is, for a progress line: `cycle` of `total`, and the waveform's size
/// so far while one is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Cycles done.
    pub cycle: u64,
    /// Cycles of the whole run.
    pub total: u64,
    /// While a waveform is written: its bytes so far.
    pub waveform_bytes: Option<u64>,
}

/// Runs the block on `inputs` and writes a VCD of cycles `from..inputs.len()` to `path`.
pub fn write_vcd<D: Dut>(dut: D, inputs: &[Vec<u64>], from: usize, path: &Path) -> Result<()> {
    write_vcd_watched(dut, inputs, from, path, &|_| {})
}

/// As [`write_vcd`], telling `watch` each cycle how far it is and how large the waveform is.
pub fn write_vcd_watched<D: Dut>(
    mut dut: D,
    inputs: &[Vec<u64>],
    from: usize,
    path: &Path,
    watch: &dyn Fn(Progress),
) -> Result<()> {
    prepare(&mut dut)?;
    for (cycle, words) in inputs.iter().enumerate().take(from) {
        cycle_outputs(&mut dut, words, cycle)?;
        clock_edge(&mut dut, cycle)?;
    }
    let (mut buf, written) = (vec![], std::cell::Cell::new(0));
    let mut vcd = write_vcd_header(Counted { buf: &mut buf, written: &written }, &dut);
    vcd.timestamp(from as u64 * CYCLE_PS)?;
    vcd = write_vcd_dump(vcd, &dut);
    for (cycle, words) in inputs.iter().enumerate().skip(from) {
        let t = cycle as u64 * CYCLE_PS;
        cycle_outputs(&mut dut, words, cycle)?;
        vcd.timestamp(t)?;
        vcd = write_vcd_change(vcd, &dut);
        dut.set_clock(true);
        settle(&mut dut, cycle)?;
        vcd.timestamp(t + CYCLE_PS / 2)?;
        vcd = write_vcd_change(vcd, &dut);
        dut.set_clock(false);
        settle(&mut dut, cycle)?;
        let (total, waveform_bytes) = (inputs.len() as u64, Some(written.get()));
        watch(Progress { cycle: cycle as u64 + 1, total, waveform_bytes });
    }
    vcd.timestamp(inputs.len() as u64 * CYCLE_PS)?;
    drop(vcd);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    super::write_whole(path, buf)
}

/// A writer into a buffer that counts what it took, so that the count can be read while the
/// VCD writer holds the buffer.
struct Counted<'a> {
    buf: &'a mut Vec<u8>,
    written: &'a std::cell::Cell<u64>,
}

impl std::io::Write for Counted<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.written.set(self.written.get() + bytes.len() as u64);
        self.buf.write(bytes)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Where runs write their scratch files: `target/` under the working directory (for `cargo test`,
/// the package under test), never this crate's own checkout when it is a dependency.
pub fn scratch_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_default().join("target")
}

/// Where failure VCDs go: `$SIMT_FAILURES`, else `target/sim-failures/` under the working
/// directory.
pub fn failure_dir() -> PathBuf {
    std::env::var_os("SIMT_FAILURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| scratch_dir().join("sim-failures"))
}

/// Describes the ports on which two output vectors differ.
pub fn describe_diff<D: Dut>(dut: &D, got: &[u64], want: &[u64]) -> String {
    dut.output_ports()
        .iter()
        .zip(got.iter().zip(want))
        .filter(|(_, (g, w))| g != w)
        .map(|(p, (g, w))| format!("{}: block {:#x}, expected {:#x}", p.name, g, w))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Drives `make_dut()` and `model` with the stimulus `gen` produces (it may look at the model's
/// state to constrain it) for `cycles` cycles and compares every output on every cycle. On a
/// mismatch the error names the test, seed and cycle, and a VCD of the failing window is
/// written under [`failure_dir`].
///
/// ```
/// use simt_rtl::hw::{Order, PriorityEncoderModel};
/// use simt_rtl::registry::CU_SIZES;
///
/// type Encoder = simt_rtl::sized_priority_encoder!(CU_SIZES);
/// let mut model = PriorityEncoderModel { n: CU_SIZES.W, order: Order::LowestFirst };
/// let rec = simt_rtl::sim::run_differential(
///     "encoder_doc",
///     || Encoder::new(Order::LowestFirst).unwrap(),
///     &mut model,
///     1,
///     1_000,
///     |rng, _, _| vec![rng.bits(CU_SIZES.W)],
/// )
/// .unwrap();
/// assert_eq!(rec.inputs.len(), 1_000);
/// ```
pub fn run_differential<D, M, G>(
    name: &str,
    make_dut: impl Fn() -> D,
    model: &mut M,
    seed: u64,
    cycles: usize,
    gen: G,
) -> Result<Recorded>
where
    D: Dut,
    M: CycleModel,
    G: FnMut(&mut Rng, &M, usize) -> Vec<u64>,
{
    run_differential_then_model(name, make_dut, model, seed, cycles, cycles, gen)
}

/// [`run_differential`] for the first `on_block` cycles, then the model alone for the rest of
/// `cycles`, with the same stimulus as a run of the block all the way would have had: the
/// recording's later outputs are the model's, what the block must give there. The caller
/// replays the whole recording on the block's exported Verilog, which simulates many times
/// faster than rust-hdl (`export::check_exported`).
pub fn run_differential_then_model<D, M, G>(
    name: &str,
    make_dut: impl Fn() -> D,
    model: &mut M,
    seed: u64,
    on_block: usize,
    cycles: usize,
    mut gen: G,
) -> Result<Recorded>
where
    D: Dut,
    M: CycleModel,
    G: FnMut(&mut Rng, &M, usize) -> Vec<u64>,
{
    let mut dut = make_dut();
    let ports = model.ports();
    ports.check(&dut).with_context(|| format!("{name}: ports"))?;
    prepare(&mut dut)?;
    let mut rng = Rng::new(seed);
    let mut rec = Recorded { ports, ..Recorded::default() };
    for cycle in 0..on_block.min(cycles) {
        let inputs = gen(&mut rng, model, cycle);
        let got = cycle_outputs(&mut dut, &inputs, cycle)?;
        let want = model.outputs(&inputs);
        rec.inputs.push(inputs);
        if got != want {
            let diff = describe_diff(&dut, &got, &want);
            let path = failure_dir().join(format!("{name}_seed{seed}_cycle{cycle}.vcd"));
            let from = cycle.saturating_sub(FAILURE_WINDOW);
            let vcd = match write_vcd(make_dut(), &rec.inputs, from, &path) {
                Ok(()) => format!("VCD of cycles {from}..={cycle}: {}", path.display()),
                Err(e) => format!("no VCD: {e:#}"),
            };
            return Err(anyhow!(
                "{name}: block and model differ at cycle {cycle} (seed {seed}): {diff}. {vcd}"
            ));
        }
        model.step(&rec.inputs[cycle]);
        rec.outputs.push(got);
        clock_edge(&mut dut, cycle)?;
    }
    super::log_cycles(name, "rust-hdl", rec.inputs.len());
    for cycle in rec.inputs.len()..cycles {
        let inputs = gen(&mut rng, model, cycle);
        rec.outputs.push(model.outputs(&inputs));
        model.step(&inputs);
        rec.inputs.push(inputs);
    }
    Ok(rec)
}
