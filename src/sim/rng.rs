//! A small seeded generator (SplitMix64) for reproducible constrained-random stimulus.

/// SplitMix64: fast, seedable, and the same stream on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed` (the same seed, the same numbers).
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// The next 64 random bits (splitmix64).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// A uniformly random `width`-bit value.
    pub fn bits(&mut self, width: usize) -> u64 {
        self.next_u64() & mask(width)
    }
    /// A uniformly random `width`-bit value as the harness's port words (64 bits each, least
    /// significant first; one word, as [`bits`](Rng::bits) gives, up to 64 bits).
    pub fn words(&mut self, width: usize) -> Vec<u64> {
        (0..width.div_ceil(64)).map(|i| self.bits((width - i * 64).min(64))).collect()
    }
}

/// The low `width` bits set.
pub fn mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Cycles between changes of a stimulus's profile. Constrained-random stimulus changes its rates
/// every `PHASE` cycles, so that long runs visit the corners: stacks filled to full and past it,
/// pops of empty stacks, simultaneous push and pop, every warp busy, commands while no warp is
/// idle.
pub const PHASE: usize = 500;

/// Random request vectors for an encoder or arbiter: dense, sparse and single-bit patterns.
pub fn requests(rng: &mut Rng, n: usize) -> u64 {
    match rng.below(4) {
        0 => rng.bits(n),
        1 => rng.bits(n) & rng.bits(n) & rng.bits(n),
        2 => 1 << rng.below(n as u64),
        _ => rng.bits(n) | rng.bits(n),
    }
}
