//! Random differential tests: each rust-hdl block against its reference model, same seeded
//! constrained-random stimulus, every output compared on every cycle, for every preset and mode,
//! and what each stimulus must have reached. The checks are each block folder's own (its
//! `preset.rs`, `checks`), from the registry; a block of one size is checked at the `cu` preset
//! only. Cycles per run: `SIMT_CYCLES` (default 1,000,000); `SIMT_DIFFERENTIAL_ONLY=folder,...`
//! (the folder's last name, `scoreboard`) restricts a run to those folders. A failure prints the
//! seed and the cycle and writes a VCD of the failing window under `target/sim-failures/`.

use simt_rtl::hw::{UartRx, UartTx};
use simt_rtl::registry::{CuBlocks, PresetBlocks, SeedBlocks, TinyBlocks};

fn cycles() -> usize {
    simt_rtl::sim::cycles_from_env("SIMT_CYCLES", 1_000_000).unwrap()
}

const SEED: u64 = 0x5EED_2026;

/// The folders `SIMT_DIFFERENTIAL_ONLY` names (by their last name), if it is set.
fn only() -> Option<Vec<String>> {
    let folders = simt_rtl::registry::checks::<CuBlocks>();
    let known: Vec<String> =
        folders.iter().map(|(f, _)| f.rsplit("::").next().unwrap_or(f).to_string()).collect();
    let value = simt_rtl::sim::env_value("SIMT_DIFFERENTIAL_ONLY").unwrap();
    simt_rtl::sim::parse_names("SIMT_DIFFERENTIAL_ONLY", value.as_deref(), &known).unwrap()
}

/// Every folder's checks at preset `B` (a block of one size at `cu` only), each timed; every
/// failure is reported, then the test fails naming them.
fn check<B: PresetBlocks>() {
    let only = only();
    let mut failed = vec![];
    let mut run = 0;
    for (folder, checks) in simt_rtl::registry::checks::<B>() {
        let name = folder.rsplit("::").next().unwrap_or(&folder).to_string();
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        for check in checks.iter().filter(|c| c.per_preset || B::PRESET.name == "cu") {
            let start = std::time::Instant::now();
            let what = format!("{} {}", B::PRESET.name, check.name);
            match check.run(SEED, cycles()) {
                Ok(_) => {
                    let secs = start.elapsed().as_secs_f64();
                    let rate = cycles() as f64 / secs;
                    eprintln!("{what}: {} cycles in {secs:.2} s = {rate:.0} cycles/s", cycles());
                }
                Err(e) => {
                    eprintln!("{what}: FAILED: {e:#}");
                    failed.push(format!("{what} ({folder}): {e:#}"));
                }
            }
            run += 1;
        }
    }
    assert!(failed.is_empty(), "{} of {run} checks failed:\n{}", failed.len(), failed.join("\n"));
    assert!(run > 0 || only.is_some(), "no checks at preset {}", B::PRESET.name);
}

#[test]
fn seed() {
    check::<SeedBlocks>();
}

#[test]
fn cu() {
    check::<CuBlocks>();
}

#[test]
fn tiny() {
    check::<TinyBlocks>();
}

/// The LFSR's and the MISR's rules.
#[test]
fn bad_taps_and_seeds_are_refused() {
    use simt_rtl::hw::{Lfsr, Misr};
    let err = |r: anyhow::Result<_>| format!("{:#}", r.map(|_: ()| ()).unwrap_err());
    assert!(err(Lfsr::<16>::new(0x0400, 1).map(drop)).contains("`taps` = 0x400 must have bit 15"));
    assert!(err(Lfsr::<16>::new(0xB400, 0).map(drop)).contains("`seed` = 0x0 must be non-zero"));
    assert!(err(Lfsr::<16>::new(0x1B400, 1).map(drop)).contains("no bit above it"));
    assert!(err(Misr::<8>::new(0x100).map(drop)).contains("`taps` = 0x100 must have bit 7"));
}

/// Bytes sent by the rust-hdl transmitter, back to back, arrive through the rust-hdl
/// receiver unchanged, at the slowest and at the board's rate.
#[test]
fn transmitter_into_receiver() {
    use simt_rtl::sim::differential::{clock_edge, cycle_outputs, prepare};
    for cpb in [4, 7, simt_rtl::boards::ALCHITRY_CU_V1.clocks_per_bit()] {
        let (mut tx, mut rx) = (UartTx::new(cpb).unwrap(), UartRx::new(cpb).unwrap());
        prepare(&mut tx).unwrap();
        prepare(&mut rx).unwrap();
        let bytes: Vec<u64> = (0..40).map(|i| (i * 37 + 5) % 256).collect();
        let (mut sent, mut got, mut line) = (0, vec![], 1);
        for cycle in 0..(bytes.len() + 2) * 11 * cpb {
            let reset = (cycle == 0) as u64;
            let offer = sent < bytes.len();
            let t = cycle_outputs(
                &mut tx,
                &[reset, offer as u64, *bytes.get(sent).unwrap_or(&0)],
                cycle,
            )
            .unwrap();
            let r = cycle_outputs(&mut rx, &[reset, line], cycle).unwrap();
            if r[0] == 1 {
                got.push(r[1]);
            }
            assert_eq!(r[2], 0, "framing error at cycle {cycle}");
            if reset == 0 && offer && t[0] == 1 {
                sent += 1;
            }
            line = t[1];
            clock_edge(&mut tx, cycle).unwrap();
            clock_edge(&mut rx, cycle).unwrap();
        }
        assert_eq!(got, bytes, "clocks_per_bit {cpb}");
    }
}

/// The UARTs' rate rule.
#[test]
fn bad_rates_are_refused() {
    let err = |r: anyhow::Result<()>| format!("{:#}", r.unwrap_err());
    assert!(err(UartTx::new(3).map(drop)).contains("`clocks_per_bit` = 3 is out of range"));
    assert!(err(UartRx::new(70_000).map(drop)).contains("`clocks_per_bit` = 70000 is out of range"));
}

/// A model whose ports disagree with its block's is refused before the first cycle, and the
/// error names the port: here the MISR's model with its `enable` and `data` inputs swapped.
#[test]
fn a_model_whose_ports_differ_from_the_block_is_refused_naming_the_port() {
    use simt_rtl::hw::common::lfsr::model::{MisrModel, TAPS_32};
    use simt_rtl::sim::{run_differential, CycleModel, PortNames};
    struct Swapped(MisrModel);
    impl CycleModel for Swapped {
        fn ports(&self) -> PortNames {
            PortNames::default().inputs(&["reset", "data", "enable"]).outputs(&["signature"])
        }
        fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
            self.0.outputs(inputs)
        }
        fn step(&mut self, inputs: &[u64]) {
            self.0.step(inputs)
        }
    }
    let model = MisrModel { taps: TAPS_32, state: 0 };
    let misr = || simt_rtl::hw::Misr::<32>::new(TAPS_32).unwrap();
    let good =
        run_differential("misr_ports", misr, &mut model.clone(), 1, 10, |_, _, _| vec![0; 3]);
    assert!(good.is_ok(), "{:#}", good.unwrap_err());
    let err =
        run_differential("misr_ports", misr, &mut Swapped(model), 1, 10, |_, _, _| vec![0; 3])
            .unwrap_err();
    assert!(
        format!("{err:#}").contains("input port 1 is `enable` where its model's is `data`"),
        "{err:#}"
    );
}

/// The Verilog part of a long run has teeth: a model that differs from the block only after the
/// rust-hdl block has stopped (here the MISR's, its signature's lowest bit flipped from cycle
/// 25,000 on) is caught by the exported Verilog under Verilator, at that cycle.
#[test]
fn a_difference_after_the_rust_hdl_cycles_is_caught_on_the_verilog() {
    use simt_rtl::export::{differential_via_verilog, RUST_HDL_CYCLES};
    use simt_rtl::hw::common::lfsr::model::{MisrModel, TAPS_32};
    use simt_rtl::sim::{CycleModel, PortNames};
    struct LateLie(MisrModel, usize);
    impl CycleModel for LateLie {
        fn ports(&self) -> PortNames {
            self.0.ports()
        }
        fn outputs(&self, inputs: &[u64]) -> Vec<u64> {
            let mut out = self.0.outputs(inputs);
            out[0] ^= (self.1 >= 25_000) as u64;
            out
        }
        fn step(&mut self, inputs: &[u64]) {
            self.0.step(inputs);
            self.1 += 1;
        }
    }
    const { assert!(RUST_HDL_CYCLES < 25_000) };
    let misr = || simt_rtl::hw::Misr::<32>::new(TAPS_32).unwrap();
    let stimulus = |rng: &mut simt_rtl::sim::Rng, _: &LateLie, c: usize| {
        vec![(c == 0) as u64, rng.next_u64() & 1, rng.next_u64() & 0xFFFF_FFFF]
    };
    let mut model = LateLie(MisrModel { taps: TAPS_32, state: 0 }, 0);
    let err = differential_via_verilog("misr_late_lie", misr, &mut model, 7, 30_000, stimulus)
        .unwrap_err();
    assert!(
        format!("{err:#}").contains("exported Verilog differs from the recorded run")
            && format!("{err:#}").contains("at cycle 25000"),
        "{err:#}"
    );
    let kept = simt_rtl::export::differential_dir("misr_late_lie", 7);
    assert!(kept.is_dir(), "the failing run's directory is kept for reading");
    let _ = std::fs::remove_dir_all(kept);
}

/// A block with ports wider than 64 bits: `q` registers `(a << 30) ^ b` at 130 bits.
mod wide {
    use rust_hdl::prelude::*;
    use simt_rtl::sim::{CycleModel, PortNames};

    #[derive(LogicBlock, Default)]
    pub struct WideShift {
        pub clock: Signal<In, Clock>,
        pub a: Signal<In, Bits<100>>,
        pub b: Signal<In, Bits<8>>,
        pub q: Signal<Out, Bits<130>>,
        r: DFF<Bits<130>>,
    }

    impl Logic for WideShift {
        #[hdl_gen]
        fn update(&mut self) {
            self.r.clock.next = self.clock.val();
            self.r.d.next =
                (bit_cast::<130, 100>(self.a.val()) << 30) ^ bit_cast::<130, 8>(self.b.val());
            self.q.next = self.r.q.val();
        }
    }

    impl simt_rtl::sim::Dut for WideShift {
        simt_rtl::dut_ports!(clock: clock, inputs: [a, b], outputs: [q]);
    }

    /// `q`'s three words, computed word by word.
    pub struct WideShiftModel(pub [u64; 3]);

    impl CycleModel for WideShiftModel {
        fn ports(&self) -> PortNames {
            PortNames::default().inputs(&["a[63:0]", "a[99:64]", "b"]).outputs(&[
                "q[63:0]",
                "q[127:64]",
                "q[129:128]",
            ])
        }
        fn outputs(&self, _inputs: &[u64]) -> Vec<u64> {
            self.0.to_vec()
        }
        fn step(&mut self, i: &[u64]) {
            let (a0, a1, b) = (i[0], i[1], i[2]);
            self.0 = [(a0 << 30) ^ b, (a0 >> 34) | (a1 << 30), a1 >> 34];
        }
    }
}

/// Ports wider than 64 bits are carried as their 64-bit words (`a[63:0]`, `a[99:64]`): the
/// block against a word-by-word model, then its exported Verilog under iverilog and Verilator.
#[test]
fn ports_wider_than_64_bits_are_carried_as_words() {
    use simt_rtl::export::check_exported;
    use simt_rtl::sim::{run_differential, verilog_sim::Simulator};
    let stimulus = |rng: &mut simt_rtl::sim::Rng, _: &wide::WideShiftModel, _: usize| {
        vec![rng.next_u64(), rng.bits(36), rng.bits(8)]
    };
    let mut model = wide::WideShiftModel([0; 3]);
    let rec =
        run_differential("wide_shift", wide::WideShift::default, &mut model, 3, 2_000, stimulus)
            .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(rec.output("q[129:128]").unwrap().contains(&3), "the top word is reached");
    let dir = simt_rtl::sim::differential::scratch_dir().join("verilog-sim/wide_shift");
    for sim in [Simulator::Iverilog, Simulator::Verilator] {
        let top = ("wide_shift", "// ports wider than 64 bits\n");
        check_exported(sim, wide::WideShift::default(), top, &rec, &dir.join(sim.name()))
            .unwrap_or_else(|e| panic!("{}: {e:#}", sim.name()));
    }
}
