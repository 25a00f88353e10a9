//! This block at a preset's sizes: its type and constructor, its registry entries (module,
//! summary, header, differential run, properties), its differential run and the differential
//! suite's checks of it.

use anyhow::Result;

use crate::export::entry::entry;
use crate::export::{Check, Entry};
use crate::hw::Order;
use crate::params::PresetSizes;
use crate::sim::{run_differential, Dut, Recorded};

/// This block's type at preset `Self`'s sizes; the registry makes it for every preset.
pub trait AtPreset: PresetSizes {
    /// The block's type at this preset's sizes.
    type WarpEncoder: Dut + 'static;
    /// The block at this preset's sizes (its `new()` checks them again).
    fn warp_encoder(order: crate::hw::Order) -> Result<Self::WarpEncoder>;
}

/// `impl AtPreset for $B` with the block at sizes `$S` (a [`Sizes`](crate::params::Sizes) const).
macro_rules! at_preset {
    ($B:ty, $S:path) => {
        impl $crate::hw::common::priority_encoder::preset::AtPreset for $B {
            type WarpEncoder = $crate::sized_priority_encoder!($S);
            fn warp_encoder(
                order: $crate::hw::Order,
            ) -> $crate::__anyhow::Result<Self::WarpEncoder> {
                <$crate::sized_priority_encoder!($S)>::new(order)
            }
        }
    };
}
pub(crate) use at_preset;

/// The encoders over the warps: lowest index first, and highest first (the seed's order).
pub fn entries<B: AtPreset>() -> Vec<Entry> {
    vec![
        entry::<B, _>(
            "priority_encoder_lowest",
            "PriorityEncoder",
            "one-of-N priority encoder over the warps, lowest index first",
            vec![("Order", "lowest index first".into())],
            || B::warp_encoder(Order::LowestFirst),
            |s, c| differential::<B>(Order::LowestFirst, s, c),
            Some(super::PROPERTIES_LOWEST),
        ),
        entry::<B, _>(
            "priority_encoder_highest",
            "PriorityEncoder",
            "one-of-N priority encoder over the warps, highest index first (the seed's order)",
            vec![("Order", "highest index first".into())],
            || B::warp_encoder(Order::HighestFirst),
            |s, c| differential::<B>(Order::HighestFirst, s, c),
            Some(super::PROPERTIES_HIGHEST),
        ),
    ]
}

/// The encoder of `order` at preset `B` against its model.
pub fn differential<B: AtPreset>(order: Order, seed: u64, cycles: usize) -> Result<Recorded> {
    let n = B::PRESET.scheduler.warps;
    let mut model = super::model::PriorityEncoderModel { n, order };
    let name = format!("encoder_{}_{order:?}", B::PRESET.name);
    let stimulus = super::stimulus::encoder_stimulus(n);
    run_differential(&name, || B::warp_encoder(order).unwrap(), &mut model, seed, cycles, stimulus)
}

/// The differential suite's checks: both orders.
pub fn checks<B: AtPreset>() -> Vec<Check> {
    [Order::LowestFirst, Order::HighestFirst]
        .map(|order| {
            Check::new(format!("encoder {order:?}"), move |s, c| differential::<B>(order, s, c))
        })
        .into()
}
