//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// `LocalDataShare<T, WW, DW, RW, LB, LBW>`: the collector's lanes and lane width, `2^RW =
    /// lds_rows`, `LB = lds_banks`.
    type LocalDataShare: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn local_data_share() -> Result<Self::LocalDataShare>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::lds::local_data_share::preset::AtPreset for $B {
            type LocalDataShare = $crate::sized_local_data_share!($S);
            fn local_data_share() -> $crate::__anyhow::Result<Self::LocalDataShare> {
                let p = <$B as $crate::params::PresetSizes>::PRESET;
                Ok(<$crate::sized_local_data_share!($S)>::new(p.scheduler.warps)?
                    .with_scatter(p.isa().stx)
                    .with_atomics(p.isa().atomic))
            }
        }
    };
}
pub(crate) use at_preset;

/// The R700 local data share.
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    let p = B::PRESET;
    let lds = format!(
        "banks={} rows_per_bank={} word_bits={} lanes={} scatter={} atomics={}",
        p.lds_banks,
        p.lds_rows,
        p.collector.lane_bits,
        p.scheduler.threads,
        if p.isa().stx { "yes" } else { "no" },
        if p.isa().atomic { "yes" } else { "no" }
    );
    let summary = format!(
        "R700 local data share (seed 004): {b} banks (bank = address mod {b}), owner-computes stores, dynamic loads{}{}, bank conflicts serialised and counted",
        if p.isa().stx { " and scatters" } else { "" },
        if p.isa().atomic { ", atomic adds and exchanges" } else { "" },
        b = p.lds_banks
    );
    vec![entry::<B, _>(
        super::MODULE,
        "LocalDataShare",
        &summary,
        vec![("LDS", lds), ("Interface", super::LDS_INTERFACE.into())],
        B::local_data_share,
        differential::<B>,
        Some(super::PROPERTIES),
    )]
}

/// The local data share at preset `B` against its model.
pub fn differential<B: AtPreset>(seed: u64, cycles: usize) -> Result<Recorded> {
    let p = B::PRESET;
    let name = format!("local_data_share_{}", p.name);
    run(&name, || B::local_data_share().unwrap(), LdsShape::of(&p), seed, cycles)
}

/// What a local data share is built as.
#[derive(Clone, Copy, Debug)]
pub struct LdsShape {
    /// Lanes.
    pub lanes: usize,
    /// Warps.
    pub warps: usize,
    /// Bits per word.
    pub lane_bits: usize,
    /// Banks.
    pub banks: usize,
    /// Rows per bank.
    pub rows: usize,
    /// Built with scatters.
    pub scatter: bool,
    /// Built with atomics.
    pub atomics: bool,
}

impl LdsShape {
    /// The local data share of preset `p`.
    pub fn of(p: &crate::params::Preset) -> LdsShape {
        LdsShape {
            lanes: p.scheduler.threads,
            warps: p.scheduler.warps,
            lane_bits: p.collector.lane_bits,
            banks: p.lds_banks,
            rows: p.lds_rows,
            scatter: p.isa().stx,
            atomics: p.isa().atomic,
        }
    }
    /// Its reference model.
    pub fn model(&self) -> super::model::LocalDataShareModel {
        super::model::LocalDataShareModel::new(self.lanes, self.lane_bits, self.banks, self.rows)
            .with_scatter(self.scatter)
            .with_atomics(self.atomics)
    }
}

/// A local data share of shape `shape` against its model.
pub fn run<D: Dut>(
    name: &str,
    make: impl Fn() -> D,
    shape: LdsShape,
    seed: u64,
    cycles: usize,
) -> Result<Recorded> {
    let mut model = shape.model();
    let stimulus = super::stimulus::lds_stimulus(shape.lanes, shape.warps, shape.lane_bits);
    run_differential(name, make, &mut model, seed, cycles, stimulus)
}

/// The differential suite's check: loads and stores taken, accesses that took several cycles
/// (bank conflicts, where there are more lanes than banks), accesses back to back, requests held
/// or changed while not ready, resets mid-access.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    vec![Check::new("local data share", differential::<B>).covering(|rec, _| coverage::<B>(rec))]
}

fn coverage<B: AtPreset>(rec: &Recorded) -> Result<()> {
    let p = B::PRESET;
    let m = LdsShape::of(&p).model();
    let (mut loads, mut stores, mut multi, mut back_to_back, mut reset_busy) = (0, 0, 0, 0, 0);
    let mut atomics = 0;
    let (mut since, mut max_cycles, mut busy) = (0, 0, false);
    let (req_ready, resp_valid) = (rec.output("req_ready")?, rec.output("resp_valid")?);
    for (c, i) in rec.inputs.iter().enumerate() {
        let i = m.decode(i);
        let (ready, responded) = (req_ready[c] == 1, resp_valid[c] == 1);
        if i.reset {
            reset_busy += busy as usize;
            busy = false;
            continue;
        }
        since += 1;
        if responded {
            max_cycles = max_cycles.max(since);
        }
        if i.valid && ready {
            back_to_back += (busy && !responded) as usize;
            loads += !i.write as usize;
            atomics += (m.atomics && i.atomic && !i.write) as usize;
            stores += i.write as usize;
            multi += (since > 3) as usize;
            since = 0;
            busy = true;
        } else if responded {
            busy = false;
        }
    }
    let want = if p.scheduler.threads > 4 { 50 } else { 0 };
    let want_atomics = if m.atomics { 200 } else { 0 };
    anyhow::ensure!(
        loads > 1000
            && stores > 1000
            && multi > want
            && back_to_back > 100
            && reset_busy > 10
            && atomics >= want_atomics,
        "coverage: loads {loads}, stores {stores}, atomics {atomics}, accesses longer than 2 cycles {multi} (longest {max_cycles}), back to back {back_to_back}, resets mid-access {reset_busy}"
    );
    Ok(())
}
