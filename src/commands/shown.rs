//! What `run` and `board run` show of a kernel's result (`--show`, `--json`, `--expect`).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::inputs::{read_bounded, INPUT_LIMIT};
use super::kernel::RunAbout;
use crate::flow::results;
use crate::sim::output::{Allow, Output};

/// What `run` and `board run` show of a kernel's result, and what they check it against.
#[derive(clap::Args)]
pub struct ResultArgs {
    /// What to print after the run: a comma-separated list of regs (the registers the program
    /// writes, per warp and lane), lds (the local data share's words that are not zero) and
    /// counters, or all, none or auto (all, but a table longer than 40 rows, as the seed core's
    /// registers, is a line saying what it holds).
    #[arg(long, default_value = "auto")]
    pub show: String,
    /// How the tables write each register and word: unsigned (decimal), signed (decimal, two's
    /// complement at the lane width) or hex. The JSON holds unsigned lane values whatever this
    /// says.
    #[arg(long, default_value = "unsigned", value_parser = crate::verify::kernel_results::ValueFormat::NAMES)]
    pub format: String,
    /// Also write registers, local data share, counters and how the run was made to this JSON
    /// file, or `-` for standard output (schema `simt-rtl-run/3`, in the book's command-line
    /// reference).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Expected values, one per line (`w0 l3 r6 = 7`, `lds 64 = 0x2a`): exit 1 naming the line of
    /// the first the kernel did not leave (default: K.CORE.expect beside the kernel K.s for the
    /// core preset it runs on, else K.expect, if any).
    #[arg(long)]
    pub expect: Option<PathBuf>,
    /// `expect` is `K.expect` found beside the kernel, not named by `--expect`.
    #[arg(skip)]
    pub expect_beside: bool,
}

/// `--show`, `--json` and `--expect`, checked and read before any run.
pub(super) struct Shown {
    show: crate::verify::kernel_results::Show,
    json: Option<Output>,
    /// How the run was made, recorded in the JSON.
    run: serde_json::Value,
    /// The expectations file's values.
    pub expect: Option<crate::verify::kernel_results::Expectations>,
    /// The expectations file was found beside the kernel, not named by `--expect`.
    pub expect_beside: bool,
}

impl Shown {
    /// For a run on `params`'s core, whose input and output files are `others` (each with
    /// what it is): `--json` may name none of them, nor `--expect`'s file.
    pub(super) fn new(
        args: &ResultArgs,
        params: crate::params::CoreParams,
        others: &[(&str, Option<&Path>)],
    ) -> Result<Shown> {
        let mut others: Vec<(&str, &Path)> =
            others.iter().filter_map(|(w, p)| Some((*w, (*p)?))).collect();
        others.extend(args.expect.as_deref().map(|e| ("the --expect file", e)));
        let json = args.json.as_deref().map(|j| Output::new("--json", j, Allow::Any, &others));
        let json = json.transpose()?;
        let expect = match &args.expect {
            Some(path) => {
                let text = read_bounded(path, INPUT_LIMIT)?;
                let name = path.display().to_string();
                match crate::verify::kernel_results::Expectations::parse(&name, &text, params) {
                    Ok(e) => Some(e),
                    // Found beside the kernel, not asked for: written for another core, say.
                    Err(e) if args.expect_beside => {
                        say!("{name} beside the kernel is left out: {e:#}");
                        None
                    }
                    Err(e) => return Err(e),
                }
            }
            None => None,
        };
        let mut show = crate::verify::kernel_results::Show::parse(&args.show)?;
        show.format = crate::verify::kernel_results::ValueFormat::parse(&args.format)?;
        let expect_beside = args.expect_beside && expect.is_some();
        Ok(Shown { show, json, run: serde_json::Value::Null, expect, expect_beside })
    }

    /// This run's record for the JSON: the kernel, the core, its policy and timing, the engine,
    /// the local data share's source, and this tool's version and commit.
    pub(super) fn about(
        mut self,
        kernel: &Path,
        params: crate::params::CoreParams,
        about: RunAbout,
    ) -> Shown {
        self.run = serde_json::json!({
            "kernel": kernel.display().to_string(),
            "core": params.name,
            "policy": params.policy.name(),
            "timing": params.collector_timing.name(),
            "engine": about.engine,
            "lds": about.lds.map(|p| p.display().to_string()),
            "seed": about.seed,
            "tool": { "version": env!("CARGO_PKG_VERSION"), "commit": results::commit() },
        });
        self
    }

    /// `check` (a comparison with the interpreter), after printing what `--show` asks for of
    /// `result` when it failed: the error then follows the results it is about.
    pub(super) fn unless(
        &self,
        check: Result<()>,
        result: &crate::verify::kernel_results::KernelResult,
        program: &[crate::isa::Inst],
    ) -> Result<()> {
        if check.is_err() {
            say_raw!("{}", result.text(program, self.show));
        }
        check
    }

    /// Prints what `--show` asks for, checks the expected values, and then (all of them
    /// matching) writes the JSON file.
    pub(super) fn emit(
        &self,
        result: &crate::verify::kernel_results::KernelResult,
        program: &[crate::isa::Inst],
    ) -> Result<()> {
        say_raw!("{}", result.text(program, self.show));
        if let Some(expected) = &self.expect {
            result.check(expected)?;
            say!("every value of {} is the kernel's", expected.path());
        }
        if let Some(out) = &self.json {
            out.write(serde_json::to_string_pretty(&result.json(&self.run))? + "\n")?;
            if !out.is_stdout() {
                say!("wrote {}", out.path().display());
            }
        }
        Ok(())
    }
}
