//! Runs exported Verilog under iverilog or Verilator with the stimulus a Rust run recorded, and
//! reads back every output on every cycle (x and z bits included) for comparison.
//!
//! The generated testbench keeps the cycle convention of the Rust runners: inputs change with
//! the clock low, outputs are sampled 1 ns later, then the clock rises. It names the ports of the
//! module under test, so the same testbench drives any module with those ports (the seed's own
//! `WarpScheduler` as well as ours).

use super::interrupt::Guarded;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};

use super::rng::mask;
use super::Port;

/// Which Verilog simulator to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    /// Icarus Verilog (`iverilog`, `vvp`).
    Iverilog,
    /// Verilator, built with the C++ compiler (through ccache when present).
    Verilator,
}

impl Simulator {
    /// The simulator's command name.
    pub fn name(self) -> &'static str {
        match self {
            Simulator::Iverilog => "iverilog",
            Simulator::Verilator => "verilator",
        }
    }
}

/// A Verilog module to simulate: its name, source files and ports.
#[derive(Clone, Debug)]
pub struct VerilogDut {
    /// The module to simulate.
    pub top: String,
    /// The Verilog files it and its children are in.
    pub sources: Vec<PathBuf>,
    /// Clock port, `None` for combinational modules.
    pub clock: Option<String>,
    /// The input ports, in stimulus order.
    pub inputs: Vec<Port>,
    /// The output ports, in sampling order.
    pub outputs: Vec<Port>,
}

impl VerilogDut {
    /// The module `top` in `file`, with the ports of the rust-hdl block it was exported from.
    pub fn of<D: super::Dut>(dut: &D, top: &str, file: PathBuf) -> Self {
        VerilogDut {
            top: top.to_string(),
            sources: vec![file],
            clock: dut.clock_port().map(str::to_string),
            inputs: dut.input_ports(),
            outputs: dut.output_ports(),
        }
    }
}

/// One sampled output: `value` holds the known bits, `unknown` marks bits that were x or z.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampled {
    /// The known bits.
    pub value: u64,
    /// The bits that were x or z.
    pub unknown: u64,
}

/// Whether `tool` is a file in one of the PATH's directories.
fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
        .unwrap_or(false)
}

/// `verilator` for a run that compiles its C++ (`--binary`, `--build`): through ccache when it is
/// installed (`scripts/install-tools.sh` installs it), so that Verilator's runtime library, the
/// same in every build, is compiled once per machine, not once per module (most of a small
/// module's build). ccache keeps its objects in `$CCACHE_DIR`, else
/// `~/.cache/ccache`.
pub fn verilator_build() -> Command {
    let mut cmd = Command::new("verilator");
    if on_path("ccache") {
        cmd.args(["-MAKEFLAGS", "OBJCACHE=ccache"]);
    }
    cmd
}

/// Fails with an install hint when a tool is not on the PATH.
pub fn require_tool(tool: &str) -> Result<()> {
    if !on_path(tool) {
        bail!("`{tool}` is not installed: run `bash scripts/install-tools.sh` (Debian: apt-get install {})", debian_package(tool));
    }
    Ok(())
}

fn debian_package(tool: &str) -> &str {
    match tool {
        "iverilog" | "vvp" => "iverilog",
        "nextpnr-ice40" => "nextpnr-ice40",
        "icepack" | "icetime" | "iceprog" | "icepll" => "fpga-icestorm",
        "openFPGALoader" => "openfpgaloader",
        other => other,
    }
}

/// The testbench text for `dut` over `cycles` cycles of stimulus from `stim.hex`.
pub fn testbench(dut: &VerilogDut, cycles: usize) -> String {
    let total: usize = dut.inputs.iter().map(|p| p.width).sum();
    let mut v = String::new();
    let decl = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    writeln!(v, "`timescale 1ns/1ps\nmodule tb;").unwrap();
    if let Some(clk) = &dut.clock {
        writeln!(v, "  reg {clk};").unwrap();
    }
    for (name, width) in Port::verilog_ports(&dut.inputs) {
        writeln!(v, "  reg {}in_{name};", decl(width)).unwrap();
    }
    for (name, width) in Port::verilog_ports(&dut.outputs) {
        writeln!(v, "  wire {}out_{name};", decl(width)).unwrap();
    }
    writeln!(v, "  reg [{}:0] stim [0:{}];", total.max(1) - 1, cycles.max(1) - 1).unwrap();
    writeln!(v, "  integer c, fd;").unwrap();
    let mut conns: Vec<String> = vec![];
    if let Some(clk) = &dut.clock {
        conns.push(format!(".{clk}({clk})"));
    }
    conns.extend(Port::verilog_ports(&dut.inputs).map(|(name, _)| format!(".{name}(in_{name})")));
    conns.extend(Port::verilog_ports(&dut.outputs).map(|(name, _)| format!(".{name}(out_{name})")));
    writeln!(v, "  {} uut(\n    {}\n  );", dut.top, conns.join(",\n    ")).unwrap();
    let ins: Vec<String> = dut.inputs.iter().map(|p| p.in_testbench("in_")).collect();
    // Hexadecimal: a quarter of the text of binary to format, write and parse; a nibble with an
    // x or z bit prints as x or z (X or Z when only some are), and fails the exact compare.
    let fmt = vec!["%h"; dut.outputs.len()].join(" ");
    let outs: Vec<String> = dut.outputs.iter().map(|p| p.in_testbench("out_")).collect();
    writeln!(v, "  initial begin").unwrap();
    writeln!(v, "    $readmemh(\"stim.hex\", stim);").unwrap();
    writeln!(v, "    fd = $fopen(\"out.txt\", \"w\");").unwrap();
    if let Some(clk) = &dut.clock {
        writeln!(v, "    {clk} = 1'b0;").unwrap();
    }
    writeln!(v, "    for (c = 0; c < {cycles}; c = c + 1) begin").unwrap();
    writeln!(v, "      {{{}}} = stim[c];", ins.join(", ")).unwrap();
    writeln!(v, "      #1;").unwrap();
    writeln!(v, "      $fwrite(fd, \"{fmt}\\n\", {});", outs.join(", ")).unwrap();
    // Flushed now and then, so that a run stuck in one time step shows (see [`run_watched`]).
    writeln!(v, "      if (c % 256 == 255) $fflush(fd);").unwrap();
    match &dut.clock {
        Some(clk) => {
            writeln!(v, "      {clk} = 1'b1;\n      #1;\n      {clk} = 1'b0;\n      #1;").unwrap()
        }
        None => writeln!(v, "      #2;").unwrap(),
    }
    writeln!(v, "    end\n    $fclose(fd);\n    $finish;\n  end\nendmodule").unwrap();
    v
}

/// The stimulus file: one line per cycle, the inputs concatenated (first input most significant)
/// in hex, each input cut to its width.
pub fn stimulus_hex(inputs: &[Port], stimulus: &[Vec<u64>]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let total: usize = inputs.iter().map(|p| p.width).sum();
    let mut out = String::with_capacity(stimulus.len() * (total.div_ceil(4) + 1));
    for words in stimulus {
        // `held` bits wait in `acc` for a whole nibble; the zero bits that pad the line's first
        // nibble count as held from the start.
        let (mut acc, mut held) = (0u128, (4 - total % 4) % 4);
        for (p, &w) in inputs.iter().zip(words) {
            acc = (acc << p.width) | u128::from(w & mask(p.width));
            held += p.width;
            while held >= 4 {
                held -= 4;
                out.push(HEX[((acc >> held) & 0xF) as usize] as char);
            }
            acc &= (1 << held) - 1;
        }
        out.push('\n');
    }
    out
}

fn run_tool(cmd: &mut Command, what: &str, dir: &Path) -> Result<()> {
    let out =
        cmd.current_dir(dir).output_guarded().with_context(|| format!("cannot start {what}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let tail: Vec<&str> = stderr.lines().chain(stdout.lines()).rev().take(15).collect();
        bail!(
            "{what} failed in {}:\n{}",
            dir.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    Ok(())
}

/// How long a simulation may go without writing another flushed block of cycles to `out.txt`.
const STALL: std::time::Duration = std::time::Duration::from_secs(300);

/// Runs a simulation like [`run_tool`], but stops it with an error once `progress` (the
/// testbench's `out.txt`) has not grown for `stall` ([`STALL`]): a zero-delay loop (a combinational loop,
/// or two always blocks re-waking each other with glitches) never advances time, and without
/// this the run would hang until the CI's own limit.
fn run_watched(
    cmd: &mut Command,
    what: &str,
    dir: &Path,
    progress: &Path,
    stall: std::time::Duration,
) -> Result<()> {
    let log = dir.join("sim.log");
    let out =
        std::fs::File::create(&log).with_context(|| format!("cannot create {}", log.display()))?;
    let mut child = cmd
        .current_dir(dir)
        .stdout(out.try_clone()?)
        .stderr(out)
        .spawn_guarded()
        .with_context(|| format!("cannot start {what}"))?;
    let (mut size, mut since) = (0, std::time::Instant::now());
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        let now = std::fs::metadata(progress).map_or(0, |m| m.len());
        if now != size {
            (size, since) = (now, std::time::Instant::now());
        } else if since.elapsed() > stall {
            let _ = child.kill();
            let _ = child.wait();
            let lines = std::fs::read_to_string(progress).map_or(0, |t| t.lines().count());
            bail!(
                "{what} made no progress for {} s after {lines} cycles in {}: it is stuck in one time step (a combinational loop, or always blocks waking each other with glitches)",
                stall.as_secs(),
                dir.display()
            );
        }
    };
    if !status.success() {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        bail!(
            "{what} failed in {}:\n{}",
            dir.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    Ok(())
}

/// Simulates `dut` with `stimulus` in `workdir` (created if needed) and returns its outputs,
/// one vector per cycle in the order of `dut.outputs`.
pub fn simulate_verilog(
    sim: Simulator,
    dut: &VerilogDut,
    stimulus: &[Vec<u64>],
    workdir: &Path,
) -> Result<Vec<Vec<Sampled>>> {
    Ok(simulate_verilog_timed(sim, dut, stimulus, workdir)?.0)
}

/// Wall-clock time of a Verilog simulation: compiling the testbench and design, and running it.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimTimes {
    /// Compiling the testbench and design.
    pub build: std::time::Duration,
    /// Running it.
    pub run: std::time::Duration,
}

/// [`simulate_verilog`], also returning how long the build and the run took.
pub fn simulate_verilog_timed(
    sim: Simulator,
    dut: &VerilogDut,
    stimulus: &[Vec<u64>],
    workdir: &Path,
) -> Result<(Vec<Vec<Sampled>>, SimTimes)> {
    let (workdir, times) = run_simulation(sim, dut, stimulus, workdir)?;
    let mut rows = Vec::with_capacity(stimulus.len());
    for_each_row(sim, &dut.outputs, stimulus.len(), &workdir, |_, row| {
        rows.push(row.to_vec());
        Ok(())
    })?;
    Ok((rows, times))
}

/// Builds and runs the testbench of `dut` over `stimulus` in `workdir` (created if needed), which
/// it returns made absolute, with the times taken; the outputs are left in its `out.txt`.
fn run_simulation(
    sim: Simulator,
    dut: &VerilogDut,
    stimulus: &[Vec<u64>],
    workdir: &Path,
) -> Result<(PathBuf, SimTimes)> {
    std::fs::create_dir_all(workdir)
        .with_context(|| format!("cannot create {}", workdir.display()))?;
    // Absolute, because the tools run inside it (a relative path to the Verilator model would
    // be resolved from there).
    let workdir = std::fs::canonicalize(workdir)
        .with_context(|| format!("cannot resolve {}", workdir.display()))?;
    std::fs::write(workdir.join("tb.v"), testbench(dut, stimulus.len()))?;
    std::fs::write(workdir.join("stim.hex"), stimulus_hex(&dut.inputs, stimulus))?;
    let _ = std::fs::remove_file(workdir.join("out.txt"));
    let times = build_and_run(sim, &dut.sources, &workdir)?;
    Ok((workdir, times))
}

/// Compiles `tb.v` in `workdir` with `sources` under `sim` and runs it.
fn build_and_run(sim: Simulator, sources: &[PathBuf], workdir: &Path) -> Result<SimTimes> {
    let sources: Vec<PathBuf> = sources
        .iter()
        .map(|s| {
            std::fs::canonicalize(s)
                .with_context(|| format!("missing Verilog source {}", s.display()))
        })
        .collect::<Result<_>>()?;
    let start = std::time::Instant::now();
    let mut times = SimTimes::default();
    match sim {
        Simulator::Iverilog => {
            require_tool("iverilog")?;
            require_tool("vvp")?;
            run_tool(
                Command::new("iverilog")
                    .args(["-g2012", "-o", "sim.vvp", "-s", "tb", "tb.v"])
                    .args(&sources),
                "iverilog",
                workdir,
            )?;
            times.build = start.elapsed();
            run_watched(
                Command::new("vvp").args(["-n", "sim.vvp"]),
                "vvp",
                workdir,
                &workdir.join("out.txt"),
                STALL,
            )?;
        }
        Simulator::Verilator => {
            require_tool("verilator")?;
            run_tool(
                verilator_build()
                    .args([
                        "--binary",
                        "-Wno-fatal",
                        "-Wno-lint",
                        "-Wno-style",
                        "-O2",
                        "--top-module",
                        "tb",
                        "-Mdir",
                        "obj",
                        "-o",
                        "sim",
                        "tb.v",
                    ])
                    .args(&sources),
                "verilator",
                workdir,
            )?;
            times.build = start.elapsed();
            run_watched(
                &mut Command::new(workdir.join("obj").join("sim")),
                "the Verilator model",
                workdir,
                &workdir.join("out.txt"),
                STALL,
            )?;
        }
    }
    times.run = start.elapsed() - times.build;
    Ok(times)
}

/// Reads the `out.txt` a run of [`run_simulation`] wrote in `workdir`, one row at a time, and
/// hands each to `row` with its cycle number; fails unless it holds exactly `cycles` rows.
fn for_each_row(
    sim: Simulator,
    outputs: &[Port],
    cycles: usize,
    workdir: &Path,
    mut row: impl FnMut(usize, &[Sampled]) -> Result<()>,
) -> Result<()> {
    use std::io::BufRead as _;
    let path = workdir.join("out.txt");
    let file = std::fs::File::open(&path).context("the testbench wrote no out.txt")?;
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let (mut line, mut sampled, mut rows) = (String::new(), Vec::new(), 0);
    while reader.read_line(&mut line).with_context(|| format!("cannot read {}", path.display()))?
        > 0
    {
        parse_row(&line, outputs, &mut sampled)
            .with_context(|| format!("cycle {rows} of out.txt"))?;
        if rows < cycles {
            row(rows, &sampled)?;
        }
        rows += 1;
        line.clear();
    }
    if rows != cycles {
        bail!("{} wrote {rows} cycles, expected {cycles}", sim.name());
    }
    Ok(())
}

/// Parses one line of `out.txt` (a hex field per output) into `row`.
fn parse_row(line: &str, outputs: &[Port], row: &mut Vec<Sampled>) -> Result<()> {
    row.clear();
    let mut fields = line.split_ascii_whitespace();
    for (p, field) in outputs.iter().zip(fields.by_ref()) {
        let mut s = Sampled::default();
        for ch in field.bytes() {
            s.value <<= 4;
            s.unknown <<= 4;
            match ch {
                b'x' | b'X' | b'z' | b'Z' => s.unknown |= 0xF,
                other => {
                    let digit = (other as char).to_digit(16).ok_or_else(|| {
                        anyhow!("port {}: unexpected character {:?}", p.name, other as char)
                    })?;
                    s.value |= u64::from(digit);
                }
            }
        }
        s.unknown &= mask(p.width);
        row.push(s);
    }
    let extra = fields.count();
    if row.len() != outputs.len() || extra > 0 {
        bail!("{} fields, expected {}", row.len() + extra, outputs.len());
    }
    Ok(())
}

/// Replays a recorded rust-hdl run on `dut` under `sim` (in `workdir/<simulator>`) and fails
/// unless every output on every cycle is the same (see [`compare_exact`]). The Verilog's outputs
/// are compared as they are read, row by row, not held in memory.
pub fn check_against_rust(
    sim: Simulator,
    dut: &VerilogDut,
    rec: &super::Recorded,
    workdir: &Path,
) -> Result<()> {
    let what = format!("{} under {}", dut.top, sim.name());
    let (workdir, _) = run_simulation(sim, dut, &rec.inputs, &workdir.join(sim.name()))?;
    if rec.outputs.len() != rec.inputs.len() {
        bail!(
            "{what}: {} cycles from rust-hdl, {} stimulated",
            rec.outputs.len(),
            rec.inputs.len()
        );
    }
    for_each_row(sim, &dut.outputs, rec.inputs.len(), &workdir, |cycle, row| {
        compare_row(&what, &dut.outputs, cycle, &rec.outputs[cycle], row)
    })?;
    super::log_cycles(&dut.top, sim.name(), rec.inputs.len());
    Ok(())
}

/// Compares Verilog outputs with the outputs the rust-hdl simulation gave, exactly: an x or z
/// bit is a mismatch. The error names the cycle and the ports.
pub fn compare_exact(
    what: &str,
    outputs: &[Port],
    rust: &[Vec<u64>],
    verilog: &[Vec<Sampled>],
) -> Result<()> {
    for (cycle, (r, v)) in rust.iter().zip(verilog).enumerate() {
        compare_row(what, outputs, cycle, r, v)?;
    }
    if rust.len() != verilog.len() {
        bail!("{what}: {} cycles from rust-hdl, {} from Verilog", rust.len(), verilog.len());
    }
    Ok(())
}

/// One cycle of [`compare_exact`].
fn compare_row(
    what: &str,
    outputs: &[Port],
    cycle: usize,
    rust: &[u64],
    verilog: &[Sampled],
) -> Result<()> {
    let differs = |(r, v): (&u64, &Sampled)| v.unknown != 0 || v.value != *r;
    if !rust.iter().zip(verilog).any(differs) {
        return Ok(());
    }
    let diffs: Vec<String> = outputs
        .iter()
        .zip(rust.iter().zip(verilog))
        .filter(|(_, rv)| differs(*rv))
        .map(|(p, (r, v))| {
            format!(
                "{}: recorded {:#x}, Verilog {:#x} (x/z bits {:#x})",
                p.name, r, v.value, v.unknown
            )
        })
        .collect();
    bail!("{what}: exported Verilog differs from the recorded run (the rust-hdl block's outputs, or the model's where the block did not run) at cycle {cycle}: {}", diffs.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stimulus line, built the slow way: each input's bits as a binary string, the line's
    /// bits left-padded with zeros to whole nibbles, then read back four at a time.
    fn stimulus_line_bit_by_bit(inputs: &[Port], words: &[u64]) -> String {
        let bits: String = inputs
            .iter()
            .zip(words)
            .map(|(p, w)| {
                let all = format!("{w:064b}");
                all[64 - p.width..].to_string()
            })
            .collect();
        let padded = format!("{}{bits}", "0".repeat((4 - bits.len() % 4) % 4));
        let nibbles = padded.as_bytes().chunks(4);
        nibbles
            .map(|n| {
                let v = u32::from_str_radix(std::str::from_utf8(n).unwrap(), 2).unwrap();
                char::from_digit(v, 16).unwrap()
            })
            .collect()
    }

    /// Random port widths from 1 to 64 bits and random values, wider than the ports too: every
    /// line is the slow way's.
    #[test]
    fn stimulus_lines_equal_the_bits_written_one_by_one() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..500 {
            let count = 1 + (next() % 6) as usize;
            let inputs: Vec<Port> = (0..count)
                .flat_map(|i| Port::of(&format!("p{i}"), 1 + (next() % 64) as usize))
                .collect();
            let words: Vec<u64> = inputs.iter().map(|_| next()).collect();
            let fast = stimulus_hex(&inputs, std::slice::from_ref(&words));
            let masked: Vec<u64> =
                inputs.iter().zip(&words).map(|(p, w)| w & mask(p.width)).collect();
            assert_eq!(fast, format!("{}\n", stimulus_line_bit_by_bit(&inputs, &masked)));
        }
    }

    /// x and z nibbles are unknown bits, cut to the port's width; a row with a field too many or
    /// too few is refused.
    #[test]
    fn output_rows_parse_known_and_unknown_bits() {
        let ports = [Port::of("a", 6), Port::of("b", 8)].concat();
        let mut row = vec![];
        parse_row("2a xF\n", &ports, &mut row).unwrap();
        assert_eq!(
            row,
            [Sampled { value: 0x2a, unknown: 0 }, Sampled { value: 0xf, unknown: 0xf0 }]
        );
        parse_row("X z\n", &ports, &mut row).unwrap();
        assert_eq!(row[0].unknown, 0x0f);
        assert_eq!(row[1].unknown, 0x0f);
        assert!(parse_row("2a\n", &ports, &mut row).is_err());
        assert!(parse_row("2a 1 3\n", &ports, &mut row).is_err());
        assert!(parse_row("2g 1\n", &ports, &mut row).is_err());
    }

    /// A design that never leaves its first time step (two always blocks feeding each other an
    /// inversion) is stopped with the stall error instead of hanging.
    #[test]
    fn a_simulation_stuck_in_one_time_step_is_stopped() {
        let dir = std::env::temp_dir().join(format!("simt-rtl-stall-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tb = "module tb;\n  reg a, b;\n  integer fd;\n  always @(*) b = a;\n  always @(*) a = ~b;\n  initial begin\n    fd = $fopen(\"out.txt\", \"w\");\n    a = 1'b0;\n    #1 $fwrite(fd, \"%b\\n\", a);\n    $finish;\n  end\nendmodule\n";
        std::fs::write(dir.join("tb.v"), tb).unwrap();
        run_tool(
            Command::new("iverilog").args(["-g2012", "-o", "sim.vvp", "-s", "tb", "tb.v"]),
            "iverilog",
            &dir,
        )
        .unwrap();
        let err = run_watched(
            Command::new("vvp").args(["-n", "sim.vvp"]),
            "vvp",
            &dir,
            &dir.join("out.txt"),
            std::time::Duration::from_secs(2),
        )
        .unwrap_err();
        assert!(format!("{err}").contains("stuck in one time step"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
