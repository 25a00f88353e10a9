//! Runs a program on the SIMT core and on the ISA's reference interpreter and compares what
//! they leave: every register of every warp and lane, every local-data-share word, and the
//! counts both keep (instructions, divergent branches, stack high-water mark, bank-conflict
//! cycles). `simt-rtl run` and `tests/simt_core.rs` use it.

use anyhow::{bail, Context, Result};

use crate::isa::interp::Machine;
use crate::isa::Inst;
use crate::model::simt_core::CoreCounters;
use crate::model::SimtCoreModel;
use crate::params::CoreParams;

/// The core's counters after running `program` with the local data share holding `lds` from
/// word 0, or an error naming the first difference from the interpreter.
pub fn run_and_compare(params: CoreParams, program: &[Inst], lds: &[u32], max_cycles: u64) -> Result<CoreCounters> {
    params.validate()?;
    if program.len() > params.imem_words {
        bail!("the program has {} instructions: the core's instruction memory holds {} (`imem_words`)", program.len(), params.imem_words);
    }
    let mut m = Machine::new(params.machine(max_cycles), lds)?;
    m.run(program).context("the reference interpreter")?;
    let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
    let mut core = SimtCoreModel::new(params, &words, lds);
    let counters = core.run(max_cycles).context("the SIMT core")?;
    if let Some(a) = (0..m.lds.len()).find(|&a| core.lds_words()[a] != m.lds[a]) {
        bail!("local-data-share word {a}: the core left {}, the interpreter {}", core.lds_words()[a], m.lds[a]);
    }
    let regs = core.regs();
    if let Some(k) = (0..regs.len()).find(|&k| regs[k] != m.regs[k]) {
        let (thread, r) = (k / crate::isa::REGISTERS, k % crate::isa::REGISTERS);
        bail!("warp {} lane {} r{r}: the core left {}, the interpreter {}", thread / params.threads, thread % params.threads, regs[k], m.regs[k]);
    }
    let pairs = [
        ("instructions", counters.issued, m.counters.instructions),
        ("divergent branches", counters.divergent_branches, m.counters.divergent_branches),
        ("stack high water", counters.stack_high_water, m.counters.stack_high_water as u64),
        ("bank-conflict cycles", counters.lds_conflict_cycles, m.counters.lds_conflict_cycles),
    ];
    for (what, core, interp) in pairs {
        if core != interp {
            bail!("{what}: the core counted {core}, the interpreter {interp}");
        }
    }
    Ok(counters)
}

/// The counters as a two-column Markdown table.
pub fn counters_table(c: &CoreCounters) -> String {
    let rows = [
        ("cycles", c.cycles.to_string()),
        ("instructions issued", c.issued.to_string()),
        ("IPC", format!("{:.2}", c.ipc())),
        ("scoreboard stalls", c.scoreboard_stalls.to_string()),
        ("structural stalls (collector full, branch port)", c.structural_stalls.to_string()),
        ("register-bank stalls (collector)", c.bank_stalls.to_string()),
        ("local-data-share conflict cycles", c.lds_conflict_cycles.to_string()),
        ("divergent branches", c.divergent_branches.to_string()),
        ("stack high water", c.stack_high_water.to_string()),
    ];
    let mut s = String::from("| counter | value |\n|---|---|\n");
    for (k, v) in rows {
        s += &format!("| {k} | {v} |\n");
    }
    s
}
