//! `simt-rtl build --board alchitry-cu`: the whole iCE40 flow on the cu self-test top (yosys,
//! nextpnr-ice40, icepack, icetime), its report, and its exit codes.

mod common;

use common::cli;

use std::process::Command;

use simt_rtl::export::ExportedBlock;
use simt_rtl::registry::{entries, CuBlocks};

#[test]
fn builds_a_bitstream_with_a_report() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-build-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    // A core-top build was here before: its notes do not outlive it (a self-test build over it
    // then read as a core top, and `board run --bitstream-sim` failed obscurely).
    std::fs::create_dir_all(&dir).unwrap();
    let earlier =
        [simt_rtl::flow::readback::CORE_PRESET_FILE, simt_rtl::flow::readback::CLOCKS_PER_BIT_FILE];
    for name in earlier {
        std::fs::write(dir.join(name), "from an earlier build\n").unwrap();
    }
    // The cu preset's default clock, which the PLL makes and the design meets: exit 0, a
    // bitstream, the table.
    let (code, stdout, stderr) =
        cli(&["build", "--board", "alchitry-cu", "--cycles", "20000", "--out", out]);
    eprintln!("{stdout}{stderr}");
    assert_eq!(code, 0, "{stderr}");
    for name in earlier {
        assert!(!dir.join(name).exists(), "{name} of the earlier build is still there");
    }
    for stage in [
        "core clock 45.000 MHz from the PLL",
        "synthesis (yosys)",
        "place and route (nextpnr-ice40)",
        "bitstream (icepack)",
        "timing cross-check (icetime)",
        "read-back (icebox_vlog, the cells under Verilator)",
    ] {
        assert!(stderr.contains(stage), "stage line `{stage}` missing");
    }
    assert!(
        stdout.contains("read-back: the read-back bitstream's self-test is done at cycle")
            && stdout.contains("with pass on and fail off"),
        "{stdout}"
    );
    bitstream_corruptions_are_caught(&dir);
    // `speed --bitstream`: the read-back netlist runs under both simulators.
    let (code, speeds, stderr) = cli(&["speed", "--bitstream", out, "--cycles", "2000"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        speeds.contains("| Verilator | 2000 |") && speeds.contains("| iverilog | 2000 |"),
        "{speeds}"
    );
    assert!(
        stdout.contains("| logic cells (ICESTORM_LC) |") && stdout.contains("| 7680 |"),
        "{stdout}"
    );
    assert!(stdout.contains("| PLLs (ICESTORM_PLL) | 1 | 2 |"), "{stdout}");
    assert!(stdout.contains("target 45.0 MHz: timing met"), "{stdout}");
    assert!(std::fs::read_to_string(dir.join("top.v")).unwrap().contains("SB_PLL40_CORE"));
    let bin = dir.join("top.bin");
    assert!(std::fs::metadata(&bin).unwrap().len() > 100_000, "an HX8K bitstream is about 135 kB");
    for f in [
        "top.v",
        "top.pcf",
        "top.json",
        "top.asc",
        "report.json",
        "yosys.log",
        "nextpnr.log",
        "icetime.txt",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let pcf = std::fs::read_to_string(dir.join("top.pcf")).unwrap();
    assert!(pcf.contains("set_io clk P7") && pcf.contains("set_io led[0] J11"));
    mapped_without_latches(&dir, simt_rtl::boards::self_test::MODULE);
    // The same design on the board's own 100 MHz (no PLL), which it cannot reach: the table,
    // then a non-zero exit naming timing.
    let (code, stdout, stderr) =
        cli(&["build", "--freq", "100", "--cycles", "20000", "--out", out, "--no-verify"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("read-back: not checked (--no-verify)"), "{stdout}");
    assert!(
        stdout.contains("timing FAILED") && stderr.contains("simt-rtl: error: timing failed: Fmax"),
        "{stdout}{stderr}"
    );
    assert!(!std::fs::read_to_string(dir.join("top.v")).unwrap().contains("SB_PLL40_CORE"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The build in `dir` mapped the board top `module` to cells and checked that no latch is left:
/// the synthesis check of every exported block leaves the board tops to these builds
/// (`TestSynthesis::MappedByBoardBuild` in the registry, `tests/verilog_checks.rs`).
fn mapped_without_latches(dir: &std::path::Path, module: &str) {
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap();
    assert!(log.contains("select -assert-none t:$_DLATCH_*"), "no latch check in yosys.log");
    let read = format!("RTLIL representation for module `\\{module}'");
    assert!(log.contains(&read), "yosys.log does not map {module}");
}

/// The read-back check's teeth, on the self-test bitstream in `dir` (20,000 cycles): one bit of
/// the LUT that drives the pass LED flipped in `top.asc` (the bit of the LUT's lowest input
/// combination that gives 1: for an AND of the used inputs, the combination at the end of a
/// passing run), and, on the good bitstream, LEDs expected other than the rust-hdl simulation's.
fn bitstream_corruptions_are_caught(dir: &std::path::Path) {
    use simt_rtl::boards::self_test::preset::AtPreset as _;
    use simt_rtl::flow::readback::{check_self_test, engine, Simulated::ReadBack};
    let mut top = simt_rtl::registry::CuBlocks::self_test(20_000).unwrap();
    let leds = simt_rtl::boards::self_test::leds_when_done(&mut top, 20_064).unwrap() as u8;
    let good = dir.join("readback/engine");
    check_self_test(&good, ReadBack, leds, 30_000).unwrap();
    let wrong = check_self_test(&good, ReadBack, leds ^ 0b1000, 30_000).unwrap_err();
    assert!(format!("{wrong:#}").contains("the rust-hdl simulation with"), "{wrong:#}");
    let bad = corrupt_copy(dir, "\\led[3]", &["top.pcf"]);
    let e = check_self_test(&engine(&bad).unwrap(), ReadBack, leds, 30_000).unwrap_err();
    assert!(format!("{e:#}").contains("LEDs"), "{e:#}");
}

/// A copy of the build in `dir` (its `top.asc` and `files`) in `dir/corrupt`, with one bit of
/// the LUT that drives `pin` flipped ([`flip_lowest_one`]); the LUT is found in the read-back
/// netlist: `assign PIN = nN;`, then `assign nN = /* LUT X Y I */ ...` (icebox_vlog writes
/// `\led[3]` for a bus bit).
fn corrupt_copy(dir: &std::path::Path, pin: &str, files: &[&str]) -> std::path::PathBuf {
    let netlist = std::fs::read_to_string(dir.join("readback/chip.v")).unwrap();
    let assigned = |name: &str| -> Option<Vec<String>> {
        netlist.lines().find_map(|l| {
            let t: Vec<String> =
                l.split("assign ").nth(1)?.split_whitespace().map(String::from).collect();
            (t.len() > 2 && t[0] == name && t[1] == "=").then_some(t)
        })
    };
    let driver = assigned(pin).unwrap_or_else(|| panic!("no assignment to {pin}"));
    let net = driver[2].trim_end_matches(';');
    let lut = assigned(net).unwrap_or_else(|| panic!("nothing drives {net}"));
    assert_eq!(lut[2..4], ["/*", "LUT"], "{net} is not a LUT's output: {lut:?}");
    let xyi: Vec<usize> = lut[4..7].iter().map(|t| t.parse().unwrap()).collect();
    let bad = dir.join("corrupt");
    std::fs::create_dir_all(&bad).unwrap();
    for f in files {
        std::fs::copy(dir.join(f), bad.join(f)).unwrap();
    }
    let asc = std::fs::read_to_string(dir.join("top.asc")).unwrap();
    std::fs::write(bad.join("top.asc"), flip_lowest_one(&asc, xyi[0], xyi[1], xyi[2])).unwrap();
    bad
}

/// `asc` with one bit flipped: of logic tile (x, y), LC `lc`'s LUT, the truth-table bit of the
/// lowest input combination that gives 1. A LUT's 16 bits sit in the tile's rows 2 lc and
/// 2 lc + 1, columns 36..45, in icestorm's order (icebox.py, `get_lutff_lut_bits`).
fn flip_lowest_one(asc: &str, x: usize, y: usize, lc: usize) -> String {
    const ORDER: [usize; 16] = [4, 14, 15, 5, 6, 16, 17, 7, 3, 13, 12, 2, 1, 11, 10, 0];
    let mut lines: Vec<String> = asc.lines().map(String::from).collect();
    let at = lines.iter().position(|l| *l == format!(".logic_tile {x} {y}")).unwrap();
    let bit = |k: usize| (at + 1 + 2 * lc + k / 10, 36 + k % 10);
    let (row, col) = ORDER
        .iter()
        .map(|&k| bit(k))
        .find(|&(r, c)| lines[r].as_bytes()[c] == b'1')
        .expect("the pass LED's LUT has a 1");
    let flipped = if lines[row].as_bytes()[col] == b'1' { "0" } else { "1" };
    lines[row].replace_range(col..col + 1, flipped);
    lines.join("\n") + "\n"
}

/// The core top's bitstream, built and read back: the build's read-back stage runs vector_add
/// through its serial pins, and `board run --bitstream-sim` runs a kernel with divergence and
/// per-lane `exit`, and one whose warps meet at a barrier, on it, every value the interpreter's
/// and its expectations met; with one bit of its transmitter's LUT flipped, the check fails.
#[test]
fn core_top_bitstream_runs_kernels_read_back() {
    use simt_rtl::flow::readback::CLOCKS_PER_BIT_FILE;
    use simt_rtl::flow::readback::{check_core, clocks_per_bit, engine, Simulated};
    let dir = std::env::temp_dir().join(format!("simt-rtl-core-top-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = cli(&["build", "--top", "core", "--out", out]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "read-back: vector_add ran end to end through the read-back bitstream's serial pins"
        ),
        "{stdout}"
    );
    mapped_without_latches(&dir, simt_rtl::boards::core_board::MODULE);
    for name in ["early_exit", "reduce_all"] {
        let kernel = format!("kernels/{name}.s");
        let (code, stdout, stderr) =
            cli(&["board", "run", &kernel, "--bitstream-sim", out, "--show", "none"]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let met = format!("every value of kernels/{name}.expect is the kernel's");
        assert!(
            stdout.contains("on the read-back bitstream of") && stdout.contains(&met),
            "{stdout}"
        );
    }
    // One bit of the LUT that drives the serial transmitter flipped: the read-back check fails.
    let bad = corrupt_copy(&dir, "usb_tx", &["top.pcf", CLOCKS_PER_BIT_FILE]);
    let (core, cpb) = (simt_rtl::params::CORE_CU, clocks_per_bit(&bad).unwrap());
    let e = check_core(&engine(&bad).unwrap(), Simulated::ReadBack, core, cpb).unwrap_err();
    assert!(format!("{e:#}").contains("vector_add on the read-back core"), "{e:#}");
    let (code, _, stderr) =
        cli(&["board", "run", "kernels/loop.s", "--bitstream-sim", "/nonexistent/build"]);
    assert_eq!((code, stderr.lines().count()), (1, 1), "{stderr}");
    assert!(stderr.contains("/nonexistent/build holds no core-top build"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_build_arguments_are_one_clear_line() {
    for (args, want) in [
        (
            vec!["build", "--board", "arty-a7-35t"],
            "board `arty-a7-35t` has no bitstream build here",
        ),
        (
            vec!["build", "--board", "ulx3s-85f", "--freq", "5"],
            "clock 5 MHz is outside what the ECP5 PLL makes (10-400 MHz)",
        ),
        (
            vec!["build", "--freq", "0"],
            "clock 0 MHz is outside what the iCE40 PLL makes (16-275 MHz)",
        ),
        (vec!["build", "--freq", "300"], "clock 300 MHz is outside what the iCE40 PLL makes"),
        (vec!["build", "--preset", "seed"], "preset `seed` has no board top"),
        (vec!["build", "--preset", "nope"], "unknown preset `nope`"),
        (
            vec!["build", "--cycles", "0", "--out", "/tmp/simt-rtl-never"],
            "`cycles` = 0 is out of range",
        ),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or("");
        assert!(
            last.starts_with("simt-rtl: error: ") && last.contains(want),
            "{args:?}: {stderr:?}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr:?}");
    }
}

#[test]
fn vivado_batch_build_is_written_and_the_verilog_synthesizes_for_xilinx() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-vivado-{}", std::process::id()));
    let (code, stdout, stderr) = cli(&[
        "vivado",
        "--board",
        "arty-a7-35t",
        "--cycles",
        "2000",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("vivado -mode batch -source build.tcl"), "{stdout}");
    let tcl = std::fs::read_to_string(dir.join("build.tcl")).unwrap();
    let steps: Vec<&str> = tcl
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "read_verilog",
            "read_xdc",
            "synth_design",
            "opt_design",
            "place_design",
            "route_design",
            "report_utilization",
            "report_timing_summary",
            "write_bitstream"
        ]
    );
    assert!(
        tcl.contains("synth_design -top top -part xc7a35ticsg324-1L")
            && tcl.contains("read_xdc arty_a7_35t.xdc")
    );
    let xdc = std::fs::read_to_string(dir.join("arty_a7_35t.xdc")).unwrap();
    assert!(
        xdc.contains("PACKAGE_PIN E3")
            && xdc.contains("create_clock")
            && xdc.contains("get_ports { led[7] }")
    );
    // Every port the xdc constrains exists in the top, and yosys maps the top for 7-series.
    let top = std::fs::read_to_string(dir.join("top.v")).unwrap();
    assert!(
        top.contains("module top(clk,rst_n,led,usb_rx,usb_tx)"),
        "{}",
        top.lines().find(|l| l.starts_with("module top")).unwrap_or("")
    );
    simt_rtl::flow::synth_xilinx(&dir.join("top.v"), "top").unwrap();
    let (code, _, stderr) = cli(&["vivado", "--board", "alchitry-cu"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("board `alchitry-cu` is not a Vivado board"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FuseSoC core is what `gen` writes, names only files that exist, and lists every cu block
/// of rtl_out/.
#[test]
fn fusesoc_core_names_existing_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let core = std::fs::read_to_string(root.join("simt_rtl.core")).unwrap();
    assert!(
        core == simt_rtl::flow::fusesoc::core_text("rtl_out", "constraints").unwrap(),
        "simt_rtl.core is stale: run `cargo run -- gen` and commit it"
    );
    assert!(core.starts_with("CAPI=2:"));
    let files: Vec<&str> = core.lines().filter_map(|l| l.trim().strip_prefix("- ")).collect();
    assert!(files.len() > 10, "{files:?}");
    for f in &files {
        assert!(root.join(f).is_file(), "simt_rtl.core names {f}, which does not exist");
    }
    for e in std::fs::read_dir(root.join("rtl_out/cu")).unwrap() {
        let name = format!("rtl_out/cu/{}", e.unwrap().file_name().to_string_lossy());
        assert!(files.contains(&name.as_str()), "simt_rtl.core does not list {name}");
    }
    for target in ["default:", "sim:", "lint:", "alchitry_cu:"] {
        assert!(core.lines().any(|l| l.trim() == target), "target {target} missing");
    }
}

/// The committed board top (the file the FuseSoC targets use) passes its whole run (100,000
/// cycles) with the FuseSoC testbench: the signature built in at `gen` time is the Verilog's.
/// iverilog (the FuseSoC `sim` target's tool, `-g2005`) compiles the two files; Verilator runs
/// them (`--binary`: 7 s to build and run, where iverilog takes about 90 s to run; iverilog
/// replays the same top against the rust-hdl simulation in `tests/verilog_equivalence.rs`).
#[test]
fn committed_board_top_passes_its_testbench() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/verilog-sim/cu/self_test_tb");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let sources = [root.join("rtl_out/cu/self_test.v"), root.join("sim/self_test_tb.v")];
    let st = Command::new("iverilog")
        .args(["-g2005", "-o"])
        .arg(work.join("tb.vvp"))
        .args(&sources)
        .status()
        .expect("iverilog (bash scripts/install-tools.sh)");
    assert!(st.success());
    let st = Command::new("verilator")
        .args(["--binary", "--timescale", "1ns/1ps", "--top-module", "self_test_tb", "-o", "tb"])
        .arg("--Mdir")
        .arg(work.join("obj_dir"))
        .arg(root.join("sim/verilator_waivers.vlt"))
        .args(&sources)
        .status()
        .expect("verilator (bash scripts/install-tools.sh)");
    assert!(st.success());
    let out = Command::new(work.join("obj_dir/tb")).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}");
    assert!(text.contains("PASS: self-test done after"), "{text}");
}

/// The FuseSoC core run as a user runs it, through PyPI's FuseSoC (pinned by
/// `scripts/install-tools.sh` in the tools' venv): its `lint` target lints the blocks clean
/// and its `sim` target runs the board self-test to PASS under Verilator.
#[test]
fn fusesoc_runs_the_cores_lint_and_sim_targets() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fusesoc = simt_rtl::flow::prove::z3_bin_dir().join("fusesoc");
    let work = root.join("target/fusesoc");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    for (target, want) in
        [("lint", "verilator -f"), ("sim", "PASS: self-test done after 100016 cycles")]
    {
        let out = Command::new(&fusesoc)
            .arg("--cores-root")
            .arg(root)
            .args(["run", "--target", target, "::simt-rtl:0.1.0"])
            .current_dir(&work)
            .output()
            .expect("fusesoc (bash scripts/install-tools.sh)");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "fusesoc run --target {target}:\n{text}");
        assert!(text.contains(want), "fusesoc run --target {target}:\n{text}");
        assert!(!text.contains("deprecated"), "fusesoc run --target {target}:\n{text}");
    }
    // Each board's bitstream target is set up by FuseSoC in edalize's flow API (its build is the
    // board flow's own: icestorm for the iCE40, trellis for the ECP5; not run here): nextpnr for
    // the board's device and package, at the cu clock, with the board's pin file.
    for (board, _) in simt_rtl::flow::gen::fusesoc_boards() {
        let target = simt_rtl::flow::fusesoc::target_name(&board);
        let out = Command::new(&fusesoc)
            .arg("--cores-root")
            .arg(root)
            .args(["run", "--setup", "--target", &target, "::simt-rtl:0.1.0"])
            .current_dir(&work)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !text.contains("deprecated"), "{target}:\n{text}");
        let make = work.join(format!("build/simt-rtl_0.1.0/{target}/Makefile"));
        let make = std::fs::read_to_string(make).unwrap();
        let chip = board.chip;
        let nextpnr = format!(
            "nextpnr-{} -l next.log --{} --package {}",
            chip.family.name(),
            chip.device,
            chip.package
        );
        assert!(
            make.contains(&nextpnr) && make.contains(board.constraint_file),
            "{target}:\n{make}"
        );
    }
    // The lint ran Verilator as the target says: lint only, every warning on, the waivers first.
    let args =
        std::fs::read_to_string(work.join("build/simt-rtl_0.1.0/lint/simt-rtl_0.1.0.vc")).unwrap();
    let lines: Vec<&str> = args.lines().collect();
    assert!(lines.contains(&"--lint-only") && lines.contains(&"-Wall"), "{args}");
    let waivers =
        lines.iter().position(|l| l.ends_with("verilator_waivers.vlt")).expect("the waivers");
    assert!(lines[waivers + 1..].iter().any(|l| l.ends_with(".v")), "{args}");
}

/// The row of `name` in a report table: its cells, split on `|`.
/// The registry's first `cu` block, exported: a small design for the report's tests.
fn first_block() -> ExportedBlock {
    entries::<CuBlocks>()[0].export().unwrap()
}

fn report_row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("no row `{name}` in\n{table}"));
    line.split('|').map(str::trim).filter(|c| !c.is_empty()).collect()
}

#[test]
fn report_places_a_block_and_the_seed_in_the_harness() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-report-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    // `--block` names whole designs, and a second one adds a row: the registry's first block
    // and its reference (the seed's own scheduler) at the preset's sizes.
    let first = first_block();
    let reference = entries::<CuBlocks>().into_iter().find_map(|e| e.reference).unwrap();
    let seed_row =
        format!("{} {}", reference.name, (reference.designs)(&simt_rtl::params::CU)[0].0);
    let rows = [first.module.as_str(), seed_row.as_str()];
    let (code, stdout, stderr) =
        cli(&["report", "--preset", "cu", "--block", rows[0], "--block", rows[1], "--out", out]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| design")).count(),
        2,
        "{stdout}"
    );
    for row in rows {
        let cells = report_row(&stdout, row);
        let lcs: u64 = cells[1].split_whitespace().next().unwrap().parse().unwrap();
        let harness: u64 = cells[5].parse().unwrap();
        // Every harness bit is a flip-flop in a logic cell, and the block's logic comes on top:
        // a harness that let yosys optimise the block away would fail this.
        assert!(lcs > harness, "{stdout}");
        let fmax: f64 = cells[4]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("no Fmax: {stdout}"));
        assert!(fmax > 10.0, "{stdout}");
    }
    // The harness: a chain bit per input bit and per output bit of the block.
    let harness =
        std::fs::read_to_string(dir.join(format!("cu/00_{}/harness.v", first.module))).unwrap();
    let bits = |ports: &[simt_rtl::sim::Port]| ports.iter().map(|p| p.width).sum::<usize>();
    let (ins, outs) = (bits(&first.inputs), bits(&first.outputs));
    assert!(
        harness.contains(&format!("reg [{}:0] chain_in", ins - 1))
            && harness.contains(&format!("reg [{}:0] chain_out", outs - 1)),
        "{harness}"
    );
    // Three placements: the first's Fmax, then the range over all three, each within it.
    let (code, stdout, stderr) = cli(&[
        "report",
        "--preset",
        "cu",
        "--block",
        first.module.as_str(),
        "--placements",
        "3",
        "--out",
        out,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("place and route, seed 2"), "{stderr}");
    let fmax = report_row(&stdout, &first.module)[4];
    let (at_first, range) = fmax.split_once("; ").unwrap_or_else(|| panic!("no range: {stdout}"));
    let (lo, hi) = range
        .strip_suffix(" over 3 placements")
        .and_then(|r| r.split_once('-'))
        .unwrap_or_else(|| panic!("{stdout}"));
    let [at_first, lo, hi]: [f64; 3] =
        [at_first.split_whitespace().next().unwrap(), lo, hi].map(|v| v.parse().unwrap());
    assert!(lo <= at_first && at_first <= hi, "{stdout}");
    for f in ["nextpnr_seed1.log", "report_seed2.json"] {
        assert!(dir.join(format!("cu/00_{}", first.module)).join(f).is_file(), "{f} missing");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `report --dffe` synthesizes with clock enables: the flip-flop SIMT stack's entry registers
/// take their hold from the flip-flops' enable pins instead of a LUT each, and the table says
/// which synthesis it used.
#[test]
fn report_with_clock_enables_takes_fewer_cells() {
    use simt_rtl::hw::scheduler::simt_stack::MODULE;
    let dir = std::env::temp_dir().join(format!("simt-rtl-report-dffe-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let mut cells = vec![];
    for (flag, synthesis) in [
        (None, "Synthesis: yosys `synth_ice40 -nodffe`."),
        (Some("--dffe"), "Synthesis: yosys `synth_ice40`."),
    ] {
        let mut args = vec!["report", "--preset", "cu", "--block", MODULE, "--out", out];
        args.extend(flag);
        let (code, stdout, stderr) = cli(&args);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains(synthesis), "{stdout}");
        let row = report_row(&stdout, MODULE);
        cells.push(row[1].split_whitespace().next().unwrap().parse::<u64>().unwrap());
    }
    assert!(cells[1] < cells[0], "logic cells without and with enables: {cells:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_report_arguments_are_one_clear_line() {
    let designs = format!(
        "--block `no_such_block` is not a design of preset `cu` (designs: {},",
        first_block().module
    );
    for (args, want) in [
        (vec!["report", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["report", "--block", "no_such_block"], designs.as_str()),
        (vec!["report", "--rtl", "/nonexistent"], "cannot read /nonexistent/manifest.json"),
        (vec!["report", "--freq", "1000"], "--freq must be between 1 and 400 MHz"),
        (
            vec!["report", "--placements", "0"],
            "parameter `--placements` = 0 is out of range: it must be between 1 and 20",
        ),
        (vec!["report", "--placements", "21"], "parameter `--placements` = 21 is out of range"),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or("");
        assert!(
            last.starts_with("simt-rtl: error: ") && last.contains(want),
            "{args:?}: {stderr:?}"
        );
    }
}

/// `build --top core`'s Verilog: the core's board top under the PLL's `top`, its serial port's
/// clocks per bit from the clock; a clock that cannot make the baud rate is refused.
#[test]
fn core_board_top_verilog() {
    use simt_rtl::flow::board_build::core_board_verilog;
    use simt_rtl::flow::fpga::toolchain::Pll;
    let (board, cu) = (simt_rtl::boards::ALCHITRY_CU_V1, simt_rtl::params::CORE_CU);
    let pll = Pll::for_board(&board, 25.0).unwrap().expect("25 MHz comes from the PLL");
    let v = core_board_verilog(&board, cu, pll.fout_mhz(), Some(&pll)).unwrap();
    assert!(
        v.contains("module core_board(")
            && v.contains("module top(")
            && v.contains("25 clocks per bit"),
        "{}",
        &v[..300]
    );
    let e = format!("{:#}", core_board_verilog(&board, cu, 16.5, None).unwrap_err());
    assert!(
        e.contains(
            "a 16.500 MHz clock cannot make 1000000 baud within 2% (2.9% off at 17 clocks per bit)"
        ),
        "{e}"
    );
}
