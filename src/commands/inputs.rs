//! A kernel run's input files: each read whole within a size limit, never a FIFO or a
//! directory, and refused in one line naming the file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::shown::{ResultArgs, Shown};
use crate::sim::output::{Allow, Output};

/// The most bytes read from a kernel, local-data-share or expectations file.
pub const INPUT_LIMIT: u64 = 1 << 20;

/// The text of `path`, refused when larger than `limit` bytes or not UTF-8 (never reads more).
pub fn read_bounded(path: &Path, limit: u64) -> Result<String> {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .file_type();
    // Opening a FIFO would wait for a writer; a directory has no text.
    for (is, what) in
        [(kind.is_fifo(), "a FIFO"), (kind.is_socket(), "a socket"), (kind.is_dir(), "a directory")]
    {
        if is {
            anyhow::bail!("{}: is {what}, not a file", path.display());
        }
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = vec![];
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{}: larger than {limit} bytes, the most an input file may be",
            path.display()
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    // A byte-order mark, as some editors write at the start of UTF-8 text, is not text.
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// A kernel's assembly source, assembled (errors as `FILE:LINE: message`).
pub fn read_kernel(path: &std::path::Path) -> Result<crate::isa::asm::Listing> {
    let source = read_bounded(path, INPUT_LIMIT)?;
    at_file(path, crate::isa::asm::assemble_listing(&source))
}

/// As [`read_kernel`], refused at the first line using an extension `core` lacks.
pub fn read_kernel_for(
    path: &std::path::Path,
    core: &crate::params::CoreParams,
) -> Result<crate::isa::asm::Listing> {
    at_file(path, read_kernel(path)?.for_core(core))
}

/// An assembler error at a line as `FILE:LINE: message`; another as `FILE: message`.
fn at_file<T>(path: &Path, result: Result<T>) -> Result<T> {
    use crate::isa::asm::AtLine;
    result.map_err(|e| match e.downcast_ref::<AtLine>() {
        Some(at) => anyhow::anyhow!("{}:{}: {}", path.display(), at.line, at.message),
        None => e.context(path.display().to_string()),
    })
}

/// A kernel's local data share: the hex words of `path` (one per line), or pseudo-random words.
pub fn read_lds(
    path: Option<&std::path::Path>,
    seed: u64,
    params: crate::params::CoreParams,
) -> Result<Vec<u32>> {
    match path {
        Some(path) => {
            let text = read_bounded(path, INPUT_LIMIT)?;
            crate::isa::lds_words(&text, &path.display().to_string(), params)
        }
        None => {
            let mut rng = crate::sim::Rng::new(seed);
            Ok((0..params.lds_words()).map(|_| rng.bits(params.lane_bits) as u32).collect())
        }
    }
}

/// Each kernel as its path, its program and its local data share (`K.lds` beside `K.s`, else
/// pseudo-random words from seed 1).
pub(super) fn kernel_inputs(
    kernels: &[PathBuf],
    params: crate::params::CoreParams,
) -> Result<Vec<crate::verify::core_run::KernelInput>> {
    let mut inputs = vec![];
    for path in kernels {
        let listing = read_kernel_for(path, &params)?;
        let lds = path.with_extension("lds");
        let lds = read_lds(lds.exists().then_some(lds.as_path()), 1, params)?;
        inputs.push((path.display().to_string(), listing.program, lds));
    }
    Ok(inputs)
}

/// As [`kernel_inputs`], each kernel named by its file's stem (`loop` for `kernels/loop.s`).
pub(super) fn named_kernel_inputs(
    kernels: &[PathBuf],
    params: crate::params::CoreParams,
) -> Result<Vec<crate::verify::core_run::KernelInput>> {
    let mut inputs = kernel_inputs(kernels, params)?;
    for (path, (name, _, _)) in kernels.iter().zip(&mut inputs) {
        *name = path.file_stem().map_or(name.clone(), |s| s.to_string_lossy().into());
    }
    Ok(inputs)
}

/// `K.lds` and the expectations beside the kernel `K.s`, when `--lds` and `--expect` name no
/// file: `K.CORE.expect` for the core preset `core` it runs on (`K.seed-core.expect`), else on
/// `cu-core` `K.expect` (the `cu-core`'s: its warps and lanes), only with `K.lds` or when there
/// is none; `--lds random` asks for pseudo-random words. Returns the `--lds` file to read, if
/// any, and whether it was found beside the kernel; puts the expectations file in `results`. A
/// name beside the kernel that is there but is not a regular file (a directory, a FIFO, a
/// dangling link) is an error naming it, not skipped.
pub(super) fn inputs_beside(
    kernel: &Path,
    core: &str,
    lds: Option<PathBuf>,
    results: &mut ResultArgs,
) -> Result<(Option<PathBuf>, bool)> {
    let found = |ext: &str| Some(kernel.with_extension(ext)).filter(|p| p.is_file());
    let for_core = format!("{core}.expect");
    let cu_core = core == crate::params::CORE_CU.name;
    let mut read = vec![];
    if lds.is_none() {
        read.push("lds");
    }
    if results.expect.is_none() {
        read.extend([for_core.as_str()].into_iter().chain(cu_core.then_some("expect")));
    }
    for path in read.into_iter().map(|ext| kernel.with_extension(ext)) {
        if path.symlink_metadata().is_ok() && !path.is_file() {
            anyhow::bail!("{} beside the kernel is not a regular file (a directory, a FIFO or a dangling link): remove it, or name the inputs with --lds and --expect", path.display());
        }
    }
    let (lds, beside) = match lds {
        Some(p) if p.as_os_str() == "random" => (None, false),
        Some(p) => (Some(p), false),
        None => (found("lds"), found("lds").is_some()),
    };
    // K.expect holds for K.lds: not for another local data share given in its place.
    if results.expect.is_none() && (found("lds").is_none() || beside) {
        results.expect = found(&for_core).or_else(|| found("expect").filter(|_| cu_core));
        results.expect_beside = results.expect.is_some();
    }
    Ok((lds, beside))
}

/// The files that may stand beside `kernel` as its inputs (`K.lds`, `K.expect`, `K.<core>.expect`
/// for each core preset), whether or not this run reads them: no output may name one.
pub(super) fn files_beside(kernel: &Path) -> Vec<PathBuf> {
    let cores = crate::params::CORE_PRESETS.iter().map(|c| format!("{}.expect", c.name));
    ["lds".to_string(), "expect".to_string()]
        .into_iter()
        .chain(cores)
        .map(|ext| kernel.with_extension(ext))
        .collect()
}

/// The line saying which inputs were found beside the kernel, once every argument is checked.
pub(super) fn say_beside(kernel: &Path, lds: Option<&Path>, shown: &Shown) -> Result<()> {
    let mut used: Vec<String> = lds.map(|p| p.display().to_string()).into_iter().collect();
    used.extend(shown.expect.as_ref().filter(|_| shown.expect_beside).map(|e| e.path().into()));
    let hint = if lds.is_some() { " (--lds random for pseudo-random words)" } else { "" };
    if !used.is_empty() {
        say!("{}: using {} beside it{hint}", kernel.display(), used.join(" and "));
    }
    Ok(())
}

/// The `--vcd` output, checked before any run, and the path of the `.gtkw` save file written
/// beside it: both regular files (the save file is made from the waveform, beside it), neither
/// an input of the run nor the other.
pub(super) fn vcd_output(
    vcd: &Path,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(Output, PathBuf)> {
    let gtkw = vcd.with_extension("gtkw");
    if gtkw == vcd {
        anyhow::bail!(
            "--vcd {}: its .gtkw save file would overwrite the waveform: name the waveform .vcd",
            vcd.display()
        );
    }
    let inputs: Vec<(&str, &Path)> = inputs.iter().filter_map(|(w, p)| Some((*w, (*p)?))).collect();
    let out = Output::new("--vcd", vcd, Allow::FileOnly, &inputs)?;
    let mut others = inputs.clone();
    others.push(("the --vcd waveform", vcd));
    Output::new("--vcd's save file", &gtkw, Allow::FileOnly, &others)?;
    Ok((out, gtkw))
}
