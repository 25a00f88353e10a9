//! `simt-rtl build --board alchitry-cu`: the whole iCE40 flow on the cu self-test top (yosys,
//! nextpnr-ice40, icepack, icetime), its report, and its exit codes.

use std::process::Command;

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_simt-rtl")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn builds_a_bitstream_with_a_report() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-build-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    // A target the design meets: exit 0, a bitstream, the table.
    let (code, stdout, stderr) = cli(&["build", "--board", "alchitry-cu", "--freq", "50", "--cycles", "20000", "--out", out]);
    eprintln!("{stdout}{stderr}");
    assert_eq!(code, 0, "{stderr}");
    for stage in ["synthesis (yosys)", "place and route (nextpnr-ice40)", "bitstream (icepack)", "timing cross-check (icetime)"] {
        assert!(stderr.contains(stage), "stage line `{stage}` missing");
    }
    assert!(stdout.contains("| logic cells (ICESTORM_LC) |") && stdout.contains("| 7680 |"), "{stdout}");
    assert!(stdout.contains("target 50.0 MHz: timing met"), "{stdout}");
    let bin = dir.join("top.bin");
    assert!(std::fs::metadata(&bin).unwrap().len() > 100_000, "an HX8K bitstream is about 135 kB");
    for f in ["top.v", "top.pcf", "top.json", "top.asc", "report.json", "yosys.log", "nextpnr.log", "icetime.txt"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let pcf = std::fs::read_to_string(dir.join("top.pcf")).unwrap();
    assert!(pcf.contains("set_io clk P7") && pcf.contains("set_io led[0] J11"));
    // The same design at a clock it cannot reach: the table, then a non-zero exit naming timing.
    let (code, stdout, stderr) = cli(&["build", "--freq", "300", "--cycles", "20000", "--out", out]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("timing FAILED") && stderr.contains("simt-rtl: error: timing failed: Fmax"), "{stdout}{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_build_arguments_are_one_clear_line() {
    for (args, want) in [
        (vec!["build", "--board", "nope"], "unknown board `nope`"),
        (vec!["build", "--board", "arty-a7-35t"], "board `arty-a7-35t` has no bitstream build here"),
        (vec!["build", "--rev", "v3"], "unknown --rev `v3` for alchitry-cu"),
        (vec!["build", "--freq", "0"], "--freq must be between 1 and 400 MHz"),
        (vec!["build", "--preset", "nope"], "unknown preset `nope`"),
        (vec!["build", "--cycles", "0", "--out", "/tmp/simt-rtl-never"], "`cycles` = 0 is out of range"),
    ] {
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or("");
        assert!(last.starts_with("simt-rtl: error: ") && last.contains(want), "{args:?}: {stderr:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr:?}");
    }
}
