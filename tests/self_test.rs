//! The board's self-test top, simulated in-crate to the end of its run: it reports pass when the
//! expected signature was computed from the same block, and fail when that signature is
//! corrupted. (The exported Verilog of the same top is run in the board tests.)

use simt_rtl::boards::self_test::preset::AtPreset;
use simt_rtl::boards::self_test::{LED_DONE, LED_FAIL, LED_PASS, LED_RUNNING};
use simt_rtl::params::CU;
use simt_rtl::registry::CuBlocks;

type CuSelfTest = <CuBlocks as AtPreset>::SelfTest;
const CYCLES: u64 = 20_000;

#[test]
fn passes_with_its_own_signature_and_fails_with_a_corrupted_one() {
    let start = std::time::Instant::now();
    let mut top = CuSelfTest::for_board(&CU, CYCLES).unwrap();
    let (signature, leds) = top.run_to_end(CYCLES as usize + 64).unwrap();
    eprintln!(
        "signature {signature:#010x}, leds {leds:#04x} ({:.1} s for two runs)",
        start.elapsed().as_secs_f64()
    );
    assert_ne!(signature, 0, "a zero signature would pass a design that does nothing");
    assert_eq!(
        leds & (LED_DONE | LED_PASS | LED_FAIL | LED_RUNNING),
        LED_DONE | LED_PASS,
        "leds {leds:#x}"
    );
    for flipped in [signature ^ 1, signature ^ (1 << 31)] {
        let mut bad = CuSelfTest::new(&CU, CYCLES, flipped).unwrap();
        let (_, leds) = bad.run_to_end(CYCLES as usize + 64).unwrap();
        assert_eq!(
            leds & (LED_DONE | LED_PASS | LED_FAIL),
            LED_DONE | LED_FAIL,
            "corrupted expectation {flipped:#x}: leds {leds:#x}"
        );
    }
}

#[test]
fn the_signature_depends_on_the_run_length() {
    let mut a = CuSelfTest::new(&CU, 1_000, 0).unwrap();
    let mut b = CuSelfTest::new(&CU, 1_001, 0).unwrap();
    let (sa, _) = a.run_to_end(2_000).unwrap();
    let (sb, _) = b.run_to_end(2_000).unwrap();
    assert_ne!(sa, sb);
}

/// The exported Verilog of the same top, under iverilog and Verilator, gives the same LEDs on
/// every cycle of the whole run, ending in pass.
#[test]
fn exported_verilog_passes_too() {
    use rust_hdl::prelude::Block;
    use simt_rtl::boards::self_test::preset::idle_run;
    use simt_rtl::sim::verilog_sim::{check_against_rust, Simulator, VerilogDut};
    let cycles = 5_000;
    let mut top = CuSelfTest::for_board(&CU, cycles).unwrap();
    let rec = idle_run(&mut top, cycles as usize + 40).unwrap();
    assert_eq!(
        simt_rtl::sim::Dut::output(&top, rec.outputs.last().unwrap(), "led").unwrap()
            & (LED_PASS | LED_FAIL),
        LED_PASS
    );
    top.connect_all();
    let work = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/verilog-sim/cu/self_test_led");
    std::fs::create_dir_all(&work).unwrap();
    let file = work.join(format!("{}.v", simt_rtl::boards::self_test::MODULE));
    std::fs::write(
        &file,
        simt_rtl::export::export_module(
            &top,
            simt_rtl::boards::self_test::MODULE,
            "// self-test top (test)\n",
        )
        .unwrap(),
    )
    .unwrap();
    let vdut = VerilogDut::of(&top, simt_rtl::boards::self_test::MODULE, file.clone());
    for sim in [Simulator::Iverilog, Simulator::Verilator] {
        check_against_rust(sim, &vdut, &rec, &work)
            .unwrap_or_else(|e| panic!("{}: {e:#}", sim.name()));
    }
}

/// `gen` takes the board run's signature from `src/boards/self_test/self_test_signatures.txt` instead of
/// simulating: the line for this design must be there, and equal to a simulation of it.
#[test]
fn the_board_runs_signature_is_cached_and_equals_its_simulation() {
    use simt_rtl::boards::self_test::{signature_line, SELF_TEST_CYCLES};
    let cycles = SELF_TEST_CYCLES;
    let simulated = CuSelfTest::simulated_signature(&CU, cycles).unwrap();
    let key = CuSelfTest::design_key(&CU, cycles).unwrap();
    let line = signature_line("cu", cycles, key, simulated);
    let cached = CuSelfTest::cached_signature(&CU, cycles).unwrap();
    assert_eq!(
        cached,
        Some(simulated),
        "src/boards/self_test/self_test_signatures.txt must hold `{line}` for this design"
    );
}

#[test]
fn another_design_or_run_length_misses_the_cache() {
    use simt_rtl::boards::self_test::SELF_TEST_CYCLES;
    assert_eq!(CuSelfTest::cached_signature(&CU, SELF_TEST_CYCLES - 1).unwrap(), None);
    let tiny = simt_rtl::params::TINY;
    type TinySelfTest = <simt_rtl::registry::TinyBlocks as AtPreset>::SelfTest;
    assert_ne!(
        TinySelfTest::design_key(&tiny, SELF_TEST_CYCLES).unwrap(),
        CuSelfTest::design_key(&CU, SELF_TEST_CYCLES).unwrap()
    );
}
