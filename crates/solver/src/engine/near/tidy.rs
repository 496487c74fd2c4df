//! Finishing a beam that stopped a few tiles short of the goal, defect by defect.
//!
//! On big boards a beam's ranking has no way past the last few misplaced tiles: they sit
//! in small knots scattered over the board (two tiles swapped, a 2x2 block turned, a short
//! chain shifted by one), and fixing one takes the blank there and back, which every
//! ranking of the beam counts as worse. On three seeded 32x32 boards a beam of 256 stopped
//! with 89 to 96 tiles misplaced (96 to 114 moves of Manhattan distance), and the reduction
//! solver, which places every tile again, took 7,252 to 8,314 moves to finish.
//!
//! This pass mends the knots one at a time. The misplaced tiles fall into cycles (the tile
//! on a cell belongs on a cell whose tile belongs on another, and so back). A cycle whose
//! permutation is odd (an even number of cells) can only be mended together with another
//! such (a closed tour of the blank permutes the tiles evenly), so those are paired,
//! nearest first. Group by group, nearest to the blank first, the blank walks (the
//! shortest way round the cycles not mended yet) into the box of the group grown by one
//! cell; the box is solved as a board of its own, the group's cells to hold their home
//! tiles and every other cell what it holds now (the blank where it came in), by IDA*
//! (`super::window::Ida`, Manhattan + linear conflict, optimal within [`BOX_NODES`]) when
//! the box has at most [`IDA_CELLS`] cells, else (or when IDA* gives up) by the reduction
//! solver, whose path windows then shorten ([`BOX_WINDOWS`]); and the walk goes on from
//! there. At the end the blank walks back every step it walked, in reverse, which puts
//! back every tile its walks pushed aside (a box's solve changes only its group's cells,
//! none of which any earlier walk crossed). A group whose cycle holds the blank (a beam
//! that stopped with the blank away from home) is solved first, in place, the blank to its
//! home.
//!
//! On those three boards it finished with 1,832, 1,948 and 1,682 moves in 0.05 to 0.06 s
//! (walking back home after each group instead: 2,660, 2,952 and 2,622), for 1.786, 1.778
//! and 1.725 times the Manhattan distance in all, against 2.049, 2.067 and 1.976 with the
//! reduction solver's tail. Most of its moves go to the pairs of odd cycles (two swaps a
//! few cells apart, whose box IDA* cannot solve within its budget: 50 to 400 moves by the
//! reduction solver, where a 2x2 knot takes IDA* 10 to 30). A beam that stalls far from the
//! goal leaves boxes that overlap into most of the board; then the pass declines (more
//! than half the tiles misplaced, or a box over [`MAX_BOX`]) or loses to the reduction
//! solver, and the engine keeps the shorter.

use npuzzle_core::{Board, Move, Size};

use super::Meter;
use super::heuristic::Neighbours;
use super::window::{self, Ida, Outcome};
use crate::engine::reduction;

/// The largest box (in cells) a group may fill; beyond it the pass gives up, and the
/// caller finishes otherwise.
pub(crate) const MAX_BOX: usize = 400;

/// Nodes the IDA* of one box may expand before the reduction solver solves the box. On the
/// three 32x32 boards of the module docs, 400,000 gave 1,832, 1,948 and 1,630 moves in about
/// 0.4 s, this 1,832, 1,948 and 1,682 in 0.05 to 0.06 s.
const BOX_NODES: u64 = 50_000;

/// The largest box (in cells) whose IDA* is tried. Beams of 128 on three seeded 32x32
/// boards left boxes of 9 to 96 cells: IDA* solved all 14 of up to 16 cells, 19 of the 22
/// of 18 to 30, and none of the 37 from 32 cells up (the odd pairs' boxes),
/// where its 50,000 nodes each were three quarters of the pass's time (68 ms a board;
/// 9 ms without them, the same moves).
const IDA_CELLS: usize = 30;

/// Windows re-solved optimally, one pass each, over the reduction solver's path for a box
/// (`super::window::pass`): its carrying of one tile at a time leaves loops a window finds.
/// On the three boards above the pass took 2,399 moves a board to finish without them;
/// 2,140 with one pass of 24 (25 ms a board in all), **2,020 with two (36 ms)**, 1,925 with
/// 20, 24 and 28 (68 ms), 1,878 with 24 and 32 (150 ms): on 32x32 within a second, a
/// hundredth of a second of the beam's is worth about 50 moves.
///
/// Other solvers for the boxes of more than [`IDA_CELLS`] cells were measured and not kept
/// (2026-12-04). Four seeded 32x32 boards (`Scrambler::new(100..104)`), fixed beams of 96
/// (`near::big_widths::experiment`), stopped with 160 to 232 tiles misplaced (224 to 348
/// moves of Manhattan distance), and this pass took 1,636, 2,402, 2,390 and 1,978 moves to
/// finish them; on the first, 252 of its 1,636 moves were the blank's walks there and back
/// and 1,202 the boxes of the odd pairs. Their 58 boxes of more than 30 cells took 6,088
/// moves as now (0.13 s in all, the four boards). IDA* within 200,000 and 1 M nodes solved
/// 2 and 4 of them (6,032 and 6,014 moves, keeping the shorter); a beam with the plain
/// windows, ranked `4:5:1`, 100 wide 5,950 (0.16 s; 27 of its beams stalled), 300 wide
/// 5,746 (0.34 s), 1,000 wide 5,278 (0.79 s); 300 wide ranked `4:20:1` 5,400 (0.27 s); the
/// whole engine for 0.3 s a box 4,450 (16 s). The cheapest of them saves about 170 moves a
/// board for about 35 ms more on each beam's thread, which a beam of 32x32 within a second
/// would have turned into as many moves (see above): even. (An odd group cannot be mended
/// alone by ending the blank one cell off where it came in, either: a move swaps the blank
/// with a tile and changes the blank's distance by one, so no parity changes.)
const BOX_WINDOWS: [usize; 2] = [24, 24];

/// A box of cells: columns `x0..=x1`, rows `y0..=y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Area {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Area {
    fn of(cell: usize, width: usize) -> Area {
        let (x, y) = (cell % width, cell / width);
        Area { x0: x, y0: y, x1: x, y1: y }
    }

    fn join(self, o: Area) -> Area {
        Area {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    /// Grown by one cell each way, within a board of `width` x `height`.
    fn grown(self, width: usize, height: usize) -> Area {
        Area {
            x0: self.x0.saturating_sub(1),
            y0: self.y0.saturating_sub(1),
            x1: (self.x1 + 1).min(width - 1),
            y1: (self.y1 + 1).min(height - 1),
        }
    }

    /// Cells between the two boxes, along the nearer axis gaps (0 when they touch or
    /// overlap).
    fn gap(self, o: Area) -> usize {
        let dx = o.x0.saturating_sub(self.x1).max(self.x0.saturating_sub(o.x1));
        let dy = o.y0.saturating_sub(self.y1).max(self.y0.saturating_sub(o.y1));
        dx + dy
    }

    fn contains(self, x: usize, y: usize) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    fn width(self) -> usize {
        self.x1 - self.x0 + 1
    }

    fn height(self) -> usize {
        self.y1 - self.y0 + 1
    }
}

/// Misplaced cells that are mended together.
#[derive(Clone, Debug)]
struct Group {
    cells: Vec<usize>,
    area: Area,
    /// Whether it cannot be mended alone (its permutation has the wrong parity).
    odd: bool,
}

/// The moves that take `board` to `goal` by mending its misplaced tiles group by group, or
/// `None` when a group's box would be larger than [`MAX_BOX`], or `meter` said stop.
pub(crate) fn finish(board: &Board, goal: &Board, meter: &Meter) -> Option<Vec<Move>> {
    let (width, height) = (board.width(), board.height());
    let n = width * height;
    if goal.width() != width || goal.height() != height {
        return None;
    }
    let mut home = vec![0usize; n];
    for (c, &t) in goal.tiles().iter().enumerate() {
        home[usize::from(t)] = c;
    }
    let tiles = board.tiles();
    let blank_home = home[0];
    // Most tiles out of place: a board to solve, not to mend. (Beyond a quarter, as it was,
    // it declined beams on 32x32 that stalled with 257 to 272 tiles out of place in small
    // knots, which it mends in about 2,000 moves, and the reduction solver took 8,000.)
    if tiles.iter().zip(goal.tiles()).filter(|(a, b)| a != b).count() > n / 2 {
        return None;
    }
    // The cycles of misplaced cells: the tile on `c` belongs on `home[tiles[c]]`.
    let mut seen = vec![false; n];
    let mut groups: Vec<Group> = Vec::new();
    for start in 0..n {
        if seen[start] || tiles[start] == goal.tiles()[start] {
            continue;
        }
        let (mut c, mut area, mut has_blank) = (start, Area::of(start, width), false);
        let mut cells = Vec::new();
        while !seen[c] {
            seen[c] = true;
            cells.push(c);
            area = area.join(Area::of(c, width));
            has_blank |= tiles[c] == 0;
            c = home[usize::from(tiles[c])];
        }
        // Mended alone when the permutation's parity (`len - 1` swaps) matches that of
        // the blank's distance to its home (0 for a cycle without the blank: the blank
        // comes back to where it came in).
        let blank_parity = if has_blank {
            let (b, h) = (board.blank(), blank_home);
            ((b % width).abs_diff(h % width) + (b / width).abs_diff(h / width)) % 2
        } else {
            0
        };
        groups.push(Group { odd: (cells.len() - 1) % 2 != blank_parity, cells, area });
    }
    if groups.is_empty() {
        return Some(Vec::new());
    }
    // Pair the odd groups, nearest first, then exchange partners between two pairs while
    // that makes their boxes smaller (by the sum of their areas squared): nearest first
    // alone left the last two far apart, and their box too big to mend, on one board in
    // five that beams of 128 to 256 on 32x32 brought near the goal.
    let (odd, mut groups): (Vec<Group>, Vec<Group>) = groups.into_iter().partition(|g| g.odd);
    let mut unpaired: Vec<Option<Group>> = odd.into_iter().map(Some).collect();
    let mut pairs: Vec<(Group, Group)> = Vec::new();
    for i in 0..unpaired.len() {
        let Some(a) = unpaired[i].take() else { continue };
        let j = (i + 1..unpaired.len())
            .filter(|&j| unpaired[j].is_some())
            .min_by_key(|&j| unpaired[j].as_ref().map_or(usize::MAX, |b| b.area.gap(a.area)))?;
        let b = unpaired[j].take()?;
        pairs.push((a, b));
    }
    let cost = |a: &Group, b: &Group| {
        let area = a.area.join(b.area).grown(width, height);
        (area.width() * area.height()).pow(2)
    };
    let mut exchanged = true;
    while exchanged {
        exchanged = false;
        for p in 0..pairs.len() {
            for q in p + 1..pairs.len() {
                let (left, right) = pairs.split_at_mut(q);
                let ((a, b), (c, d)) = (&mut left[p], &mut right[0]);
                let now = cost(a, b) + cost(c, d);
                let across = cost(a, c) + cost(b, d);
                let crossed = cost(a, d) + cost(b, c);
                if across < now && across <= crossed {
                    std::mem::swap(b, c);
                    exchanged = true;
                } else if crossed < now {
                    std::mem::swap(b, d);
                    exchanged = true;
                }
            }
        }
    }
    for (mut a, b) in pairs {
        a.area = a.area.join(b.area);
        a.cells.extend(b.cells);
        a.odd = false;
        groups.push(a);
    }
    let grown = |g: &Group| g.area.grown(width, height);
    if groups
        .iter()
        .map(grown)
        .any(|a| a.width() * a.height() > MAX_BOX || a.width() < 2 || a.height() < 2)
    {
        return None;
    }
    let next = Neighbours::new(width, height);
    let mut at = board.clone();
    let mut moves = Vec::new();
    // Cells of the cycles not mended yet: the walks keep off them.
    let mut pending = vec![false; n];
    for g in &groups {
        for &c in &g.cells {
            pending[c] = true;
        }
    }
    // The cells the blank left on its walks, in order: walked back at the end.
    let mut trail: Vec<usize> = Vec::new();
    while !groups.is_empty() {
        if meter.stop() {
            return None;
        }
        // The group whose cycle holds the blank first (it is solved in place, the blank to
        // its home), then the nearest.
        let b = at.blank();
        let (bx, by) = (b % width, b / width);
        let i = groups.iter().position(|g| g.cells.contains(&b)).unwrap_or_else(|| {
            (0..groups.len())
                .min_by_key(|&i| grown(&groups[i]).gap(Area::of(b, width)))
                .unwrap_or(0)
        });
        let g = groups.swap_remove(i);
        let area = grown(&g);
        for &c in &g.cells {
            pending[c] = false;
        }
        if !area.contains(bx, by) {
            for c in walk_in(b, area, &pending, &next, width)? {
                trail.push(at.blank());
                step(&mut at, c, &next, &mut moves)?;
            }
        }
        mend(&mut at, goal, area, &g.cells, meter, &mut moves)?;
    }
    for &c in trail.iter().rev() {
        step(&mut at, c, &next, &mut moves)?;
    }
    (at == *goal).then_some(moves)
}

/// The shortest walk of the blank from `from` into `area`: through cells outside it and off
/// the `pending` cycles, into a cell of its rim off them too (the cells the blank enters,
/// in order).
fn walk_in(
    from: usize,
    area: Area,
    pending: &[bool],
    next: &Neighbours,
    width: usize,
) -> Option<Vec<usize>> {
    let inside = |c: usize| area.contains(c % width, c / width);
    let mut came = vec![usize::MAX; pending.len()];
    came[from] = from;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for m in 0..4 {
            let Some(d) = next.of(c, m) else { continue };
            if pending[d] || came[d] != usize::MAX {
                continue;
            }
            came[d] = c;
            if inside(d) {
                let mut path = vec![d];
                let mut at = c;
                while at != from {
                    path.push(at);
                    at = came[at];
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(d);
        }
    }
    None
}

/// The move that takes the blank of `at` to the neighbouring cell `to`.
fn step(at: &mut Board, to: usize, next: &Neighbours, moves: &mut Vec<Move>) -> Option<()> {
    let m = (0..4).find(|&m| next.of(at.blank(), m) == Some(to))?;
    at.apply(Move::ALL[m]).ok()?;
    moves.push(Move::ALL[m]);
    Some(())
}

/// Mends the tiles on `cells` (whole cycles) by solving the box `area` around them, which
/// holds the blank, as a board of its own: the group's cells to hold their home tiles, the
/// others the tiles they hold now (the blank's cell the blank, but for the group that holds
/// it, whose cycle takes it home).
fn mend(
    at: &mut Board,
    goal: &Board,
    area: Area,
    cells: &[usize],
    meter: &Meter,
    moves: &mut Vec<Move>,
) -> Option<()> {
    let width = at.width();
    let boxed: Vec<usize> =
        (area.y0..=area.y1).flat_map(|y| (area.x0..=area.x1).map(move |x| y * width + x)).collect();
    let target: Vec<u16> = boxed
        .iter()
        .map(|&c| if cells.contains(&c) { goal.tiles()[c] } else { at.tiles()[c] })
        .collect();
    let blank_end = boxed[target.iter().position(|&t| t == 0)?];
    let (w, h) = (area.width(), area.height());
    let mut label = std::collections::HashMap::with_capacity(boxed.len());
    let mut goal_tiles = Vec::with_capacity(boxed.len());
    let mut next_label = 1u16;
    for (&c, &t) in boxed.iter().zip(&target) {
        if c == blank_end {
            goal_tiles.push(0);
        } else {
            label.insert(t, next_label);
            goal_tiles.push(next_label);
            next_label += 1;
        }
    }
    let start_tiles: Vec<u16> = boxed
        .iter()
        .map(|&c| match at.tiles()[c] {
            0 => Some(0),
            t => label.get(&t).copied(),
        })
        .collect::<Option<_>>()?;
    let size = Size::new(w, h).ok()?;
    let sub = Board::new(size, start_tiles).ok()?;
    let sub_goal = Board::new(size, goal_tiles).ok()?;
    let path = solve_box(&sub, &sub_goal, meter)?;
    // The box's moves are the board's: the blank moves the same way in both.
    for m in path {
        at.apply(m).ok()?;
        moves.push(m);
    }
    (at.blank() == blank_end).then_some(())
}

/// The moves that solve a box (a board of its own): IDA* within [`BOX_NODES`] when it has
/// at most [`IDA_CELLS`] cells, else the reduction solver's path shortened by
/// [`BOX_WINDOWS`].
fn solve_box(sub: &Board, sub_goal: &Board, meter: &Meter) -> Option<Vec<Move>> {
    if sub.size().cells() <= IDA_CELLS {
        let next = Neighbours::new(sub.width(), sub.height());
        if let Outcome::Found(path) = Ida::new(sub, sub_goal, &next).run(u32::MAX, BOX_NODES, meter)
        {
            return Some(path);
        }
    }
    let mut path = reduction::solve(sub, sub_goal).ok()?.0;
    window::drop_loops(sub, &mut path);
    for w in BOX_WINDOWS {
        window::pass(sub, &mut path, w, super::window_cap(w), meter, None);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Moves, Parity};

    /// `goal` with the tiles of each list of cells moved one place along it (the last to the
    /// first): a cycle of the list's length.
    fn knotted(goal: &Board, cycles: &[&[(usize, usize)]]) -> Board {
        let w = goal.width();
        let mut tiles = goal.tiles().to_vec();
        for cycle in cycles {
            let cells: Vec<usize> = cycle.iter().map(|&(x, y)| y * w + x).collect();
            let last = tiles[cells[cells.len() - 1]];
            for k in (1..cells.len()).rev() {
                tiles[cells[k]] = tiles[cells[k - 1]];
            }
            tiles[cells[0]] = last;
        }
        Board::new(goal.size(), tiles).unwrap()
    }

    /// Asserts that `path` takes `board` to `goal` in fewer moves than the reduction solver's
    /// (which places every tile again); `what` names the case.
    fn replays_shorter(board: &Board, goal: &Board, path: &[Move], what: &str) {
        let mut end = board.clone();
        end.apply_all(&Moves(path.to_vec())).unwrap();
        assert_eq!(end, *goal, "{what}");
        let reduction = reduction::solve(board, goal).unwrap().len();
        assert!(path.len() < reduction, "{what}: {} moves, reduction {reduction}", path.len());
        println!("{what}: {} moves, reduction {reduction}", path.len());
    }

    /// Knots of every kind on a solved 14x14 board: a turned 2x2 block, two swaps far apart
    /// (each alone cannot be mended), a shifted chain, a knot on the edge, and the blank off
    /// home in a cycle of its own. The pass mends them all, and its path replays to the goal.
    #[test]
    fn scattered_knots_are_mended() {
        let goal = Goal::BlankLast.board(Size::new(14, 14).unwrap()).unwrap();
        let meter = Meter::unlimited();
        let blank_off: &[(usize, usize)] = &[(13, 13), (12, 13), (12, 12), (13, 12)];
        let sets: [&[&[(usize, usize)]]; 4] = [
            &[&[(2, 2), (3, 2), (3, 3)], &[(7, 1), (8, 1)], &[(1, 9), (1, 10)]],
            &[&[(5, 5), (6, 5), (7, 5), (8, 5), (9, 5)], &[(0, 0), (1, 0), (1, 1)]],
            &[&[(10, 2), (11, 2), (11, 3)], &[(4, 12), (4, 11)], &[(9, 9), (9, 10)], blank_off],
            &[&[(13, 0), (13, 1), (12, 1)], &[(6, 13), (7, 13), (7, 12)]],
        ];
        for (k, cycles) in sets.iter().enumerate() {
            let board = knotted(&goal, cycles);
            assert!(Parity::of(&board, &goal).solvable(), "set {k}");
            let path = finish(&board, &goal, &meter).expect("mended");
            replays_shorter(&board, &goal, &path, &format!("set {k}"));
        }
        // Already solved: nothing to do.
        assert_eq!(finish(&goal, &goal, &meter), Some(Vec::new()));
    }

    /// Other goals and shapes: the blank's home in the first cell (Korf's goal) or inside
    /// the board (the snail), boards wider than high; knots with the blank off home too.
    #[test]
    fn knots_are_mended_for_every_goal_and_shape() {
        let meter = Meter::unlimited();
        for (goal, (w, h)) in
            [(Goal::BlankFirst, (14, 9)), (Goal::Snail, (11, 11)), (Goal::BlankLast, (20, 6))]
        {
            let goal = goal.board(Size::new(w, h).unwrap()).unwrap();
            let home = goal.blank();
            let (hx, hy) = (home % w, home / w);
            // The blank one step off home, in a 2x2 cycle with three tiles.
            let (nx, ny) = (
                if hx + 1 < w { hx + 1 } else { hx - 1 },
                if hy + 1 < h { hy + 1 } else { hy - 1 },
            );
            let blank_cycle: &[(usize, usize)] = &[(hx, hy), (nx, hy), (nx, ny), (hx, ny)];
            let edge = [(w - 2, 1), (w - 1, 1)];
            // One more swap, far from the others, when the parity asks for it.
            let swap = [(0, h - 1), (1, h - 1)];
            let mut cycles: Vec<&[(usize, usize)]> =
                vec![&[(3, 2), (4, 2), (4, 3)], &[(8, 4), (8, 5)], &edge, blank_cycle];
            let mut board = knotted(&goal, &cycles);
            if !Parity::of(&board, &goal).solvable() {
                cycles.push(&swap);
                board = knotted(&goal, &cycles);
            }
            assert!(Parity::of(&board, &goal).solvable(), "{w}x{h}");
            let path = finish(&board, &goal, &meter).expect("mended");
            let mut end = board.clone();
            end.apply_all(&Moves(path)).unwrap();
            assert_eq!(end, goal, "{w}x{h}");
        }
    }

    /// Four swaps on 32x32: the first (in the board's order) is nearest the second, and
    /// pairing those two first leaves the other two 29 columns and 16 rows apart, a box of
    /// 589 cells, which the pass declined. Paired across, the boxes are 52 and 360 cells.
    #[test]
    fn odd_knots_are_paired_so_that_their_boxes_stay_small() {
        let goal = Goal::BlankLast.board(Size::new(32, 32).unwrap()).unwrap();
        let swaps: [&[(usize, usize)]; 4] = [
            &[(10, 12), (11, 12)],
            &[(14, 12), (15, 12)],
            &[(0, 13), (1, 13)],
            &[(28, 29), (29, 29)],
        ];
        let board = knotted(&goal, &swaps);
        assert!(Parity::of(&board, &goal).solvable());
        let path = finish(&board, &goal, &Meter::unlimited()).expect("mended");
        let mut end = board.clone();
        end.apply_all(&Moves(path)).unwrap();
        assert_eq!(end, goal);
    }

    /// The box of two swaps far apart (an odd pair, 36 cells): too big for IDA*, so the
    /// reduction solver's path, which the windows make shorter.
    #[test]
    fn a_big_box_is_solved_shorter_than_by_the_reduction_solver() {
        let goal = Goal::BlankLast.board(Size::new(12, 3).unwrap()).unwrap();
        let board = knotted(&goal, &[&[(1, 1), (2, 1)], &[(9, 0), (10, 0)]]);
        assert!(Parity::of(&board, &goal).solvable());
        let path = solve_box(&board, &goal, &Meter::unlimited()).expect("solved");
        replays_shorter(&board, &goal, &path, "two swaps far apart");
    }

    /// More than a quarter of the tiles out of place, all in small knots (a beam on 32x32
    /// that stalled in a narrow end game): mended, not declined.
    #[test]
    fn many_small_knots_are_mended() {
        let goal = Goal::BlankLast.board(Size::new(32, 32).unwrap()).unwrap();
        // A turned 2x2 block (three tiles in a cycle) every third column and row, 110 of
        // them: 330 tiles out of place of 1,024.
        let knots: Vec<[(usize, usize); 3]> = (0..10)
            .flat_map(|j| (0..11).map(move |i| (3 * i, 3 * j)))
            .map(|(x, y)| [(x, y), (x + 1, y), (x + 1, y + 1)])
            .collect();
        let cycles: Vec<&[(usize, usize)]> = knots.iter().map(|k| &k[..]).collect();
        let board = knotted(&goal, &cycles);
        let misplaced = board.tiles().iter().zip(goal.tiles()).filter(|(a, b)| a != b).count();
        assert_eq!(misplaced, 330);
        let path = finish(&board, &goal, &Meter::unlimited()).expect("mended");
        replays_shorter(&board, &goal, &path, "110 turned blocks");
    }

    /// A board far from solved makes a box too large, and the pass declines.
    #[test]
    fn a_scrambled_board_is_declined() {
        let goal = Goal::BlankLast.board(Size::new(30, 30).unwrap()).unwrap();
        let board = npuzzle_core::Scrambler::new(3).solvable(&goal);
        assert_eq!(finish(&board, &goal, &Meter::unlimited()), None);
    }
}
