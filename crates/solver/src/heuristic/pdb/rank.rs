//! Dense ranks of pattern placements: `k` tiles on the cells of a board of `n <= 32` cells.
//!
//! A placement is ranked in two parts, `subset * k! + order`:
//! - `subset`: the set of cells the pattern's tiles occupy, ranked in colexicographic order
//!   (the combinatorial number system: `sum over p of C(c_p, p + 1)` for the cells
//!   `c_0 < c_1 < ...`), so it does not depend on `n` and is read from a bit mask;
//! - `order`: which tile stands on each of those cells, read in increasing cell order, as the
//!   lexicographic rank of a permutation of `0..k`.
//!
//! The split is what makes the databases fast to build and to use. The free cells, and so the
//! regions the blank can roam in, depend on the subset alone; and when one tile moves, the
//! order changes only by taking the element at one position out and putting it back at
//! another ([`Shifts`]), which a table answers in one load. A horizontal move never passes
//! another cell, so it does not change the order at all.

use std::sync::OnceLock;

/// The most tiles in one pattern: `8! = 40,320` orders fit in a `u16`.
pub const MAX_PATTERN_TILES: usize = 8;

/// Binomial coefficients `C(n, k)` for `n <= 32`.
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    static TABLE: OnceLock<[[u64; 33]; 33]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u64; 33]; 33];
        for n in 0..33 {
            t[n][0] = 1;
            for k in 1..=n {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
        }
        t
    });
    if k > n { 0 } else { t[n][k] }
}

/// `k!` for `k <= 12`.
pub(crate) const fn factorial(k: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= k {
        f *= i as u64;
        i += 1;
    }
    f
}

/// The colexicographic rank of the cell set `mask` among the sets of its size.
#[inline]
pub(crate) fn subset_rank(mask: u32) -> u32 {
    if mask >> 16 == 0 {
        return u32::from(small_ranks()[mask as usize]);
    }
    subset_rank_slow(mask)
}

fn subset_rank_slow(mut mask: u32) -> u32 {
    let mut rank = 0u64;
    let mut p = 1;
    while mask != 0 {
        let c = mask.trailing_zeros() as usize;
        rank += binomial(c, p);
        p += 1;
        mask &= mask - 1;
    }
    rank as u32
}

/// Ranks of every 16-bit mask: one load on boards of up to 16 cells.
fn small_ranks() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| (0..1u32 << 16).map(|m| subset_rank_slow(m) as u16).collect())
}

/// The `k`-cell set of colexicographic rank `rank` (the inverse of [`subset_rank`]).
#[cfg(test)]
pub(crate) fn subset_unrank(mut rank: u64, k: usize) -> u32 {
    let mut mask = 0u32;
    for p in (1..=k).rev() {
        // The largest c with C(c, p) <= rank.
        let mut c = p - 1;
        while binomial(c + 1, p) <= rank {
            c += 1;
        }
        rank -= binomial(c, p);
        mask |= 1 << c;
    }
    mask
}

/// The lexicographic rank of the permutation `perm` of `0..perm.len()`.
pub(crate) fn perm_rank(perm: &[u8]) -> u32 {
    let k = perm.len();
    let mut rank = 0u32;
    let mut used = 0u32;
    for (i, &x) in perm.iter().enumerate() {
        // Elements after position i smaller than x: those smaller than x not used before.
        let smaller = u32::from(x) - (used & ((1 << x) - 1)).count_ones();
        used |= 1 << x;
        rank += smaller * factorial(k - 1 - i) as u32;
    }
    rank
}

/// The permutation of `0..k` with lexicographic rank `rank`.
pub(crate) fn perm_unrank(mut rank: u32, k: usize) -> [u8; MAX_PATTERN_TILES] {
    let mut left = [0u8, 1, 2, 3, 4, 5, 6, 7];
    let mut out = [0u8; MAX_PATTERN_TILES];
    for (i, slot) in out.iter_mut().enumerate().take(k) {
        let f = factorial(k - 1 - i) as u32;
        let d = (rank / f) as usize;
        rank %= f;
        *slot = left[d];
        left.copy_within(d + 1..k - i, d);
    }
    out
}

/// For one pattern size `k`: the order rank after the element at position `i` is taken out
/// and put back at position `j`, for every `i`, `j` and order.
#[derive(Debug)]
pub(crate) struct Shifts {
    k: usize,
    orders: usize,
    table: Vec<u16>,
}

impl Shifts {
    /// The shift table for patterns of `k <= 8` tiles (`k * k * k!` entries).
    pub(crate) fn new(k: usize) -> Shifts {
        assert!(k <= MAX_PATTERN_TILES, "pattern of {k} tiles");
        let orders = factorial(k) as usize;
        let mut table = vec![0u16; k * k * orders];
        for r in 0..orders {
            let perm = perm_unrank(r as u32, k);
            for i in 0..k {
                for j in 0..k {
                    let mut v = perm;
                    let x = v[i];
                    if i < j {
                        v.copy_within(i + 1..=j, i);
                    } else {
                        v.copy_within(j..i, j + 1);
                    }
                    v[j] = x;
                    table[(i * k + j) * orders + r] = perm_rank(&v[..k]) as u16;
                }
            }
        }
        Shifts { k, orders, table }
    }

    /// The shared table for size `k` (built once per process).
    pub(crate) fn get(k: usize) -> &'static Shifts {
        static TABLES: [OnceLock<Shifts>; MAX_PATTERN_TILES + 1] =
            [const { OnceLock::new() }; MAX_PATTERN_TILES + 1];
        TABLES[k].get_or_init(|| Shifts::new(k))
    }

    /// The row of the table for moving position `i` to position `j`.
    #[inline]
    pub(crate) fn row(&self, i: usize, j: usize) -> &[u16] {
        let start = (i * self.k + j) * self.orders;
        &self.table[start..start + self.orders]
    }

    /// The order after moving position `i` to position `j` of order `order`.
    #[inline]
    pub(crate) fn shift(&self, i: usize, j: usize, order: u32) -> u32 {
        if i == j {
            return order;
        }
        u32::from(self.table[(i * self.k + j) * self.orders + order as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_rank_densely_and_round_trip() {
        for n in [4usize, 9, 16, 20] {
            for k in 1..=4.min(n) {
                let count = binomial(n, k);
                let mut seen = vec![false; count as usize];
                for mask in 0u32..(1 << n) {
                    if mask.count_ones() as usize != k {
                        continue;
                    }
                    let r = subset_rank(mask) as u64;
                    assert!(r < count);
                    assert!(!seen[r as usize]);
                    seen[r as usize] = true;
                    assert_eq!(subset_unrank(r, k), mask);
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
        let wide = (1u32 << 24) | (1 << 17) | 1;
        assert_eq!(subset_unrank(u64::from(subset_rank(wide)), 3), wide);
    }

    #[test]
    fn perms_round_trip() {
        for k in 1..=6 {
            for r in 0..factorial(k) as u32 {
                assert_eq!(perm_rank(&perm_unrank(r, k)[..k]), r);
            }
        }
    }

    #[test]
    fn shifts_move_one_element() {
        let s = Shifts::new(4);
        // 0 1 2 3, position 0 to position 2: 1 2 0 3.
        let r = s.shift(0, 2, 0);
        assert_eq!(&perm_unrank(r, 4)[..4], &[1, 2, 0, 3]);
        assert_eq!(s.shift(2, 0, r), 0);
        assert_eq!(s.shift(1, 1, 7), 7);
    }
}
