//! `simt-rtl prove`: the formal properties of the exported Verilog, or each block against its
//! iCE40 netlist.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::{exported_files, markdown_output, write_table};
use crate::flow::results;
use crate::flow::{Mapper, Synthesis};
use crate::sim::output::Output;

// The flags of `simt-rtl prove`.
#[derive(clap::Args)]
pub struct Prove {
    /// Preset whose rtl_out/ Verilog is checked.
    #[arg(long, default_value = "cu")]
    pub preset: String,
    /// Only this block (its exported module's whole name; repeat for more).
    #[arg(long)]
    pub block: Vec<String>,
    /// Only this property (its label in the block's .sv file; repeat for more). Needs --block.
    #[arg(long, requires = "block", conflicts_with = "synth")]
    pub property: Vec<String>,
    /// Prove every exported block (not its properties) equal to the netlist yosys
    /// `synth_ice40 -nodffe` makes of it, by induction where it closes, else bounded to
    /// --depth cycles from power-on (yosys equiv_induct, sat).
    #[arg(long)]
    pub synth: bool,
    /// With --synth: flip-flops with clock enables, as `build --dffe`.
    #[arg(long, requires = "synth")]
    pub dffe: bool,
    /// With --synth: yosys's LUT mapper, as `build --mapper`.
    #[arg(long, default_value = "abc", requires = "synth")]
    pub mapper: Mapper,
    /// Cycles from reset of the bounded check.
    #[arg(long, default_value_t = 20)]
    pub depth: usize,
    /// Seconds each property (with --synth, each block) may take (1 to 86400); one that
    /// takes longer is reported as `timed out after N s`, neither proven nor failed.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// The exported Verilog.
    #[arg(long, default_value = "rtl_out")]
    pub rtl: PathBuf,
    /// Working directory (SMT-LIB files, logs, counterexample traces).
    #[arg(long, default_value = "build/prove")]
    pub out: PathBuf,
    /// Also write the table, stamped with this command, the commit and the tool versions,
    /// to this Markdown file (e.g. docs/src/results/report-cu.md).
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

/// `simt-rtl prove`: the formal properties, or with `--synth` each block against its netlist.
pub fn prove(a: Prove) -> Result<()> {
    let budget = std::time::Duration::from_secs(a.timeout);
    let markdown = markdown_output(a.markdown.as_deref(), std::slice::from_ref(&a.rtl))?;
    if a.synth {
        let synthesis = Synthesis { dffe: a.dffe, mapper: a.mapper };
        let dirs = (a.rtl.as_path(), a.out.as_path());
        prove_synth(&a.preset, &a.block, synthesis, a.depth, budget, dirs, markdown)
    } else {
        let only = (a.block.as_slice(), a.property.as_slice());
        properties(&a.preset, only, a.depth, budget, &a.rtl, &a.out, markdown.as_ref())
    }
}

/// `simt-rtl prove`: one line per property; exit 1 when one fails.
fn properties(
    preset: &str,
    (block, property): (&[String], &[String]),
    depth: usize,
    budget: std::time::Duration,
    rtl: &Path,
    out: &Path,
    markdown: Option<&Output>,
) -> Result<()> {
    use crate::flow::prove::{prove_each, Outcome};
    let p = crate::params::preset(preset)?;
    let blocks: Vec<_> = formal_blocks(preset)?
        .into_iter()
        .filter(|b| block.is_empty() || block.iter().any(|n| n == b.module))
        .collect();
    for name in block.iter().filter(|n| !blocks.iter().any(|b| b.module == n.as_str())) {
        refuse_formal_block(name, preset)?;
    }
    let mut failed = 0;
    let mut table =
        "| block | property | result | seconds (the whole block) |\n|---|---|---|---:|\n"
            .to_string();
    let mut progress = ProveProgress::new(&blocks, &p, property, budget)?;
    let mut inputs = vec![];
    for b in blocks {
        let dir = out.join(preset).join(b.module);
        let rtl_file = rtl.join(preset).join(format!("{}.v", b.module));
        inputs.extend([rtl_file.clone(), PathBuf::from(b.properties)]);
        let start = std::time::Instant::now();
        let next = &mut |name: &str| progress.next(b.module, name);
        let outcomes = prove_each(&b, &p, (&rtl_file, &dir), depth, property, Some(budget), next)
            .with_context(|| format!("proving {}", b.module))?;
        progress.clear();
        let secs = format!("{:.0}", start.elapsed().as_secs_f64());
        for (i, (name, outcome)) in outcomes.into_iter().enumerate() {
            failed += matches!(outcome, Outcome::Failed { .. }) as usize;
            say!("{}: {name}: {outcome}", b.module);
            let time = if i == 0 { secs.as_str() } else { "" };
            table += &format!("| {} | {name} | {outcome} | {time} |\n", b.module);
        }
        for (name, why) in
            crate::flow::prove::inapplicable(&b, &p)?.iter().filter(|_| property.is_empty())
        {
            say!("{}: {name}: not checked: {why}", b.module);
            table += &format!("| {} | {name} | not checked: {why} | |\n", b.module);
        }
    }
    let title = format!("Formal properties: preset `{preset}`");
    let tools = [results::YOSYS, results::BITWUZLA, results::YICES];
    write_table(&table, markdown, &title, (&tools, &inputs))?;
    if failed > 0 {
        anyhow::bail!("{failed} propert{} failed", if failed == 1 { "y" } else { "ies" });
    }
    Ok(())
}

/// `prove`'s overall progress on a terminal: property i of N, the time elapsed, and the most
/// the properties left may take (each at most its `--timeout`).
struct ProveProgress {
    total: usize,
    done: usize,
    budget: std::time::Duration,
    start: std::time::Instant,
    shown: bool,
}

impl ProveProgress {
    fn new(
        blocks: &[crate::registry::FormalBlock],
        preset: &crate::params::Preset,
        only: &[String],
        budget: std::time::Duration,
    ) -> Result<ProveProgress> {
        let mut total = 0;
        for b in blocks {
            total += crate::flow::prove::checked_names(b, preset, only)?.len();
        }
        let (start, shown) = (std::time::Instant::now(), std::io::stderr().is_terminal());
        Ok(ProveProgress { total, done: 0, budget, start, shown })
    }

    /// Property `name` of `block` starts.
    fn next(&mut self, block: &str, name: &str) {
        self.done += 1;
        if self.shown {
            let elapsed = self.start.elapsed().as_secs();
            let most = (self.total + 1 - self.done) as u64 * self.budget.as_secs();
            eprint!(
                "\r\x1b[Kprove: property {} of {}: {block}: {name}; {}:{:02} elapsed, at most {}:{:02} left",
                self.done, self.total, elapsed / 60, elapsed % 60, most / 60, most % 60
            );
        }
    }

    /// Clears the progress line before results are printed.
    fn clear(&self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// `simt-rtl prove --synth`: one line per exported block; exit 1 when one fails.
fn prove_synth(
    preset: &str,
    block: &[String],
    synthesis: Synthesis,
    depth: usize,
    budget: std::time::Duration,
    (rtl, out): (&Path, &Path),
    markdown: Option<Output>,
) -> Result<()> {
    use crate::flow::prove::Outcome;
    use crate::flow::synth_equiv::{prove_synthesis, SynthCheck};
    let blocks = crate::with_preset!(preset, B => crate::flow::soak::modules::<B>(block))?;
    let mut failed = 0;
    let mut table = "| block | result | seconds |\n|---|---|---:|\n".to_string();
    for module in &blocks {
        let file = rtl.join(preset).join(format!("{module}.v"));
        let dir = out.join("synth").join(preset).join(module);
        let check = SynthCheck {
            module,
            gold: &file,
            synthesized: &file,
            synthesis,
            depth,
            dir: &dir,
            budget: Some(budget),
        };
        let start = std::time::Instant::now();
        let outcome = prove_synthesis(&check).with_context(|| format!("proving {module}"))?;
        failed += matches!(outcome, Outcome::Failed { .. }) as usize;
        say!("{module}: synthesis: {outcome}");
        table += &format!("| {module} | {outcome} | {:.0} |\n", start.elapsed().as_secs_f64());
    }
    table += &format!(
        "\nSynthesis: yosys `{}`; each block within {} s.\n",
        synthesis.command(),
        budget.as_secs()
    );
    let title = format!("Blocks equal to their iCE40 netlists: preset `{preset}`");
    let inputs = exported_files(rtl, preset, &blocks);
    write_table(&table, markdown.as_ref(), &title, (&[results::YOSYS], &inputs))?;
    if failed > 0 {
        anyhow::bail!(
            "{failed} block{} differ from their netlists",
            if failed == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// The blocks of `preset` with formal properties, from the registry.
fn formal_blocks(preset: &str) -> Result<Vec<crate::registry::FormalBlock>> {
    crate::with_preset!(preset, B => Ok(crate::registry::formal_blocks::<B>()))
}

/// The error for `--block name`, which has no properties at `preset`: it names the preset that
/// exports the block with properties, or every block with properties.
fn refuse_formal_block(name: &str, preset: &str) -> Result<()> {
    let mut known: Vec<&str> = vec![];
    for other in crate::params::PRESETS.map(|p| p.name) {
        let modules: Vec<&str> = formal_blocks(other)?.iter().map(|b| b.module).collect();
        if other != preset && modules.contains(&name) {
            anyhow::bail!("--block `{name}` is exported for preset `{other}` only, not `{preset}`");
        }
        for m in modules {
            if !known.contains(&m) {
                known.push(m);
            }
        }
    }
    anyhow::bail!(
        "--block `{name}` has no formal properties (blocks with properties: {})",
        known.join(", ")
    )
}
