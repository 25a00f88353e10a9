//! `simt-rtl prove --synth`: each exported block proven equal to the iCE40 netlist that yosys
//! synthesizes from it, the netlist that `build` and `report` place and route.
//!
//! The two sides:
//! - **gold**, the exported Verilog elaborated as written (`proc; flatten; memory_map`);
//! - **gate**, the same file through `synth_ice40` ([`SYNTH_ICE40`](super::SYNTH_ICE40) unless
//!   another [`Synthesis`](super::Synthesis) is asked for), its iCE40 cells
//!   (`SB_LUT4`, `SB_CARRY`, `SB_DFF*`, `SB_RAM40_4K`) replaced by yosys's own simulation models
//!   of them (`ice40/cells_sim.v` of the installed yosys; only those modules are read: the whole
//!   file is slow to elaborate).
//!
//! Both start from the iCE40's power-on state: every flip-flop 0 (the exported registers'
//! `initial` values are 0, as are the cell models'), every block RAM word its initial value.
//!
//! The check, within one time budget per block:
//! 1. **Induction.** `equiv_make` pairs the ports and every register of the two by name (a
//!    register's output wire keeps its name through synthesis). No other wire is paired: the
//!    logic between registers may legitimately differ where its value does not matter (a
//!    next-state wire where the flip-flop's synchronous reset overrides it). The base case asks that every pair be equal in the first
//!    k cycles from power-on (`equiv_miter`, `sat -seq k`). The step is `equiv_simple -seq k`
//!    then `equiv_induct -seq k`: pairs equal for k cycles stay equal. When both pass, the
//!    block is [`Outcome::Proven`]: its outputs are equal on every cycle.
//! 2. **Bounded, where induction does not close.** The words of a block RAM are not paired by
//!    name (the model's words are laid out as the RAM stores them), so the registers loaded from
//!    one are not proven either: a block with a memory goes straight to this check. A miter of the outputs
//!    is then checked from power-on for `depth` cycles (`sat -tempinduct-baseonly`):
//!    [`Outcome::Bounded`], or [`Outcome::Failed`] with the counterexample as VCD. Each cycle
//!    costs more than the one before; where the time budget runs out first, the outcome is
//!    bounded to the cycles checked by then (and [`Outcome::TimedOut`] when not one was).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::prove::{last_lines, run_logged, OutOfTime, Outcome};

/// Cycles of the base case and of the induction step.
pub const INDUCTION_STEPS: usize = 4;

/// One block to check: `gold` is the Verilog it is proven against, `synthesized` the Verilog
/// that is synthesized (the same file, but for a test that gives them different ones).
pub struct SynthCheck<'a> {
    pub module: &'a str,
    pub gold: &'a Path,
    pub synthesized: &'a Path,
    /// How the netlist is synthesized.
    pub synthesis: super::Synthesis,
    /// Cycles from power-on of the bounded check.
    pub depth: usize,
    /// Working directory: scripts, logs, the counterexample.
    pub dir: &'a Path,
    /// Time the whole check may take; then [`Outcome::TimedOut`].
    pub budget: Option<Duration>,
}

/// Proves `check.module` equal to its synthesized netlist (see the module documentation).
pub fn prove_synthesis(check: &SynthCheck) -> Result<Outcome> {
    if check.depth == 0 {
        bail!("`--depth` must be at least 1");
    }
    super::require_tool("yosys")?;
    for file in [check.gold, check.synthesized] {
        if !file.is_file() {
            bail!("{} does not exist: run `simt-rtl gen` first", file.display());
        }
    }
    std::fs::create_dir_all(check.dir)
        .with_context(|| format!("cannot create {}", check.dir.display()))?;
    let dir = check.dir.canonicalize()?;
    std::fs::write(dir.join("cells.v"), cell_models()?)?;
    let runs = Runs { dir, deadline: check.budget.map(|b| Instant::now() + b) };
    let gold = std::fs::read_to_string(check.gold)
        .with_context(|| format!("cannot read {}", check.gold.display()))?;
    if !has_memory(&gold) {
        if let Some(outcome) = induction(check, &runs)? {
            return Ok(outcome);
        }
    }
    bounded(check, &runs)
}

/// The induction: `Some` outcome when it proved the block or ran out of time, `None` when it
/// left pairs unproven.
fn induction(check: &SynthCheck, runs: &Runs) -> Result<Option<Outcome>> {
    let (log, stopped) = runs.run("induction", pair_script(check)? + &induction_script())?;
    if stopped {
        return Ok(Some(timed_out(check)));
    }
    if log.contains("Equivalence successfully proven!") {
        return Ok(Some(Outcome::Proven { k: INDUCTION_STEPS }));
    }
    let unproven = log.contains("unproven $equiv cells")
        || log.contains("Called with -verify and proof did fail!");
    if !unproven {
        let log_path = runs.dir.join("induction.log");
        bail!(
            "yosys failed on `{}` (log {}):\n{}",
            check.module,
            log_path.display(),
            last_lines(&log, 8)
        );
    }
    Ok(None)
}

/// The bounded check from power-on: bounded to `check.depth` (or to the cycles checked when
/// time ran out), or failed.
fn bounded(check: &SynthCheck, runs: &Runs) -> Result<Outcome> {
    let vcd = runs.dir.join("counterexample.vcd");
    let script = pair_script(check)? + &bounded_script(check.depth, &vcd);
    let (log, stopped) = runs.run("bounded", script)?;
    if stopped {
        return Ok(match base_cases_started(&log).saturating_sub(1) {
            0 => timed_out(check),
            depth => Outcome::Bounded { depth },
        });
    }
    let no_verdict =
        || format!("yosys gave no verdict (log {})", runs.dir.join("bounded.log").display());
    bounded_verdict(&log, check.depth, vcd).with_context(no_verdict)
}

fn timed_out(check: &SynthCheck) -> Outcome {
    Outcome::TimedOut { secs: check.budget.map_or(0, |b| b.as_secs()) }
}

/// yosys runs in a check's directory, each stopped at the check's deadline.
struct Runs {
    dir: PathBuf,
    deadline: Option<Instant>,
}

impl Runs {
    /// Runs `script` as `name.ys`: its log (`name.log`), and whether it was stopped at the
    /// deadline.
    fn run(&self, name: &str, script: String) -> Result<(String, bool)> {
        std::fs::write(self.dir.join(format!("{name}.ys")), script)?;
        let log = self.dir.join(format!("{name}.log"));
        let mut cmd = Command::new("yosys");
        cmd.arg(format!("{name}.ys")).current_dir(&self.dir);
        match run_logged(&mut cmd, "yosys", &log, self.deadline) {
            Err(e) if e.is::<OutOfTime>() => Ok((std::fs::read_to_string(&log)?, true)),
            other => other.map(|text| (text, false)),
        }
    }
}

/// Whether `verilog` declares a memory (`reg [31:0] mem [0:15];`): its words cannot be paired
/// with the netlist's RAM, so induction would not close and the check goes straight to the
/// bounded one.
fn has_memory(verilog: &str) -> bool {
    verilog.lines().map(str::trim).any(|l| {
        let Some(decl) = l.strip_prefix("reg").and_then(|d| d.strip_suffix(';')) else {
            return false;
        };
        // After the width, if any: the name, then the words' range.
        let rest = decl.trim_start();
        let rest =
            if rest.starts_with('[') { &rest[rest.find(']').map_or(0, |i| i + 1)..] } else { rest };
        rest.trim_start().split_once('[').is_some_and(|(name, _)| !name.trim().is_empty())
    })
}

/// The yosys commands that leave the modules `gold` and `gate` (both flat) in the design.
fn pair_script(check: &SynthCheck) -> Result<String> {
    let (m, gold, synthesized) =
        (check.module, check.gold.canonicalize()?, check.synthesized.canonicalize()?);
    let elaborate = "proc; flatten; opt; memory -nomap; memory_map; opt; opt_clean";
    Ok(format!(
        "read_verilog -noautowire {gold}\nhierarchy -check -top {m}\n{elaborate}\nrename {m} gold\ndesign -stash gold\n\
         read_verilog -noautowire {synthesized}\n{synth} -top {m}\nrename {m} gate\n\
         read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS cells.v\nhierarchy -check -top gate\n{elaborate}\ndesign -stash gate\n\
         design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n",
        gold = gold.display(),
        synthesized = synthesized.display(),
        synth = check.synthesis.command(),
    ))
}

/// Pairs by name, the base case, the induction step.
fn induction_script() -> String {
    let k = INDUCTION_STEPS;
    // Every wire but the ports and the flip-flops' outputs (with the wires that are the same net)
    // loses its name, so that `equiv_make` does not pair it.
    let hide = |m: &str| {
        format!("cd {m}\nrename -hide w:* i:* o:* %u %d t:*dff* %co:+[Q] w:* %i %a %d\ncd ..\n")
    };
    let (hide_gold, hide_gate) = (hide("gold"), hide("gate"));
    format!(
        "{hide_gold}{hide_gate}equiv_make gold gate equiv\nhierarchy -top equiv\ndesign -save paired\n\
         equiv_miter -assert base equiv\nhierarchy -top base\nsat -verify -seq {k} -set-init-zero -prove-asserts base\n\
         design -load paired\nequiv_simple -seq {k}\nequiv_induct -seq {k}\nequiv_status -assert\n"
    )
}

/// The miter of the outputs from power-on for `depth` cycles, a counterexample to `vcd`.
fn bounded_script(depth: usize, vcd: &Path) -> String {
    format!(
        "miter -equiv -flatten -make_assert gold gate miter\nhierarchy -top miter\n\
         sat -tempinduct -tempinduct-baseonly -prove-asserts -set-init-zero -seq 0 -maxsteps {depth} -show-inputs -show-outputs -dump_vcd {} miter\n",
        vcd.display()
    )
}

/// The outcome of the bounded check from its log.
fn bounded_verdict(log: &str, depth: usize, vcd: PathBuf) -> Result<Outcome> {
    if log.contains("model found for base case: FAIL!") {
        return Ok(Outcome::Failed { step: base_cases_started(log), vcd });
    }
    if log.contains("proved base case for") && log.contains("SUCCESS!") {
        return Ok(Outcome::Bounded { depth });
    }
    bail!("{}", last_lines(log, 8))
}

/// The cycle count of the last base case the bounded check started (`sat -tempinduct`
/// checks 1, 2, 3, ... cycles from power-on in turn).
fn base_cases_started(log: &str) -> usize {
    log.lines()
        .filter_map(|l| l.strip_prefix("** Trying induction with length "))
        .filter_map(|s| s.trim_end_matches(" **").trim().parse().ok())
        .next_back()
        .unwrap_or(0)
}

/// yosys's simulation models of the cells `synth_ice40` makes of a block, with the file's
/// preamble (its `define`s).
fn cell_models() -> Result<String> {
    let text = super::ice40_cell_models()?;
    let preamble: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("module ") && !l.starts_with("(*"))
        .filter(|l| l.starts_with('`'))
        .collect();
    let mut out = preamble.join("\n") + "\n";
    let mut attribute = "";
    let mut keep = false;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("module ") {
            let name = name.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap_or("");
            keep = ["SB_LUT4", "SB_CARRY", "SB_RAM40_4K"].contains(&name)
                || name.starts_with("SB_DFF");
            if keep {
                out += attribute;
                out += "\n";
            }
        }
        if keep {
            out += line;
            out += "\n";
            keep = line.trim() != "endmodule";
        }
        attribute = if line.starts_with("(*") { line } else { "" };
    }
    if !out.contains("module SB_LUT4") {
        bail!("yosys's ice40/cells_sim.v has no `SB_LUT4` model");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::has_memory;

    #[test]
    fn memories_are_told_from_registers() {
        for memory in ["    reg [31:0] mem [0:15];", "reg[15:0] mem[255:0];", "reg bits [0:3];"] {
            assert!(has_memory(memory), "{memory}");
        }
        for register in
            ["    reg  [3:0] la;", "reg  bad_op;", "reg [31:0] q = 0;", "wire [3:0] w [0:1];"]
        {
            assert!(!has_memory(register), "{register}");
        }
    }
}
