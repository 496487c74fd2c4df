//! Shortening a path a stretch at a time: IDA* between the two ends of each window.
//!
//! A stretch of `k` moves of a solution joins two positions, `a` and `b`. IDA* (Korf 1985)
//! with Manhattan + linear conflict towards `b` finds the shortest path between them when
//! one exists below `k`, within a node budget; a shorter one is spliced in and the rest of
//! the path is untouched (it starts from `b` as before). Windows slide along the path by
//! half their length, and grow from pass to pass: the short ones are cheap and clear the
//! obvious detours, the long ones find the rearrangements a greedy search misses. The
//! reduction solver's peephole pass does the same with exact tables on small windows of
//! cells; this works on windows of time, whatever the board.
//!
//! The same IDA* run from the root towards the goal, with a node budget, proves lower
//! bounds: every threshold it exhausts without reaching the goal is a bound plus 2 (all
//! paths between two positions have the parity of the Manhattan distance).

use npuzzle_core::{Board, Move};

use super::Meter;
use super::beam::Zobrist;
use super::heuristic::{Evaluator, Neighbours};

/// How an IDA* run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A shortest path (the shortest below the length it was asked to beat).
    Found(Vec<Move>),
    /// No shorter path found: the smallest length not ruled out, a proven lower bound on
    /// the distance.
    Bound(u32),
}

/// IDA* between two positions with a node budget.
pub(crate) struct Ida<'a> {
    eval: Evaluator,
    next: &'a Neighbours,
    tiles: Vec<u16>,
    path: Vec<u8>,
    nodes: u64,
    cap: u64,
}

impl<'a> Ida<'a> {
    /// IDA* from `start` towards `goal`.
    pub(crate) fn new(start: &Board, goal: &Board, next: &'a Neighbours) -> Ida<'a> {
        Ida {
            eval: Evaluator::new(goal),
            next,
            tiles: start.tiles().to_vec(),
            path: Vec::new(),
            nodes: 0,
            cap: 0,
        }
    }

    /// Searches for a path shorter than `below` moves, expanding at most `cap` nodes and
    /// no more than the node limit leaves (`meter` is asked every 65,536 nodes, and counts
    /// them). With no such path, or when the budget runs out, the proven bound.
    pub(crate) fn run(&mut self, below: u32, cap: u64, meter: &Meter) -> Outcome {
        let outcome = self.iterate(below, cap.min(meter.remaining()), meter);
        meter.add(self.nodes & 0xFFFF);
        outcome
    }

    fn iterate(&mut self, below: u32, cap: u64, meter: &Meter) -> Outcome {
        let h = self.eval.value(&self.tiles);
        let blank = self.tiles.iter().position(|&t| t == 0).unwrap_or(0);
        self.cap = cap;
        self.nodes = 0;
        let mut threshold = h;
        while threshold < below {
            self.path.clear();
            match self.dfs(0, h, blank, u8::MAX, threshold, meter) {
                Some(true) => {
                    return Outcome::Found(
                        self.path.iter().map(|&m| Move::ALL[usize::from(m)]).collect(),
                    );
                }
                Some(false) => threshold += 2,
                None => return Outcome::Bound(threshold),
            }
        }
        Outcome::Bound(threshold)
    }

    /// Depth-first search under `threshold`: `Some(true)` found (the path is in
    /// `self.path`), `Some(false)` exhausted, `None` out of budget.
    fn dfs(
        &mut self,
        g: u32,
        h: u32,
        blank: usize,
        last: u8,
        threshold: u32,
        meter: &Meter,
    ) -> Option<bool> {
        if h == 0 {
            return Some(true);
        }
        if self.nodes == self.cap {
            return None;
        }
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0 {
            meter.add(0x1_0000);
            if meter.stop() {
                return None;
            }
        }
        for m in 0..4u8 {
            if last != u8::MAX && Move::ALL[usize::from(last)].inverse().index() == usize::from(m) {
                continue;
            }
            let Some(from) = self.next.of(blank, usize::from(m)) else { continue };
            let child = self.eval.slide(&mut self.tiles, blank, from, h);
            if g + 1 + child <= threshold {
                self.path.push(m);
                match self.dfs(g + 1, child, from, m, threshold, meter) {
                    Some(false) => {}
                    other => {
                        if other.is_none() {
                            self.tiles.swap(from, blank);
                        }
                        return other;
                    }
                }
                self.path.pop();
            }
            self.tiles.swap(from, blank);
        }
        Some(false)
    }
}

/// Cuts every loop out of `moves` from `start`: when a position comes back, the moves
/// between its two visits go.
pub(crate) fn drop_loops(start: &Board, moves: &mut Vec<Move>) {
    let zobrist = Zobrist::new(start.tiles().len());
    let mut board = start.clone();
    let mut hashes = vec![zobrist.hash(board.tiles())];
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    let mut index = std::collections::HashMap::<u64, usize>::new();
    index.insert(hashes[0], 0);
    let mut h = hashes[0];
    for &m in moves.iter() {
        let blank = board.blank();
        if board.apply(m).is_err() {
            return;
        }
        // The tile now on the blank's old cell came from its new one.
        h = zobrist.moved(h, board.tiles()[blank], board.blank(), blank);
        if let Some(&at) = index.get(&h) {
            // Back at the position after `at` moves: forget what came since.
            for gone in hashes.drain(at + 1..) {
                index.remove(&gone);
            }
            kept.truncate(at);
        } else {
            kept.push(m);
            hashes.push(h);
            index.insert(h, kept.len());
        }
    }
    *moves = kept;
}

/// Slides a window of `window` moves over `moves` (a path from `start`) by half its length,
/// and splices in what `shorten` finds between the window's two ends (a path of the
/// window's length or shorter; only a shorter one changes anything). Stops between windows
/// when `stop` says so, with a valid path. Returns how many moves it saved.
fn slide(
    start: &Board,
    moves: &mut Vec<Move>,
    window: usize,
    mut stop: impl FnMut() -> bool,
    mut shorten: impl FnMut(&Board, &Board, usize) -> Option<Vec<Move>>,
) -> usize {
    let before = moves.len();
    let stride = (window / 2).max(1);
    let mut at = start.clone();
    let mut i = 0;
    while i + 2 <= moves.len() {
        if stop() {
            break;
        }
        let j = (i + window).min(moves.len());
        let mut end = at.clone();
        for &m in &moves[i..j] {
            // The path replays: every splice is a path between the same two positions.
            let _ = end.apply(m);
        }
        let last = j == moves.len();
        if let Some(better) = shorten(&at, &end, j - i) {
            if better.len() < j - i {
                moves.splice(i..j, better);
            }
        }
        if last {
            break;
        }
        let step = stride.min(moves.len() - i);
        for &m in &moves[i..i + step] {
            let _ = at.apply(m);
        }
        i += step;
    }
    before - moves.len()
}

/// One pass of windows of `window` moves over `moves` (a path from `start`), each searched
/// with at most `cap` nodes. Returns how many moves it saved; stops early (with a valid
/// path) when `meter` says so, or between windows at `until`.
pub(crate) fn pass(
    start: &Board,
    moves: &mut Vec<Move>,
    window: usize,
    cap: u64,
    meter: &Meter,
    until: Option<std::time::Instant>,
) -> usize {
    let next = Neighbours::new(start.width(), start.height());
    slide(
        start,
        moves,
        window,
        || meter.stop() || until.is_some_and(|t| std::time::Instant::now() >= t),
        |at, end, len| match Ida::new(at, end, &next).run(len as u32, cap, meter) {
            Outcome::Found(better) => Some(better),
            _ => None,
        },
    )
}

/// One pass of beam searches of `width` over windows of `window` moves of `moves` (a path
/// from `start`): between the two ends of a window, a beam reaches a shorter path more often
/// than far from the goal, as the heuristic towards a near position is much closer to the
/// truth. Stops between windows at `until`. Returns how many moves it saved.
pub(crate) fn rebeam(
    start: &Board,
    moves: &mut Vec<Move>,
    window: usize,
    width: usize,
    threads: usize,
    meter: &Meter,
    until: Option<std::time::Instant>,
) -> usize {
    let mut seed = 7;
    let stop = || meter.stop() || until.is_some_and(|t| std::time::Instant::now() >= t);
    slide(start, moves, window, stop, |at, end, len| {
        seed += 1;
        super::beam::reach(
            at,
            end,
            width,
            seed,
            len - 1,
            threads,
            meter,
            super::beam::Weights::BEST,
        )
        .goal()
    })
}

/// Re-solves windows of `moves` optimally over `tables` (Korf & Felner's on 5x5): a window
/// may end on any position of the path with its blank where a symmetry of the board takes
/// the tables' goal blank ([`Tables::for_goal`]; a corner for a corner goal), the goal
/// itself among them.
/// For each length in `windows`, the windows ending on such positions, from the end of the
/// path back, are searched between their ends with `nodes` expansions each, on `threads`
/// threads; a shorter stretch is spliced in and the scan starts again. Stops at `deadline`
/// or when `meter` says so.
#[expect(
    clippy::too_many_arguments,
    reason = "the pass's own knobs, each a plain value, named by its one caller"
)]
pub(crate) fn table_pass(
    start: &Board,
    moves: &mut Vec<Move>,
    tables: &crate::engine::twentyfour::Tables,
    windows: &[usize],
    nodes: u64,
    threads: usize,
    meter: &Meter,
    deadline: std::time::Instant,
) {
    use crate::engine::twentyfour::{self, Config};
    let corner = |b: &Board| {
        let (x, y) = b.blank_xy();
        (x == 0 || x + 1 == b.width()) && (y == 0 || y + 1 == b.height())
    };
    let out_of_time = || meter.stop() || std::time::Instant::now() >= deadline;
    let config = Config { threads: threads.max(1), ..Config::default() };
    for &window in windows {
        'scan: loop {
            let mut positions = Vec::with_capacity(moves.len() + 1);
            positions.push(start.clone());
            for &m in moves.iter() {
                let mut next = positions[positions.len() - 1].clone();
                if next.apply(m).is_err() {
                    return;
                }
                positions.push(next);
            }
            for k in (2..=moves.len()).rev() {
                if out_of_time() {
                    return;
                }
                let i = k.saturating_sub(window);
                if !corner(&positions[k]) || k - i < 12 {
                    continue;
                }
                let Ok(tables) = tables.for_goal(&positions[k]) else {
                    continue;
                };
                let limits = crate::Limits {
                    max_nodes: Some(nodes.min(meter.remaining())),
                    max_memory: None,
                    timeout: Some(deadline.saturating_duration_since(std::time::Instant::now())),
                    cancel: meter.cancel_flag(),
                };
                let Ok(s) = twentyfour::solve(&tables, &positions[i], &limits, &config, None)
                else {
                    continue;
                };
                meter.add(s.stats.expanded);
                if s.status == crate::Status::Solved && s.moves.len() < k - i {
                    let mut spliced = moves[..i].to_vec();
                    spliced.extend_from_slice(&s.moves.0);
                    spliced.extend_from_slice(&moves[k..]);
                    *moves = spliced;
                    continue 'scan;
                }
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Moves, Scrambler, Size};

    #[test]
    fn ida_finds_the_optimum_on_small_boards() {
        let goal = Goal::BlankLast.board(Size::new(3, 3).unwrap()).unwrap();
        let next = Neighbours::new(3, 3);
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let mut ida = Ida::new(&board, &goal, &next);
        let Outcome::Found(path) = ida.run(100, u64::MAX, &Meter::unlimited()) else {
            panic!("found")
        };
        assert_eq!(path.len(), 31);
        let mut ida = Ida::new(&board, &goal, &next);
        assert_eq!(ida.run(31, u64::MAX, &Meter::unlimited()), Outcome::Bound(31));
    }

    #[test]
    fn windows_and_loops_keep_the_path_valid_and_never_longer() {
        let goal = Goal::BlankLast.board(Size::new(5, 5).unwrap()).unwrap();
        let mut saved = 0;
        for seed in 0..4 {
            let mut s = Scrambler::new(seed);
            let board = s.solvable(&goal);
            let mut moves = super::super::beam::reach(
                &board,
                &goal,
                20,
                seed,
                10_000,
                1,
                &Meter::unlimited(),
                super::super::beam::Weights::BEST,
            )
            .goal()
            .unwrap();
            let first = moves.len();
            drop_loops(&board, &mut moves);
            // A pass past its `until` changes nothing.
            let looped = moves.clone();
            let now = Some(std::time::Instant::now());
            assert_eq!(pass(&board, &mut moves, 8, 50_000, &Meter::unlimited(), now), 0);
            assert_eq!(moves, looped);
            for window in [8, 16, 24] {
                saved += pass(&board, &mut moves, window, 50_000, &Meter::unlimited(), None);
            }
            let windowed = moves.len();
            for window in [30, 60] {
                rebeam(&board, &mut moves, window, 100, 1, &Meter::unlimited(), None);
            }
            assert!(moves.len() <= windowed);
            assert!(moves.len() <= first);
            let mut end = board.clone();
            end.apply_all(&Moves(moves)).unwrap();
            assert_eq!(end, goal);
        }
        // The windows had something to shorten, so the pass stopped by `until` did stop.
        assert!(saved > 0);
    }
}
