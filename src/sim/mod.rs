//! The harness every block uses, and the bottom of the verification stack: the port-level view
//! of a rust-hdl block ([`Dut`]), cycle-level reference models ([`CycleModel`]) on named port
//! structs ([`PortStruct`]), seeded random stimulus ([`Rng`]), the fast single-threaded
//! differential runner ([`differential`]) and the runner for the exported Verilog under iverilog
//! and Verilator ([`verilog_sim`]), and the description of a block's formal properties
//! ([`Properties`]). It imports nothing of the crate but `params`.
//!
//! One cycle, everywhere (Rust simulation, models, Verilog testbenches): drive the inputs with
//! the clock low, let the logic settle, sample every output, then one rising clock edge.

pub mod claims;
pub mod differential;
pub mod dut;
pub mod gtkw;
pub mod interrupt;
pub mod output;
pub mod rng;
pub mod verilog_sim;
pub mod wide;

pub use claims::{Claim, Mutant};
pub use differential::{run_differential, run_differential_then_model, Recorded};
pub use dut::{Dut, Part, Port, PortStruct, Word};
pub use output::write_whole;
pub use rng::Rng;

/// 64-bit FNV-1a: a hash that stays the same across Rust versions and runs (the self-test's
/// design keys, the fast engine's cache keys).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Cycles for a test run: the environment variable `var` when set, else `default`. A value that
/// is not a positive whole number is an error naming the variable.
pub fn cycles_from_env(var: &str, default: usize) -> anyhow::Result<usize> {
    parse_count(var, env_value(var)?.as_deref(), default)
}

/// A count (cycles, programs) given as `value` of the environment variable `var`, else
/// `default`: a positive whole number (`_` allowed between digits), or an error naming `var`.
pub fn parse_count(var: &str, value: Option<&str>, default: usize) -> anyhow::Result<usize> {
    match value {
        None => Ok(default),
        Some(text) => match text.trim().replace('_', "").parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => anyhow::bail!("`{var}` = {text:?} must be a positive whole number"),
        },
    }
}

/// A switch given as the environment variable `var`: unset or `0` is off, `1` on, anything
/// else an error naming `var`.
pub fn flag_from_env(var: &str) -> anyhow::Result<bool> {
    parse_flag(var, env_value(var)?.as_deref())
}

/// As [`flag_from_env`], on the variable's `value`.
pub fn parse_flag(var: &str, value: Option<&str>) -> anyhow::Result<bool> {
    match value {
        None | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(text) => anyhow::bail!("`{var}` = {text:?} must be 0 or 1"),
    }
}

/// A comma-separated list of names given as `value` of the environment variable `var` (`None`
/// when unset), each one of `known`; an unknown or empty name is an error naming `var`.
pub fn parse_names(
    var: &str,
    value: Option<&str>,
    known: &[String],
) -> anyhow::Result<Option<Vec<String>>> {
    let Some(text) = value else { return Ok(None) };
    let names: Vec<String> = text.split(',').map(|n| n.trim().to_string()).collect();
    if let Some(bad) = names.iter().find(|n| !known.contains(n)) {
        anyhow::bail!(
            "`{var}` = {text:?}: `{bad}` is not an exported module (known: {})",
            known.join(", ")
        );
    }
    Ok(Some(names))
}

/// The environment variable `var`, `None` when unset; a value that is not UTF-8 is an error.
pub fn env_value(var: &str) -> anyhow::Result<Option<String>> {
    match std::env::var(var) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => anyhow::bail!("`{var}` is not UTF-8 text"),
    }
}

/// The environment variable naming the file that [`log_cycles`] appends to.
pub const CYCLE_LOG: &str = "SIMT_CYCLE_LOG";

/// Appends one line to the file [`CYCLE_LOG`] names, when it is set: the test binary (nextest's
/// `NEXTEST_BINARY_ID`, else the executable's name), the run, the engine (`rust-hdl`,
/// `iverilog`, `verilator`) and the cycles it compared. `scripts/test-time.sh` sets it and
/// tabulates what one run of the test command compares (`docs/src/results/ci-cycles.md`);
/// without the variable nothing is written. A line that cannot be written is reported on
/// standard error and the run goes on: the log describes the checks and is none of them.
pub fn log_cycles(run: &str, engine: &str, cycles: usize) {
    use std::io::Write as _;
    let Some(path) = std::env::var_os(CYCLE_LOG) else { return };
    let binary = std::env::var("NEXTEST_BINARY_ID").ok().or_else(|| {
        let exe = std::env::current_exe().ok()?;
        Some(exe.file_stem()?.to_string_lossy().into_owned())
    });
    let line = format!("{}\t{run}\t{engine}\t{cycles}\n", binary.unwrap_or_default());
    // One write of one short line to a file opened for appending: lines of tests running side
    // by side do not interleave.
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        eprintln!("{CYCLE_LOG}: cannot append to {}: {e}", std::path::Path::new(&path).display());
    }
}

/// The stack of the thread [`on_large_stack`] runs a simulation on.
pub const LARGE_STACK: usize = 64 << 20;

/// Runs `f` on a thread with a [`LARGE_STACK`] and returns its result; a panic in `f` goes on in
/// the caller. rust-hdl builds a block as one value, moved as it is built: the SIMT core behind
/// its host link (`core_board`) takes more than a test thread's 2 MiB of stack in a build that
/// is not fully optimised.
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new().stack_size(LARGE_STACK).spawn_scoped(s, f)?;
        Ok(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// A cycle-level reference model of a block, working on the block's port values (one `u64` per
/// port, in the block's port order).
pub trait CycleModel {
    /// The block's ports as this model sees them, by name: the runners check them against the
    /// block's before the first cycle, and an error names the first port that differs.
    fn ports(&self) -> PortNames;
    /// The outputs in this cycle, before the clock edge, for these inputs.
    fn outputs(&self, inputs: &[u64]) -> Vec<u64>;
    /// One rising clock edge with these inputs.
    fn step(&mut self, inputs: &[u64]);
}

/// A block's port names as its model declares them, in the block's order: inputs, then outputs;
/// element `i` of a port array `name` is `name$i`, as rust-hdl names it in the Verilog.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortNames {
    /// The input ports' names, in order.
    pub inputs: Vec<String>,
    /// The output ports' names, in order.
    pub outputs: Vec<String>,
}

impl PortNames {
    /// The ports of a model whose inputs and outputs are the named port structs `I` and `O`.
    pub fn of<I: PortStruct, O: PortStruct>() -> Self {
        PortNames::default().inputs(I::NAMES).outputs(O::NAMES)
    }
    /// Appends scalar inputs.
    pub fn inputs(mut self, names: &[&str]) -> Self {
        self.inputs.extend(names.iter().map(|n| n.to_string()));
        self
    }
    /// Appends an input array of `n` elements.
    pub fn input_array(mut self, name: &str, n: usize) -> Self {
        self.inputs.extend((0..n).map(|i| format!("{name}${i}")));
        self
    }
    /// Appends scalar outputs.
    pub fn outputs(mut self, names: &[&str]) -> Self {
        self.outputs.extend(names.iter().map(|n| n.to_string()));
        self
    }
    /// Appends an output array of `n` elements.
    pub fn output_array(mut self, name: &str, n: usize) -> Self {
        self.outputs.extend((0..n).map(|i| format!("{name}${i}")));
        self
    }
    /// Appends a `width`-bit input: itself, or its 64-bit words when wider ([`Port::of`]).
    pub fn input_wide(mut self, name: &str, width: usize) -> Self {
        self.inputs.extend(Port::of(name, width).into_iter().map(|p| p.name));
        self
    }
    /// Appends a `width`-bit output: itself, or its 64-bit words when wider ([`Port::of`]).
    pub fn output_wide(mut self, name: &str, width: usize) -> Self {
        self.outputs.extend(Port::of(name, width).into_iter().map(|p| p.name));
        self
    }
    /// Appends an output array of `n` elements of `width` bits ([`Port::of`] each).
    pub fn output_array_wide(mut self, name: &str, n: usize, width: usize) -> Self {
        let ports = (0..n).flat_map(|i| Port::of(&format!("{name}${i}"), width));
        self.outputs.extend(ports.map(|p| p.name));
        self
    }
    /// The ports of `dut`, in its order.
    pub fn of_dut<D: Dut>(dut: &D) -> Self {
        let names = |ports: Vec<Port>| ports.into_iter().map(|p| p.name).collect();
        PortNames { inputs: names(dut.input_ports()), outputs: names(dut.output_ports()) }
    }
    /// Fails unless `dut`'s ports are these, in this order; the error names the first port that
    /// differs.
    pub fn check<D: Dut>(&self, dut: &D) -> anyhow::Result<()> {
        let block = PortNames::of_dut(dut);
        check_names("input", &block.inputs, &self.inputs)?;
        check_names("output", &block.outputs, &self.outputs)
    }
}

/// Where port `name` is among `names` (the `kind` ports: input or output); an unknown name is an
/// error listing them.
pub(crate) fn port_index(names: &[String], name: &str, kind: &str) -> anyhow::Result<usize> {
    names.iter().position(|n| n == name).ok_or_else(|| {
        anyhow::anyhow!("no {kind} port `{name}`: the {kind}s are {}", names.join(", "))
    })
}

fn check_names(kind: &str, block: &[String], model: &[String]) -> anyhow::Result<()> {
    for i in 0..block.len().max(model.len()) {
        match (block.get(i), model.get(i)) {
            (Some(b), Some(m)) if b == m => {}
            (Some(b), Some(m)) => {
                anyhow::bail!("the block's {kind} port {i} is `{b}` where its model's is `{m}`")
            }
            (Some(b), None) => anyhow::bail!("the block's {kind} port `{b}` is not in its model"),
            (None, Some(m)) => anyhow::bail!("the model's {kind} port `{m}` is not in the block"),
            (None, None) => unreachable!(),
        }
    }
    Ok(())
}

/// Declares a struct of port values, one `u64` field per port in the block's port order (each
/// documented as its port's value), with its conversion to and from the word vectors the
/// runners use.
#[macro_export]
macro_rules! port_struct {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* $field:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $(
                $(#[$fm])*
                #[doc = concat!("The `", stringify!($field), "` port's value.")]
                pub $field: u64,
            )*
        }
        impl $crate::sim::PortStruct for $name {
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
            fn from_words(words: &[u64]) -> Self {
                let mut it = words.iter().copied();
                Self { $($field: it.next().expect("one word per port"),)* }
            }
            fn to_words(&self) -> Vec<u64> {
                vec![$(self.$field),*]
            }
        }
    };
}

/// A block's formal properties, stated in the block's folder: the SystemVerilog wrapper beside
/// the block, the wrapper module in it and the wrapper's parameters for a preset.
#[derive(Clone, Copy)]
pub struct Properties {
    /// The properties file, relative to the crate root.
    pub properties: &'static str,
    /// Its text, built into the crate (`include_str!`), so that a dependency reads no file.
    pub text: &'static str,
    /// The wrapper module in it.
    pub wrapper: &'static str,
    /// The wrapper's parameters for a preset.
    pub parameters: fn(&crate::params::Preset) -> Vec<(&'static str, usize)>,
    /// What the formal suite checks of them.
    pub claims: &'static [Claim],
    /// The broken variants of the block's Verilog they catch.
    pub mutants: &'static [Mutant],
}
