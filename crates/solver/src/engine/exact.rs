//! Exact distance tables for boards of at most 9 cells (3x3, 2x4, 4x2, 2x3, 3x2, 2x2).
//!
//! A breadth-first search from the goal over every reachable position fills one byte per
//! permutation (indexed by its Lehmer rank), so a solve afterwards is a walk downhill: from
//! the board, take any move to a position one closer. The 3x3 table has 9! = 362,880
//! entries (half reachable) and builds in a few milliseconds.

use npuzzle_core::{Board, Move, Moves, Size};

/// Distance marker for positions the goal cannot reach.
const UNREACHED: u8 = u8::MAX;

/// The largest board (in cells) a table is built for.
pub const MAX_CELLS: usize = 9;

/// Factorials up to 9!.
const FACT: [u32; 10] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880];

/// The distance from every position of one size to one goal.
///
/// Immutable once built; a [`crate::Solver`] builds one per (shape, blank cell of the goal)
/// on first use and shares it between threads.
///
/// # Examples
/// ```
/// use npuzzle_solver::ExactTable;
/// let goal = "1 2 3/4 5 6/7 8 0".parse().unwrap();
/// let table = ExactTable::build(&goal).unwrap();
/// let board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// assert_eq!(table.distance(&board), Some(31)); // one of the two hardest 3x3 positions
/// assert_eq!(table.solve(&board).unwrap().len(), 31);
/// ```
pub struct ExactTable {
    size: Size,
    cells: usize,
    neighbours: Vec<[Option<usize>; 4]>,
    goal: Board,
    dist: Box<[u8]>,
    reachable: usize,
    max_distance: u8,
}

/// A position packed 4 bits per cell (cell i in bits 4i..4i+4), with the blank's cell.
#[derive(Clone, Copy)]
struct Packed {
    tiles: u64,
    blank: usize,
}

impl Packed {
    fn of(board: &Board) -> Packed {
        let tiles = board
            .tiles()
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &t)| acc | (u64::from(t) << (4 * i)));
        Packed { tiles, blank: board.blank() }
    }

    fn tile(self, cell: usize) -> u64 {
        (self.tiles >> (4 * cell)) & 0xF
    }

    /// The position after the blank moves to `to` (the tile there takes the blank's cell).
    fn slide(self, to: usize) -> Packed {
        let t = self.tile(to);
        Packed { tiles: (self.tiles & !(0xF << (4 * to))) | (t << (4 * self.blank)), blank: to }
    }
}

impl ExactTable {
    /// Builds the table for `goal` by breadth-first search.
    ///
    /// Returns `None` when the board has more than 9 cells.
    pub fn build(goal: &Board) -> Option<ExactTable> {
        match goal.tiles().len() {
            4 => Some(Self::build_n::<4>(goal)),
            6 => Some(Self::build_n::<6>(goal)),
            8 => Some(Self::build_n::<8>(goal)),
            9 => Some(Self::build_n::<9>(goal)),
            // Both sides are at least 2, so no other count up to 9 exists.
            _ => None,
        }
    }

    fn build_n<const N: usize>(goal: &Board) -> ExactTable {
        let size = goal.size();
        let mut dist = vec![UNREACHED; FACT[N] as usize].into_boxed_slice();
        let mut queue: Vec<Packed> = Vec::with_capacity(FACT[N] as usize / 2);
        let start = Packed::of(goal);
        dist[rank::<N>(start.tiles)] = 0;
        queue.push(start);
        let neighbours = neighbour_table(size);
        // Breadth-first, one level at a time, so a popped position's distance is known
        // without looking it up.
        let (mut head, mut depth) = (0, 0u8);
        while head < queue.len() {
            let end = queue.len();
            depth += 1;
            while head < end {
                let p = queue[head];
                head += 1;
                for &to in neighbours[p.blank].iter().flatten() {
                    let q = p.slide(to);
                    let r = rank::<N>(q.tiles);
                    if dist[r] == UNREACHED {
                        dist[r] = depth;
                        queue.push(q);
                    }
                }
            }
        }
        let reachable = queue.len();
        let max_distance = dist.iter().copied().filter(|&d| d != UNREACHED).max().unwrap_or(0);
        ExactTable { size, cells: N, neighbours, goal: goal.clone(), dist, reachable, max_distance }
    }

    /// The goal this table measures distances to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// How many positions can reach the goal (half of all permutations).
    pub fn reachable(&self) -> usize {
        self.reachable
    }

    /// The largest distance of any position (31 for 3x3).
    pub fn max_distance(&self) -> u8 {
        self.max_distance
    }

    /// The optimal number of moves from `board` to the goal, or `None` when it cannot reach
    /// the goal or is of another size.
    pub fn distance(&self, board: &Board) -> Option<u8> {
        if board.size() != self.size {
            return None;
        }
        let d = self.dist[self.rank(Packed::of(board).tiles)];
        (d != UNREACHED).then_some(d)
    }

    #[inline]
    fn rank(&self, tiles: u64) -> usize {
        match self.cells {
            4 => rank::<4>(tiles),
            6 => rank::<6>(tiles),
            8 => rank::<8>(tiles),
            _ => rank::<9>(tiles),
        }
    }

    /// An optimal solution from `board`, or `None` when it cannot reach the goal or is of
    /// another size.
    pub fn solve(&self, board: &Board) -> Option<Moves> {
        if board.size() != self.size {
            return None;
        }
        match self.cells {
            4 => self.walk::<4>(board),
            6 => self.walk::<6>(board),
            8 => self.walk::<8>(board),
            _ => self.walk::<9>(board),
        }
    }

    /// Walks downhill: from each position, the first move to a position one step closer.
    fn walk<const N: usize>(&self, board: &Board) -> Option<Moves> {
        let mut p = Packed::of(board);
        let d = self.dist[rank::<N>(p.tiles)];
        if d == UNREACHED {
            return None;
        }
        let mut moves = Vec::with_capacity(usize::from(d));
        for left in (0..d).rev() {
            let next = self.neighbours[p.blank].iter().zip(Move::ALL).find_map(|(to, m)| {
                let q = p.slide((*to)?);
                (self.dist[rank::<N>(q.tiles)] == left).then_some((m, q))
            });
            // A position at distance d > 0 always has a neighbour at d - 1.
            let (m, q) = next?;
            moves.push(m);
            p = q;
        }
        Some(Moves(moves))
    }
}

/// For each cell, the cell the blank moves to with each move, in the order of `Move::ALL`
/// (a tile moving up means the blank moves down).
fn neighbour_table(size: Size) -> Vec<[Option<usize>; 4]> {
    let (w, h) = (size.width(), size.height());
    (0..size.cells())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            Move::ALL.map(|m| {
                let (dx, dy) = m.blank_delta();
                let nx = x.checked_add_signed(dx).filter(|&x| x < w)?;
                let ny = y.checked_add_signed(dy).filter(|&y| y < h)?;
                Some(ny * w + nx)
            })
        })
        .collect()
}

/// Lehmer rank of the permutation packed in `tiles` (4 bits per cell, `N` cells). `N` is a
/// constant so the loop unrolls.
#[inline(always)]
fn rank<const N: usize>(tiles: u64) -> usize {
    let mut used = 0u32;
    let mut r = 0u32;
    for i in 0..N {
        let t = ((tiles >> (4 * i)) & 0xF) as u32;
        let smaller_used = (used & ((1 << t) - 1)).count_ones();
        r += (t - smaller_used) * FACT[N - 1 - i];
        used |= 1 << t;
    }
    r as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler};

    #[test]
    fn ranks_are_a_bijection_on_small_permutations() {
        let n = 5;
        let mut seen = vec![false; FACT[n] as usize];
        let goal = Goal::BlankFirst.board(Size::new(5, 2).unwrap()).unwrap();
        let _ = goal;
        // Enumerate all permutations of 0..5 by counting in factorial base.
        for code in 0..FACT[n] {
            let mut pool: Vec<u64> = (0..n as u64).collect();
            let mut c = code;
            let mut tiles = 0u64;
            for i in 0..n {
                let f = FACT[n - 1 - i];
                let t = pool.remove((c / f) as usize);
                c %= f;
                tiles |= t << (4 * i);
            }
            let r = rank::<5>(tiles);
            assert_eq!(r as u32, code);
            assert!(!std::mem::replace(&mut seen[r], true));
        }
    }

    #[test]
    fn three_by_three_facts() {
        let goal = Goal::BlankLast.board(Size::square(3).unwrap()).unwrap();
        let t = ExactTable::build(&goal).unwrap();
        assert_eq!(t.reachable(), 181_440);
        assert_eq!(t.max_distance(), 31);
        let hardest = t.dist.iter().filter(|&&d| d == 31).count();
        assert_eq!(hardest, 2);
    }

    #[test]
    fn solutions_replay_and_match_distance_on_every_small_shape() {
        let mut s = Scrambler::new(5);
        for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let t = ExactTable::build(&g).unwrap();
                for _ in 0..100 {
                    let b = s.solvable(&g);
                    let moves = t.solve(&b).unwrap();
                    assert_eq!(moves.len(), usize::from(t.distance(&b).unwrap()));
                    let mut r = b.clone();
                    r.apply_all(&moves).unwrap();
                    assert_eq!(r, g);
                    assert_eq!(t.solve(&s.unsolvable(&g)), None);
                }
            }
        }
    }

    #[test]
    fn refuses_large_boards() {
        let goal = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        assert!(ExactTable::build(&goal).is_none());
    }
}
