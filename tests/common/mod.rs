//! Helpers shared by the test files (each `mod common;`).

use std::path::{Path, PathBuf};

/// Every file under `dir`, in its subdirectories too, sorted.
#[allow(dead_code)] // not every test file lists files
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Runs `simt-rtl` with `args`: its exit code, standard output and standard error.
#[allow(dead_code)] // not every test file runs the command line
pub fn cli(args: &[&str]) -> (i32, String, String) {
    cli_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// [`cli`] with `dir` as the working directory.
#[allow(dead_code)] // not every test file runs the command line
pub fn cli_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        without_engine_build_notes(&String::from_utf8_lossy(&out.stderr)),
    )
}

/// `stderr` without the two lines of a Verilator engine's build (`building the Verilator engine
/// ...`, `built the Verilator engine in N s`): whichever test runs first builds the engine, so
/// they come and go with the order of the tests (`tests/simt_core.rs` checks them).
#[allow(dead_code)] // not every test file runs the command line
pub fn without_engine_build_notes(stderr: &str) -> String {
    let notes = ["building the Verilator engine ", "built the Verilator engine in "];
    let kept = stderr.lines().filter(|l| !notes.iter().any(|n| l.starts_with(n)));
    kept.map(|l| format!("{l}\n")).collect()
}
