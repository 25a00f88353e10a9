//! One block to one Verilog text.
//!
//! rust-hdl names the top module `top` and every child instance its own module `top$a$b`. Here
//! the top takes the given name, children become `<top>__a_b`, and children whose bodies are
//! identical (the 8 stacks of a scheduler, the flip-flops of one width) are merged into one
//! module, so the file stays readable and the output is deterministic.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Context, Result};
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
    rename_all(text, &BTreeMap::from([(from.to_string(), to.to_string())]))
}

/// Renames every module that `names` maps, in one pass over `text`: declarations
/// (`module NAME(`), their end comments (`endmodule // NAME`) and instantiations (a line that
/// starts with `NAME ` and ends with `(`), never inside other identifiers.
fn rename_all(text: &str, names: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let indent = &line[..line.len() - line.trim_start().len()];
        let body = line.trim_start();
        let renamed = if let Some((name, rest)) =
            body.strip_prefix("module ").and_then(|r| r.find('(').map(|i| r.split_at(i)))
        {
            names.get(name).map(|to| format!("{indent}module {to}{rest}"))
        } else if let Some(name) = body.strip_prefix("endmodule // ") {
            names.get(name).map(|to| format!("{indent}endmodule // {to}"))
        } else if let Some((name, rest)) = body.find(' ').map(|i| body.split_at(i)) {
            names
                .get(name)
                .filter(|_| rest.trim_end().ends_with('('))
                .map(|to| format!("{indent}{to}{rest}"))
        } else {
            None
        };
        out.push_str(renamed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The Verilog of `block` with top module `top_name` and `header` (comment lines) on top.
/// Fails (instead of panicking) when rust-hdl's checks find open inputs or logic loops.
///
/// ```
/// use simt_rtl::rust_hdl::prelude::Block;
///
/// type Stack = simt_rtl::sized_simt_stack!(simt_rtl::registry::CU_SIZES);
/// let mut stack = Stack::new().unwrap();
/// stack.connect_all();
/// let verilog = simt_rtl::export::export_module(&stack, "my_stack", "// my stack\n").unwrap();
/// assert!(verilog.starts_with("// my stack") && verilog.contains("module my_stack("));
/// ```
pub fn export_module<B: Block>(block: &B, top_name: &str, header: &str) -> Result<String> {
    check_all(block).map_err(|e| anyhow!("rust-hdl's checks refused `{top_name}`: {e:?}"))?;
    let raw = generate_verilog_unchecked(block);
    let mut modules = split_modules(&raw)?;
    if !modules.iter().any(|m| m.name == "top") {
        bail!("rust-hdl's Verilog for `{top_name}` has no top module");
    }
    // Readable names first.
    let readable = |name: &str| match name.strip_prefix("top$") {
        _ if name == "top" => top_name.to_string(),
        path => format!("{top_name}__{}", path.unwrap_or(name).replace('$', "_")),
    };
    let names: BTreeMap<String, String> =
        modules.iter().map(|m| (m.name.clone(), readable(&m.name))).collect();
    for m in modules.iter_mut() {
        m.text = rename_all(&m.text, &names);
        m.name = names[&m.name].clone();
    }
    // Merge identical children until nothing changes (merging leaves can make parents equal).
    loop {
        let mut by_body: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in modules.iter().filter(|m| m.name != top_name) {
            let canon = rename_in(&m.text, &m.name, "__SELF__");
            by_body.entry(canon).or_default().push(m.name.clone());
        }
        let mut replace: BTreeMap<String, String> = BTreeMap::new();
        for group in by_body.values() {
            let keep = group.iter().min().unwrap();
            replace.extend(group.iter().filter(|n| *n != keep).map(|n| (n.clone(), keep.clone())));
        }
        if replace.is_empty() {
            break;
        }
        modules.retain(|m| !replace.contains_key(&m.name));
        for m in modules.iter_mut() {
            m.text = rename_all(&m.text, &replace);
        }
    }
    modules.sort_by(|a, b| (a.name != top_name, &a.name).cmp(&(b.name != top_name, &b.name)));
    let module_names = modules.iter().map(|m| m.name.as_str()).collect();
    for m in &modules {
        check_identifiers(&m.text).with_context(|| format!("exporting `{top_name}`"))?;
        super::declared::check_declared(&m.name, &m.text, &module_names)
            .with_context(|| format!("exporting `{top_name}`"))?;
    }
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

/// Words SystemVerilog reserves that Verilog-2005 does not: rust-hdl lets a field take one
/// (a port named `class` is plain Verilog to iverilog), but Verilator, yosys `-sv` and every
/// SystemVerilog flow refuse the file.
const SYSTEMVERILOG_KEYWORDS: &[&str] = &[
    "accept_on",
    "alias",
    "always_comb",
    "always_ff",
    "always_latch",
    "assert",
    "assume",
    "before",
    "bind",
    "bins",
    "binsof",
    "bit",
    "break",
    "byte",
    "chandle",
    "checker",
    "class",
    "clocking",
    "const",
    "constraint",
    "context",
    "continue",
    "cover",
    "covergroup",
    "coverpoint",
    "cross",
    "dist",
    "do",
    "endclass",
    "endclocking",
    "endgroup",
    "endinterface",
    "endpackage",
    "endprogram",
    "endproperty",
    "endsequence",
    "enum",
    "eventually",
    "expect",
    "export",
    "extends",
    "extern",
    "final",
    "first_match",
    "foreach",
    "forkjoin",
    "global",
    "iff",
    "ignore_bins",
    "illegal_bins",
    "implements",
    "implies",
    "import",
    "inside",
    "int",
    "interconnect",
    "interface",
    "intersect",
    "join_any",
    "join_none",
    "let",
    "local",
    "logic",
    "longint",
    "matches",
    "modport",
    "nettype",
    "new",
    "nexttime",
    "null",
    "package",
    "packed",
    "priority",
    "program",
    "property",
    "protected",
    "pure",
    "rand",
    "randc",
    "randcase",
    "randsequence",
    "ref",
    "reject_on",
    "restrict",
    "return",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "sequence",
    "shortint",
    "shortreal",
    "soft",
    "solve",
    "static",
    "string",
    "strong",
    "struct",
    "super",
    "sync_accept_on",
    "sync_reject_on",
    "tagged",
    "this",
    "throughout",
    "timeprecision",
    "timeunit",
    "type",
    "typedef",
    "union",
    "unique",
    "unique0",
    "until",
    "until_with",
    "untyped",
    "var",
    "virtual",
    "void",
    "wait_order",
    "weak",
    "wildcard",
    "with",
    "within",
];

/// Fails on an identifier that SystemVerilog reserves (see `SYSTEMVERILOG_KEYWORDS`).
pub fn check_identifiers(verilog: &str) -> Result<()> {
    let code: String =
        verilog.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    if let Some(bad) = code.split(|c: char| !word(c)).find(|w| SYSTEMVERILOG_KEYWORDS.contains(w)) {
        bail!("the identifier `{bad}` is a SystemVerilog keyword: Verilator and SystemVerilog tools refuse the file; rename that field or port");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_identifiers;

    #[test]
    fn systemverilog_keywords_are_refused_outside_comments() {
        let err = check_identifiers(
            "module decoder(inst, class);\n  output reg [3:0] class;\nendmodule\n",
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains("`class` is a SystemVerilog keyword"), "{err:#}");
        check_identifiers("// the class of an instruction\nmodule decoder(inst, kind, banks$0$logic);\nendmodule\n").unwrap();
    }
}
