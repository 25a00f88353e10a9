//! Helpers shared by the test files (each `mod common;`).

use std::path::{Path, PathBuf};

/// Every file under `dir`, in its subdirectories too, sorted.
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
