//! One block to one Verilog text.
//!
//! rust-hdl names the top module `top` and every child instance its own module `top$a$b`. Here
//! the top takes the given name, children become `<top>__a_b`, and children whose bodies are
//! identical (the 8 stacks of a scheduler, the flip-flops of one width) are merged into one
//! module, so the file stays readable and the output is deterministic.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{anyhow, bail, Result};
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// A parsed module: its name and full text (from `module` to `endmodule`).
struct Module {
    name: String,
    text: String,
}

fn split_modules(verilog: &str) -> Result<Vec<Module>> {
    let mut out = vec![];
    let mut current: Option<Module> = None;
    for line in verilog.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or("").trim().to_string();
            current = Some(Module { name, text: String::new() });
        }
        if let Some(m) = current.as_mut() {
            m.text.push_str(line.trim_end());
            m.text.push('\n');
            if trimmed.starts_with("endmodule") {
                out.push(current.take().unwrap());
            }
        }
    }
    if current.is_some() {
        bail!("unterminated module in rust-hdl's Verilog");
    }
    Ok(out)
}

/// Replaces the module name `from` by `to` where it is declared or instantiated (a line that
/// starts with it), never inside other identifiers.
fn rename_in(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let indent = &line[..line.len() - line.trim_start().len()];
        let body = line.trim_start();
        let renamed = if let Some(rest) = body.strip_prefix("module ").and_then(|r| r.strip_prefix(from)).filter(|r| r.starts_with('(')) {
            format!("{indent}module {to}{rest}")
        } else if body.strip_prefix("endmodule // ") == Some(from) {
            format!("{indent}endmodule // {to}")
        } else if let Some(rest) = body.strip_prefix(from).filter(|r| r.starts_with(' ') && r.trim_end().ends_with('(')) {
            format!("{indent}{to}{rest}")
        } else {
            line.to_string()
        };
        out.push_str(&renamed);
        out.push('\n');
    }
    out
}

/// The Verilog of `block` with top module `top_name` and `header` (comment lines) on top.
/// Fails (instead of panicking) when rust-hdl's checks find open inputs or logic loops.
pub fn export_module<B: Block>(block: &B, top_name: &str, header: &str) -> Result<String> {
    check_all(block).map_err(|e| anyhow!("rust-hdl's checks refused `{top_name}`: {e:?}"))?;
    let raw = generate_verilog_unchecked(block);
    let mut modules = split_modules(&raw)?;
    if !modules.iter().any(|m| m.name == "top") {
        bail!("rust-hdl's Verilog for `{top_name}` has no top module");
    }
    // Readable names first.
    let names: Vec<String> = modules.iter().map(|m| m.name.clone()).collect();
    for name in &names {
        let new = if name == "top" {
            top_name.to_string()
        } else {
            let path = name.strip_prefix("top$").unwrap_or(name);
            format!("{top_name}__{}", path.replace('$', "_"))
        };
        for m in modules.iter_mut() {
            m.text = rename_in(&m.text, name, &new);
        }
        for m in modules.iter_mut().filter(|m| &m.name == name) {
            m.name = new.clone();
        }
    }
    // Merge identical children until nothing changes (merging leaves can make parents equal).
    loop {
        let mut by_body: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in modules.iter().filter(|m| m.name != top_name) {
            let canon = rename_in(&m.text, &m.name, "__SELF__");
            by_body.entry(canon).or_default().push(m.name.clone());
        }
        let mut replace: Vec<(String, String)> = vec![];
        for group in by_body.values() {
            let keep = group.iter().min().unwrap();
            replace.extend(group.iter().filter(|n| *n != keep).map(|n| (n.clone(), keep.clone())));
        }
        if replace.is_empty() {
            break;
        }
        let dropped: BTreeSet<&String> = replace.iter().map(|(from, _)| from).collect();
        modules.retain(|m| !dropped.contains(&m.name));
        for (from, to) in &replace {
            for m in modules.iter_mut() {
                m.text = rename_in(&m.text, from, to);
            }
        }
    }
    modules.sort_by(|a, b| (a.name != top_name, &a.name).cmp(&(b.name != top_name, &b.name)));
    let mut out = String::from(header);
    for m in &modules {
        out.push('\n');
        for line in m.text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}
