//! Shortening a finished solution without changing where it ends.
//!
//! Two passes, repeated while they help:
//! - **cancellation**: a move followed by its inverse is dropped (with a stack, so that
//!   `U L R D` goes as well);
//! - **windows**: while the blank stays inside a small window (3x3, 4x2 or 2x4 cells), only
//!   that window's cells change; so every such stretch can be replaced by the exact table's
//!   optimal path between the window's contents at its two ends. For each window only the
//!   maximal stretches need looking at (a shorter one inside is never better), which makes
//!   the whole pass linear in the solution's length. Overlapping stretches compete: a
//!   weighted interval scheduling picks the set that saves the most.

use npuzzle_core::{Board, Move, Size};

use crate::relabel::canonical_tiles;
use crate::tables::SolverTables;

/// Drops every move that is immediately undone.
pub(super) fn cancel(moves: &mut Vec<Move>) {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        if out.last() == Some(&m.inverse()) {
            out.pop();
        } else {
            out.push(m);
        }
    }
    *moves = out;
}

/// Settings of the window pass.
#[derive(Clone, Copy, Debug)]
pub(super) struct Effort {
    /// Use 3x3, 4x2 and 2x4 windows as well as 3x2 and 2x3 ones (whose tables take
    /// microseconds to build, where a 3x3 table takes tens of milliseconds).
    pub(super) all_shapes: bool,
    /// Shortest stretch worth a table lookup.
    pub(super) min_run: usize,
    /// Rounds of cancellation + windows.
    pub(super) rounds: usize,
    /// Longest solution given the window pass; longer ones are only cancelled. On random
    /// boards the pass of [`Effort::LIGHT`] saves 0.15 % of the moves and costs as much time
    /// as the reduction itself (on 256x256, 9 of 19 CPU-seconds), so the plain solve skips
    /// it where it would take more than a few tenths of a second.
    pub(super) window_limit: usize,
}

impl Effort {
    /// For the plain solve: cheap.
    pub(super) const LIGHT: Effort =
        Effort { all_shapes: false, min_run: 5, rounds: 2, window_limit: 1 << 20 };
    /// For the anytime mode.
    pub(super) const HEAVY: Effort =
        Effort { all_shapes: true, min_run: 3, rounds: 8, window_limit: usize::MAX };
}

/// Cancels and window-optimises `moves` (a valid sequence from `start`) as `effort` says.
/// When `interrupted` says so, stops early with what it has (still valid).
pub(super) fn optimise(
    start: &Board,
    mut moves: Vec<Move>,
    effort: Effort,
    tables: &SolverTables,
    interrupted: &dyn Fn() -> bool,
) -> Vec<Move> {
    let (w, h) = (start.width(), start.height());
    let candidates: &[(usize, usize)] = if effort.all_shapes {
        &[(3, 3), (4, 2), (2, 4), (3, 2), (2, 3)]
    } else {
        &[(3, 2), (2, 3)]
    };
    let shapes: Vec<(usize, usize)> =
        candidates.iter().copied().filter(|&(a, b)| a <= w && b <= h).collect();
    for _ in 0..effort.rounds {
        let before = moves.len();
        cancel(&mut moves);
        if moves.len() > effort.window_limit {
            break;
        }
        for &shape in &shapes {
            match window_pass(start, &moves, shape, effort.min_run, tables, interrupted) {
                Some(better) => moves = better,
                None => {
                    cancel(&mut moves);
                    return moves;
                }
            }
        }
        if moves.len() == before {
            break;
        }
    }
    cancel(&mut moves);
    moves
}

/// A stretch `from..to` of the solution and its optimal replacement.
struct Candidate {
    from: usize,
    to: usize,
    saving: usize,
    replacement: Vec<Move>,
}

/// One window pass for one window shape.
fn window_pass(
    start: &Board,
    moves: &[Move],
    shape: (usize, usize),
    min_run: usize,
    tables: &SolverTables,
    interrupted: &dyn Fn() -> bool,
) -> Option<Vec<Move>> {
    let (w, h) = (start.width(), start.height());
    let (sw, sh) = shape;
    let n = moves.len();
    // Blank cell (column, row) after each prefix of the solution.
    let mut blanks: Vec<(u16, u16)> = Vec::with_capacity(n + 1);
    let (mut x, mut y) = start.blank_xy();
    blanks.push((x as u16, y as u16));
    for &m in moves {
        let (dx, dy) = m.blank_delta();
        x = x.wrapping_add_signed(dx);
        y = y.wrapping_add_signed(dy);
        blanks.push((x as u16, y as u16));
    }
    let mut cells = start.tiles().to_vec();
    let mut b = start.blank();
    let snapshot = |cells: &[u16], wx: usize, wy: usize| -> Window {
        let mut out = [0u16; 9];
        for y in 0..sh {
            for x in 0..sw {
                out[y * sw + x] = cells[(wy + y) * w + wx + x];
            }
        }
        out
    };
    // The windows (by top-left corner) holding cell `q` but not cell `p` (all of them
    // when there is no `p`), as ranges of corners.
    let strip = |p: Option<(u16, u16)>, q: (u16, u16)| {
        let range = |p: Option<u16>, q: u16, side: usize, len: usize| -> (isize, isize) {
            let q = q as isize;
            let (side, len) = (side as isize, len as isize);
            let mut lo = (q + 1 - side).max(0);
            let mut hi = q.min(len - side);
            match p.map(|p| p as isize) {
                Some(p) if p < q => lo = lo.max(p + 1),
                Some(p) if p > q => hi = hi.min(p - side),
                _ => {}
            }
            (lo, hi)
        };
        let xr = range(p.map(|p| p.0), q.0, sw, w);
        let yr = range(p.map(|p| p.1), q.1, sh, h);
        // A move changes one coordinate; the other's range is then the full one.
        (xr, yr)
    };
    // Windows the blank is in, with the time it came in and the contents then.
    let mut active: Vec<(usize, usize, usize, Window)> = Vec::with_capacity(16);
    let mut found: Vec<Candidate> = Vec::new();
    for t in 0..=n {
        if t % 65_536 == 65_535 && interrupted() {
            return None;
        }
        let q = blanks[t];
        let ((x0, x1), (y0, y1)) = strip(t.checked_sub(1).map(|i| blanks[i]), q);
        for wy in y0..=y1 {
            for wx in x0..=x1 {
                let (wx, wy) = (wx as usize, wy as usize);
                active.push((wx, wy, t, snapshot(&cells, wx, wy)));
            }
        }
        let ((x0, x1), (y0, y1)) = strip(blanks.get(t + 1).copied(), q);
        for wy in y0..=y1 {
            for wx in x0..=x1 {
                let (wx, wy) = (wx as usize, wy as usize);
                let Some(i) = active.iter().position(|a| a.0 == wx && a.1 == wy) else {
                    continue;
                };
                let (_, _, from, before) = active.swap_remove(i);
                if t - from >= min_run
                    && let Some(c) =
                        improve(shape, &before, &snapshot(&cells, wx, wy), from, t, tables)
                {
                    found.push(c);
                }
            }
        }
        if t < n {
            let (nx, ny) = blanks[t + 1];
            let nb = usize::from(ny) * w + usize::from(nx);
            cells.swap(b, nb);
            b = nb;
        }
    }
    if found.is_empty() {
        return Some(moves.to_vec());
    }
    let chosen = schedule(found);
    let mut out = Vec::with_capacity(n);
    let mut at = 0;
    for c in chosen {
        out.extend_from_slice(&moves[at..c.from]);
        out.extend_from_slice(&c.replacement);
        at = c.to;
    }
    out.extend_from_slice(&moves[at..]);
    Some(out)
}

/// A window's contents, reading order (only the first `width * height` cells are used).
type Window = [u16; 9];

/// The optimal path inside the window from `before` to `after`, if shorter than the stretch.
fn improve(
    shape: (usize, usize),
    before: &Window,
    after: &Window,
    from: usize,
    to: usize,
    tables: &SolverTables,
) -> Option<Candidate> {
    let (sw, sh) = shape;
    let k = sw * sh;
    // Relabel: the tile at cell i of `after` is tile i + 1 (blank 0), so the goal is fixed
    // by the shape and the blank's cell. Where each tile of `before` goes:
    let mut home = [0usize; 9];
    let mut labels = [0u16; 9];
    let mut lower_bound = 0;
    for (i, &t) in before[..k].iter().enumerate() {
        let j = after[..k].iter().position(|&a| a == t)?;
        home[i] = j;
        if t != 0 {
            lower_bound += (i % sw).abs_diff(j % sw) + (i / sw).abs_diff(j / sw);
        }
    }
    // The optimum has the stretch's parity and is at least the Manhattan distance: skip the
    // table when no saving is possible.
    if lower_bound + 2 > to - from {
        return None;
    }
    let goal = canonical_tiles(&after[..k]);
    for i in 0..k {
        labels[i] = goal[home[i]];
    }
    let goal = Board::new(Size::new(shape.0, shape.1).ok()?, goal).ok()?;
    let table = tables.exact(&goal)?;
    let board = Board::new(Size::new(sw, sh).ok()?, labels[..k].to_vec()).ok()?;
    let d = usize::from(table.distance(&board)?);
    if d >= to - from {
        return None;
    }
    let replacement = table.solve(&board)?.0;
    Some(Candidate { from, to, saving: to - from - d, replacement })
}

/// The set of non-overlapping candidates with the largest total saving, in order.
fn schedule(mut found: Vec<Candidate>) -> Vec<Candidate> {
    found.sort_by_key(|c| c.to);
    let ends: Vec<usize> = found.iter().map(|c| c.to).collect();
    // best[k]: the largest saving using the first k candidates.
    let mut best = vec![0usize; found.len() + 1];
    let mut take = vec![false; found.len()];
    for (k, c) in found.iter().enumerate() {
        let p = ends.partition_point(|&e| e <= c.from);
        let with = best[p] + c.saving;
        if with > best[k] {
            best[k + 1] = with;
            take[k] = true;
        } else {
            best[k + 1] = best[k];
        }
    }
    let mut chosen = Vec::new();
    let mut k = found.len();
    let mut keep = vec![false; found.len()];
    while k > 0 {
        if take[k - 1] {
            keep[k - 1] = true;
            k = ends.partition_point(|&e| e <= found[k - 1].from);
        } else {
            k -= 1;
        }
    }
    for (c, keep) in found.into_iter().zip(keep) {
        if keep {
            chosen.push(c);
        }
    }
    chosen
}
