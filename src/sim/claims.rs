//! What the formal suite establishes about a block, stated in the block's folder beside its
//! properties: which properties hold, to what depth and at which preset's sizes, which close by
//! induction ([`Claim`]), and the deliberately broken variants of its Verilog that they catch
//! ([`Mutant`]). `tests/formal.rs` checks every claim and mutant of every registry entry.
//!
//! At preset `cu` a claim is checked on the committed `rtl_out/cu/<module>.v`; at another preset,
//! on the block exported at that preset's sizes.

/// Properties of a block that hold from reset, checked at one preset.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    /// The preset whose sizes the check runs at (`cu`: the committed Verilog).
    pub preset: &'static str,
    /// The properties checked; empty: every one in the file but `except`.
    pub only: &'static [&'static str],
    /// Properties left out (checked by another claim, at other sizes).
    pub except: &'static [&'static str],
    /// Each holds from reset to this depth, or is proven.
    pub depth: usize,
    /// Those that must close by induction (hold in every reachable state).
    pub proven: &'static [&'static str],
    /// When set, the checker is given this many seconds and each property must be reported as
    /// timed out: a claim about how long the property takes, which shows that `prove` stops its
    /// tools at the budget.
    pub times_out_within: Option<u64>,
}

impl Claim {
    /// Every property holds at `cu` from reset to depth 20, and `proven` close by induction.
    pub const fn cu(proven: &'static [&'static str]) -> Claim {
        Claim { preset: "cu", only: &[], except: &[], depth: 20, proven, times_out_within: None }
    }
    /// Checked at preset `preset` instead.
    pub const fn at(self, preset: &'static str) -> Claim {
        Claim { preset, ..self }
    }
    /// Only the properties `only`.
    pub const fn only(self, only: &'static [&'static str]) -> Claim {
        Claim { only, ..self }
    }
    /// Every property but `except`.
    pub const fn except(self, except: &'static [&'static str]) -> Claim {
        Claim { except, ..self }
    }
    /// To depth `depth` instead of 20.
    pub const fn depth(self, depth: usize) -> Claim {
        Claim { depth, ..self }
    }
    /// Given `secs` seconds, each property is reported as timed out.
    pub const fn times_out_within(self, secs: u64) -> Claim {
        Claim { times_out_within: Some(secs), ..self }
    }
}

/// A deliberately broken variant of a block's exported Verilog that its properties catch: the
/// first `from` in the module's text replaced by `to`, and one of `caught_by` fails (each is
/// checked alone, and only those: a property the break leaves true but not inductive could take
/// long to bound), with a counterexample trace.
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    /// The preset whose Verilog is broken (`cu`: the committed file).
    pub preset: &'static str,
    /// A short name, unique in the registry (the work directory's name).
    pub tag: &'static str,
    /// The text replaced (its first occurrence in the module).
    pub from: &'static str,
    /// What replaces it.
    pub to: &'static str,
    /// The properties, one of which must fail on the mutant.
    pub caught_by: &'static [&'static str],
    /// When set, only this cycle is checked: the shortest failing run is known to end there,
    /// and the bounded check of every cycle before it grows too slow.
    pub at_step: Option<usize>,
}

impl Mutant {
    /// A mutant of the committed `cu` Verilog.
    pub const fn cu(
        tag: &'static str,
        from: &'static str,
        to: &'static str,
        caught_by: &'static [&'static str],
    ) -> Mutant {
        Mutant { preset: "cu", tag, from, to, caught_by, at_step: None }
    }
    /// Of the block exported at preset `preset` instead.
    pub const fn at(self, preset: &'static str) -> Mutant {
        Mutant { preset, ..self }
    }
    /// Caught in cycle `step` (only that cycle checked).
    pub const fn at_step(self, step: usize) -> Mutant {
        Mutant { at_step: Some(step), ..self }
    }
}
