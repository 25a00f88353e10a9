//! `prove --synth`: exported blocks are equal to the iCE40 netlists yosys makes of them, and the
//! check has teeth: a netlist made from other Verilog than the one it is checked against fails,
//! with a counterexample.

use std::path::{Path, PathBuf};

use simt_rtl::flow::prove::Outcome;
use simt_rtl::flow::synth_equiv::{prove_synthesis, SynthCheck};
use simt_rtl::flow::{Mapper, Synthesis};
use simt_rtl::registry::{entries, CuBlocks, Entry};

fn exported(module: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rtl_out/cu/{module}.v"))
}

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("synthesis").join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `module`'s netlist, synthesized from `synthesized`, checked against `gold`.
fn check(module: &str, gold: &Path, synthesized: &Path, tag: &str) -> Outcome {
    check_with(Synthesis::default(), module, gold, synthesized, tag)
}

fn check_with(
    synthesis: Synthesis,
    module: &str,
    gold: &Path,
    synthesized: &Path,
    tag: &str,
) -> Outcome {
    check_to(20, synthesis, module, (gold, synthesized), tag)
}

/// As [`check_with`], the bounded check to `depth` cycles from power-on.
fn check_to(
    depth: usize,
    synthesis: Synthesis,
    module: &str,
    (gold, synthesized): (&Path, &Path),
    tag: &str,
) -> Outcome {
    let dir = work_dir(tag);
    let check = SynthCheck { module, gold, synthesized, synthesis, depth, dir: &dir, budget: None };
    let outcome = prove_synthesis(&check).unwrap();
    println!("{module} ({tag}): {outcome}");
    outcome
}

/// The registry's entries whose proof takes seconds (`prove --synth` gives every block's time).
fn quick() -> Vec<Entry> {
    let quick: Vec<Entry> =
        entries::<CuBlocks>().into_iter().filter(|e| e.quick_synthesis_proof).collect();
    assert!(!quick.is_empty(), "no entry has a quick synthesis proof");
    quick
}

#[test]
fn small_blocks_equal_their_netlists_by_induction() {
    for module in quick().iter().map(|e| e.module) {
        let rtl = exported(module);
        let outcome = check(module, &rtl, &rtl, module);
        assert!(matches!(outcome, Outcome::Proven { .. }), "{module}: {outcome}");
    }
}

/// A block's Verilog broken as its first formal mutant breaks it, as the Verilog the netlist of
/// the unbroken one is checked against: the induction does not close, and the bounded check
/// finds the cycle where the two differ, with the inputs in the trace.
#[test]
fn a_netlist_of_other_verilog_is_caught() {
    let (module, mutant) = quick()
        .iter()
        .find_map(|e| Some((e.module, *e.formal()?.mutants.iter().find(|m| m.preset == "cu")?)))
        .expect("a block with a quick synthesis proof and a mutant");
    let rtl = exported(module);
    let text = std::fs::read_to_string(&rtl).unwrap();
    let (from, to) = (mutant.from, mutant.to);
    assert!(text.contains(from), "the mutation's text is not in {}", rtl.display());
    let dir = work_dir("mutant_source");
    std::fs::create_dir_all(&dir).unwrap();
    let mutant = dir.join(format!("{module}.v"));
    std::fs::write(&mutant, text.replacen(from, to, 1)).unwrap();
    match check(module, &mutant, &rtl, "mutant") {
        Outcome::Failed { step, vcd } => {
            // The first cycle the two differ in, whatever the mutant: they agree on every
            // cycle before it (the mutant chosen, and so that cycle, comes from the registry).
            assert!(step >= 1, "{module}: failed at step {step}");
            if step > 1 {
                let before = check_to(
                    step - 1,
                    Synthesis::default(),
                    module,
                    (&mutant, &rtl),
                    "mutant_before",
                );
                assert_eq!(
                    before,
                    Outcome::Bounded { depth: step - 1 },
                    "{module}: differs before step {step}"
                );
            }
            let trace = std::fs::read_to_string(&vcd).unwrap();
            assert!(trace.contains("\\in_"), "the counterexample shows the inputs: {trace}");
        }
        other => panic!("the mutant should fail: {other}"),
    }
}

/// The other mappers' netlists (`build --mapper`) are checked the same way, on the first quick
/// block. ABC9 keeps the registers, so it is proven; with `-dff` it may move them, so the
/// pairing by name is incomplete and the check is bounded (to all 20 cycles asked for: no time
/// limit here).
#[test]
fn abc9_netlists_equal_their_source() {
    let module = quick()[0].module;
    let rtl = exported(module);
    for (mapper, tag) in [(Mapper::Abc9, "abc9"), (Mapper::Abc9Dff, "abc9_dff")] {
        let synthesis = Synthesis { dffe: false, mapper };
        let outcome = check_with(synthesis, module, &rtl, &rtl, tag);
        let script = work_dir_script(tag);
        assert!(script.contains(&synthesis.command()), "{script}");
        match mapper {
            Mapper::Abc9 => assert!(matches!(outcome, Outcome::Proven { .. }), "{outcome}"),
            _ => assert!(
                matches!(outcome, Outcome::Proven { .. } | Outcome::Bounded { depth: 20 }),
                "{outcome}"
            ),
        }
    }
}

/// The script the last check of `tag` ran.
fn work_dir_script(tag: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("synthesis").join(tag);
    ["bounded.ys", "induction.ys"]
        .iter()
        .find_map(|f| std::fs::read_to_string(dir.join(f)).ok())
        .unwrap_or_default()
}

/// A shift register with feedback as rust-hdl writes one (the structure of the exported LFSR):
/// the fixture of the `scripts/equiv.sh` test.
const SHIFTER: &str = "\
module shifter(clock,reset,enable,value);
    input wire  clock;
    input wire  reset;
    input wire  enable;
    output reg  [31:0] value;
    localparam  taps = 32'h80200003;
    localparam  seed = 32'hace12026;
    reg  [31:0] state$d;
    wire  [31:0] state$q;
    reg  state$clock;
    shifter__state state(
        .d(state$d),
        .q(state$q),
        .clock(state$clock)
    );
    always @(*) begin
        state$clock = clock;
        state$d = state$q;
        value = state$q;
        if (reset) begin
            state$d = seed;
        end
        else if (enable) begin
            if (state$q[32'h0]) begin
                state$d = (state$q >> 32'h1) ^ taps;
            end
            else begin
                state$d = state$q >> 32'h1;
            end
        end
    end
endmodule // shifter

module shifter__state(d,q,clock);
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    initial begin
       q = 32'h0;
    end
    always @(posedge clock) begin
       q <= d;
    end
endmodule // shifter__state
";

/// `scripts/equiv.sh`, which proves a refactor left the hardware alone, has teeth: in a scratch
/// repository holding it and a shift register with feedback in `rtl_out/cu/`, a working-tree
/// change that keeps the behaviour (the branches of the shift written the other way round) is
/// proven equal, and a mutant (a tap dropped from the feedback) is refused with exit code 1.
#[test]
fn equiv_script_proves_a_refactor_and_refuses_a_mutant() {
    let repo = work_dir("equiv_script");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    std::fs::create_dir_all(repo.join("rtl_out/cu")).unwrap();
    std::fs::copy("scripts/equiv.sh", repo.join("scripts/equiv.sh")).unwrap();
    let original = SHIFTER.to_string();
    let file = repo.join("rtl_out/cu/shifter.v");
    std::fs::write(&file, &original).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).current_dir(&repo).output().unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "gold"]);
    let equiv = || {
        let out =
            std::process::Command::new("bash").arg(repo.join("scripts/equiv.sh")).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string())
    };
    let (shift, feedback) = ("state$d = state$q >> 32'h1;", "state$d = (state$q >> 32'h1) ^ taps;");
    assert!(
        original.contains(shift) && original.contains(feedback),
        "the texts changed in the fixture"
    );
    let refactor = original.replace(
        "if (state$q[32'h0]) begin",
        "if (!state$q[32'h0]) begin\n                state$d = state$q >> 32'h1;\n            end\n            else begin",
    );
    let refactor = refactor.replacen(
        &format!("            end\n            else begin\n                {shift}\n"),
        "",
        1,
    );
    std::fs::write(&file, &refactor).unwrap();
    let (code, out) = equiv();
    assert_eq!(code, Some(0), "the refactor: {out}");
    assert!(out.contains("proven equal"), "{out}");
    std::fs::write(
        &file,
        original.replace(feedback, "state$d = (state$q >> 32'h1) ^ (taps >> 32'h1);"),
    )
    .unwrap();
    let (code, out) = equiv();
    assert_eq!(code, Some(1), "the mutant: {out}");
    assert!(out.contains("NOT proven equal") && out.contains("1 not proven"), "{out}");
}
