//! IDA* compiled for one board shape: the packed engine's IDA* with the board's width and
//! height, the blank's cell and the last move all known at compile time.
//!
//! IDA* spends its time generating children, and on a small board most of a child's cost
//! is not arithmetic but unpredictable branches: is the move legal from this blank cell, is
//! it the inverse of the last move, is the child within the bound. Here `dfs` is one function
//! per (shape, blank cell, last move), so the first two questions are answered when the
//! code is compiled, and every shift and table offset of a child's update is a constant.
//! Only the bound test and the goal test remain at run time. Moving the blank to a cell
//! calls that cell's own function, chosen by a `match` on a constant that the compiler
//! folds away.
//!
//! The heuristic tables are the packed engine's, so every heuristic (and none, for
//! iterative deepening) and every goal run through the same code.

use npuzzle_core::{Move, Moves};
use npuzzle_search::{Budget, Flow, Stop};

use super::{Node, PackedEngine, TERMS_LEN, Watch};
use crate::solution::{Ended, Stats};

/// The search's state, shared by every `dfs` instance.
struct Ida<'a, 'b, 'w> {
    /// The engine's line terms: rows first, then columns (see [`PackedEngine::terms`]).
    terms: &'a [u8; TERMS_LEN],
    has_cols: bool,
    goal_rows: u64,
    budget: &'a Budget<'b>,
    watch: &'a mut Watch<'w>,
    bound: u32,
    next: u32,
    /// `path[g]`: the move made at depth `g` of the current branch (no board of at most
    /// 16 cells is more than 80 moves from its goal, and no bound passes the distance).
    path: [u8; 256],
    /// The depth at which the goal was found.
    found: u32,
    /// Why the search stopped early, if it did.
    stopped: Option<Stop>,
    expanded: u64,
    /// Until `expanded` reaches this, the limits cannot have been reached.
    check_at: u64,
    generated: u64,
    max_depth: u64,
}

/// Calls `$f::<$w, $h, CELL, $rest...>` for a cell given as a
/// constant expression (the `match` folds away) or as a run-time value (one jump table);
/// `$none` for a cell past 15.
macro_rules! by_cell {
    ($cell:expr, $f:ident::<$w:ident, $h:ident $(, $rest:tt)*>($($arg:expr),*), else $none:expr) => {
        match $cell {
            0 => $f::<$w, $h, 0 $(, $rest)*>($($arg),*),
            1 => $f::<$w, $h, 1 $(, $rest)*>($($arg),*),
            2 => $f::<$w, $h, 2 $(, $rest)*>($($arg),*),
            3 => $f::<$w, $h, 3 $(, $rest)*>($($arg),*),
            4 => $f::<$w, $h, 4 $(, $rest)*>($($arg),*),
            5 => $f::<$w, $h, 5 $(, $rest)*>($($arg),*),
            6 => $f::<$w, $h, 6 $(, $rest)*>($($arg),*),
            7 => $f::<$w, $h, 7 $(, $rest)*>($($arg),*),
            8 => $f::<$w, $h, 8 $(, $rest)*>($($arg),*),
            9 => $f::<$w, $h, 9 $(, $rest)*>($($arg),*),
            10 => $f::<$w, $h, 10 $(, $rest)*>($($arg),*),
            11 => $f::<$w, $h, 11 $(, $rest)*>($($arg),*),
            12 => $f::<$w, $h, 12 $(, $rest)*>($($arg),*),
            13 => $f::<$w, $h, 13 $(, $rest)*>($($arg),*),
            14 => $f::<$w, $h, 14 $(, $rest)*>($($arg),*),
            15 => $f::<$w, $h, 15 $(, $rest)*>($($arg),*),
            // No board of the packed engine has more than 16 cells.
            _ => $none,
        }
    };
}

/// `$f::<W, H>` for the run-time shape `($w, $h)` of a packed board (to be coerced to a
/// function pointer).
macro_rules! by_shape {
    ($w:expr, $h:expr, $f:ident) => {
        match ($w, $h) {
            (2, 2) => $f::<2, 2>,
            (2, 3) => $f::<2, 3>,
            (3, 2) => $f::<3, 2>,
            (2, 4) => $f::<2, 4>,
            (4, 2) => $f::<4, 2>,
            (3, 3) => $f::<3, 3>,
            (3, 4) => $f::<3, 4>,
            (4, 3) => $f::<4, 3>,
            (4, 4) => $f::<4, 4>,
            _ => unreachable!("the packed engine holds boards from 2x2 to 4x4"),
        }
    };
}

/// The position after move `K` (an index into [`Move::ALL`]) from blank cell `B` of a
/// `W`x`H` board, as `(rows, cols, h)`, or `None` when the move is illegal there; known
/// at compile time, as is every shift and table offset of the update.
#[inline(always)]
fn make<const W: usize, const H: usize, const B: usize, const K: usize>(
    terms: &[u8; TERMS_LEN],
    has_cols: bool,
    blind: bool,
    rows: u64,
    cols: u64,
    h: u32,
) -> Option<(u64, u64, u32)> {
    let (x, y) = (B % W, B / W);
    // Where the blank goes: a tile moving up (K = 0) moves the blank down, and so on.
    let legal = match K {
        0 => y + 1 < H,
        1 => y > 0,
        2 => x + 1 < W,
        _ => x > 0,
    };
    if B >= W * H || !legal {
        return None;
    }
    let to = target::<W, B, K>();
    let col_of = |i: usize| (i % W) * H + i / W;
    // The blank's nibble is 0, so swapping it with the tile's is two xors per word.
    let t = (rows >> (4 * to)) & 0xF;
    let new_rows = rows ^ (t << (4 * to)) ^ (t << (4 * B));
    let new_cols = cols ^ (t << (4 * col_of(to))) ^ (t << (4 * col_of(B)));
    if blind {
        return Some((new_rows, new_cols, 0));
    }
    let row_mask = (1u64 << (4 * W)) - 1;
    let col_mask = (1u64 << (4 * H)) - 1;
    // A fixed-size array and indices bounded at compile time: no bounds checks.
    let row = |word: u64, r: usize| {
        i32::from(terms[(r << (4 * W)) | ((word >> (4 * W * r)) & row_mask) as usize])
    };
    let col = |word: u64, c: usize| {
        let at = (H << (4 * W)) + ((c << (4 * H)) | ((word >> (4 * H * c)) & col_mask) as usize);
        i32::from(terms[at])
    };
    let mut new_h = h as i32;
    if K < 2 {
        // Vertical: two rows change; every column keeps the order of its tiles.
        let (a, b) = (y, to / W);
        new_h += row(new_rows, a) + row(new_rows, b) - row(rows, a) - row(rows, b);
    } else {
        // Horizontal: the row's distances change, and two columns.
        new_h += row(new_rows, y) - row(rows, y);
        if has_cols {
            let (a, b) = (x, to % W);
            new_h += col(new_cols, a) + col(new_cols, b) - col(cols, a) - col(cols, b);
        }
    }
    Some((new_rows, new_cols, new_h as u32))
}

/// The cell the blank moves to with move `K` from cell `B` (meaningful when legal).
#[inline(always)]
const fn target<const W: usize, const B: usize, const K: usize>() -> usize {
    match K {
        0 => B + W,
        1 => B.wrapping_sub(W),
        2 => B + 1,
        _ => B.wrapping_sub(1),
    }
}

/// Depth-first search below the position `(rows, cols)` with heuristic `h` at depth `g`,
/// the blank on cell `B` of a `W`x`H` board, reached by move `L` (4 at the root: none).
/// `true` when the search must end: the goal is found (`found` says at what depth) or a
/// limit was reached (`stopped` says which).
fn dfs<const W: usize, const H: usize, const B: usize, const L: usize, const BLIND: bool>(
    s: &mut Ida<'_, '_, '_>,
    rows: u64,
    cols: u64,
    h: u32,
    g: u32,
) -> bool {
    if rows == s.goal_rows {
        s.found = g;
        return true;
    }
    // Without a heuristic (iterative deepening), a node at the depth limit is only tested,
    // as in a textbook depth-limited search: all its children would be past the limit.
    if BLIND && g == s.bound {
        s.next = s.next.min(g + 1);
        return false;
    }
    if s.expanded >= s.check_at {
        // Every 1024 expansions (or at the node limit): the limits, then the watcher.
        let check = s.budget.check_expand(s.expanded).and_then(|()| {
            match s.expanded > 0
                && s.watch.progress(s.expanded, s.generated, g.into()) == Flow::Stop
            {
                true => Err(Stop::Cancelled),
                false => Ok(()),
            }
        });
        if let Err(stop) = check {
            // Unwind as if found; the caller sees `stopped`.
            s.stopped = Some(stop);
            return true;
        }
        s.check_at = s.budget.next_check(s.expanded);
        if s.watch.wants(s.expanded) {
            // IDA* keeps no open list; the path is the depth-first stack (as the generic
            // IDA* reports it: `g + 1` nodes on it).
            let lists = (g as usize + 1, 0);
            if s.watch.sample(rows, (g, h), lists, None) == Flow::Stop {
                s.stopped = Some(Stop::Cancelled);
                return true;
            }
            // Asked again at the next node.
            s.check_at = s.expanded + 1;
        }
    }
    s.expanded += 1;
    if u64::from(g) >= s.max_depth {
        // Rare: a new deepest expansion (no store on the common path).
        s.max_depth = u64::from(g) + 1;
    }
    child::<W, H, B, L, 0, BLIND>(s, rows, cols, h, g)
        || child::<W, H, B, L, 1, BLIND>(s, rows, cols, h, g)
        || child::<W, H, B, L, 2, BLIND>(s, rows, cols, h, g)
        || child::<W, H, B, L, 3, BLIND>(s, rows, cols, h, g)
}

/// Move `K` (an index into [`Move::ALL`]) from cell `B`: skipped at compile time when it is
/// illegal or undoes move `L`; otherwise the child is made, bounded, and searched.
#[inline(always)]
fn child<
    const W: usize,
    const H: usize,
    const B: usize,
    const L: usize,
    const K: usize,
    const BLIND: bool,
>(
    s: &mut Ida<'_, '_, '_>,
    rows: u64,
    cols: u64,
    h: u32,
    g: u32,
) -> bool {
    // Move k ^ 1 is the inverse of move k.
    if K == L ^ 1 {
        return false;
    }
    let Some((new_rows, new_cols, new_h)) =
        make::<W, H, B, K>(s.terms, s.has_cols, BLIND, rows, cols, h)
    else {
        return false;
    };
    let to = target::<W, B, K>();
    s.generated += 1;
    let f = g + 1 + new_h;
    if f > s.bound {
        s.next = s.next.min(f);
        return false;
    }
    s.path[usize::from(g as u8)] = K as u8;
    if BLIND && f == s.bound {
        // A leaf of iterative deepening: test it here rather than in a call.
        if new_rows == s.goal_rows {
            s.found = f;
            return true;
        }
        s.next = s.next.min(f + 1);
        return false;
    }
    match K {
        0 => {
            by_cell!(to, dfs::<W, H, 0, BLIND>(s, new_rows, new_cols, new_h, g + 1), else false)
        }
        1 => {
            by_cell!(to, dfs::<W, H, 1, BLIND>(s, new_rows, new_cols, new_h, g + 1), else false)
        }
        2 => {
            by_cell!(to, dfs::<W, H, 2, BLIND>(s, new_rows, new_cols, new_h, g + 1), else false)
        }
        _ => {
            by_cell!(to, dfs::<W, H, 3, BLIND>(s, new_rows, new_cols, new_h, g + 1), else false)
        }
    }
}

/// One IDA* iteration from the root, for the shape `W`x`H`.
fn root<const W: usize, const H: usize>(s: &mut Ida<'_, '_, '_>, start: &Node) -> bool {
    let h = u32::from(start.h);
    by_cell!(usize::from(start.blank), dfs::<W, H, 4, false>(s, start.rows, start.cols, h, 0), else false)
}

/// One iteration of iterative deepening (no heuristic) from the root.
fn root_blind<const W: usize, const H: usize>(s: &mut Ida<'_, '_, '_>, start: &Node) -> bool {
    by_cell!(usize::from(start.blank), dfs::<W, H, 4, true>(s, start.rows, start.cols, 0, 0), else false)
}

/// IDA* from `start` with the engine's heuristic. Returns the moves, or why it stopped;
/// `watch` sees each new bound (and keeps the last as the proven lower bound) and the
/// progress every 1024 expansions.
pub(crate) fn idastar(
    e: &PackedEngine,
    start: Node,
    budget: &Budget<'_>,
    watch: &mut Watch<'_>,
    stats: &mut Stats,
) -> Result<Moves, Ended> {
    let iteration: fn(&mut Ida<'_, '_, '_>, &Node) -> bool = if e.blind {
        by_shape!(e.width, e.height, root_blind)
    } else {
        by_shape!(e.width, e.height, root)
    };
    let (terms, has_cols) = e.terms();
    let mut s = Ida {
        terms,
        has_cols,
        goal_rows: e.goal_rows,
        budget,
        watch,
        bound: u32::from(start.h),
        next: u32::MAX,
        path: [0; 256],
        found: 0,
        stopped: None,
        expanded: 0,
        check_at: 0,
        generated: 0,
        max_depth: 0,
    };
    let result = loop {
        s.next = u32::MAX;
        if s.bound > 255 {
            // Cannot happen: the bound never passes the distance, at most 80 here.
            break Err(Ended::Exhausted);
        }
        if s.watch.bound(s.bound, s.expanded) == Flow::Stop {
            break Err(Ended::Stopped(Stop::Cancelled));
        }
        let ended = iteration(&mut s, &start);
        if let Some(stop) = s.stopped {
            break Err(Ended::Stopped(stop));
        }
        match ended {
            true => {
                let moves = &s.path[..s.found as usize];
                break Ok(Moves(moves.iter().map(|&k| Move::ALL[usize::from(k)]).collect()));
            }
            // A solvable position always has a deeper bound to try.
            false if s.next != u32::MAX => s.bound = s.next,
            false => break Err(Ended::Exhausted),
        }
    };
    stats.expanded = s.expanded;
    stats.generated = s.generated;
    stats.max_frontier = s.max_depth;
    result
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Scrambler, Size};

    use super::*;
    use crate::heuristic::{GoalMap, HeuristicKind};

    /// [`make`] for a move known at run time.
    fn make_k<const W: usize, const H: usize, const B: usize>(
        k: usize,
        terms: &[u8; TERMS_LEN],
        has_cols: bool,
        rows: u64,
        cols: u64,
        h: u32,
    ) -> Option<(u64, u64, u32)> {
        match k {
            0 => make::<W, H, B, 0>(terms, has_cols, false, rows, cols, h),
            1 => make::<W, H, B, 1>(terms, has_cols, false, rows, cols, h),
            2 => make::<W, H, B, 2>(terms, has_cols, false, rows, cols, h),
            _ => make::<W, H, B, 3>(terms, has_cols, false, rows, cols, h),
        }
    }

    /// Walks random paths on a `W`x`H` board and checks, after every move, the h that the
    /// shape-compiled update computes incrementally against the full evaluation of the
    /// heuristic on the board.
    fn incremental_h_is_the_full_h<const W: usize, const H: usize>() {
        let mut s = Scrambler::new(5);
        for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            let g = goal.board(Size::new(W, H).unwrap()).unwrap();
            let g = crate::relabel::Relabel::new(&g).goal().clone();
            let map = GoalMap::new(&g);
            for kind in HeuristicKind::ALL {
                let e = PackedEngine::new(&g, Some(kind));
                let (terms, has_cols) = e.terms();
                for _ in 0..20 {
                    let mut board = s.solvable(&g);
                    let node = e.pack(&board);
                    let (mut rows, mut cols, mut h) = (node.rows, node.cols, u32::from(node.h));
                    for _ in 0..60 {
                        let legal: Vec<_> = board.legal_moves().collect();
                        let m = legal[s.below(legal.len() as u64) as usize];
                        let k = Move::ALL.iter().position(|&a| a == m).unwrap();
                        let blank = board.blank();
                        let next = by_cell!(blank, make_k::<W, H>(k, terms, has_cols, rows, cols, h), else None);
                        (rows, cols, h) = next.expect("a legal move");
                        board = board.moved(m).unwrap();
                        assert_eq!(rows, e.pack(&board).rows, "{kind} {board}");
                        assert_eq!(cols, e.pack(&board).cols, "{kind} {board}");
                        assert_eq!(h, map.estimate(kind, board.tiles()), "{kind} {board}");
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_h_equals_the_full_evaluation_on_every_shape() {
        incremental_h_is_the_full_h::<2, 2>();
        incremental_h_is_the_full_h::<2, 3>();
        incremental_h_is_the_full_h::<3, 2>();
        incremental_h_is_the_full_h::<2, 4>();
        incremental_h_is_the_full_h::<4, 2>();
        incremental_h_is_the_full_h::<3, 3>();
        incremental_h_is_the_full_h::<3, 4>();
        incremental_h_is_the_full_h::<4, 3>();
        incremental_h_is_the_full_h::<4, 4>();
    }

    #[test]
    fn bounds_are_reported_and_kept_as_the_lower_bound() {
        struct Bounds(Vec<u32>);
        impl npuzzle_search::Observer<npuzzle_core::Board, u32> for Bounds {
            fn bound(&mut self, b: &npuzzle_search::Bound<u32>) -> Flow {
                self.0.push(b.bound());
                Flow::Continue
            }
        }
        let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        let e = PackedEngine::new(&g, Some(HeuristicKind::Manhattan));
        let b = Scrambler::new(3).walk(&g, 40).0;
        let start = e.pack(&b);
        let mut seen = crate::sample::Unsampled(Bounds(Vec::new()));
        let mut watch = Watch::new(&mut seen, start.h.into());
        let limits = npuzzle_search::Limits::default();
        let moves = idastar(&e, start, &Budget::new(&limits), &mut watch, &mut Stats::default());
        let length = moves.unwrap().len() as u32;
        assert_eq!(watch.lower_bound, length);
        assert_eq!(seen.0.0.first(), Some(&u32::from(start.h)));
        assert_eq!(seen.0.0.last(), Some(&length));
        assert!(seen.0.0.windows(2).all(|w| w[0] + 2 == w[1]), "{:?}", seen.0.0);
    }
}
