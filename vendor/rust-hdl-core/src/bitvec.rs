use crate::bits::LiteralType;

// simt-rtl: the bits are held as 64-bit words, not one `bool` each, so that wide values (a
// 32-lane x 32-bit register is 1,024 bits) simulate at word speed (see vendor/README.md). The
// value keeps the size it had (`N` bytes, so that narrow `Bits` stay small): its first
// `8 * ceil(N / 64)` bytes hold the words, little-endian, which fit for every `N` above 32 (the
// only widths rust-hdl keeps in a `BitVec`). The bits at `N` and above, and the bytes after the
// words, are always 0, so that the derived equality and hash compare values. Operations work on
// a copy of the words in a fixed array of `WORDS`.

/// Words of the working copy: the widest `BitVec` (and so the widest `Bits`) is `MAX_BITS`,
/// 1,088: a 1,024-bit register, and the host link's capture record of one with its lane mask,
/// register and warp (1,063 bits at 32 lanes of 32 bits and 8 warps).
const WORDS: usize = 17;
pub const MAX_BITS: usize = WORDS * 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitVec<const N: usize> {
    bytes: [u8; N],
}

impl<const N: usize> BitVec<N> {
    /// Checked where a function that makes one is compiled (narrow widths, which never make one,
    /// are checked when run).
    const FITS: () = assert!(N <= MAX_BITS, "the vendored rust-hdl-core's Bits are at most 1088 bits wide");
    /// Words that hold bits `0..N`.
    const USED: usize = (N + 63) / 64;

    /// The value of `words` cut to `N` bits.
    fn from_words(mut words: [u64; WORDS]) -> Self {
        let () = Self::FITS;
        assert!(N > 32, "a BitVec holds more than 32 bits");
        if N % 64 != 0 {
            words[N / 64] &= (1u64 << (N % 64)) - 1;
        }
        let mut bytes = [0u8; N];
        for i in 0..Self::USED {
            bytes[i * 8..i * 8 + 8].copy_from_slice(&words[i].to_le_bytes());
        }
        BitVec { bytes }
    }

    /// The words (those above `USED` are 0).
    fn words(&self) -> [u64; WORDS] {
        let mut words = [0u64; WORDS];
        for i in 0..Self::USED {
            words[i] = u64::from_le_bytes(self.bytes[i * 8..i * 8 + 8].try_into().unwrap());
        }
        words
    }

    fn word(&self, i: usize) -> u64 {
        if i < Self::USED {
            u64::from_le_bytes(self.bytes[i * 8..i * 8 + 8].try_into().unwrap())
        } else {
            0
        }
    }
}

impl<const N: usize> From<[bool; N]> for BitVec<N> {
    fn from(x: [bool; N]) -> Self {
        let mut words = [0u64; WORDS];
        for (i, &b) in x.iter().enumerate() {
            words[i / 64] |= (b as u64) << (i % 64);
        }
        Self::from_words(words)
    }
}

impl<const N: usize> BitVec<N> {
    pub fn to_u128(&self) -> u128 {
        assert!(N <= 128);
        self.word(0) as u128 | (self.word(1) as u128) << 64
    }

    pub fn all(&self) -> bool {
        *self == !BitVec::<N>::from_words([0; WORDS])
    }

    pub fn any(&self) -> bool {
        self.bytes.iter().any(|&b| b != 0)
    }

    pub fn xor(&self) -> bool {
        self.bytes.iter().fold(0, |a, b| a ^ b.count_ones()) & 1 == 1
    }

    pub fn get_bit(&self, ndx: usize) -> bool {
        assert!(ndx < N);
        self.bytes[ndx / 8] >> (ndx % 8) & 1 == 1
    }

    pub fn replace_bit(&self, ndx: usize, val: bool) -> BitVec<N> {
        assert!(ndx < N);
        let mut bytes = self.bytes;
        let m = 1u8 << (ndx % 8);
        bytes[ndx / 8] = (bytes[ndx / 8] & !m) | if val { m } else { 0 };
        BitVec { bytes }
    }

    pub fn resize<const M: usize>(&self) -> BitVec<M> {
        BitVec::<M>::from_words(self.words())
    }

    fn shift_right(&self, by: usize) -> Self {
        let mut words = [0u64; WORDS];
        if by < N {
            let (skip, bits) = (by / 64, by % 64);
            for i in 0..Self::USED - skip {
                let low = self.word(i + skip) >> bits;
                let high = if bits == 0 { 0 } else { self.word(i + skip + 1) << (64 - bits) };
                words[i] = low | high;
            }
        }
        Self::from_words(words)
    }

    fn shift_left(&self, by: usize) -> Self {
        let mut words = [0u64; WORDS];
        if by < N {
            let (skip, bits) = (by / 64, by % 64);
            for i in skip..Self::USED {
                let high = self.word(i - skip) << bits;
                let low = if bits == 0 || i == skip { 0 } else { self.word(i - skip - 1) >> (64 - bits) };
                words[i] = high | low;
            }
        }
        Self::from_words(words)
    }
}

impl<const N: usize> std::ops::Shr<LiteralType> for BitVec<N> {
    type Output = BitVec<N>;

    fn shr(self, rhs: LiteralType) -> Self::Output {
        self.shift_right(rhs.min(N as LiteralType) as usize)
    }
}

impl<const N: usize, const M: usize> std::ops::Shr<BitVec<M>> for BitVec<N> {
    type Output = BitVec<N>;

    fn shr(self, rhs: BitVec<M>) -> Self::Output {
        let rhs: LiteralType = rhs.into();
        self >> rhs
    }
}

impl<const N: usize> std::ops::Shl<LiteralType> for BitVec<N> {
    type Output = BitVec<N>;

    fn shl(self, rhs: LiteralType) -> Self::Output {
        self.shift_left(rhs.min(N as LiteralType) as usize)
    }
}

impl<const N: usize, const M: usize> std::ops::Shl<BitVec<M>> for BitVec<N> {
    type Output = BitVec<N>;

    fn shl(self, rhs: BitVec<M>) -> Self::Output {
        let rhs: LiteralType = rhs.into();
        self << rhs
    }
}

impl<const N: usize> std::ops::BitOr for BitVec<N> {
    type Output = BitVec<N>;

    fn bitor(self, rhs: Self) -> Self::Output {
        self.binop(&rhs, |a, b| a | b)
    }
}

impl<const N: usize> std::ops::BitAnd for BitVec<N> {
    type Output = BitVec<N>;

    fn bitand(self, rhs: Self) -> Self::Output {
        self.binop(&rhs, |a, b| a & b)
    }
}

impl<const N: usize> std::ops::BitXor for BitVec<N> {
    type Output = BitVec<N>;

    fn bitxor(self, rhs: Self) -> Self::Output {
        self.binop(&rhs, |a, b| a ^ b)
    }
}

impl<const N: usize> std::ops::Not for BitVec<N> {
    type Output = BitVec<N>;

    fn not(self) -> Self::Output {
        let mut words = self.words();
        for w in words.iter_mut().take(Self::USED) {
            *w = !*w;
        }
        Self::from_words(words)
    }
}

impl<const N: usize> std::ops::Add<BitVec<N>> for BitVec<N> {
    type Output = BitVec<N>;

    fn add(self, rhs: BitVec<N>) -> Self::Output {
        let mut words = [0u64; WORDS];
        let mut carry = false;
        for i in 0..Self::USED {
            let (s, c1) = self.word(i).overflowing_add(rhs.word(i));
            let (s, c2) = s.overflowing_add(carry as u64);
            words[i] = s;
            carry = c1 | c2;
        }
        Self::from_words(words)
    }
}

impl<const N: usize> std::ops::Sub<BitVec<N>> for BitVec<N> {
    type Output = BitVec<N>;

    fn sub(self, rhs: BitVec<N>) -> Self::Output {
        self + !rhs + 1_u32.into()
    }
}

impl<const N: usize> std::cmp::PartialOrd for BitVec<N> {
    fn partial_cmp(&self, other: &BitVec<N>) -> Option<std::cmp::Ordering> {
        Some(self.words().iter().rev().cmp(other.words().iter().rev()))
    }
}

impl<const N: usize> BitVec<N> {
    fn binop<T>(&self, rhs: &Self, op: T) -> Self
    where
        T: Fn(u64, u64) -> u64,
    {
        let mut words = [0u64; WORDS];
        for i in 0..Self::USED {
            words[i] = op(self.word(i), rhs.word(i));
        }
        Self::from_words(words)
    }
}

// Unsigned values are cut to N bits; signed ones are sign-extended to N bits first (as the
// bit-by-bit arithmetic shift of the original did).
macro_rules! define_vec_from_uint {
    ($name:ident) => {
        impl<const N: usize> From<$name> for BitVec<N> {
            fn from(x: $name) -> Self {
                // Sign-extends the signed types, zero-extends the others.
                let wide = x as i128;
                let mut words = [if wide < 0 { u64::MAX } else { 0 }; WORDS];
                words[0] = wide as u64;
                words[1] = (wide >> 64) as u64;
                Self::from_words(words)
            }
        }
    };
}

define_vec_from_uint!(u8);
define_vec_from_uint!(u16);
define_vec_from_uint!(u32);
define_vec_from_uint!(u64);
define_vec_from_uint!(usize);
define_vec_from_uint!(i8);
define_vec_from_uint!(i16);
define_vec_from_uint!(i32);
define_vec_from_uint!(i64);
define_vec_from_uint!(i128);

impl<const N: usize> From<u128> for BitVec<N> {
    fn from(x: u128) -> Self {
        let mut words = [0u64; WORDS];
        words[0] = x as u64;
        words[1] = (x >> 64) as u64;
        Self::from_words(words)
    }
}

// The low bits that fit (the original shifted the high ones out).
macro_rules! define_uint_from_vec {
    ($name:ident, $width: expr) => {
        impl<const N: usize> From<BitVec<N>> for $name {
            fn from(t: BitVec<N>) -> Self {
                (t.word(0) as u128 | (t.word(1) as u128) << 64) as $name
            }
        }
    };
}

// Two's complement in N bits (N at most the type's width).
macro_rules! define_int_from_vec {
    ($name: ident, $width: expr) => {
        impl<const N: usize> From<BitVec<N>> for $name {
            fn from(t: BitVec<N>) -> Self {
                assert!(N <= $width);
                let raw = t.word(0) as u128 | (t.word(1) as u128) << 64;
                let shift = 128 - N as u32;
                (((raw << shift) as i128) >> shift) as $name
            }
        }
    };
}

define_uint_from_vec!(u8, 8);
define_uint_from_vec!(u16, 16);
define_uint_from_vec!(u32, 32);
define_uint_from_vec!(u64, 64);
define_uint_from_vec!(u128, 128);
#[cfg(target_pointer_width = "64")]
define_uint_from_vec!(usize, 64);
#[cfg(target_pointer_width = "32")]
define_uint_from_vec!(usize, 32);

define_int_from_vec!(i8, 8);
define_int_from_vec!(i16, 16);
define_int_from_vec!(i32, 32);
define_int_from_vec!(i64, 64);
define_int_from_vec!(i128, 128);

#[cfg(test)]
mod tests {
    use std::num::Wrapping;

    use super::BitVec;

    #[test]
    fn or_test() {
        let a: BitVec<32> = 45_u32.into();
        let b: BitVec<32> = 10395_u32.into();
        let c = a | b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 45_u32 | 10395_u32)
    }
    #[test]
    fn and_test() {
        let a: BitVec<32> = 45_u32.into();
        let b: BitVec<32> = 10395_u32.into();
        let c = a & b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 45_u32 & 10395_u32)
    }
    #[test]
    fn xor_test() {
        let a: BitVec<32> = 45_u32.into();
        let b: BitVec<32> = 10395_u32.into();
        let c = a ^ b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 45_u32 ^ 10395_u32)
    }
    #[test]
    fn not_test() {
        let a: BitVec<32> = 45_u32.into();
        let c = !a;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, !45_u32);
    }
    #[test]
    fn shr_test() {
        let a: BitVec<32> = 10395_u32.into();
        let c = a >> 4;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 10395_u32 >> 4);
    }
    #[test]
    fn shr_test_pair() {
        let a: BitVec<32> = 10395_u32.into();
        let b: BitVec<4> = 4_u32.into();
        let c = a >> b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 10395_u32 >> 4);
    }
    #[test]
    fn shl_test() {
        let a: BitVec<32> = 10395_u32.into();
        let c = a << 24;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 10395_u32 << 24);
    }
    #[test]
    fn shl_test_pair() {
        let a: BitVec<32> = 10395_u32.into();
        let b: BitVec<4> = 4_u32.into();
        let c = a << b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 10395_u32 << 4);
    }
    #[test]
    fn add_works() {
        let a: BitVec<32> = 10234_u32.into();
        let b: BitVec<32> = 19423_u32.into();
        let c = a + b;
        let c_u32: u32 = c.into();
        assert_eq!(c_u32, 10234_u32 + 19423_u32);
    }
    #[test]
    fn add_works_with_overflow() {
        let x = 2_042_102_334_u32;
        let y = 2_942_142_512_u32;
        let a: BitVec<32> = x.into();
        let b: BitVec<32> = y.into();
        let c = a + b;
        let c_u32: u32 = c.into();
        assert_eq!(Wrapping(c_u32), Wrapping(x) + Wrapping(y));
    }
    #[test]
    fn sub_works() {
        let x = 2_042_102_334_u32;
        let y = 2_942_142_512_u32;
        let a: BitVec<32> = x.into();
        let b: BitVec<32> = y.into();
        let c = a - b;
        let c_u32: u32 = c.into();
        assert_eq!(Wrapping(c_u32), Wrapping(x) - Wrapping(y));
    }
    #[test]
    fn eq_works() {
        let x = 2_032_142_351_u32;
        let y = 2_942_142_512_u32;
        let a: BitVec<32> = x.into();
        let b: BitVec<32> = x.into();
        let c: BitVec<32> = y.into();
        assert_eq!(a, b);
        assert_ne!(a, c)
    }
    #[test]
    fn all_works() {
        let a: BitVec<48> = 0xFFFF_FFFF_FFFF_u64.into();
        assert!(a.all());
        assert!(a.any());
    }
}
