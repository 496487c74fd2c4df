//! A tiny seeded generator for the anytime mode's random choices (SplitMix64: fast, and the
//! same sequence on every platform).

/// SplitMix64 (Steele, Lea & Flood 2014).
#[derive(Clone, Debug)]
pub(super) struct SplitMix(u64);

impl SplitMix {
    pub(super) fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }

    pub(super) fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}
