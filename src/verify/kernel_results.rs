//! What a kernel left, as `simt-rtl run` and `simt-rtl board run` show it: the registers the
//! program writes, for every warp and lane; the local data share's words that are not zero; the
//! counters; all of it as JSON (`--json`); and a check against expected values (`--expect`).
//!
//! An expectations file holds one value per line, `#` or `;` starting a comment:
//!
//! ```text
//! w0 l3 r6 = 7       # register r6 of lane 3 of warp 0
//! lds 64 = 0x2a      # local-data-share word 64
//! ```
//!
//! Values are decimal, `0x` hex, or negative decimals (two's complement at the lane width:
//! `-1` is 255 on 8-bit lanes). The first value that differs is the error, naming its line.

use anyhow::{bail, Context, Result};

use crate::hw::core::simt_core::model::CoreCounters;
use crate::isa::{Inst, REGISTERS};
use crate::params::{shown, CoreParams};

/// A kernel's final state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelResult {
    /// The core it ran on.
    pub params: CoreParams,
    /// `regs[(warp x threads + lane) x 16 + r]`, as the interpreter's.
    pub regs: Vec<u32>,
    /// Every local-data-share word, from word 0.
    pub lds: Vec<u32>,
    /// What the core counted.
    pub counters: CoreCounters,
}

/// Which parts `run` prints (`--show`), and how it writes a lane's value (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// The registers.
    pub regs: bool,
    /// The local data share.
    pub lds: bool,
    /// The counters.
    pub counters: bool,
    /// How the tables write registers and words.
    pub format: ValueFormat,
    /// A table longer than [`SCREEN_ROWS`] is summarized in a line instead (`--show auto`).
    pub fit_screen: bool,
}

/// The most rows a table of `--show auto` prints (the registers of a 4 x 4 core, or 40 rows of
/// the share): a longer one is a line saying what it holds and how to print it.
pub const SCREEN_ROWS: usize = 40;

/// How a lane's value is written in `run`'s tables (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueFormat {
    /// Unsigned decimal (`219` on 8-bit lanes).
    #[default]
    Unsigned,
    /// Signed decimal, two's complement at the lane width (`-37`).
    Signed,
    /// `0x` hex (`0xdb`).
    Hex,
}

impl ValueFormat {
    /// The names `--format` takes, in order.
    pub const NAMES: [&'static str; 3] = ["unsigned", "signed", "hex"];

    /// The format `name` names (one of [`NAMES`](Self::NAMES)).
    pub fn parse(name: &str) -> Result<ValueFormat> {
        match name {
            "unsigned" => Ok(ValueFormat::Unsigned),
            "signed" => Ok(ValueFormat::Signed),
            "hex" => Ok(ValueFormat::Hex),
            _ => bail!("--format `{}`: must be unsigned, signed or hex", shown(name)),
        }
    }

    /// `value`, a `bits`-bit lane's, written in this format.
    pub fn write(self, value: u32, bits: usize) -> String {
        match self {
            ValueFormat::Unsigned => value.to_string(),
            ValueFormat::Hex => format!("{value:#x}"),
            ValueFormat::Signed => {
                let negative = bits >= 1 && (value >> (bits - 1)) & 1 == 1;
                match negative {
                    true => format!("-{}", (1u64 << bits) - u64::from(value)),
                    false => value.to_string(),
                }
            }
        }
    }
}

impl Show {
    /// `--show auto`, the default: counters, registers and share, each table longer than
    /// [`SCREEN_ROWS`] a line instead; values unsigned.
    pub const AUTO: Show = Show {
        regs: true,
        lds: true,
        counters: true,
        format: ValueFormat::Unsigned,
        fit_screen: true,
    };

    /// A comma-separated list of `regs`, `lds` and `counters`, or `all`, `auto` (all, each table
    /// longer than a screen summarized) or `none`; values in unsigned decimal.
    pub fn parse(list: &str) -> Result<Show> {
        let none = Show { regs: false, lds: false, counters: false, ..Show::AUTO };
        let all = Show { fit_screen: false, ..Show::AUTO };
        let mut show = Show { fit_screen: false, ..none };
        let parts: Vec<&str> = list.split(',').map(str::trim).collect();
        if parts.len() > 1 {
            if let Some(whole) = parts.iter().find(|p| ["all", "auto", "none"].contains(p)) {
                bail!("--show `{list}`: `{whole}` stands alone, not in a list with others");
            }
        }
        for part in parts {
            match part {
                "regs" => show.regs = true,
                "lds" => show.lds = true,
                "counters" => show.counters = true,
                "all" => show = all,
                "auto" => show = Show::AUTO,
                "none" => show = none,
                _ => bail!("--show `{part}`: must be a comma-separated list of regs, lds, counters, or all, auto or none"),
            }
        }
        Ok(show)
    }
}

impl KernelResult {
    /// Register `r` of lane `lane` of warp `warp`.
    pub fn reg(&self, warp: usize, lane: usize, r: usize) -> u32 {
        self.regs[(warp * self.params.threads + lane) * REGISTERS + r]
    }

    /// The parts `show` asks for, each a Markdown table.
    pub fn text(&self, program: &[Inst], show: Show) -> String {
        let mut s = String::new();
        if show.counters {
            s += &super::core_run::counters_table(&self.counters);
        }
        let p = self.params;
        if show.regs && show.fit_screen && p.warps * p.threads > SCREEN_ROWS {
            s += &format!("\n{}", self.registers_summary(program));
        } else if show.regs {
            s += &format!("\n{}", self.registers_table(program, show.format));
        }
        let rows = self.nonzero_rows();
        if show.lds && show.fit_screen && rows.len() > SCREEN_ROWS {
            s += &format!("\n{}", self.lds_summary(&rows));
        } else if show.lds {
            s += &format!("\n{}", self.lds_table(show.format));
        }
        s
    }

    /// One line for a registers table too long for a screen: which registers the program
    /// writes, in how many lanes, and how to print them.
    fn registers_summary(&self, program: &[Inst]) -> String {
        let p = self.params;
        let written = written_registers(program);
        let names: Vec<String> = written.iter().map(|r| format!("r{r}")).collect();
        format!(
            "Registers the program writes: {} in each of {} warps x {} lanes ({} rows: `--show regs` prints them, `--json` holds every register).\n",
            if names.is_empty() { "none".to_string() } else { names.join(", ") },
            p.warps,
            p.threads,
            p.warps * p.threads
        )
    }

    /// The first word of each row of eight words that are not all zero.
    fn nonzero_rows(&self) -> Vec<usize> {
        let rows = self.lds.chunks(8).enumerate();
        rows.filter(|(_, w)| w.iter().any(|&x| x != 0)).map(|(row, _)| row * 8).collect()
    }

    /// One line for a share table too long for a screen: which rows hold a word that is not
    /// zero, as ranges of words, and how to print them.
    fn lds_summary(&self, rows: &[usize]) -> String {
        let mut ranges: Vec<(usize, usize)> = vec![];
        for &first in rows {
            match ranges.last_mut() {
                Some((_, end)) if *end == first => *end = first + 8,
                _ => ranges.push((first, first + 8)),
            }
        }
        let spans: Vec<String> = ranges.iter().map(|(a, b)| format!("{a}-{}", b - 1)).collect();
        format!(
            "Local data share ({} words): {} rows of eight hold a word that is not 0, words {} (`--show lds` prints them).\n",
            self.lds.len(),
            rows.len(),
            spans.join(", ")
        )
    }

    /// The registers `program` writes (its instructions' destinations), one row per warp and
    /// lane, each value written in `format`.
    pub fn registers_table(&self, program: &[Inst], format: ValueFormat) -> String {
        let written = written_registers(program);
        if written.is_empty() {
            return "Registers: the program writes none.\n".into();
        }
        let (p, bits) = (self.params, self.params.lane_bits);
        let mut s =
            String::from("Registers the program writes, per warp and lane:\n\n| warp | lane |");
        s += &written.iter().map(|r| format!(" r{r} |")).collect::<String>();
        s += &format!("\n|---|---|{}\n", "---:|".repeat(written.len()));
        for warp in 0..p.warps {
            for lane in 0..p.threads {
                s += &format!("| {warp} | {lane} |");
                s += &written
                    .iter()
                    .map(|&r| format!(" {} |", format.write(self.reg(warp, lane, r), bits)))
                    .collect::<String>();
                s += "\n";
            }
        }
        s
    }

    /// The local data share, eight words a row from the row's first word, each written in
    /// `format`; rows whose words are all zero are left out.
    pub fn lds_table(&self, format: ValueFormat) -> String {
        let bits = self.params.lane_bits;
        let mut s = format!(
            "Local data share ({} words; rows of zeros left out):\n\n| word |",
            self.lds.len()
        );
        s += &(0..8).map(|k| format!(" +{k} |")).collect::<String>();
        s += &format!("\n|---:|{}\n", "---:|".repeat(8));
        let rows = self.nonzero_rows();
        for &first in &rows {
            let words = &self.lds[first..(first + 8).min(self.lds.len())];
            s += &format!("| {first} |");
            s +=
                &words.iter().map(|&w| format!(" {} |", format.write(w, bits))).collect::<String>();
            s += "\n";
        }
        if rows.is_empty() {
            s += "| (every word is 0) |\n";
        }
        s
    }

    /// The whole result as JSON, with `run`, the record of how the run was made: schema
    /// `simt-rtl-run/3` (the book's command-line page).
    #[cfg(feature = "flows")]
    pub fn json(&self, run: &serde_json::Value) -> serde_json::Value {
        let p = self.params;
        let regs: Vec<Vec<Vec<u32>>> = (0..p.warps)
            .map(|w| {
                (0..p.threads)
                    .map(|l| (0..REGISTERS).map(|r| self.reg(w, l, r)).collect())
                    .collect()
            })
            .collect();
        let c = &self.counters;
        serde_json::json!({
            "schema": "simt-rtl-run/3",
            "run": run,
            "core": { "preset": p.name, "warps": p.warps, "threads": p.threads, "lane_bits": p.lane_bits },
            "registers": regs,
            "lds": self.lds,
            "counters": {
                "cycles": c.cycles,
                "instructions": c.issued,
                "scoreboard_stalls": c.scoreboard_stalls,
                "structural_stalls": c.structural_stalls,
                "bank_stalls": c.bank_stalls,
                "lds_conflict_cycles": c.lds_conflict_cycles,
                "divergent_branches": c.divergent_branches,
                "stack_high_water": c.stack_high_water,
                "barrier_waits": c.barrier_waits,
            },
        })
    }

    /// `Ok` when every expected value is this result's, else an error naming the line of the
    /// first that is not.
    pub fn check(&self, expected: &Expectations) -> Result<()> {
        for (line, e) in &expected.values {
            let got = match e.target {
                Target::Reg { warp, lane, r } => self.reg(warp, lane, r),
                Target::Lds(a) => self.lds[a],
            };
            if got != e.value {
                bail!(
                    "{}:{line}: expected {} = {}, the kernel left {got}",
                    expected.path,
                    e.target,
                    e.value
                );
            }
        }
        Ok(())
    }
}

/// An expectations file, read before the run: each value with its line.
#[derive(Debug)]
pub struct Expectations {
    path: String,
    values: Vec<(usize, Expected)>,
}

impl Expectations {
    /// The values of file `path` (text `text`), each line well formed and within the sizes of
    /// `p`'s core, else an error naming the first line that is not.
    pub fn parse(path: &str, text: &str, p: CoreParams) -> Result<Expectations> {
        let mut values = vec![];
        for (n, line) in text.lines().enumerate() {
            if let Some(e) = parse_line(line, p).with_context(|| format!("{path}:{}", n + 1))? {
                values.push((n + 1, e));
            }
        }
        Ok(Expectations { path: path.to_string(), values })
    }

    /// The file the values came from.
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// The registers `program` writes, in order.
pub fn written_registers(program: &[Inst]) -> Vec<usize> {
    let mut rs: Vec<usize> = program.iter().filter_map(|i| i.dest()).map(usize::from).collect();
    rs.sort_unstable();
    rs.dedup();
    rs
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Reg { warp: usize, lane: usize, r: usize },
    Lds(usize),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Target::Reg { warp, lane, r } => write!(f, "w{warp} l{lane} r{r}"),
            Target::Lds(a) => write!(f, "lds {a}"),
        }
    }
}

#[derive(Debug)]
struct Expected {
    target: Target,
    value: u32,
}

/// One line of an expectations file: `None` for a blank or comment line.
fn parse_line(line: &str, p: CoreParams) -> Result<Option<Expected>> {
    let line = crate::isa::without_comment(line);
    if line.is_empty() {
        return Ok(None);
    }
    let Some((lhs, rhs)) = line.split_once('=') else {
        bail!(
            "`{}` is not `w<warp> l<lane> r<register> = <value>` or `lds <word> = <value>`",
            shown(line)
        );
    };
    let words: Vec<&str> = lhs.split_whitespace().collect();
    let target = match words.as_slice() {
        ["lds", a] => Target::Lds(index(a, "", "word", p.lds_words())?),
        [w, l, r] => Target::Reg {
            warp: index(w, "w", "warp", p.warps)?,
            lane: index(l, "l", "lane", p.threads)?,
            r: index(r, "r", "register", REGISTERS)?,
        },
        _ => bail!("`{}` is not `w<warp> l<lane> r<register>` or `lds <word>`", shown(lhs.trim())),
    };
    if let Some(v) = crate::isa::negative_lane_value(rhs.trim(), p.lane_bits) {
        return Ok(Some(Expected { target, value: v? }));
    }
    let value = number(rhs.trim())?;
    let max = (1u64 << p.lane_bits) - 1;
    if value > max {
        bail!("value {value} does not fit the core's {}-bit lanes (at most {max})", p.lane_bits);
    }
    Ok(Some(Expected { target, value: value as u32 }))
}

/// `text` without its `prefix`, as a number below `limit`.
fn index(text: &str, prefix: &str, what: &str, limit: usize) -> Result<usize> {
    let n = text
        .strip_prefix(prefix)
        .and_then(|t| t.parse::<usize>().ok())
        .with_context(|| format!("`{}` is not a {what} (`{prefix}<n>`)", shown(text)))?;
    if n >= limit {
        bail!("{what} {n} is out of range: the core has {limit}");
    }
    Ok(n)
}

/// A decimal or `0x` hex number (a negative decimal is read by
/// [`negative_lane_value`](crate::isa::negative_lane_value)).
fn number(text: &str) -> Result<u64> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| {
        anyhow::anyhow!("`{}` is not a decimal, negative decimal or 0x hex value", shown(text))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::CORE_CU;

    fn result() -> KernelResult {
        let p = CORE_CU;
        let mut regs = vec![0; p.warps * p.threads * REGISTERS];
        regs[(p.threads + 2) * REGISTERS + 6] = 7; // w1 l2 r6
        let mut lds = vec![0; p.lds_words()];
        lds[64] = 42;
        KernelResult { params: p, regs, lds, counters: CoreCounters::default() }
    }

    fn expect(text: &str) -> Result<Expectations> {
        Expectations::parse("e", text, CORE_CU)
    }

    #[test]
    fn expected_values_are_checked_and_the_first_difference_named() {
        let r = result();
        r.check(&expect("# c\nw1 l2 r6 = 7\nlds 64 = 0x2a  # c\n\n").unwrap()).unwrap();
        let e = r.check(&expect("w1 l2 r6 = 7\nw0 l0 r6 = 1\n").unwrap()).unwrap_err();
        assert_eq!(format!("{e:#}"), "e:2: expected w0 l0 r6 = 1, the kernel left 0");
    }

    #[test]
    fn negative_values_are_two_s_complement_at_the_lane_width() {
        // cu-core's lanes are 8 bits: -37 is 256 - 37 = 219, -128 the least, -129 past it.
        let r = KernelResult { lds: vec![219; CORE_CU.lds_words()], ..result() };
        r.check(&expect("lds 0 = -37 ; ; too\nlds 1 = 219\nlds 2 = 0xdb\n").unwrap()).unwrap();
        let e = r.check(&expect("lds 0 = -1").unwrap()).unwrap_err();
        assert_eq!(format!("{e:#}"), "e:1: expected lds 0 = 255, the kernel left 219");
        for (text, want) in [
            ("lds 0 = -129", "e:1: -129 does not fit the core's 8-bit lanes (at least -128)"),
            ("lds 0 = -0x5", "e:1: `-0x5` is not a negative decimal"),
            ("lds 0 = --5", "e:1: `--5` is not a negative decimal"),
        ] {
            assert_eq!(format!("{:#}", expect(text).unwrap_err()), want, "{text}");
        }
    }

    #[test]
    fn values_are_written_unsigned_signed_or_hex() {
        use ValueFormat::*;
        // 8 bits: 219 = 0xdb = 256 - 37; 127 the largest positive, 128 = -128.
        let cases = [
            (219, 8, "219", "-37", "0xdb"),
            (127, 8, "127", "127", "0x7f"),
            (128, 8, "128", "-128", "0x80"),
        ];
        for (v, bits, unsigned, signed, hex) in cases {
            assert_eq!([Unsigned, Signed, Hex].map(|f| f.write(v, bits)), [unsigned, signed, hex]);
        }
        assert_eq!(Signed.write(u32::MAX, 32), "-1");
        assert_eq!(Signed.write(0x8000_0000, 32), "-2147483648");
        assert_eq!(
            ValueFormat::NAMES.map(|n| ValueFormat::parse(n).unwrap()),
            [Unsigned, Signed, Hex]
        );
        let e = ValueFormat::parse("octal").unwrap_err();
        assert_eq!(format!("{e:#}"), "--format `octal`: must be unsigned, signed or hex");
        let r = KernelResult { lds: vec![219; CORE_CU.lds_words()], ..result() };
        assert!(r.lds_table(Signed).contains("| 0 | -37 | -37 |"), "{}", r.lds_table(Signed));
    }

    #[test]
    fn a_bad_expectation_line_is_refused_with_its_line() {
        for (text, want) in [
            ("w9 l0 r0 = 1", "e:1: warp 9 is out of range: the core has 4"),
            ("lds 64 = 256", "e:1: value 256 does not fit the core's 8-bit lanes (at most 255)"),
            ("w0 l0 r0 1", "e:1: `w0 l0 r0 1` is not `w<warp> l<lane> r<register> = <value>` or `lds <word> = <value>`"),
            ("w0 l0 q0 = 1", "e:1: `q0` is not a register (`r<n>`)"),
            ("lds 1 = \u{feff}1", "e:1: `\\u{feff}1` is not a decimal, negative decimal or 0x hex value"),
        ] {
            let e = expect(text).unwrap_err();
            assert_eq!(format!("{e:#}"), want, "{text}");
        }
    }

    #[test]
    fn auto_summarizes_a_table_longer_than_a_screen() {
        use crate::params::CORE_SEED;
        let p = CORE_SEED; // 8 x 32 lanes: 256 register rows
        let mut lds = vec![0; p.lds_words()];
        for w in (0..48 * 8).chain([1000]) {
            lds[w] = 1; // rows 0..47 and the row of word 1000 (992-999 is 0)
        }
        let regs = vec![0; p.warps * p.threads * REGISTERS];
        let r = KernelResult { params: p, regs, lds, counters: CoreCounters::default() };
        let program = crate::isa::asm::assemble("li r6, 7\nli r2, 1\nexit\n").unwrap();
        let auto = r.text(&program, Show::parse("auto").unwrap());
        let regs = "Registers the program writes: r2, r6 in each of 8 warps x 32 lanes (256 rows";
        assert!(auto.contains(regs), "{auto}");
        let lds = "49 rows of eight hold a word that is not 0, words 0-383, 1000-1007";
        assert!(auto.contains(lds) && !auto.contains("| warp |"), "{auto}");
        let all = r.text(&program, Show::parse("all").unwrap());
        assert!(all.contains("| 7 | 31 |") && all.contains("| 1000 |"), "every row: {all}");
        let e = Show::parse("auto,regs").unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "--show `auto,regs`: `auto` stands alone, not in a list with others"
        );
        assert!(!Show::parse("none").unwrap().regs);
    }

    #[test]
    fn the_tables_show_written_registers_and_nonzero_rows() {
        let r = result();
        let program = crate::isa::asm::assemble("li r6, 7\nexit\n").unwrap();
        let regs = r.registers_table(&program, ValueFormat::Unsigned);
        assert!(regs.contains("| warp | lane | r6 |"), "{regs}");
        assert!(regs.contains("| 1 | 2 | 7 |"), "{regs}");
        let lds = r.lds_table(ValueFormat::Unsigned);
        assert!(lds.contains("| 64 | 42 | 0 |"), "{lds}");
        let rows = lds.lines().filter(|l| l.starts_with("| ") && l.as_bytes()[2].is_ascii_digit());
        assert_eq!(rows.count(), 1, "only the row of word 64: {lds}");
    }
}
