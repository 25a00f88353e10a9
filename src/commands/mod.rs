//! The `simt-rtl` commands, one handler per subcommand (with the `cli` feature): `main.rs`
//! parses the command line into these argument structs and calls the handler; each handler
//! checks its inputs and outputs before any work, calls the flows and prints what they found.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::flow::results;
use crate::sim::output::{Allow, Output};

/// `println!` that returns an error from the calling function when standard output is a closed
/// pipe or a full disk, instead of panicking. When an output is standard output (`--json -`),
/// the messages go to standard error, so that standard output is exactly that document.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if $crate::sim::output::stdout_is_document() {
            eprintln!($($arg)*);
        } else {
            let mut out = std::io::stdout().lock();
            let written = writeln!(out, $($arg)*).and_then(|_| out.flush());
            ::anyhow::Context::context(written, "cannot write standard output")?
        }
    }};
}

/// `print!` as [`say!`].
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if $crate::sim::output::stdout_is_document() {
            eprint!($($arg)*);
        } else {
            let mut out = std::io::stdout().lock();
            let written = write!(out, $($arg)*).and_then(|_| out.flush());
            ::anyhow::Context::context(written, "cannot write standard output")?
        }
    }};
}

// After the macros: the handlers' modules use them.
pub mod board;
pub mod inputs;
pub mod kernel;
pub mod measure;
pub mod prove;
mod shown;

use inputs::read_kernel;

/// `simt-rtl sim`: the demo scenario on the preset's warp scheduler, as a VCD and an SVG.
pub fn sim(preset: &str, out: &Path) -> Result<()> {
    let (vcd, svg) = crate::with_preset!(preset, B => crate::demo::run_demo::<B>(out))
        .with_context(|| format!("demo for preset `{preset}`"))?;
    say!("wrote {}\nwrote {}", vcd.display(), svg.display());
    Ok(())
}

/// Prints a measured table and, when asked, writes it stamped to a Markdown file.
fn emit(
    table: &str,
    markdown: Option<&Output>,
    title: &str,
    stamped: (&[results::Tool], &[PathBuf]),
) -> Result<()> {
    say_raw!("{table}");
    write_table(table, markdown, title, stamped)
}

/// Writes a measured table to the Markdown file `--markdown` named, if any, stamped with the
/// versions of `tools` and the hashes of `inputs` (the files it measured: [`results::stamp`]).
fn write_table(
    table: &str,
    markdown: Option<&Output>,
    title: &str,
    (tools, inputs): (&[results::Tool], &[PathBuf]),
) -> Result<()> {
    if let Some(out) = markdown {
        results::write_markdown(out, title, (tools, inputs), table)?;
        if !out.is_stdout() {
            say!("wrote {}", out.path().display());
        }
    }
    Ok(())
}

/// The `--markdown` output, checked (and a device or FIFO opened) before any work; it may not
/// be one of the command's `inputs`.
fn markdown_output(path: Option<&Path>, inputs: &[PathBuf]) -> Result<Option<Output>> {
    let files = read_files(inputs);
    let inputs: Vec<(&str, &Path)> = files.iter().map(|p| ("an input", p.as_path())).collect();
    path.map(|p| Output::new("--markdown", p, Allow::Any, &inputs)).transpose()
}

/// Every file a command reads for its inputs `inputs`: each input; beside a kernel (`.s`), the
/// files that may be its inputs ([`inputs::files_beside`]); and every file under a directory (an
/// `--rtl` tree), to a depth of 3.
fn read_files(inputs: &[PathBuf]) -> Vec<PathBuf> {
    fn under(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for path in entries.flatten().map(|e| e.path()).take(10_000) {
            if path.is_dir() && depth > 0 {
                under(&path, depth - 1, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = vec![];
    for input in inputs {
        files.push(input.clone());
        if input.extension().is_some_and(|e| e == "s") {
            files.extend(inputs::files_beside(input));
        } else if input.is_dir() {
            under(input, 3, &mut files);
        }
    }
    files
}

/// The exported Verilog of `modules` at `preset` under `rtl` (`rtl/<preset>/<module>.v`).
fn exported_files<S: AsRef<str>>(rtl: &Path, preset: &str, modules: &[S]) -> Vec<PathBuf> {
    modules.iter().map(|m| rtl.join(preset).join(format!("{}.v", m.as_ref()))).collect()
}

/// The block preset that exports the core `core` (whose `rtl_out/<preset>/` holds its Verilog).
fn exporting_preset(core: crate::params::CoreParams) -> Option<&'static crate::params::Preset> {
    crate::params::PRESETS.iter().find(|p| p.core.map(|c| c.name) == Some(core.name))
}

/// The inputs of a table of kernels: each kernel, its `.lds` when there is one, and the exported
/// Verilog of the core `core` (`rtl_out/<preset>/simt_core*.v` of the block preset that exports
/// it, from the registry) whose cycles it counts.
fn kernel_files(kernels: &[PathBuf], core: crate::params::CoreParams) -> Vec<PathBuf> {
    let preset = exporting_preset(core);
    let mut files = vec![];
    if let Some(preset) = preset {
        let cores = || -> Result<Vec<&'static str>> {
            crate::with_preset!(preset.name, B => Ok(crate::registry::entries::<B>()
                .iter()
                .map(|e| e.module)
                .filter(|m| m.starts_with(crate::hw::core::simt_core::MODULE))
                .collect()))
        };
        let cores = cores().expect("every preset has block types");
        files = exported_files(Path::new("rtl_out"), preset.name, &cores);
    }
    for kernel in kernels {
        files.push(kernel.clone());
        files.extend(Some(kernel.with_extension("lds")).filter(|l| l.is_file()));
    }
    files
}

/// `simt-rtl gen`: the Verilog of `presets` into `out`, the constraints (default `constraints`
/// beside `out`) and, with preset `cu`, the FuseSoC core (default `simt_rtl.core` beside `out`),
/// as `rtl_out/`, `constraints/` and `simt_rtl.core` stand in this repository.
pub fn gen(
    presets: &[String],
    out: &Path,
    constraints: Option<&Path>,
    fusesoc: Option<&Path>,
) -> Result<()> {
    let beside_out = out.parent().unwrap_or(Path::new(""));
    let constraints =
        &constraints.map_or_else(|| beside_out.join("constraints"), Path::to_path_buf);
    let fusesoc = &fusesoc.map_or_else(|| beside_out.join("simt_rtl.core"), Path::to_path_buf);
    let presets: Vec<&str> = if presets.is_empty() {
        vec!["cu", "seed"]
    } else {
        presets.iter().map(String::as_str).collect()
    };
    for p in &presets {
        crate::params::preset(p)?;
    }
    // The directories this run would make, each from its first missing ancestor down.
    let made = [first_missing(out), first_missing(constraints)];
    results::writable_dir(out)?;
    // The FuseSoC core (with preset `cu`) and where it finds the files, checked before writing.
    let core = results::writable_dir(constraints).and_then(|()| {
        let core = presets.contains(&"cu").then_some(fusesoc);
        core.map(|c| Ok((c, crate::flow::fusesoc::layout(c, out, constraints)?))).transpose()
    });
    let core = match core {
        Ok(c) => c,
        Err(e) => {
            // What this run made, where still empty.
            for (dir, top) in [out, constraints.as_path()].into_iter().zip(&made) {
                let Some(top) = top else { continue };
                for d in dir.ancestors().take_while(|d| d.starts_with(top)) {
                    let _ = std::fs::remove_dir(d);
                }
            }
            return Err(e);
        }
    };
    let mut written = crate::flow::gen::generate(&presets, out)?;
    written.extend(crate::boards::write_constraints(constraints)?);
    if let Some((path, layout)) = &core {
        written.push(crate::flow::fusesoc::write_core(path, layout)?);
    }
    for path in written {
        say!("wrote {}", path.display());
    }
    Ok(())
}

/// The outermost of `dir` and its ancestors that does not exist yet, if any.
fn first_missing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
        .last()
        .map(Path::to_path_buf)
}

/// `simt-rtl asm`: the words (or with `listing` the listing) of the kernel `file`.
pub fn asm(file: &Path, out: Option<&Path>, listing: bool) -> Result<()> {
    let out = out.map(|o| Output::new("--out", o, Allow::Any, &[("the source file", file)]));
    let out = out.transpose()?;
    let assembled = read_kernel(file)?;
    let words: String = if listing {
        assembled.text()
    } else {
        assembled.program.iter().map(|i| format!("{:08x}\n", i.encode())).collect()
    };
    match out {
        Some(out) if !out.is_stdout() => {
            out.write(&words)?;
            say!("wrote {} ({} instructions)", out.path().display(), assembled.program.len());
        }
        Some(out) => out.write(&words)?,
        None => say_raw!("{words}"),
    }
    Ok(())
}
