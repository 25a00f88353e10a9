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
    let m = interpret(params, program, lds, max_cycles)?;
    let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
    let mut core = SimtCoreModel::new(params, &words, lds);
    let counters = core.run(max_cycles).context("the SIMT core")?;
    compare(&m, &core, &counters)?;
    Ok(counters)
}

/// As [`run_and_compare`], on the rust-hdl core too: the program is written through its
/// instruction-memory port, started, and run to the end, every output of the rust-hdl core
/// equal to the model's on every cycle; with `vcd`, the rust-hdl run's waveform is written there.
pub fn run_rust_hdl(preset: &str, params: CoreParams, program: &[Inst], lds: &[u32], max_cycles: u64, vcd: Option<&std::path::Path>) -> Result<CoreCounters> {
    use crate::blocks::simt_core::{SimtCoreCu, SimtCoreTiny};
    use crate::model::simt_core::CoreIn;
    use crate::verify::{run_differential, CycleModel, PortStruct};
    let m = interpret(params, program, lds, max_cycles)?;
    let words: Vec<u32> = program.iter().map(|i| i.encode()).collect();
    let load = words.len();
    let inputs = move |cycle: usize| {
        let mut i = CoreIn { reset: (cycle == 0) as u64, start: (cycle == load + 1) as u64, ..Default::default() };
        if (1..=load).contains(&cycle) {
            (i.imem_write_valid, i.imem_write_addr, i.imem_write_data) = (1, cycle as u64 - 1, words[cycle - 1] as u64);
        }
        i.to_words()
    };
    // The model alone first, for the length of the run.
    let mut probe = SimtCoreModel::new(params, &[], lds);
    let mut cycles = 0;
    while cycles <= load + 1 || probe.running() {
        if cycles as u64 > max_cycles + load as u64 {
            bail!("the SIMT core did not finish within {max_cycles} cycles");
        }
        CycleModel::step(&mut probe, &inputs(cycles));
        cycles += 1;
    }
    let mut model = SimtCoreModel::new(params, &[], lds);
    let name = format!("simt_core_{preset}_run");
    match preset {
        "cu" => {
            let r = run_differential(&name, || SimtCoreCu::with_lds(params, lds).unwrap(), &mut model, 0, cycles, |_, _, c| inputs(c))?;
            if let Some(path) = vcd {
                crate::verify::differential::write_vcd(SimtCoreCu::with_lds(params, lds)?, &r.inputs, 0, path)?;
            }
        }
        "tiny" => {
            let r = run_differential(&name, || SimtCoreTiny::with_lds(params, lds).unwrap(), &mut model, 0, cycles, |_, _, c| inputs(c))?;
            if let Some(path) = vcd {
                crate::verify::differential::write_vcd(SimtCoreTiny::with_lds(params, lds)?, &r.inputs, 0, path)?;
            }
        }
        other => bail!("preset `{other}` has no rust-hdl SIMT core"),
    }
    let counters = model.counters;
    compare(&m, &model, &counters)?;
    let errors = model.errors();
    if !errors.is_empty() {
        bail!("the core raised error flags: {}", errors.join(", "));
    }
    Ok(counters)
}

fn interpret(params: CoreParams, program: &[Inst], lds: &[u32], max_cycles: u64) -> Result<Machine> {
    params.validate()?;
    if program.len() > params.imem_words {
        bail!("the program has {} instructions: the core's instruction memory holds {} (`imem_words`)", program.len(), params.imem_words);
    }
    let mut m = Machine::new(params.machine(max_cycles), lds)?;
    m.run(program).context("the reference interpreter")?;
    Ok(m)
}

/// The first difference between the interpreter's machine and the core's.
fn compare(m: &Machine, core: &SimtCoreModel, counters: &CoreCounters) -> Result<()> {
    let params = core.params;
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
    Ok(())
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
