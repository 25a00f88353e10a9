//! GTKWave save files (`.gtkw`): the signals of a waveform grouped by block, so that a VCD opens
//! with the signals a person looks for instead of an empty view of thousands.
//!
//! A [`Group`] names a scope of the VCD (`uut.front.ibuf`) and, optionally, the name prefixes of
//! the signals it takes there (its own signals only, not those of scopes inside it). Multi-bit
//! signals are shown in hex, one-bit signals as bits, each group collapsible.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Signals of one scope shown together under `name`.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// The group's name in GTKWave.
    pub name: &'static str,
    /// The scope, its path from the top (`uut.sched.stacks`).
    pub scope: &'static str,
    /// Only the signals whose names start with one of these; all of the scope's when empty.
    pub prefixes: &'static [&'static str],
}

// GTKWave's trace flags (gtkwave's analyzer.h): right-justified hex or binary, group markers.
const HEX: u32 = 0x22;
const BIN: u32 = 0x28;
const GROUP_BEGIN: u32 = 0x80_0200;
const GROUP_END: u32 = 0x100_0200;

/// The variables a VCD declares, as GTKWave names them (`uut.front.fetch_pc[10:0]`), with their
/// scopes and widths, in declaration order.
pub fn vcd_variables(header: &str) -> Vec<(String, String, usize)> {
    let mut scope: Vec<&str> = vec![];
    let mut vars = vec![];
    for line in header.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["$enddefinitions", ..] => break,
            ["$scope", _, name, ..] => scope.push(name),
            ["$upscope", ..] => {
                scope.pop();
            }
            ["$var", _, width, _, name, ..] => {
                let width: usize = width.parse().unwrap_or(1);
                vars.push((scope.join("."), name.to_string(), width));
            }
            _ => {}
        }
    }
    vars
}

/// The save file's text for the VCD at `vcd` (whose header is `header`).
pub fn gtkw_text(vcd: &Path, header: &str, groups: &[Group]) -> String {
    let vars = vcd_variables(header);
    let mut s = format!(
        "[*] simt-rtl: signals grouped by block\n[dumpfile] \"{}\"\n[timestart] 0\n",
        vcd.display()
    );
    for g in groups {
        let members: Vec<_> = vars
            .iter()
            .filter(|(scope, name, _)| {
                scope == g.scope
                    && (g.prefixes.is_empty() || g.prefixes.iter().any(|p| name.starts_with(p)))
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        s += &format!("@{GROUP_BEGIN:x}\n-{}\n", g.name);
        for (scope, name, width) in members {
            match width {
                1 => s += &format!("@{BIN:x}\n{scope}.{name}\n"),
                w => s += &format!("@{HEX:x}\n{scope}.{name}[{}:0]\n", w - 1),
            }
        }
        s += &format!("@{GROUP_END:x}\n-{}\n", g.name);
    }
    s
}

/// Writes `groups` of the VCD at `vcd` into a save file beside it (same name, `.gtkw`); returns
/// its path.
pub fn write_gtkw(vcd: &Path, groups: &[Group]) -> Result<PathBuf> {
    use std::io::Read;
    let mut header = String::new();
    // The header ends at `$enddefinitions`, long before the value changes: read only the start.
    std::fs::File::open(vcd)
        .with_context(|| format!("cannot read {}", vcd.display()))?
        .take(4 << 20)
        .read_to_string(&mut header)
        .with_context(|| format!("cannot read {}", vcd.display()))?;
    let path = vcd.with_extension("gtkw");
    let absolute = vcd.canonicalize().unwrap_or_else(|_| vcd.to_path_buf());
    super::write_whole(&path, gtkw_text(&absolute, &header, groups))?;
    Ok(path)
}
