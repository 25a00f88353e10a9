//! Values wider than 64 bits (a warp register of 32 lanes x 32 bits is 1,024): a `Bits<N>` as
//! 64-bit words, least significant first.
//!
//! rust-hdl holds a `Bits<N>` wider than 32 bits in its `BitVec`, which this crate vendors in a
//! word-based form (vendor/README.md); the tests below check that form, operation by operation,
//! against a bit-by-bit reference.

use rust_hdl::prelude::*;

/// 64-bit words in a `width`-bit value.
pub fn word_count(width: usize) -> usize {
    width.div_ceil(64)
}

/// `value`'s words, least significant first (`word_count(N)` of them).
pub fn words_of<const N: usize>(value: Bits<N>) -> Vec<u64> {
    (0..word_count(N)).map(|i| value.get_bits::<64>(i * 64).to_u64()).collect()
}

/// The `Bits<N>` whose words are `words` (least significant first; missing words are 0, bits at
/// `N` and above are dropped).
pub fn bits_of_words<const N: usize>(words: &[u64]) -> Bits<N> {
    words.iter().take(word_count(N)).enumerate().fold(Bits::<N>::default(), |acc, (i, &w)| {
        acc | (bit_cast::<N, 64>(w.to_bits()) << (i as u64 * 64))
    })
}

/// The most lanes a warp register has.
pub const MAX_LANES: usize = 32;

/// A warp register's lanes in a model: up to [`MAX_LANES`] values of up to 32 bits each (the
/// lanes past a register's count are 0). The blocks pack lane `l` at bits `l * lane_bits ..` of
/// one signal; [`to_words`](Lanes::to_words) and [`from_words`](Lanes::from_words) are that
/// packing as the harness's port words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lanes(pub [u32; MAX_LANES]);

impl Lanes {
    /// Lane `l` is `f(l)` for the first `lanes` lanes.
    pub fn from_fn(lanes: usize, mut f: impl FnMut(usize) -> u32) -> Lanes {
        Lanes(std::array::from_fn(|l| if l < lanes { f(l) } else { 0 }))
    }
    /// `value` in each of the first `lanes` lanes.
    pub fn splat(value: u32, lanes: usize) -> Lanes {
        Lanes::from_fn(lanes, |_| value)
    }
    /// The port words of the first `lanes` lanes packed `bits` apart (each cut to `bits`).
    pub fn to_words(&self, lanes: usize, bits: usize) -> Vec<u64> {
        let mut words = vec![0u64; word_count(lanes * bits)];
        for (l, &v) in self.0.iter().enumerate().take(lanes) {
            let at = l * bits;
            words[at / 64] |= (u64::from(v) & super::rng::mask(bits)) << (at % 64);
        }
        words
    }
    /// Lanes `l < lanes` with bit `l` of `mask` set take `data`'s value; the others keep theirs.
    pub fn write_masked(&mut self, mask: u64, data: &Lanes, lanes: usize) {
        for l in (0..lanes).filter(|l| mask >> l & 1 == 1) {
            self.0[l] = data.0[l];
        }
    }
    /// The inverse of [`to_words`](Lanes::to_words). Lane widths are powers of two up to 32,
    /// so no lane straddles two words.
    pub fn from_words(words: &[u64], lanes: usize, bits: usize) -> Lanes {
        Lanes::from_fn(lanes, |l| {
            let at = l * bits;
            (words[at / 64] >> (at % 64) & super::rng::mask(bits)) as u32
        })
    }
}

impl std::ops::Index<usize> for Lanes {
    type Output = u32;
    fn index(&self, l: usize) -> &u32 {
        &self.0[l]
    }
}

impl std::ops::IndexMut<usize> for Lanes {
    fn index_mut(&mut self, l: usize) -> &mut u32 {
        &mut self.0[l]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rng;

    /// The reference: one `bool` per bit, the arithmetic done bit by bit.
    #[derive(Clone, Debug, PartialEq)]
    struct Ref(Vec<bool>);

    impl Ref {
        fn of<const N: usize>(b: Bits<N>) -> Ref {
            Ref((0..N).map(|i| b.get_bit(i)).collect())
        }
        fn zip(&self, o: &Ref, f: impl Fn(bool, bool) -> bool) -> Ref {
            Ref(self.0.iter().zip(&o.0).map(|(&a, &b)| f(a, b)).collect())
        }
        fn add(&self, o: &Ref, carry_in: bool) -> Ref {
            let mut c = carry_in;
            Ref(self
                .0
                .iter()
                .zip(&o.0)
                .map(|(&a, &b)| {
                    let s = a ^ b ^ c;
                    c = (a & b) | (c & (a ^ b));
                    s
                })
                .collect())
        }
        fn shr(&self, by: usize) -> Ref {
            Ref((0..self.0.len()).map(|i| self.0.get(i + by).copied().unwrap_or(false)).collect())
        }
        fn shl(&self, by: usize) -> Ref {
            Ref((0..self.0.len()).map(|i| i >= by && self.0[i - by]).collect())
        }
        fn less(&self, o: &Ref) -> bool {
            self.0.iter().rev().zip(o.0.iter().rev()).find(|(a, b)| a != b).is_some_and(|(_, &b)| b)
        }
    }

    fn random<const N: usize>(rng: &mut Rng) -> Bits<N> {
        let words: Vec<u64> = (0..word_count(N))
            .map(|_| match rng.below(5) {
                0 => 0,
                1 => u64::MAX,
                2 => 1 << rng.below(64),
                _ => rng.next_u64(),
            })
            .collect();
        bits_of_words(&words)
    }

    fn check<const N: usize>(rng: &mut Rng) {
        for _ in 0..300 {
            let (a, b) = (random::<N>(rng), random::<N>(rng));
            let (ra, rb) = (Ref::of(a), Ref::of(b));
            assert_eq!(bits_of_words::<N>(&words_of(a)), a, "N={N}: words round trip");
            assert_eq!(Ref::of(a + b), ra.add(&rb, false), "N={N}: {a:x} + {b:x}");
            assert_eq!(Ref::of(a - b), ra.add(&rb.zip(&rb, |x, _| !x), true), "N={N}: -");
            assert_eq!(Ref::of(a & b), ra.zip(&rb, |x, y| x & y), "N={N}: &");
            assert_eq!(Ref::of(a | b), ra.zip(&rb, |x, y| x | y), "N={N}: |");
            assert_eq!(Ref::of(a ^ b), ra.zip(&rb, |x, y| x ^ y), "N={N}: ^");
            assert_eq!(Ref::of(!a), ra.zip(&ra, |x, _| !x), "N={N}: !");
            let by = rng.below(N as u64 + 70) as usize;
            assert_eq!(Ref::of(a >> by as u64), ra.shr(by), "N={N}: >> {by}");
            assert_eq!(Ref::of(a << by as u64), ra.shl(by), "N={N}: << {by}");
            let by_bits: Bits<12> = (by as u64).to_bits();
            assert_eq!(a >> by_bits, a >> by as u64, "N={N}: >> by a Bits");
            assert_eq!(a << by_bits, a << by as u64, "N={N}: << by a Bits");
            assert_eq!(a < b, ra.less(&rb), "N={N}: <");
            assert_eq!(a == b, ra == rb, "N={N}: ==");
            assert_eq!(a.any(), ra.0.iter().any(|&x| x), "N={N}: any");
            assert_eq!(a.all(), ra.0.iter().all(|&x| x), "N={N}: all");
            assert_eq!(a.xor(), ra.0.iter().filter(|&&x| x).count() % 2 == 1, "N={N}: xor");
            let i = rng.below(N as u64) as usize;
            let flipped = a.replace_bit(i, !a.get_bit(i));
            assert_eq!(Ref::of(flipped).0.iter().zip(&ra.0).filter(|(x, y)| x != y).count(), 1);
            let off = rng.below(N as u64 - 31) as usize;
            let lane = a.get_bits::<32>(off);
            assert_eq!(Ref::of(lane).0, ra.0[off..off + 32], "N={N}: get_bits at {off}");
            let mut c = a;
            c.set_bits::<32>(off, b.get_bits::<32>(0));
            let mut want = ra.clone();
            want.0[off..off + 32].copy_from_slice(&rb.0[..32]);
            assert_eq!(Ref::of(c), want, "N={N}: set_bits at {off}");
            assert_eq!(Ref::of(bit_cast::<33, N>(a)).0, ra.0[..33], "N={N}: bit_cast down");
            let up = Ref::of(bit_cast::<1088, N>(a));
            assert!(up.0[..N] == ra.0[..] && !up.0[N..].contains(&true), "N={N}: bit_cast up");
        }
    }

    /// rust-hdl's wide `Bits` (the vendored word-based `BitVec`) against the bit-by-bit
    /// reference, at widths around word boundaries, at a 32 x 32-bit warp register and at the widest.
    #[test]
    fn wide_bits_match_the_bit_by_bit_reference() {
        let mut rng = Rng::new(47);
        check::<33>(&mut rng);
        check::<63>(&mut rng);
        check::<64>(&mut rng);
        check::<65>(&mut rng);
        check::<128>(&mut rng);
        check::<200>(&mut rng);
        check::<1024>(&mut rng);
        check::<1088>(&mut rng);
    }

    /// Lanes pack as the blocks pack them: 32 lanes of 32 bits in 16 words, 4 of 8 in one.
    #[test]
    fn lanes_pack_lane_l_at_bit_l_times_the_width() {
        let lanes = Lanes::from_fn(32, |l| 0x1000_0000 + l as u32);
        let words = lanes.to_words(32, 32);
        assert_eq!(words.len(), 16);
        assert_eq!(words[3], 0x1000_0007_1000_0006);
        assert_eq!(Lanes::from_words(&words, 32, 32), lanes);
        let small = Lanes::from_fn(4, |l| 0x1f0 + l as u32);
        assert_eq!(small.to_words(4, 8), [0xf3f2_f1f0]);
        assert_eq!(Lanes::from_words(&[0xf3f2_f1f0], 4, 8), Lanes::from_fn(4, |l| 0xf0 + l as u32));
    }

    /// The word views agree with `u64`/`u128` values where those exist.
    #[test]
    fn words_agree_with_integers() {
        let x: Bits<100> = 0x1234_5678_9abc_def0_u64.to_bits();
        assert_eq!(words_of(x << 20u64), [0x1234_5678_9abc_def0_u64 << 20, 0x1_2345]);
        assert_eq!(bits_of_words::<100>(&[5, u64::MAX]).to_u128(), (1u128 << 100) - (1 << 64) + 5);
        assert_eq!(words_of::<8>(0xa5_u64.to_bits()), [0xa5]);
    }
}
