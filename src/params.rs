//! Parameters, presets and the rules they must obey.
//!
//! Every block takes its sizes as const generics; the derived widths (log2 of the warp count,
//! the stack-pointer width, ...) are extra const generics whose relation to the sizes is checked
//! in the block's `new()`, with the same rules as here. A parameter set that breaks a rule is
//! refused with an error that names the parameter and the rule.

use anyhow::{bail, Result};

/// A preset as a type, for the blocks' types at its sizes: each block's folder declares its
/// types at a preset (`preset.rs`), and the registry makes them for every preset.
pub trait PresetSizes: 'static {
    /// The preset this type stands for.
    const PRESET: Preset;
}

/// A command-line choice (clap's `ValueEnum`, with the `cli` feature) over `$all`, each value
/// named by `$name`: the names the type prints, from its one list.
#[doc(hidden)]
#[macro_export]
macro_rules! value_enum {
    ($t:ty, $all:expr, |$v:ident| $name:expr) => {
        #[cfg(feature = "cli")]
        impl clap::ValueEnum for $t {
            fn value_variants<'a>() -> &'a [Self] {
                &$all
            }
            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                let $v = self;
                Some(clap::builder::PossibleValue::new($name))
            }
        }
    };
}

/// Number of bits needed to hold the values `0..n` (ceil(log2 n)), with `clog2(1) == 0`.
pub const fn clog2(n: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < n {
        bits += 1;
    }
    bits
}

/// Largest width (bits) of any single port value: the simulation harnesses carry port values as
/// `u64`, rust-hdl's literals are `u64` and its `.index()` panics above 32 bits.
pub const MAX_PORT_BITS: usize = 32;

/// Registers per lane of the SIMT core's instruction set.
pub const REGISTERS: usize = 16;
/// Register source operands of one instruction of the core's ISA (`ra`, `rb`).
pub const REG_SOURCES: usize = 2;
/// Instructions a program can hold (11-bit addresses).
pub const MAX_PROGRAM: usize = 1 << 11;
/// Banks of the local data share in R700's layout (seed 004): the block presets' and `cu-core`'s;
/// a core's is its parameter `lds_banks`.
pub const LDS_BANKS: usize = 4;
/// Address bits of the SIMT stacks' shared block RAM (256 entries).
pub const STACK_RAM_ADDR_BITS: usize = 8;
/// Bits of the SIMT core's `errors` port.
pub const ERROR_FLAGS: usize = 8;

/// The core's error flags in binary, every one of the [`ERROR_FLAGS`] bits shown (`0b00000000`).
pub fn error_flags_shown(flags: u8) -> String {
    format!("{flags:#0w$b}", w = ERROR_FLAGS + 2)
}
/// The board self-test's maximal-length 32-bit tap mask (Galois form).
pub const TAPS_32: u64 = 0x8020_0003;
/// The exported `lfsr` module's state after reset.
pub const LFSR_SEED: u64 = 0xACE1_2026;

/// How the warp scheduler picks the warp that fetches when several are active.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchPolicy {
    /// Highest warp index first: what the seed's priority-encoder loop does (starves low warps).
    HighestIndex,
    /// Lowest warp index first.
    LowestIndex,
    /// Round robin: priority rotates to the warp after the last one that fetched.
    RoundRobin,
}

impl FetchPolicy {
    /// The policy's name, as tables and headers give it.
    pub fn name(self) -> &'static str {
        match self {
            FetchPolicy::HighestIndex => "highest-index",
            FetchPolicy::LowestIndex => "lowest-index",
            FetchPolicy::RoundRobin => "round-robin",
        }
    }
}

/// What the top of an empty SIMT stack reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyTop {
    /// Slot 0's entry, stale or not, as the seed's stack does (`stack_mem[0]` when `sp = 0`).
    SlotZero,
    /// Zero: nothing stale is shown, so a stack in block RAM needs no register copy of slot 0.
    Zero,
}

/// Where a [`SimtStackRam`](crate::hw::SimtStackRam) keeps each warp's top entry, and so
/// when its `top_*` outputs show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopStorage {
    /// In registers beside the block RAM: `top_*` shows the top of warp `top_wid` in the same
    /// cycle, and `tops_*` every warp's.
    Registers,
    /// Only in the block RAM: `top_*` shows, one cycle later, the top that warp `top_wid` has
    /// after the edge (read from the RAM, or the entry pushed at that edge); `tops_*` read zero.
    /// Needs [`EmptyTop::Zero`] (a slot 0 that was never written has no defined value in RAM).
    Ram,
}

/// Which behaviour the warp scheduler implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerMode {
    /// Cycle-for-cycle the seed's Verilog (003), quirks included: highest-index fetch, `end`
    /// leaves the active bit set, pop restores from an empty stack, fetch's pc+4 beats a pop.
    SeedCompatible,
    /// The fixed scheduler: the chosen fetch policy, `end` clears a warp fully, misuse is
    /// dropped and flagged, no operation leaves a warp's pc or mask undefined.
    Fixed(FetchPolicy),
    /// The fixed scheduler with its commands registered: every command (warp command, control,
    /// branch, end, pop, warp set) acts in the cycle after it is offered, exactly as the fixed
    /// scheduler would act on it then. Fetch is not delayed. For clock speed: no decision made
    /// from an input reaches a warp's registers in the same cycle.
    Registered(FetchPolicy),
}

impl SchedulerMode {
    /// The fetch policy the mode uses (the seed's mode: highest index first).
    pub fn fetch_policy(self) -> FetchPolicy {
        match self {
            SchedulerMode::SeedCompatible => FetchPolicy::HighestIndex,
            SchedulerMode::Fixed(p) | SchedulerMode::Registered(p) => p,
        }
    }
    /// Commands act a cycle after they are offered ([`SchedulerMode::Registered`]).
    pub fn registered(self) -> bool {
        matches!(self, SchedulerMode::Registered(_))
    }
    /// Whether the seed's own behaviour is kept, quirks and all ([`SchedulerMode::SeedCompatible`]).
    pub fn seed_quirks(self) -> bool {
        self == SchedulerMode::SeedCompatible
    }
    /// What an empty stack's top reads: slot 0 in the seed's mode (a pop on an empty stack
    /// loads it), zero in the fixed mode (which never loads an empty stack's top).
    pub fn empty_top(self) -> EmptyTop {
        if self.seed_quirks() {
            EmptyTop::SlotZero
        } else {
            EmptyTop::Zero
        }
    }
    /// Where the stacks keep their tops: in the block RAM in the registered mode (a staged pop
    /// reads its entry while it waits in the stage), in registers in the others (which pop
    /// in the cycle the pop is offered).
    pub fn top_storage(self) -> TopStorage {
        if self.registered() {
            TopStorage::Ram
        } else {
            TopStorage::Registers
        }
    }
    /// The mode's name, as tables and headers give it (`fixed, round robin fetch`).
    pub fn name(self) -> String {
        match self {
            SchedulerMode::SeedCompatible => "seed-compatible".into(),
            SchedulerMode::Fixed(p) => format!("fixed, {} fetch", p.name()),
            SchedulerMode::Registered(p) => {
                format!("fixed, registered commands, {} fetch", p.name())
            }
        }
    }
}

/// The sizes of the scheduler slice (warp scheduler, its SIMT stacks and encoders).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedulerParams {
    /// Number of warps (`WarpNum` in the seed).
    pub warps: usize,
    /// Threads per warp: the width of a thread mask (`ThreadNum`).
    pub threads: usize,
    /// Width of a program counter (`AddrWidth`).
    pub pc_width: usize,
    /// Entries per SIMT stack (`DEPTH`).
    pub stack_depth: usize,
    /// Fetch policy of the fixed-mode scheduler that the preset exports.
    pub fetch_policy: FetchPolicy,
}

impl SchedulerParams {
    /// Checks every rule; the error names the parameter and the rule it breaks.
    pub fn validate(&self) -> Result<()> {
        check_warps("warps", self.warps)?;
        check_range("threads", self.threads, 1, MAX_PORT_BITS)?;
        check_range("pc_width", self.pc_width, 3, MAX_PORT_BITS)?;
        check_range("stack_depth", self.stack_depth, 1, 64)?;
        check_stack_ram(self.warps, self.stack_depth)
    }
    /// Width of a warp id: `clog2(warps)`.
    pub const fn warp_id_width(&self) -> usize {
        clog2(self.warps)
    }
    /// Width of a stack pointer / occupancy count: holds `0..=stack_depth`.
    pub const fn stack_ptr_width(&self) -> usize {
        stack_ptr_width(self.stack_depth)
    }
}

/// Every warp's stack fits the shared stack RAM ([`SimtStackRam`](crate::hw::SimtStackRam)):
/// `warps x stack_depth <= 256`.
pub fn check_stack_ram(warps: usize, stack_depth: usize) -> Result<()> {
    let entries = 1 << STACK_RAM_ADDR_BITS;
    if warps * stack_depth > entries {
        bail!("parameters `warps` x `stack_depth` = {warps} x {stack_depth} = {} exceed the stack RAM's {entries} entries", warps * stack_depth);
    }
    Ok(())
}

/// Width of a stack pointer that counts `0..=depth`.
pub const fn stack_ptr_width(depth: usize) -> usize {
    clog2(depth + 1)
}

/// `text` for an error line: at most 40 characters, control characters escaped.
pub fn shown(text: &str) -> String {
    let escaped: String = text.chars().flat_map(char::escape_debug).collect();
    match escaped.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &escaped[..cut]),
        None => escaped,
    }
}

/// `value` must lie in `lo..=hi`.
pub fn check_range(name: &str, value: usize, lo: usize, hi: usize) -> Result<()> {
    if value < lo || value > hi {
        bail!("parameter `{name}` = {value} is out of range: it must be between {lo} and {hi}");
    }
    Ok(())
}

/// A warp (or requester) count: a power of two between 2 and 32, so that every warp id of
/// `clog2(n)` bits names a real warp and a warp bit-vector fits the 32-bit `.index()` limit.
pub fn check_warps(name: &str, value: usize) -> Result<()> {
    check_pow2(name, value, 2, MAX_PORT_BITS)
}

/// A power of two in `lo..=hi`.
pub fn check_pow2(name: &str, value: usize, lo: usize, hi: usize) -> Result<()> {
    check_range(name, value, lo, hi)?;
    if !value.is_power_of_two() {
        bail!("parameter `{name}` = {value} must be a power of two");
    }
    Ok(())
}

/// A derived const generic must equal what its rule computes from the base parameters.
pub fn check_derived(name: &str, got: usize, rule: &str, want: usize) -> Result<()> {
    if got != want {
        bail!("derived parameter `{name}` = {got} breaks its rule `{name} = {rule}` (= {want})");
    }
    Ok(())
}

/// The sizes of the operand collector (seeds 000 and 002).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectorParams {
    /// Register banks (`gpgpu_num_reg_banks`), a power of two.
    pub banks: usize,
    /// Collector units (`gpgpu_operand_collector_num_units_gen`), a power of two.
    pub collector_units: usize,
    /// Input ports (ID_OC): instructions allocated per cycle at most.
    pub in_ports: usize,
    /// Registers per warp.
    pub regs_per_warp: usize,
    /// booksim's original matching (a collector unit takes at most one bank per cycle) instead of
    /// GPGPU-Sim's (`_outmatch` check commented out: any number).
    pub one_bank_per_cu: bool,
    /// Execution-unit types, each with its own output port (OC_EX) and dispatch unit.
    pub unit_types: usize,
    /// One collector-unit set per unit type (`gpgpu_enable_specialized_operand_collector`)
    /// instead of one generic set that every input and dispatch unit shares (the V100 config).
    pub specialized: bool,
    /// GPGPU-Sim's sub-core model: warp `w` belongs to scheduler `w mod schedulers` and uses only
    /// that scheduler's `banks / schedulers` banks. 1 turns it off.
    pub schedulers: usize,
    /// WAR safety: instructions of one warp leave the collector in program order (seed 002's fix).
    pub in_order_per_warp: bool,
    /// Bits of each lane of a register (a register is `threads x lane_bits` wide).
    pub lane_bits: usize,
    /// Bits of the opaque instruction tag carried from input to output.
    pub tag_bits: usize,
    /// Register source operands an instruction may have, in slots `0..sources` of its three
    /// (GPGPU-Sim's `MAX_REG_OPERANDS`; 3 for GPGPU-Sim, 2 for the core's ISA). The bank queues
    /// are sized by it: `sources x collector_units` requests are outstanding at most.
    pub sources: usize,
    /// GPGPU-Sim's one-cycle step, or its pipelined form for clock speed.
    pub timing: CollectorTiming,
}

/// When the operand collector's steps act relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectorTiming {
    /// GPGPU-Sim's `opndcoll_rfu_t::step()` in one clock, cycle for cycle: a collector unit that
    /// dispatch frees takes a new instruction in the same cycle, and the new instruction's reads
    /// join the bank queues at that same edge.
    GpgpuSim,
    /// Pipelined for clock speed: only a unit free at the start of the cycle takes an
    /// instruction, so a unit freed by dispatch is allocated a cycle later, and no path runs
    /// from dispatch through allocation into the bank queues. A unit is then held one cycle
    /// longer per instruction.
    Pipelined,
}

impl CollectorTiming {
    /// Both timings, GPGPU-Sim's first.
    pub const ALL: [CollectorTiming; 2] = [CollectorTiming::GpgpuSim, CollectorTiming::Pipelined];
    /// The timing's name, as flags and tables give it.
    pub fn name(self) -> &'static str {
        match self {
            CollectorTiming::GpgpuSim => "gpgpu-sim",
            CollectorTiming::Pipelined => "pipelined",
        }
    }
}

crate::value_enum!(CollectorTiming, CollectorTiming::ALL, |t| t.name());

impl CollectorParams {
    /// Checks every rule against the warp count it serves.
    pub fn validate(&self, warps: usize) -> Result<()> {
        check_pow2("banks", self.banks, 2, 16)?;
        check_pow2("collector_units", self.collector_units, 2, 16)?;
        check_range("in_ports", self.in_ports, 1, 8)?;
        check_pow2("regs_per_warp", self.regs_per_warp, 2, 256)?;
        if self.regs_per_warp < self.banks {
            bail!("parameter `regs_per_warp` = {} must be at least `banks` = {} (each warp spreads its registers over every bank)", self.regs_per_warp, self.banks);
        }
        check_range(
            "rows per bank (warps x regs_per_warp / banks)",
            self.rows_per_bank(warps),
            2,
            1 << 16,
        )?;
        check_range("unit_types", self.unit_types, 1, 4)?;
        if self.specialized && !self.collector_units.is_multiple_of(self.unit_types) {
            bail!("parameter `collector_units` = {} must divide evenly into `unit_types` = {} sets (specialized collector units)", self.collector_units, self.unit_types);
        }
        check_pow2("schedulers", self.schedulers, 1, 8)?;
        if !self.banks.is_multiple_of(self.schedulers) || self.banks / self.schedulers < 2 {
            bail!("parameter `banks` = {} must split into at least 2 banks per scheduler over `schedulers` = {} (sub-core model)", self.banks, self.schedulers);
        }
        if !warps.is_multiple_of(self.schedulers) {
            bail!(
                "parameter `schedulers` = {} must divide the warp count {warps} (sub-core model)",
                self.schedulers
            );
        }
        check_range("lane_bits", self.lane_bits, 1, 32)?;
        check_range("tag_bits", self.tag_bits, 1, 32)?;
        check_range("sources", self.sources, 1, 3)?;
        Ok(())
    }
    /// Rows of each bank: every register of every warp has one (bank, row).
    pub const fn rows_per_bank(&self, warps: usize) -> usize {
        warps * self.regs_per_warp / self.banks
    }
    /// Request lanes into the bank queues per cycle: 3 source operands per input port.
    pub const fn push_lanes(&self) -> usize {
        3 * self.in_ports
    }
    /// The operand slots that may hold a register source: bit `s` for slot `s < sources`.
    pub const fn source_slots(&self) -> u8 {
        (1 << self.sources) - 1
    }
    /// Entries per bank queue: at least `sources` per collector unit (see `BankArbiter`).
    pub const fn queue_depth(&self) -> usize {
        (self.sources * self.collector_units).next_power_of_two()
    }
}

/// A named, ready-made parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The preset's name (`--preset NAME`, the `rtl_out/NAME/` folder).
    pub name: &'static str,
    /// The sizes of its scheduler slice.
    pub scheduler: SchedulerParams,
    /// The sizes of its operand collector.
    pub collector: CollectorParams,
    /// Why this preset exists (printed in the README and the exported headers).
    pub purpose: &'static str,
    /// `Some(f)`: sized for a board: `gen` writes its board self-test top (`self_test.v`), and
    /// `build` runs that top at `f` MHz by default (made by the iCE40 PLL when it is not the
    /// board's own clock). `None`: no board top.
    pub board_clock_mhz: Option<u32>,
    /// Rows of each of the local data share's banks (a power of two, 2..=4096): `lds_banks x
    /// lds_rows` words of `collector.lane_bits` bits.
    pub lds_rows: usize,
    /// Banks of the local data share (a power of two, 2..=32, at most `scheduler.threads`).
    pub lds_banks: usize,
    /// The SIMT core exported beside this preset's blocks (`rtl_out/<preset>/simt_core.v`), if
    /// any. It is a preset of its own, with its own name: its lanes are not the blocks' threads.
    pub core: Option<CoreParams>,
}

impl Preset {
    /// The clock its board top runs at by default, MHz; an error for a preset without one.
    pub fn board_clock(&self) -> Result<u32> {
        self.board_clock_mhz
            .ok_or_else(|| anyhow::anyhow!("preset `{}` has no board top (it is not sized for a board): use a preset with one, e.g. `cu`", self.name))
    }
    /// The instruction-set extensions of the preset's blocks: its core's, or every one for a
    /// preset without a core.
    pub const fn isa(&self) -> Extensions {
        match self.core {
            Some(core) => core.isa,
            None => Extensions::ALL,
        }
    }
}

/// The seed's defaults (`003`): 8 warps, 32 threads, 32-bit pc, stack depth 8.
pub const SEED: Preset = Preset {
    name: "seed",
    scheduler: SchedulerParams {
        warps: 8,
        threads: 32,
        pc_width: 32,
        stack_depth: 8,
        fetch_policy: FetchPolicy::RoundRobin,
    },
    // V100 (seed 000): 8 banks, 8 generic collector units; 2 input ports here (V100 has 8).
    collector: CollectorParams {
        banks: 8,
        collector_units: 8,
        in_ports: 2,
        regs_per_warp: 32,
        one_bank_per_cu: false,
        unit_types: 2,
        specialized: false,
        schedulers: 1,
        in_order_per_warp: false,
        // GPGPU-Sim's lanes are 32 bits; 2 here keeps a 32-lane register within the 64-bit ports
        // the test harness compares (the control path is the seed's; only data is narrower).
        lane_bits: 2,
        tag_bits: 8,
        sources: 3,
        timing: CollectorTiming::GpgpuSim,
    },
    purpose: "the seed's defaults; the seed-compatible scheduler is checked against the seed's Verilog with it",
    // No board top: its operand collector alone is 40,068 logic cells, over 5 times the HX8K.
    board_clock_mhz: None,
    // R700's 4 banks (seed 004), 256 words each.
    lds_rows: 256,
    lds_banks: LDS_BANKS,
    // The SIMT core at the seed's sizes (issue 47).
    core: Some(CORE_SEED),
};

/// Sized for the Alchitry Cu (iCE40-HX8K, 7680 logic cells, 32 x 4 kbit block RAM).
pub const CU: Preset = Preset {
    name: "cu",
    scheduler: SchedulerParams {
        warps: 4,
        threads: 8,
        pc_width: 16,
        stack_depth: 4,
        fetch_policy: FetchPolicy::RoundRobin,
    },
    // Sized so the collector fits beside the scheduler on the board: 2 units and 1 input port
    // (4 units and 2 ports took 13,134 logic cells, 171% of the HX8K), 32-bit registers.
    collector: CollectorParams {
        banks: 4,
        collector_units: 2,
        in_ports: 1,
        regs_per_warp: 16,
        one_bank_per_cu: false,
        unit_types: 2,
        specialized: false,
        schedulers: 1,
        in_order_per_warp: true,
        lane_bits: 4,
        tag_bits: 8,
        sources: 3,
        timing: CollectorTiming::GpgpuSim,
    },
    purpose: "sized for the Alchitry Cu's iCE40-HX8K (7680 logic cells, 32 block RAMs)",
    // The collector's one-cycle step order limits the board top to about 50 MHz (README,
    // "On the board"); the PLL makes 45 MHz from the Cu's 100 MHz.
    board_clock_mhz: Some(45),
    // 64 words: one row per thread quad of every warp with stride 1, and room for a second array.
    lds_rows: 16,
    lds_banks: LDS_BANKS,
    core: Some(CORE_CU),
};

/// A deliberately small set that fills its stacks and warps quickly in random tests.
pub const TINY: Preset = Preset {
    name: "tiny",
    scheduler: SchedulerParams {
        warps: 2,
        threads: 4,
        pc_width: 8,
        stack_depth: 2,
        fetch_policy: FetchPolicy::LowestIndex,
    },
    collector: CollectorParams {
        banks: 2,
        collector_units: 2,
        in_ports: 1,
        regs_per_warp: 4,
        one_bank_per_cu: true,
        unit_types: 1,
        specialized: false,
        schedulers: 1,
        in_order_per_warp: false,
        lane_bits: 8,
        tag_bits: 4,
        sources: 3,
        timing: CollectorTiming::GpgpuSim,
    },
    purpose: "smallest useful set: stacks and warps fill within a few cycles in random tests",
    board_clock_mhz: None,
    lds_rows: 16,
    lds_banks: LDS_BANKS,
    core: Some(CORE_TINY),
};

/// How the SIMT core's issue stage picks the warp whose I-buffer head it tries this cycle
/// (GPGPU-Sim's `order_warps` policies, seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssuePolicy {
    /// Loose round robin: priority rotates every cycle to the warp after the last one tried.
    LooseRoundRobin,
    /// Greedy then oldest: the warp that issued last, while it has an instruction and did not
    /// stall; otherwise the oldest warp (the lowest index: warps launch in index order).
    GreedyThenOldest,
}

impl IssuePolicy {
    /// Both policies, loose round robin first.
    pub const ALL: [IssuePolicy; 2] = [IssuePolicy::LooseRoundRobin, IssuePolicy::GreedyThenOldest];
    /// The policy's name, as flags and tables give it.
    pub fn name(self) -> &'static str {
        match self {
            IssuePolicy::LooseRoundRobin => "lrr",
            IssuePolicy::GreedyThenOldest => "gto",
        }
    }
}

crate::value_enum!(IssuePolicy, IssuePolicy::ALL, |p| p.name());

/// An instruction-set extension: instructions a core carries only when its parameters say
/// so, because they cost hardware. A program that uses one its core lacks is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// `mul`.
    Mul,
    /// `lui`.
    Lui,
    /// `slts`, `sra` (and, with `imm`, their immediate forms `sltsi`, `srai`): signed compares
    /// and shifts.
    Signed,
    /// `stx`.
    Stx,
    /// `ori`, `xori`, `slti`: the immediate forms of `or`, `xor`, `slt` (and, with `signed`,
    /// `sltsi`, `srai`).
    Imm,
    /// `threads`: the lanes per warp as a value.
    Threads,
    /// `min`, `max` (signed), `minu`, `maxu` (unsigned).
    MinMax,
    /// `mulh`, `mulhu`: the high half of the product, signed and unsigned (with `mul`).
    MulHigh,
    /// `ld rd, imm(ra)` (and, with `stx`, `stx rb, imm(ra)`): base + offset addressing on the
    /// local data share.
    Offset,
    /// `atadd`, `atxch`: atomic add (returning the old word) and exchange on the local data
    /// share.
    Atomic,
}

impl Extension {
    /// Every extension, in the order the ISA page lists them.
    pub const ALL: [Extension; 10] = [
        Extension::Mul,
        Extension::Lui,
        Extension::Signed,
        Extension::Stx,
        Extension::Imm,
        Extension::Threads,
        Extension::MinMax,
        Extension::MulHigh,
        Extension::Offset,
        Extension::Atomic,
    ];
    /// The extensions it needs beside itself (`mulhi` is the high half of `mul`'s product); a
    /// core that carries it without them is refused ([`Extensions::broken_rule`]).
    pub fn needs(self) -> &'static [Extension] {
        match self {
            Extension::MulHigh => &[Extension::Mul],
            _ => &[],
        }
    }
    /// The extension's name (as core parameters and errors give it).
    pub fn name(self) -> &'static str {
        match self {
            Extension::Mul => "mul",
            Extension::Lui => "lui",
            Extension::Signed => "signed",
            Extension::Stx => "stx",
            Extension::Imm => "imm",
            Extension::Threads => "threads",
            Extension::MinMax => "minmax",
            Extension::MulHigh => "mulhi",
            Extension::Offset => "offset",
            Extension::Atomic => "atomic",
        }
    }
}

/// The extensions a core carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    /// `mul` ([`Extension::Mul`]).
    pub mul: bool,
    /// `lui` ([`Extension::Lui`]).
    pub lui: bool,
    /// `slts`, `sra` ([`Extension::Signed`]).
    pub signed: bool,
    /// `stx` ([`Extension::Stx`]).
    pub stx: bool,
    /// `ori`, `xori`, `slti`, and with `signed` `sltsi`, `srai` ([`Extension::Imm`]).
    pub imm: bool,
    /// `threads` ([`Extension::Threads`]).
    pub threads: bool,
    /// `min`, `max`, `minu`, `maxu` ([`Extension::MinMax`]).
    pub minmax: bool,
    /// `mulh`, `mulhu`, with `mul` ([`Extension::MulHigh`]).
    pub mulhi: bool,
    /// `ld rd, imm(ra)`, and with `stx` `stx rb, imm(ra)` ([`Extension::Offset`]).
    pub offset: bool,
    /// `atadd`, `atxch` ([`Extension::Atomic`]).
    pub atomic: bool,
}

impl Extensions {
    /// The base instruction set only.
    pub const NONE: Extensions = Extensions {
        mul: false,
        lui: false,
        signed: false,
        stx: false,
        imm: false,
        threads: false,
        minmax: false,
        mulhi: false,
        offset: false,
        atomic: false,
    };
    /// Every extension.
    pub const ALL: Extensions = Extensions {
        mul: true,
        lui: true,
        signed: true,
        stx: true,
        imm: true,
        threads: true,
        minmax: true,
        mulhi: true,
        offset: true,
        atomic: true,
    };
    /// An extension carried without one it needs ([`Extension::needs`]), as a fixed line.
    pub const fn broken_rule(&self) -> Option<&'static str> {
        if self.mulhi && !self.mul {
            return Some("parameter `isa`: extension `mulhi` needs extension `mul`");
        }
        None
    }
    /// Whether the core carries extension `e`.
    pub const fn has(&self, e: Extension) -> bool {
        match e {
            Extension::Mul => self.mul,
            Extension::Lui => self.lui,
            Extension::Signed => self.signed,
            Extension::Stx => self.stx,
            Extension::Imm => self.imm,
            Extension::Threads => self.threads,
            Extension::MinMax => self.minmax,
            Extension::MulHigh => self.mulhi,
            Extension::Offset => self.offset,
            Extension::Atomic => self.atomic,
        }
    }
    /// Whether an instruction that needs the extensions `exts` (none: the base set) may run.
    pub fn allows(&self, exts: &[Extension]) -> bool {
        exts.iter().all(|&e| self.has(e))
    }
    /// These extensions and `e`.
    pub const fn with(self, e: Extension) -> Extensions {
        match e {
            Extension::Mul => Extensions { mul: true, ..self },
            Extension::Lui => Extensions { lui: true, ..self },
            Extension::Signed => Extensions { signed: true, ..self },
            Extension::Stx => Extensions { stx: true, ..self },
            Extension::Imm => Extensions { imm: true, ..self },
            Extension::Threads => Extensions { threads: true, ..self },
            Extension::MinMax => Extensions { minmax: true, ..self },
            Extension::MulHigh => Extensions { mulhi: true, ..self },
            Extension::Offset => Extensions { offset: true, ..self },
            Extension::Atomic => Extensions { atomic: true, ..self },
        }
    }
    /// The names of the extensions carried, `none` when there is none.
    pub fn names(&self) -> String {
        let names: Vec<_> =
            Extension::ALL.into_iter().filter(|&e| self.has(e)).map(Extension::name).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }
}

/// The SIMT core: the machine the ISA runs on ([`crate::isa::interp::Config`]) and the blocks
/// it is built of. The core uses its collector with one input port, two unit types (0: the lane
/// ALU and branches, 1: the local data share), in-order dispatch per warp (no write-after-read
/// hazard between a warp's instructions) and 16 registers per warp; the tag carries the 32-bit
/// instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreParams {
    /// The core preset's name (distinct from the block presets': `cu-core` is not `cu`).
    pub name: &'static str,
    /// Why this core preset exists (printed in the exported headers).
    pub purpose: &'static str,
    /// Warps (2 to 64).
    pub warps: usize,
    /// Lanes of a warp (a power of two, 4 to 32).
    pub threads: usize,
    /// Bits of every value.
    pub lane_bits: usize,
    /// Entries of each warp's SIMT stack.
    pub stack_depth: usize,
    /// Rows of each bank of the local data share.
    pub lds_rows: usize,
    /// Banks of the local data share (a power of two, at most `threads`).
    pub lds_banks: usize,
    /// Register banks of the operand collector.
    pub banks: usize,
    /// Collector units of the operand collector.
    pub collector_units: usize,
    /// Words of instruction memory (a power of two): the longest program.
    pub imem_words: usize,
    /// Which ready warp issues: loose round robin or greedy-then-oldest.
    pub policy: IssuePolicy,
    /// The operand collector's timing: GPGPU-Sim's one-cycle step, or pipelined.
    pub collector_timing: CollectorTiming,
    /// The instruction-set extensions the core carries.
    pub isa: Extensions,
}

impl CoreParams {
    /// Checks every rule; the error names the parameter and the rule it breaks.
    pub fn validate(&self) -> Result<()> {
        self.scheduler().validate()?;
        self.collector().validate(self.warps)?;
        check_pow2("lds_rows", self.lds_rows, 2, 4096)?;
        check_pow2("imem_words", self.imem_words, 2, MAX_PROGRAM)?;
        check_pow2("threads", self.threads, 4, 32)?;
        if let Some(rule) = lds_banks_rule(self.lds_banks, self.threads) {
            bail!("{rule} (got {})", self.lds_banks);
        }
        // The lane ALU's shifts.
        check_pow2("lane_bits", self.lane_bits, 2, 32)?;
        check_range("warps", self.warps, 2, 64)?;
        if let Some(rule) = self.isa.broken_rule() {
            bail!("{rule}");
        }
        Ok(())
    }
    /// `self`, when every rule of [`CoreParams::validate`] holds; otherwise a panic with a fixed
    /// line naming the parameter and the rule, which in a `const` (as `sized_simt_core!` uses
    /// it) stops the build.
    pub const fn valid(self) -> CoreParams {
        if let Some(rule) = self.broken_rule() {
            panic!("{}", rule);
        }
        self
    }

    /// The first rule of [`CoreParams::validate`] that `self` breaks, as a fixed line.
    pub const fn broken_rule(&self) -> Option<&'static str> {
        if let Some(rule) = broken_rule(&self.scheduler(), &self.collector(), self.lds_rows) {
            return Some(rule);
        }
        if !pow2_in(self.imem_words, 2, MAX_PROGRAM) {
            return Some("parameter `imem_words` must be a power of two between 2 and 2048");
        }
        if !pow2_in(self.threads, 4, 32) {
            return Some("parameter `threads` must be a power of two between 4 and 32");
        }
        if let Some(rule) = lds_banks_rule(self.lds_banks, self.threads) {
            return Some(rule);
        }
        if !pow2_in(self.lane_bits, 2, 32) {
            return Some("parameter `lane_bits` must be a power of two between 2 and 32");
        }
        if !in_range(self.warps, 2, 64) {
            return Some("parameter `warps` must be between 2 and 64");
        }
        self.isa.broken_rule()
    }

    /// Words of the local data share: `lds_banks x lds_rows`.
    pub const fn lds_words(&self) -> usize {
        self.lds_banks * self.lds_rows
    }
    /// The sizes of the core's blocks.
    pub const fn sizes(&self) -> Sizes {
        Sizes::unchecked(self.scheduler(), self.collector(), self.lds_rows, self.lds_banks)
    }
    /// The warp scheduler's parameters: byte pcs over the instruction memory, round-robin fetch.
    pub const fn scheduler(&self) -> SchedulerParams {
        SchedulerParams {
            warps: self.warps,
            threads: self.threads,
            pc_width: clog2(self.imem_words) + 2,
            stack_depth: self.stack_depth,
            fetch_policy: FetchPolicy::RoundRobin,
        }
    }
    /// The operand collector's parameters.
    pub const fn collector(&self) -> CollectorParams {
        CollectorParams {
            banks: self.banks,
            collector_units: self.collector_units,
            in_ports: 1,
            regs_per_warp: REGISTERS,
            one_bank_per_cu: false,
            unit_types: 2,
            specialized: false,
            schedulers: 1,
            in_order_per_warp: true,
            lane_bits: self.lane_bits,
            tag_bits: 32,
            sources: REG_SOURCES,
            timing: self.collector_timing,
        }
    }
}

/// The SIMT core for the Alchitry Cu: the `cu` preset's 4 warps and stack depth, warps of 4
/// lanes (one per local-data-share bank) of 8-bit values, in the pipelined timing (the
/// GPGPU-Sim-exact timing is exported beside it as `simt_core_gpgpu_sim`). `simt-rtl explore`
/// measures it beside more lanes, warps and collector units (`CORE_CU_W4_U4` and after).
pub const CORE_CU: CoreParams = CoreParams {
    name: "cu-core",
    purpose: "the SIMT core for the Alchitry Cu's iCE40-HX8K: 4 warps of 4 lanes of 8 bits",
    warps: 4,
    threads: 4,
    lane_bits: 8,
    stack_depth: 4,
    lds_rows: 64,
    lds_banks: LDS_BANKS,
    banks: 4,
    collector_units: 2,
    imem_words: 256,
    policy: IssuePolicy::LooseRoundRobin,
    collector_timing: CollectorTiming::Pipelined,
    isa: Extensions::NONE,
};
/// The smallest core (the `tiny` preset's warps, lanes and stack).
pub const CORE_TINY: CoreParams = CoreParams {
    name: "tiny-core",
    purpose: "the smallest SIMT core: 2 warps of 4 lanes of 8 bits, stack depth 2, every extension",
    warps: 2,
    threads: 4,
    lane_bits: 8,
    stack_depth: 2,
    lds_rows: 64,
    lds_banks: LDS_BANKS,
    banks: 2,
    collector_units: 2,
    imem_words: 256,
    policy: IssuePolicy::LooseRoundRobin,
    collector_timing: CollectorTiming::GpgpuSim,
    // Every extension, so that the random tests and the lane ALU's formal properties (`mul`'s
    // product) meet them at the smallest size.
    isa: Extensions::ALL,
};

/// The SIMT core at the seed's sizes (seeds 000-003): 8 warps of 32 lanes of 32-bit values,
/// stack depth 8, every extension; exported with the `seed` preset (the core alone). Its
/// collector units, register banks and local-data-share banks are first choices: none of the
/// candidates `simt-rtl explore --preset seed-core` measures fits within 60% of an LFE5U-85F's
/// LUT4s yet (the book's core page says what would).
pub const CORE_SEED: CoreParams = CoreParams {
    name: "seed-core",
    purpose: "the SIMT core at the seed's sizes: 8 warps of 32 lanes of 32 bits, stack depth 8",
    warps: 8,
    threads: 32,
    lane_bits: 32,
    stack_depth: 8,
    lds_rows: 128,
    lds_banks: 8,
    banks: 4,
    collector_units: 2,
    imem_words: 256,
    policy: IssuePolicy::LooseRoundRobin,
    collector_timing: CollectorTiming::Pipelined,
    isa: Extensions::ALL,
};

/// The seed core's candidates, each one size away from [`CORE_SEED`]: `simt-rtl explore --preset
/// seed-core` measures them beside it (model IPC, `synth_ecp5`); none is exported. (32
/// local-data-share banks, one per lane, were left out: `synth_ecp5` of that core ran for more
/// than 20 minutes in 19 GB before it was stopped.)
pub const CORE_SEED_U4: CoreParams = CoreParams {
    name: "seed-core-u4",
    purpose: "the seed core with 4 collector units (explored, not exported)",
    collector_units: 4,
    ..CORE_SEED
};
/// The seed core with 2 register banks.
pub const CORE_SEED_B2: CoreParams = CoreParams {
    name: "seed-core-b2",
    purpose: "the seed core with 2 register banks (explored, not exported)",
    banks: 2,
    ..CORE_SEED
};
/// The seed core with 8 register banks.
pub const CORE_SEED_B8: CoreParams = CoreParams {
    name: "seed-core-b8",
    purpose: "the seed core with 8 register banks (explored, not exported)",
    banks: 8,
    ..CORE_SEED
};
/// The seed core with 4 local-data-share banks (of 256 rows).
pub const CORE_SEED_L4: CoreParams = CoreParams {
    name: "seed-core-l4",
    purpose: "the seed core with 4 local-data-share banks (explored, not exported)",
    lds_banks: 4,
    lds_rows: 256,
    ..CORE_SEED
};

/// The `cu` core at the sizes `simt-rtl explore` measures beside it (none is exported to
/// `rtl_out/` or put on the board): 4 collector units, 8 warps, both, and 8 lanes.
pub const CORE_CU_W4_U4: CoreParams = CoreParams {
    name: "cu-core-w4-u4",
    purpose: "the cu core with 4 collector units (explored, not exported)",
    collector_units: 4,
    ..CORE_CU
};
/// The `cu` core with 8 warps.
pub const CORE_CU_W8_U2: CoreParams = CoreParams {
    name: "cu-core-w8-u2",
    purpose: "the cu core with 8 warps (explored, not exported)",
    warps: 8,
    ..CORE_CU
};
/// The `cu` core with 8 warps and 4 collector units.
pub const CORE_CU_W8_U4: CoreParams = CoreParams {
    name: "cu-core-w8-u4",
    purpose: "the cu core with 8 warps and 4 collector units (explored, not exported)",
    warps: 8,
    collector_units: 4,
    ..CORE_CU
};
/// The `cu` core with 8 lanes.
pub const CORE_CU_L8: CoreParams = CoreParams {
    name: "cu-core-l8",
    purpose: "the cu core with 8 lanes (explored, not exported)",
    threads: 8,
    ..CORE_CU
};

/// Every core preset.
pub const CORE_PRESETS: [CoreParams; 3] = [CORE_CU, CORE_TINY, CORE_SEED];

/// The core presets as a Markdown table, one row each, every figure read from its
/// [`CoreParams`]: the table of the book's ISA page (`tests/docs.rs` checks that the page holds
/// this text).
pub fn core_presets_markdown() -> String {
    let mut s = String::from(
        "| core preset | warps | lanes x bits | registers | stack depth | register banks | collector units | local data share | instruction words | extensions | exported with |\n\
         |---|---:|---:|---:|---:|---:|---:|---|---:|---|---|\n",
    );
    for c in CORE_PRESETS {
        let with: Vec<String> = PRESETS
            .iter()
            .filter(|p| p.core.is_some_and(|k| k.name == c.name))
            .map(|p| format!("`{}`", p.name))
            .collect();
        s += &format!(
            "| `{}` | {} | {} x {} | {} | {} | {} | {} | {} banks x {} rows = {} words | {} | {} | {} |\n",
            c.name,
            c.warps,
            c.threads,
            c.lane_bits,
            REGISTERS,
            c.stack_depth,
            c.banks,
            c.collector_units,
            c.lds_banks,
            c.lds_rows,
            c.lds_words(),
            c.imem_words,
            c.isa.names(),
            if with.is_empty() { "none".to_string() } else { with.join(", ") }
        );
    }
    s
}

/// Looks a core preset up by name. A block preset's name is an error that names its core.
pub fn core_params(name: &str) -> Result<CoreParams> {
    if let Some(core) = CORE_PRESETS.iter().find(|c| c.name == name) {
        return Ok(*core);
    }
    let known: Vec<_> = CORE_PRESETS.iter().map(|c| c.name).collect();
    match PRESETS.iter().find(|p| p.name == name) {
        Some(Preset { core: Some(core), .. }) => bail!(
            "`{name}` is a block preset; its SIMT core is the core preset `{}` (core presets: {})",
            core.name,
            known.join(", ")
        ),
        Some(_) => bail!(
            "block preset `{name}` has no SIMT core of its own; core presets: {}",
            known.join(", ")
        ),
        None => bail!("unknown core preset `{name}`: known core presets are {}", known.join(", ")),
    }
}

/// Every const generic of a preset's blocks, computed from the preset (the concrete types of
/// [`crate::registry`] are spelled with these; each block's `new()` checks them again).
/// Names as the blocks' generics: scheduler `W` warps (`WW` bits), `T` threads, `A` pc bits,
/// stack depth `D` (`SPW` bits), `E = T + A` (the seed's branch word); collector `B` banks (`BW`),
/// `N` units (`NW`), `P` input ports, `K = 3P` request lanes, queues of `Q` (`QW`, `QCW`,
/// `BQ = B Q`), `SQ = max(B, N)`, `RW` row bits, `R` registers per warp (`RRW` bits), `DW`-bit
/// lanes (`TD = T DW`, `SW = clog2 DW`), `U` unit types (`UW` bits, at least 1), `G` tag bits;
/// `2^LRW` local-data-share rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct Sizes {
    /// What [`Sizes::new`] or [`Sizes::checked`] made these from (every rule held), so that
    /// [`Sizes::valid`] can tell a field written since.
    made: Made,
    /// Warps.
    pub W: usize,
    /// Warp-id bits.
    pub WW: usize,
    /// Threads (lanes) per warp.
    pub T: usize,
    /// Pc bits.
    pub A: usize,
    /// SIMT stack depth.
    pub D: usize,
    /// Stack-pointer bits.
    pub SPW: usize,
    /// The seed's branch word: `T + A` bits.
    pub E: usize,
    /// Register banks.
    pub B: usize,
    /// Bank-index bits.
    pub BW: usize,
    /// Collector units.
    pub N: usize,
    /// Collector-unit index bits.
    pub NW: usize,
    /// Input ports.
    pub P: usize,
    /// Request lanes: 3 per input port.
    pub K: usize,
    /// Entries of each bank queue.
    pub Q: usize,
    /// Bank-queue index bits.
    pub QW: usize,
    /// Bank-queue count bits.
    pub QCW: usize,
    /// Bank-queue entries in all: `B x Q`.
    pub BQ: usize,
    /// The larger of `B` and `N`.
    pub SQ: usize,
    /// Register-file row bits.
    pub RW: usize,
    /// Registers per warp.
    pub R: usize,
    /// Register-number bits.
    pub RRW: usize,
    /// Bits of a lane.
    pub DW: usize,
    /// Bits of a warp register: `T x DW`.
    pub TD: usize,
    /// Shift-amount bits: `clog2 DW`.
    pub SW: usize,
    /// Execution-unit types.
    pub U: usize,
    /// Unit-type bits (at least 1).
    pub UW: usize,
    /// Tag bits.
    pub G: usize,
    /// Local-data-share row bits.
    pub LRW: usize,
    /// Local-data-share banks.
    pub LB: usize,
    /// Local-data-share bank-index bits.
    pub LBW: usize,
}

/// The type `$ty` with the [`Sizes`] fields named after the `;` as its const generics, in that
/// order, from the sizes `$s`, which must be valid ([`Sizes::valid`]): what every block's
/// `sized_<block>!` expands to.
#[doc(hidden)]
#[macro_export]
macro_rules! sized_type {
    ([$($ty:tt)+] $s:expr; $first:ident $(, $rest:ident)* $(,)?) => {
        $($ty)+<{ $crate::params::Sizes::valid($s).$first } $(, { $s.$rest })*>
    };
}

/// The parameters checked [`Sizes`] were made from (`None`: not checked): the scheduler's, the
/// collector's, the local data share's rows and banks; not part of their
/// equality (the same sizes are equal however they were made).
#[derive(Clone, Copy, Debug)]
struct Made(Option<(SchedulerParams, CollectorParams, usize, usize)>);

impl PartialEq for Made {
    fn eq(&self, _: &Made) -> bool {
        true
    }
}

impl Eq for Made {}

impl Sizes {
    /// The sizes of `p`'s blocks (checked as [`Sizes::new`] checks).
    pub const fn of(p: &Preset) -> Sizes {
        Sizes::new(p.scheduler, p.collector, p.lds_rows).with_lds_banks(p.lds_banks)
    }

    /// `self` with a local data share of `banks` banks ([`Sizes::new`] gives R700's 4); in a
    /// `const`, a count that breaks its rule (a power of two, 2..=32, at most `threads`) stops
    /// the build (at run time, use [`Sizes::checked_lds_banks`]).
    pub const fn with_lds_banks(self, banks: usize) -> Sizes {
        if let Some(rule) = lds_banks_rule(banks, self.T) {
            panic!("{}", rule);
        }
        let made = match self.made.0 {
            Some((s, c, rows, _)) => Made(Some((s, c, rows, banks))),
            None => Made(None),
        };
        Sizes { LB: banks, LBW: clog2(banks), made, ..self }
    }

    /// [`Sizes::with_lds_banks`] at run time: a count that breaks its rule is an error naming the
    /// parameter, its value and the rule, not a panic.
    pub fn checked_lds_banks(self, banks: usize) -> Result<Sizes> {
        match lds_banks_rule(banks, self.T) {
            Some(rule) => bail!("{rule}, got {banks} (threads = {})", self.T),
            None => Ok(self.with_lds_banks(banks)),
        }
    }

    /// The sizes of a scheduler `s`, a collector `c` and a local data share of `lds_rows` rows,
    /// for a `const` item that names block types (`sized_operand_collector!(MY_SIZES)` and the
    /// other `sized_*!` macros). Parameters that break a rule stop the build with a fixed message
    /// that names the parameter and the rule; at run time, use [`Sizes::checked`].
    ///
    /// ```
    /// use simt_rtl::params::{Sizes, CU};
    /// const WIDE: Sizes = Sizes::new(
    ///     simt_rtl::params::SchedulerParams { warps: 16, ..CU.scheduler },
    ///     CU.collector,
    ///     CU.lds_rows,
    /// );
    /// type Scheduler16 = simt_rtl::sized_warp_scheduler!(WIDE);
    /// let _ = Scheduler16::new(simt_rtl::params::SchedulerMode::SeedCompatible).unwrap();
    /// ```
    pub const fn new(s: SchedulerParams, c: CollectorParams, lds_rows: usize) -> Sizes {
        if let Some(rule) = broken_rule(&s, &c, lds_rows) {
            panic!("{}", rule);
        }
        Sizes {
            made: Made(Some((s, c, lds_rows, LDS_BANKS))),
            ..Sizes::unchecked(s, c, lds_rows, LDS_BANKS)
        }
    }

    /// [`Sizes::new`] at run time: parameters that break a rule are an error naming the
    /// parameter, its value and the rule.
    pub fn checked(s: SchedulerParams, c: CollectorParams, lds_rows: usize) -> Result<Sizes> {
        s.validate()?;
        c.validate(s.warps)?;
        check_pow2("lds_rows", lds_rows, 2, 4096)?;
        Ok(Sizes {
            made: Made(Some((s, c, lds_rows, LDS_BANKS))),
            ..Sizes::unchecked(s, c, lds_rows, LDS_BANKS)
        })
    }

    /// `self`, when [`Sizes::new`] or [`Sizes::checked`] made it and no field was written since;
    /// the `sized_*!` macros call it, so that a type named with other sizes does not build.
    ///
    /// ```compile_fail
    /// use simt_rtl::{params::Sizes, registry::CU_SIZES};
    /// const BENT: Sizes = {
    ///     let mut s = CU_SIZES;
    ///     s.T = 5; // TD, E and the rest still say 4 threads
    ///     s
    /// };
    /// type Bent = simt_rtl::sized_warp_scheduler!(BENT);
    /// let _ = Bent::new(simt_rtl::params::SchedulerMode::SeedCompatible);
    /// ```
    pub const fn valid(self) -> Sizes {
        let Some((s, c, lds_rows, lds_banks)) = self.made.0 else {
            panic!(
                "these sizes were not checked: make them with `Sizes::new` (or `Sizes::checked`)"
            );
        };
        const WRITTEN: &str = "a field of these sizes was written after `Sizes::new`: make them with `Sizes::new` from the parameters (and `with_lds_banks`)";
        let remade = Sizes::unchecked(s, c, lds_rows, lds_banks);
        let (a, b) = (self.fields(), remade.fields());
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                panic!("{}", WRITTEN);
            }
            i += 1;
        }
        self
    }

    /// Every field, in their order (for [`Sizes::valid`]'s comparison, which a `const` cannot
    /// make with `==`).
    const fn fields(&self) -> [usize; 30] {
        let s = self;
        [
            s.W, s.WW, s.T, s.A, s.D, s.SPW, s.E, s.B, s.BW, s.N, s.NW, s.P, s.K, s.Q, s.QW, s.QCW,
            s.BQ, s.SQ, s.RW, s.R, s.RRW, s.DW, s.TD, s.SW, s.U, s.UW, s.G, s.LRW, s.LB, s.LBW,
        ]
    }

    /// The sizes of a scheduler `s`, a collector `c` and a local data share of `lds_banks` banks
    /// of `lds_rows` rows, no rule checked: for comparing sizes, not for naming types.
    pub(crate) const fn unchecked(
        s: SchedulerParams,
        c: CollectorParams,
        lds_rows: usize,
        lds_banks: usize,
    ) -> Sizes {
        let q = c.queue_depth();
        let uw = clog2(c.unit_types);
        Sizes {
            made: Made(None),
            W: s.warps,
            WW: s.warp_id_width(),
            T: s.threads,
            A: s.pc_width,
            D: s.stack_depth,
            SPW: s.stack_ptr_width(),
            E: s.threads + s.pc_width,
            B: c.banks,
            BW: clog2(c.banks),
            N: c.collector_units,
            NW: clog2(c.collector_units),
            P: c.in_ports,
            K: c.push_lanes(),
            Q: q,
            QW: clog2(q),
            QCW: clog2(q + 1),
            BQ: c.banks * q,
            SQ: if c.banks > c.collector_units { c.banks } else { c.collector_units },
            RW: clog2(c.rows_per_bank(s.warps)),
            R: c.regs_per_warp,
            RRW: clog2(c.regs_per_warp),
            DW: c.lane_bits,
            TD: s.threads * c.lane_bits,
            SW: clog2(c.lane_bits),
            U: c.unit_types,
            UW: if uw > 1 { uw } else { 1 },
            G: c.tag_bits,
            LRW: clog2(lds_rows),
            LB: lds_banks,
            LBW: clog2(lds_banks),
        }
    }
}

/// `v` is a power of two in `lo..=hi` (the rule of [`check_pow2`], in a `const`).
const fn pow2_in(v: usize, lo: usize, hi: usize) -> bool {
    v >= lo && v <= hi && v.is_power_of_two()
}

/// `v` is in `lo..=hi` (the rule of [`check_range`], in a `const`).
const fn in_range(v: usize, lo: usize, hi: usize) -> bool {
    v >= lo && v <= hi
}

/// The first rule that `s`, `c` and `lds_rows` break, as a fixed line naming the parameter and
/// the rule (the rules of [`SchedulerParams::validate`], [`CollectorParams::validate`] and the
/// local data share's rows, in that order), for [`Sizes::new`], which runs where a message
/// cannot be formatted.
pub const fn broken_rule(
    s: &SchedulerParams,
    c: &CollectorParams,
    lds_rows: usize,
) -> Option<&'static str> {
    // One rule at a time: a later rule may divide by what an earlier one checked.
    macro_rules! rule {
        ($holds:expr, $line:literal) => {
            if !$holds {
                return Some($line);
            }
        };
    }
    rule!(
        pow2_in(s.warps, 2, MAX_PORT_BITS),
        "parameter `warps` must be a power of two between 2 and 32"
    );
    rule!(in_range(s.threads, 1, MAX_PORT_BITS), "parameter `threads` must be between 1 and 32");
    rule!(in_range(s.pc_width, 3, MAX_PORT_BITS), "parameter `pc_width` must be between 3 and 32");
    rule!(in_range(s.stack_depth, 1, 64), "parameter `stack_depth` must be between 1 and 64");
    rule!(
        s.warps * s.stack_depth <= 1 << STACK_RAM_ADDR_BITS,
        "parameters `warps` x `stack_depth` must not exceed the stack RAM's 256 entries"
    );
    rule!(pow2_in(c.banks, 2, 16), "parameter `banks` must be a power of two between 2 and 16");
    rule!(
        pow2_in(c.collector_units, 2, 16),
        "parameter `collector_units` must be a power of two between 2 and 16"
    );
    rule!(in_range(c.in_ports, 1, 8), "parameter `in_ports` must be between 1 and 8");
    rule!(
        pow2_in(c.regs_per_warp, 2, 256),
        "parameter `regs_per_warp` must be a power of two between 2 and 256"
    );
    rule!(c.regs_per_warp >= c.banks, "parameter `regs_per_warp` must be at least `banks`");
    rule!(
        in_range(c.rows_per_bank(s.warps), 2, 1 << 16),
        "parameter `rows per bank (warps x regs_per_warp / banks)` must be between 2 and 65536"
    );
    rule!(in_range(c.unit_types, 1, 4), "parameter `unit_types` must be between 1 and 4");
    rule!(
        !c.specialized || c.collector_units.is_multiple_of(c.unit_types),
        "parameter `collector_units` must divide evenly into `unit_types` sets (specialized collector units)"
    );
    rule!(
        pow2_in(c.schedulers, 1, 8),
        "parameter `schedulers` must be a power of two between 1 and 8"
    );
    rule!(
        c.banks.is_multiple_of(c.schedulers) && c.banks / c.schedulers >= 2,
        "parameter `banks` must split into at least 2 banks per scheduler (sub-core model)"
    );
    rule!(
        s.warps.is_multiple_of(c.schedulers),
        "parameter `schedulers` must divide the warp count (sub-core model)"
    );
    rule!(in_range(c.lane_bits, 1, 32), "parameter `lane_bits` must be between 1 and 32");
    rule!(in_range(c.tag_bits, 1, 32), "parameter `tag_bits` must be between 1 and 32");
    rule!(in_range(c.sources, 1, 3), "parameter `sources` must be between 1 and 3");
    rule!(
        pow2_in(lds_rows, 2, 4096),
        "parameter `lds_rows` must be a power of two between 2 and 4096"
    );
    None
}

/// The rule `lds_banks` breaks for a core of `threads` lanes, if any: a power of two from 2 to 32
/// and at most `threads` (each warp's threads fill whole rows of banks).
pub const fn lds_banks_rule(lds_banks: usize, threads: usize) -> Option<&'static str> {
    if !pow2_in(lds_banks, 2, 32) {
        return Some("parameter `lds_banks` must be a power of two between 2 and 32");
    }
    if lds_banks > threads {
        return Some("parameter `lds_banks` must be at most `threads` (a warp's threads fill whole rows of banks)");
    }
    None
}

/// Every preset, in the order the README lists them.
pub const PRESETS: [Preset; 3] = [SEED, CU, TINY];

/// Looks a preset up by name.
pub fn preset(name: &str) -> Result<Preset> {
    PRESETS.iter().copied().find(|p| p.name == name).ok_or_else(|| {
        let known: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
        anyhow::anyhow!("unknown preset `{name}`: known presets are {}", known.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of an extension carried alone is the list of what each needs: an extension
    /// that needs another is refused without it and accepted with it.
    #[test]
    fn extensions_are_refused_without_what_they_need() {
        for e in Extension::ALL {
            let alone = Extensions::NONE.with(e);
            assert_eq!(alone.broken_rule().is_some(), !e.needs().is_empty(), "{}", e.name());
            let with_needs = e.needs().iter().fold(alone, |x, &n| x.with(n));
            assert_eq!(with_needs.broken_rule(), None, "{}", e.name());
        }
    }

    /// The first parameter a rule line names (between its first pair of backticks).
    fn named(line: &str) -> &str {
        line.split('`').nth(1).unwrap_or("")
    }

    /// A value near the rules' edges: 0 to 5, a power of two up to 2^16, or one off one.
    fn edgy(state: &mut u64) -> usize {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let pick = (*state >> 20) as usize;
        match pick % 3 {
            0 => pick / 3 % 6,
            1 => 1 << (pick / 3 % 17),
            _ => (1usize << (pick / 3 % 17)) + 1 - 2 * (pick / 64 % 2),
        }
    }

    /// The build-time rules ([`broken_rule`], [`CoreParams::broken_rule`]) and the run-time ones
    /// (`validate`, [`Sizes::checked`]) refuse the same parameter sets, first naming the same
    /// parameter: 20,000 random sets near the edges, each starting from a preset.
    #[test]
    fn build_time_and_run_time_rules_agree() {
        let mut state = 0x5eed_1234_abcd_0001u64;
        let mut refused = 0;
        for k in 0..20_000 {
            let base = if k % 2 == 0 { CORE_CU } else { CORE_TINY };
            let mut core = base;
            for _ in 0..1 + k % 3 {
                let v = edgy(&mut state);
                match edgy(&mut state) % 9 {
                    8 => core.lds_banks = v,
                    0 => core.warps = v,
                    1 => core.threads = v,
                    2 => core.lane_bits = v,
                    3 => core.lds_rows = v,
                    4 => core.imem_words = v,
                    5 => core.stack_depth = v,
                    6 => core.banks = v,
                    _ => core.collector_units = v,
                }
            }
            let (s, c) = (core.scheduler(), core.collector());
            let run_time = Sizes::checked(s, c, core.lds_rows);
            let build_time = broken_rule(&s, &c, core.lds_rows);
            assert_eq!(
                run_time.is_ok(),
                build_time.is_none(),
                "{core:?}: {run_time:?} / {build_time:?}"
            );
            if let (Err(e), Some(line)) = (&run_time, build_time) {
                assert_eq!(named(&e.to_string()), named(line), "{core:?}");
                refused += 1;
            }
            let core_run_time = core.validate();
            let core_build_time = core.broken_rule();
            assert_eq!(core_run_time.is_ok(), core_build_time.is_none(), "{core:?}");
            if let (Err(e), Some(line)) = (&core_run_time, core_build_time) {
                assert_eq!(named(&e.to_string()), named(line), "{core:?}");
            }
        }
        assert!(refused > 5_000 && refused < 19_000, "{refused} of 20,000 refused");
    }

    #[test]
    fn a_field_written_after_new_is_refused() {
        const MADE: Sizes = Sizes::of(&CU);
        let written = |write: fn(&mut Sizes)| {
            let mut s = MADE;
            write(&mut s);
            let e = std::panic::catch_unwind(|| s.valid()).expect_err("a written field is refused");
            e.downcast_ref::<String>().cloned().unwrap_or_default()
        };
        for write in [|s: &mut Sizes| s.T = 5, |s: &mut Sizes| s.TD += 1, |s: &mut Sizes| s.LB = 3]
        {
            assert!(written(write).contains("written after `Sizes::new`"), "{}", written(write));
        }
        assert_eq!(MADE.valid(), MADE, "sizes as made are valid");
        assert_eq!(MADE.with_lds_banks(2).valid().LB, 2, "with_lds_banks keeps them valid");
    }

    #[test]
    fn presets_are_valid() {
        for p in PRESETS {
            p.scheduler.validate().unwrap();
            p.collector.validate(p.scheduler.warps).unwrap();
            check_pow2("lds_rows", p.lds_rows, 2, 4096).unwrap();
            assert_eq!(lds_banks_rule(p.lds_banks, p.scheduler.threads), None, "{}", p.name);
        }
        CORE_CU.validate().unwrap();
        CORE_TINY.validate().unwrap();
    }

    #[test]
    fn clog2_values() {
        assert_eq!(
            [clog2(1), clog2(2), clog2(3), clog2(4), clog2(5), clog2(32)],
            [0, 1, 2, 2, 3, 5]
        );
        assert_eq!(stack_ptr_width(8), 4);
        assert_eq!(stack_ptr_width(7), 3);
    }
}
