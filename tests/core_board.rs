//! The board top for the SIMT core (`CoreBoard`) and its host link, end to end in simulation: the
//! host's side (`simt_rtl::link::Host`) talks to the rust-hdl board top through its serial lines
//! only (`SimBoard`), loads kernels and their local data share, runs them and reads every
//! register, every share word and the counters back; they must equal the reference
//! interpreter's and the core model's.

use simt_rtl::boards::core_board::SimBoard;
use simt_rtl::isa::asm::assemble;
use simt_rtl::isa::interp::Machine;
use simt_rtl::isa::Inst;
use simt_rtl::link::{fill_programs, Host, Serial};
use simt_rtl::params::CORE_CU;
use simt_rtl::verify::core_run::run_and_compare;

/// Clocks per bit in these tests (the board runs 100 at 1 Mbaud and 100 MHz; fewer is faster
/// to simulate and the same logic).
const CPB: usize = 4;

fn kernel(name: &str) -> Vec<Inst> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(format!("{name}.s"));
    assemble(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn lds_input(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) & 0xFF
        })
        .collect()
}

/// The programs that write the local data share leave exactly the words asked for (the rest
/// 0), on the interpreter, from any previous contents.
#[test]
fn fill_programs_write_the_local_data_share() {
    for (params, seed) in [
        (CORE_CU, 1),
        (simt_rtl::params::CORE_TINY, 2),
        (simt_rtl::params::CoreParams { threads: 8, ..CORE_CU }, 3),
        (simt_rtl::params::CORE_SEED, 4),
    ] {
        let wide = |v: Vec<u32>| match params.lane_bits {
            32 => v.iter().map(|x| x.wrapping_mul(0x9E37_79B9)).collect(),
            _ => v,
        };
        let want = wide(lds_input(200, seed));
        let config = params.machine(1_000_000);
        let mut m = Machine::new(config, &wide(lds_input(256, seed + 10))).unwrap();
        let programs = fill_programs(params, &want).unwrap();
        for p in &programs {
            assert!(p.len() <= params.imem_words);
            m.relaunch();
            m.run(p).unwrap();
        }
        let mut full = want.clone();
        full.resize(params.lds_words(), 0);
        assert_eq!(m.lds, full, "{} lanes", params.threads);
    }
}

/// Kernels through the serial port: local data share in, registers, memory and counters out.
#[test]
fn kernels_over_the_serial_link() {
    for (name, lds) in [("vector_add", lds_input(48, 7)), ("nested", vec![])] {
        let program = kernel(name);
        let mut host = Host::new(SimBoard::new(CPB, &[]).unwrap(), CORE_CU);
        let start = std::time::Instant::now();
        let run = host.run_kernel(&program, &lds).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let mut m = Machine::new(CORE_CU.machine(1_000_000), &lds).unwrap();
        m.run(&program).unwrap();
        assert!(run.regs == m.regs, "{name}: registers differ from the interpreter's");
        assert!(run.lds == m.lds, "{name}: local data share differs from the interpreter's");
        let counters = run_and_compare(CORE_CU, &program, &lds, 100_000).unwrap();
        assert_eq!(run.status.counters, counters, "{name}: counters");
        assert_eq!(run.status.core_errors, 0);
        eprintln!(
            "{name}: {} cycles over the link ({:.1} s), kernel {} cycles, IPC {:.2}",
            host.serial.cycle,
            start.elapsed().as_secs_f64(),
            counters.cycles,
            counters.ipc()
        );
    }
}

/// An unknown command byte is flagged; a byte sent while an answer is going out is flagged; the
/// link's `reset` command clears both; with the reset button held the board does not answer.
#[test]
fn link_misuse_is_flagged() {
    let mut host = Host::new(SimBoard::new(CPB, &[]).unwrap(), CORE_CU);
    host.serial.send(&[0x00]).unwrap();
    assert_eq!(host.query().unwrap().link_errors, 0b0001);
    host.serial.send(b"QQ").unwrap();
    let _ = host.serial.receive(simt_rtl::link::STATUS_BYTES).unwrap();
    assert_eq!(host.query().unwrap().link_errors, 0b0011);
    host.reset_core().unwrap();
    assert_eq!(host.query().unwrap().link_errors, 0);
    for _ in 0..10 {
        host.serial.tick(false, true).unwrap();
    }
    let board = &mut host.serial;
    for _ in 0..(10 * CPB) {
        board.tick(false, false).unwrap();
    }
    let e = format!("{:#}", board.receive(1).unwrap_err());
    assert!(e.contains("the board did not answer: 0 of 1 bytes"), "{e}");
}

/// `simt-rtl board run --sim` runs a kernel through the simulated board top's serial lines and
/// checks it; without a board, or with a port that is not there, one clear error line.
#[test]
fn board_run_command() {
    let cli = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl")).args(args).output().unwrap()
    };
    let out = cli(&["board", "run", "kernels/if_else.s", "--sim"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("on the simulated board top")
            && stdout.contains("equals the reference interpreter's"),
        "{stdout}"
    );
    assert!(stdout.contains("| divergent branches | 4 |"), "{stdout}");
    let out = cli(&["board", "run", "kernels/if_else.s", "--port", "/dev/simt-rtl-no-such-port"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.lines().count()), (Some(1), 1), "{stderr}");
    assert!(stderr.contains("cannot open the serial port /dev/simt-rtl-no-such-port"), "{stderr}");
}
