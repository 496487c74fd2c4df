//! The [`Cost`] trait: what a path cost must support.

use core::fmt::Debug;
use core::ops::Add;

/// An edge or path cost.
///
/// Costs are non-negative integers: they are added along a path, compared to pick the best node,
/// and the zero cost is [`Default::default`]. Integer costs keep the best-first searches exact
/// (no floating-point ties) and let the priority queue compare cheaply.
///
/// Implemented for `u8`, `u16`, `u32`, `u64` and `usize`. Addition is plain `+`: choose a type
/// wide enough for the largest `g + h` the search can reach (it panics on overflow in debug
/// builds).
pub trait Cost: Copy + Ord + Default + Add<Output = Self> + Debug {
    /// The cost as a `u64`, saturating at `u64::MAX`; used for weighted priorities and depth
    /// limits.
    fn to_u64(self) -> u64;
}

macro_rules! lossless_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            #[inline]
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}

lossless_cost!(u8, u16, u32, u64);

impl Cost for usize {
    #[inline]
    fn to_u64(self) -> u64 {
        u64::try_from(self).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::Cost;

    #[test]
    fn to_u64_is_the_value() {
        assert_eq!(7u8.to_u64(), 7);
        assert_eq!(u16::MAX.to_u64(), 65_535);
        assert_eq!(u32::MAX.to_u64(), 4_294_967_295);
        assert_eq!(u64::MAX.to_u64(), u64::MAX);
        assert_eq!(12usize.to_u64(), 12);
        assert_eq!(u8::default(), 0);
    }
}
