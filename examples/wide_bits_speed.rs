//! How fast rust-hdl simulates 32 lanes of 32 bits, in the two forms a block can carry them:
//! packed in one `Bits<1024>` (walked lane by lane, as the crate's lane ALU does) or as an array
//! of 32 lane-wide signals. Both blocks add two registered copies of their input lane by lane
//! into a third register; narrower packed widths are given beside them.
//!
//! `cargo run --release --example wide_bits_speed` prints simulated cycles per second (the
//! figure behind the choice of packed values with the vendored word-based `BitVec`,
//! vendor/README.md).

use rust_hdl::prelude::*;
use std::time::Instant;

const CYCLES: usize = 20_000;

/// `T` lanes of `DW` bits packed in `TD = T DW` bits.
#[derive(LogicBlock)]
struct Packed<const T: usize, const DW: usize, const TD: usize> {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<TD>>,
    result: Signal<Out, Bits<TD>>,
    regs: [DFF<Bits<TD>>; 4],
    lane_bits: Constant<Bits<16>>,
    top_lane: Constant<Bits<16>>,
    rest_a: Signal<Local, Bits<TD>>,
    rest_b: Signal<Local, Bits<TD>>,
    la: Signal<Local, Bits<DW>>,
    lb: Signal<Local, Bits<DW>>,
    acc: Signal<Local, Bits<TD>>,
    wide: Signal<Local, Bits<TD>>,
}

impl<const T: usize, const DW: usize, const TD: usize> Logic for Packed<T, DW, TD> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..4 {
            self.regs[i].clock.next = self.clock.val();
        }
        self.regs[0].d.next = self.a.val();
        self.regs[1].d.next = self.regs[0].q.val();
        self.regs[2].d.next = self.regs[1].q.val();
        self.rest_a.next = self.regs[0].q.val();
        self.rest_b.next = self.regs[2].q.val();
        self.acc.next = 0.into();
        for _l in 0..T {
            self.la.next = bit_cast::<DW, TD>(self.rest_a.val());
            self.lb.next = bit_cast::<DW, TD>(self.rest_b.val());
            self.wide.next = bit_cast::<TD, DW>(self.la.val() + self.lb.val());
            self.acc.next =
                (self.acc.val() >> self.lane_bits.val()) | (self.wide.val() << self.top_lane.val());
            self.rest_a.next = self.rest_a.val() >> self.lane_bits.val();
            self.rest_b.next = self.rest_b.val() >> self.lane_bits.val();
        }
        self.regs[3].d.next = self.acc.val();
        self.result.next = self.regs[3].q.val();
    }
}

/// `T` lanes of `DW` bits, one signal and one register each.
#[derive(LogicBlock)]
struct Lanes<const T: usize, const DW: usize> {
    clock: Signal<In, Clock>,
    a: [Signal<In, Bits<DW>>; T],
    result: [Signal<Out, Bits<DW>>; T],
    r0: [DFF<Bits<DW>>; T],
    r1: [DFF<Bits<DW>>; T],
    r2: [DFF<Bits<DW>>; T],
    r3: [DFF<Bits<DW>>; T],
}

impl<const T: usize, const DW: usize> Logic for Lanes<T, DW> {
    #[hdl_gen]
    fn update(&mut self) {
        for l in 0..T {
            self.r0[l].clock.next = self.clock.val();
            self.r1[l].clock.next = self.clock.val();
            self.r2[l].clock.next = self.clock.val();
            self.r3[l].clock.next = self.clock.val();
            self.r0[l].d.next = self.a[l].val();
            self.r1[l].d.next = self.r0[l].q.val();
            self.r2[l].d.next = self.r1[l].q.val();
            self.r3[l].d.next = self.r0[l].q.val() + self.r2[l].q.val();
            self.result[l].next = self.r3[l].q.val();
        }
    }
}

/// Cycles per second of `uut`, its input set each cycle by `drive` from a pseudo-random word
/// (with the clock low), then a rising edge on the clock that `clock` gives.
fn cycles_per_second<B: Block>(
    uut: &mut B,
    clock: fn(&mut B) -> &mut Signal<In, Clock>,
    mut drive: impl FnMut(&mut B, u64),
) -> f64 {
    uut.connect_all();
    let mut x = 1u64;
    let t0 = Instant::now();
    for cycle in 0..CYCLES {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        drive(uut, x);
        for high in [false, true] {
            clock(uut).next = Clock { clk: high };
            assert!(simulate(uut, 100), "no convergence at cycle {cycle}");
        }
    }
    CYCLES as f64 / t0.elapsed().as_secs_f64()
}

fn packed<const T: usize, const DW: usize, const TD: usize>() -> f64 {
    let mut uut = Packed::<T, DW, TD> {
        clock: Default::default(),
        a: Default::default(),
        result: Default::default(),
        regs: std::array::from_fn(|_| Default::default()),
        lane_bits: Constant::new((DW as u64).to_bits()),
        top_lane: Constant::new(((TD - DW) as u64).to_bits()),
        rest_a: Default::default(),
        rest_b: Default::default(),
        la: Default::default(),
        lb: Default::default(),
        acc: Default::default(),
        wide: Default::default(),
    };
    cycles_per_second(
        &mut uut,
        |u| &mut u.clock,
        |u, x| {
            u.a.next = bit_cast::<TD, 64>(x.to_bits()) | (bit_cast::<TD, 64>(x.to_bits()) << 40u64);
        },
    )
}

fn lanes<const T: usize, const DW: usize>() -> f64 {
    let mut uut = Lanes::<T, DW> {
        clock: Default::default(),
        a: std::array::from_fn(|_| Default::default()),
        result: std::array::from_fn(|_| Default::default()),
        r0: std::array::from_fn(|_| Default::default()),
        r1: std::array::from_fn(|_| Default::default()),
        r2: std::array::from_fn(|_| Default::default()),
        r3: std::array::from_fn(|_| Default::default()),
    };
    cycles_per_second(
        &mut uut,
        |u| &mut u.clock,
        |u, x| {
            for l in 0..T {
                u.a[l].next = bit_cast::<DW, 64>((x >> (l % 32)).to_bits());
            }
        },
    )
}

fn main() {
    println!("| form | lanes x bits | cycles/s |\n|---|---|---|");
    println!("| packed `Bits<32>` | 4 x 8 | {:.0} |", packed::<4, 8, 32>());
    println!("| packed `Bits<64>` | 2 x 32 | {:.0} |", packed::<2, 32, 64>());
    println!("| packed `Bits<256>` | 8 x 32 | {:.0} |", packed::<8, 32, 256>());
    println!("| packed `Bits<1024>` | 32 x 32 | {:.0} |", packed::<32, 32, 1024>());
    println!("| `[Bits<32>; 32]` | 32 x 32 | {:.0} |", lanes::<32, 32>());
}
