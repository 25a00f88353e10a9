//! Every identifier a module uses is declared in it. rust-hdl writes some Rust expressions into
//! the Verilog as they are spelled: `get_bit(N - 1 - i)` with a const generic `N` becomes
//! `N - 32'h1 - 0`, naming an `N` that no module declares (docs/src/verification/pitfalls.md).
//! iverilog and Verilator refuse such a file; this check refuses it at export, naming the
//! identifier, for a user who runs neither.

use anyhow::{bail, Result};
use std::collections::BTreeSet;

/// The Verilog-2005 keywords rust-hdl's writer uses (and the few others a module may hold).
const KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "begin",
    "case",
    "casex",
    "casez",
    "default",
    "else",
    "end",
    "endcase",
    "endfunction",
    "endmodule",
    "for",
    "function",
    "if",
    "initial",
    "inout",
    "input",
    "integer",
    "localparam",
    "module",
    "negedge",
    "or",
    "output",
    "parameter",
    "posedge",
    "reg",
    "signed",
    "wire",
    "genvar",
    "generate",
    "endgenerate",
    "not",
];

/// Keywords after which the names up to `;` (outside brackets and after no `=`) are declared.
const DECLARES: &[&str] =
    &["input", "output", "inout", "wire", "reg", "integer", "localparam", "parameter", "genvar"];

/// A token of Verilog source: an identifier, or one character of punctuation.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Token<'a> {
    Name(&'a str),
    Punct(char),
}

/// `text`'s tokens, without comments, attributes, strings, numbers (`32'h1f`, `'b0`, `7`), system names
/// (`$display`), directives (`` `timescale ``) and port names of named connections (`.clock(`).
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let (mut out, mut i) = (vec![], 0);
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if text[i..].starts_with("/*") {
            i = text[i + 2..].find("*/").map_or(bytes.len(), |n| i + n + 4);
        } else if text[i..].starts_with("(*") && !text[i..].starts_with("(*)") {
            // An attribute: `(* ram_style = "block" *)`.
            i = text[i + 2..].find("*)").map_or(bytes.len(), |n| i + n + 4);
        } else if b == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if b == b'\'' {
            // A number's base and digits.
            i += 1;
            while i < bytes.len() && word(bytes[i]) || bytes.get(i) == Some(&b'?') {
                i += 1;
            }
        } else if word(b) {
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let after_dot = out.last() == Some(&Token::Punct('.'));
            let plain = !b.is_ascii_digit() && b != b'$' && !after_dot;
            if plain && !(start > 0 && bytes[start - 1] == b'`') {
                out.push(Token::Name(&text[start..i]));
            }
        } else {
            if !b.is_ascii_whitespace() {
                out.push(Token::Punct(b as char));
            }
            i += 1;
        }
    }
    out
}

/// The names `module` (one module's text, `module` to `endmodule`) declares: itself, its ports,
/// its nets, variables and parameters, and its instances; `modules` are every module's names
/// in the file (an instance's type).
fn declared<'a>(toks: &[Token<'a>], modules: &BTreeSet<&str>) -> BTreeSet<&'a str> {
    let mut names = BTreeSet::new();
    let (mut declaring, mut depth, mut statement_start) = (false, 0i32, true);
    for (k, t) in toks.iter().enumerate() {
        match *t {
            Token::Name(n) if DECLARES.contains(&n) => declaring = true,
            Token::Name("module") => declaring = true,
            Token::Name(n) if declaring && depth == 0 => {
                names.insert(n);
            }
            // An instance: `TYPE NAME(` at a statement's start.
            Token::Name(n) if statement_start && modules.contains(n) => {
                if let Some(Token::Name(instance)) = toks.get(k + 1) {
                    names.insert(*instance);
                }
            }
            Token::Punct('[' | '(') if declaring => depth += 1,
            Token::Punct(']' | ')') if declaring => depth -= 1,
            Token::Punct('=') if depth == 0 => declaring = false,
            Token::Punct(';') => (declaring, depth) = (false, 0),
            _ => {}
        }
        statement_start = matches!(t, Token::Punct(';' | ')'))
            || matches!(t, Token::Name("begin" | "end" | "else"));
    }
    names
}

/// The identifiers of `module` that it uses and does not declare (nor are keywords or module
/// names of `modules`), in order of first use.
pub fn undeclared<'a>(module: &'a str, modules: &BTreeSet<&str>) -> Vec<&'a str> {
    let toks = tokens(module);
    let names = declared(&toks, modules);
    let mut seen = BTreeSet::new();
    toks.iter()
        .filter_map(|t| match *t {
            Token::Name(n) if !KEYWORDS.contains(&n) && !names.contains(n) => Some(n),
            _ => None,
        })
        .filter(|n| !modules.contains(n) && seen.insert(*n))
        .collect()
}

/// Fails when module `name` (text `module`) uses an identifier it does not declare.
pub fn check_declared(name: &str, module: &str, modules: &BTreeSet<&str>) -> Result<()> {
    let missing = undeclared(module, modules);
    if let Some(first) = missing.first() {
        bail!(
            "module `{name}` uses `{first}`, which it does not declare{}: rust-hdl wrote a Rust name into the Verilog (a const generic in an index or a `get_bit` argument, docs/src/verification/pitfalls.md); compute it into a local or a constant first",
            if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: &str) -> Result<()> {
        check_declared("m", v, &BTreeSet::from(["m", "child"]))
    }

    #[test]
    fn a_rust_name_in_the_verilog_is_refused() {
        let v = "module m(clock,out);\n  input wire clock;\n  output reg [3:0] out;\n  always @(*) begin\n    out = N - 32'h1 - 0;\n  end\nendmodule\n";
        let e = check(v).unwrap_err().to_string();
        assert!(e.contains("module `m` uses `N`, which it does not declare"), "{e}");
    }

    #[test]
    fn declarations_instances_numbers_and_comments_are_not_uses() {
        let v = "module m(clock,a$0,out);\n  // uses N in a comment\n  input wire clock;\n  input wire [1:0] a$0;\n  output reg [7:0] out;\n  (* no_rw_check, ram_style = \"block\" *)\n  reg [7:0] mem[255:0];\n  localparam K = 4'hf;\n  wire [3:0] w, v;\n  child c$1(\n    .clock(clock),\n    .x(w)\n  );\n  initial begin\n    $readmemh(\"init N.hex\", mem);\n  end\n  always @(posedge clock) begin\n    if (a$0 == 2'b1x) out <= mem[v] + K + 8'd12; else out <= 'b0;\n  end\nendmodule\n";
        check(v).unwrap();
        let used = v.replace("mem[v] + K", "mem[v] + K + c$2 + child_q");
        let e = check(&used).unwrap_err().to_string();
        assert!(e.contains("uses `c$2`") && e.contains("(and 1 more)"), "{e}");
    }
}
