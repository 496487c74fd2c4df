//! The reduction proper: peel whole outer lines (rows or columns) off the unsolved region,
//! one at a time, until at most 3x3 cells remain, then finish those with the exact table.

use std::sync::Arc;

use npuzzle_core::{Board, Move, Size};

use super::grid::{Grid, Scratch, Stuck, clamp_costs, dist};
use super::rng::SplitMix;
use crate::relabel::canonical_tiles;
use crate::tables::SolverTables;

/// A side of the unsolved region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// The order in which a line's tiles are placed. The last two are always placed together
/// with the classic trick (see [`Reducer::place_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fill {
    /// From the line's start (left or top end) to its end; the pair goes at the end.
    Forward,
    /// From the end back to the start; the pair goes at the start.
    Backward,
    /// From both ends, each time the end whose tile looks cheaper to bring; the pair goes
    /// where the two fronts meet.
    Cheapest,
}

/// How a reduction chooses among its options.
#[derive(Clone, Copy, Debug)]
pub(super) struct Strategy {
    /// Pick the side to peel at random among the allowed ones (else: keep the region
    /// square, peel away from the goal blank).
    pub(super) random_sides: bool,
    /// Fill order; `None` picks one at random for each line.
    pub(super) fill: Option<Fill>,
    /// Break ties between equally good tile steps at random.
    pub(super) random_ties: bool,
    /// The blank's step costs (see [`Grid::blank_path`]); `(1, 1)` for shortest walks.
    pub(super) costs: (u32, u32),
    /// Finish on a 3x3 region rather than a 3x2 or 2x3 one.
    pub(super) big_finish: bool,
    /// The blank's step costs for the tiles of the line being placed and of the next
    /// `hot_lines - 1` lines (see [`Grid::heat`]); `hot_lines == 0`: no tile is hot.
    pub(super) hot_costs: (u32, u32),
    /// How many lines, from the one being placed inwards, have hot tiles.
    pub(super) hot_lines: usize,
    /// [`Fill::Cheapest`] tries both ends of the line and keeps the one that costs less
    /// (see [`Reducer::trial`]), rather than trusting [`Reducer::estimate`]: about 1 %
    /// shorter, twice the time.
    pub(super) trials: bool,
    /// Plan each carried tile's route (see [`Grid::plan_route`](super::grid::Grid)).
    pub(super) plan_routes: bool,
}

impl Strategy {
    /// The deterministic default.
    pub(super) const PLAIN: Strategy = Strategy {
        random_sides: false,
        fill: Some(Fill::Cheapest),
        random_ties: false,
        costs: (1, 10),
        big_finish: false,
        hot_costs: HOT_COSTS,
        hot_lines: 2,
        trials: false,
        plan_routes: true,
    };
}

/// The hot tiles' step costs of [`Strategy::PLAIN`]. Measured with the `reduction_quality`
/// example on 20 seeded 32x32 boards (median ratio to Manhattan of the plain solve): no hot
/// tiles 2.645; the line's and the next line's tiles at (1, 20) 2.569, at (1, 15) 2.574,
/// (1, 31) 2.578, (2, 31) 2.600; one line at (1, 31) 2.592; three lines at (1, 25) 2.568;
/// the other tiles' costs (1, 6) or (2, 10) instead of (1, 10) with hot ones 2.60 to 2.64.
/// 64x64: 2.776 -> 2.707, 100x100: 2.856 -> 2.772 (3 boards each).
pub(super) const HOT_COSTS: (u32, u32) = (1, 20);

/// In [`Reducer::trial`], what a unit of Manhattan distance taken off is worth in moves
/// (the trials at 0, 1, 2, 2.6, 3.5 gave 2.568, 2.556, 2.535, 2.558 and 2.573 on 8 boards).
const TRIAL_WORTH: f64 = 2.0;

/// The unsolved region: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy, Debug)]
struct Region {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// What the goal looks like, shared by all the reductions of one board.
pub(super) struct GoalInfo {
    /// Goal tile at each cell.
    cells: Vec<u16>,
    /// Goal cell of each tile.
    pos: Arc<[u32]>,
    /// Where the exact tables of the finishing region come from.
    pub(super) tables: Arc<SolverTables>,
}

impl GoalInfo {
    pub(super) fn new(goal: &Board, tables: Arc<SolverTables>) -> GoalInfo {
        GoalInfo {
            cells: goal.tiles().to_vec(),
            pos: goal.positions().iter().map(|&p| p as u32).collect(),
            tables,
        }
    }
}

/// A reduction in progress: the board, the region still to solve, the moves made.
#[derive(Clone)]
pub(super) struct Reducer {
    pub(super) grid: Grid,
    goal: Arc<GoalInfo>,
    region: Region,
    /// Finish on a 3x3 region (else on at most 6 cells, whose tables are built in
    /// microseconds where a 3x3 table takes tens of milliseconds).
    big_finish: bool,
    /// As [`Strategy::hot_lines`].
    hot_lines: usize,
    /// As [`Strategy::trials`].
    pub(super) trials: bool,
}

impl Reducer {
    pub(super) fn new(board: &Board, goal: Arc<GoalInfo>, strategy: &Strategy) -> Reducer {
        let (w, h) = (board.width(), board.height());
        let mut grid = Grid::new(w, h, board.tiles(), Arc::clone(&goal.pos), strategy.costs);
        grid.hot_costs = clamp_costs(strategy.hot_costs);
        grid.plan_routes = strategy.plan_routes;
        // A board of at most 3x3 is solved by the table at once.
        let big_finish = strategy.big_finish || (w <= 3 && h <= 3);
        Reducer {
            grid,
            goal,
            region: Region { x0: 0, y0: 0, x1: w, y1: h },
            big_finish,
            hot_lines: strategy.hot_lines,
            trials: strategy.trials,
        }
    }

    fn goal_blank_xy(&self) -> (usize, usize) {
        let b = self.goal.pos[0] as usize;
        (b % self.grid.w, b / self.grid.w)
    }

    /// The Manhattan distance of the tiles still in the region (all tiles not yet locked).
    pub(super) fn region_manhattan(&self) -> usize {
        let r = self.region;
        let w = self.grid.w;
        let mut sum = 0;
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let t = self.grid.cells[y * w + x];
                if t != 0 {
                    sum += dist(w, y * w + x, self.goal.pos[usize::from(t)] as usize);
                }
            }
        }
        sum
    }

    /// Whether the region is small enough for the exact table: at most 3x3 when
    /// `big_finish`, at most 6 cells (3x2, 2x3 or 2x2) otherwise.
    pub(super) fn is_small(&self) -> bool {
        let (rw, rh) = self.region_size();
        rw <= 3 && rh <= 3 && (self.big_finish || rw * rh <= 6)
    }

    fn region_size(&self) -> (usize, usize) {
        let r = self.region;
        (r.x1 - r.x0, r.y1 - r.y0)
    }

    /// Whether rows (else columns) may be peeled: the region is more than 3 high, or
    /// 3x3 and to be reduced further.
    fn can_peel(&self, rows: bool) -> bool {
        let (rw, rh) = self.region_size();
        let (across, along) = if rows { (rh, rw) } else { (rw, rh) };
        across > 3 || (across == 3 && along == 3 && !self.big_finish)
    }

    /// The sides that may be peeled now (see [`Reducer::can_peel`]), never one holding the
    /// goal blank's cell, so that the final region holds it.
    pub(super) fn sides(&self) -> Vec<Side> {
        let r = self.region;
        let (gx, gy) = self.goal_blank_xy();
        let mut out = Vec::with_capacity(4);
        if self.can_peel(true) {
            if gy != r.y0 {
                out.push(Side::Top);
            }
            if gy != r.y1 - 1 {
                out.push(Side::Bottom);
            }
        }
        if self.can_peel(false) {
            if gx != r.x0 {
                out.push(Side::Left);
            }
            if gx != r.x1 - 1 {
                out.push(Side::Right);
            }
        }
        out
    }

    /// The usual choice: keep the region square (peel rows while it is at least as tall as
    /// wide), and peel the side farther from the goal blank.
    pub(super) fn default_side(&self) -> Side {
        let r = self.region;
        let (gx, gy) = self.goal_blank_xy();
        let (rw, rh) = self.region_size();
        let rows = self.can_peel(true) && (rh >= rw || !self.can_peel(false));
        if rows {
            if gy - r.y0 >= r.y1 - 1 - gy { Side::Top } else { Side::Bottom }
        } else if gx - r.x0 >= r.x1 - 1 - gx {
            Side::Left
        } else {
            Side::Right
        }
    }

    /// The cells of the line on `side`, left to right or top to bottom, and the step from a
    /// line cell to its neighbour inside the region.
    fn line(&self, side: Side) -> (Vec<usize>, isize) {
        let r = self.region;
        let w = self.grid.w;
        match side {
            Side::Top => ((r.x0..r.x1).map(|x| r.y0 * w + x).collect(), w as isize),
            Side::Bottom => ((r.x0..r.x1).map(|x| (r.y1 - 1) * w + x).collect(), -(w as isize)),
            Side::Left => ((r.y0..r.y1).map(|y| y * w + r.x0).collect(), 1),
            Side::Right => ((r.y0..r.y1).map(|y| y * w + r.x1 - 1).collect(), -1),
        }
    }

    /// A rough cost of bringing the goal tile of `cell` home: the blank's walk to it and
    /// about four moves per cell it travels.
    fn estimate(&self, cell: usize) -> usize {
        let g = &self.grid;
        let p = g.tile_cell(self.goal.cells[cell]);
        dist(g.w, g.blank(), p) + 4 * dist(g.w, p, cell)
    }

    /// What bringing the goal tile of `cell` home costs from here: the moves made less
    /// [`TRIAL_WORTH`] times the Manhattan distance they take off the board (infinite when
    /// it fails). The moves are taken back.
    fn trial(&mut self, s: &mut Scratch, cell: usize) -> f64 {
        let len = self.grid.moves.len();
        let tile = self.goal.cells[cell];
        let done = self.grid.move_tile(s, tile, cell, &|_| false, None);
        let made = self.grid.moves.len() - len;
        let taken = self.grid.undo_to(len);
        match done {
            Ok(()) => made as f64 - TRIAL_WORTH * taken as f64,
            Err(Stuck) => f64::INFINITY,
        }
    }

    /// Heats the goal tiles of the line `line` and of the `hot_lines - 1` lines inward of
    /// it that are in the region (see [`Grid::heat`]).
    fn heat(&mut self, line: &[usize], inward: isize) {
        let mut tiles = Vec::with_capacity(line.len() * self.hot_lines);
        let (rw, rh) = self.region_size();
        let across = if inward.unsigned_abs() == 1 { rw } else { rh };
        for k in 0..self.hot_lines.min(across) {
            // Within the region: k < its extent across the line.
            let shift = k as isize * inward;
            tiles.extend(line.iter().map(|&c| self.goal.cells[c.wrapping_add_signed(shift)]));
        }
        tiles.retain(|&t| t != 0);
        self.grid.heat(&tiles);
    }

    /// Places the whole line on `side` and takes it out of the region.
    pub(super) fn peel(
        &mut self,
        s: &mut Scratch,
        side: Side,
        fill: Fill,
        mut rng: Option<&mut SplitMix>,
    ) -> Result<(), Stuck> {
        let (line, inward) = self.line(side);
        self.heat(&line, inward);
        let (mut lo, mut hi) = (0, line.len());
        while hi - lo > 2 {
            let take_lo = match fill {
                Fill::Forward => true,
                Fill::Backward => false,
                Fill::Cheapest if self.trials => {
                    let (a, b) = (self.trial(s, line[lo]), self.trial(s, line[hi - 1]));
                    a < b || (a == b && rng.as_mut().is_none_or(|r| r.coin()))
                }
                Fill::Cheapest => {
                    let (a, b) = (self.estimate(line[lo]), self.estimate(line[hi - 1]));
                    a < b || (a == b && rng.as_mut().is_none_or(|r| r.coin()))
                }
            };
            let cell = if take_lo { line[lo] } else { line[hi - 1] };
            let tile = self.goal.cells[cell];
            self.grid.move_tile(s, tile, cell, &|_| false, rng.as_deref_mut())?;
            self.grid.locked[cell] = true;
            if take_lo {
                lo += 1;
            } else {
                hi -= 1;
            }
        }
        self.place_pair(s, &line, lo, inward, rng)?;
        for &c in &line {
            self.grid.locked[c] = true;
        }
        let r = &mut self.region;
        match side {
            Side::Top => r.y0 += 1,
            Side::Bottom => r.y1 -= 1,
            Side::Left => r.x0 += 1,
            Side::Right => r.x1 -= 1,
        }
        Ok(())
    }

    /// Places the goal tiles of `line[at]` and `line[at + 1]`, the last free cells of the
    /// line. One at a time would not do: once the first is home, the second can only come in
    /// by pushing the first out. The classic trick parks them side by side just inside the
    /// line and rotates them in; here both tiles are first brought into a small window at
    /// that end of the line, and a breadth-first search over (tile, tile, blank) inside the
    /// window finds the shortest finish, trapped second tile included.
    fn place_pair(
        &mut self,
        s: &mut Scratch,
        line: &[usize],
        at: usize,
        inward: isize,
        mut rng: Option<&mut SplitMix>,
    ) -> Result<(), Stuck> {
        let (a, b) = (line[at], line[at + 1]);
        let (ta, tb) = (self.goal.cells[a], self.goal.cells[b]);
        for depth in [2usize, 3, 3] {
            let window = self.pair_window(line, at, inward, depth);
            let mut near = window.clone();
            for &c in &window {
                for n in self.grid.neighbours(c) {
                    if n != usize::MAX && !self.grid.locked[n] && !near.contains(&n) {
                        near.push(n);
                    }
                }
            }
            let inside = |c: usize| window.contains(&c);
            let close = |c: usize| near.contains(&c);
            let nearest = |g: &Grid, from: usize, not: usize| {
                window
                    .iter()
                    .copied()
                    .filter(|&c| c != not)
                    .min_by_key(|&c| dist(g.w, from, c))
                    .unwrap_or(a)
            };
            let pb = self.grid.tile_cell(tb);
            if !inside(pb) {
                let to = nearest(&self.grid, pb, usize::MAX);
                self.grid.move_tile(s, tb, to, &inside, rng.as_deref_mut())?;
            }
            let pa = self.grid.tile_cell(ta);
            if !close(pa) {
                let pb = self.grid.tile_cell(tb);
                let to = nearest(&self.grid, pa, pb);
                self.grid.locked[pb] = true;
                let held = self.grid.move_tile(s, ta, to, &close, rng.as_deref_mut());
                self.grid.locked[pb] = false;
                if held.is_err() {
                    self.grid.move_tile(s, ta, to, &close, rng.as_deref_mut())?;
                }
            }
            let (pa, pb) = (self.grid.tile_cell(ta), self.grid.tile_cell(tb));
            if !close(pa) || !close(pb) {
                continue;
            }
            let blank = self.grid.blank();
            if !close(blank) {
                let to = near
                    .iter()
                    .copied()
                    .filter(|&c| c != pa && c != pb)
                    .min_by_key(|&c| dist(self.grid.w, blank, c))
                    .ok_or(Stuck)?;
                // In a narrow region the two tiles may wall the blank off; then the search
                // below takes the blank's corner in.
                let _ = self.grid.route_blank(s, to, &[pa, pb]);
            }
            // The tiles and the blank are in or next to the window: search the smallest box
            // holding all of it.
            let mut cells = window.clone();
            cells.extend([pa, pb, self.grid.blank()]);
            let search = self.grid.window_around(&cells, 0);
            if search.len() > 64 {
                continue;
            }
            if self
                .grid
                .window_search(s, &search, &[ta, tb], &|at| at[0] == a && at[1] == b)
                .is_ok()
            {
                return Ok(());
            }
        }
        Err(Stuck)
    }

    /// The unlocked cells of the region within `depth` of the line, from one cell before
    /// the pair to one after it.
    fn pair_window(&self, line: &[usize], at: usize, inward: isize, depth: usize) -> Vec<usize> {
        let (rw, rh) = self.region_size();
        let across = if inward.unsigned_abs() == 1 { rw } else { rh };
        let depth = depth.min(across - 1);
        let mut out = Vec::with_capacity(4 * (depth + 1));
        for &c in &line[at.saturating_sub(1)..(at + 3).min(line.len())] {
            for d in 0..=depth {
                // Within the region, by the clamp on `depth`.
                let cell = c.wrapping_add_signed(d as isize * inward);
                if cell < self.grid.cells.len() && !self.grid.locked[cell] {
                    out.push(cell);
                }
            }
        }
        out
    }

    /// Solves the final region (at most 3x3, holding the goal blank's cell) optimally.
    pub(super) fn finish(&mut self) -> Result<(), Stuck> {
        let (board, goal_board) = self.region_boards()?;
        let table = self.goal.tables.exact(&goal_board).ok_or(Stuck)?;
        let moves = table.solve(&board).ok_or(Stuck)?;
        for &m in moves.as_slice() {
            self.grid.apply(m)?;
        }
        Ok(())
    }

    /// The region left as a board of its own and its goal, each tile renamed after its
    /// goal cell's rank among the region's; `Stuck` when a tile of the region belongs
    /// outside it. A move there is the same move on the board.
    fn region_boards(&self) -> Result<(Board, Board), Stuck> {
        let r = self.region;
        let (rw, rh) = (r.x1 - r.x0, r.y1 - r.y0);
        let size = Size::new(rw, rh).map_err(|_| Stuck)?;
        let w = self.grid.w;
        let cells: Vec<usize> =
            (r.y0..r.y1).flat_map(|y| (r.x0..r.x1).map(move |x| y * w + x)).collect();
        let goal_tiles: Vec<u16> = cells.iter().map(|&c| self.goal.cells[c]).collect();
        let goal_small = canonical_tiles(&goal_tiles);
        let mut now = Vec::with_capacity(cells.len());
        for &c in &cells {
            let t = self.grid.cells[c];
            let home = self.goal.pos[usize::from(t)] as usize;
            let (hx, hy) = (home % w, home / w);
            if !(r.x0..r.x1).contains(&hx) || !(r.y0..r.y1).contains(&hy) {
                return Err(Stuck);
            }
            now.push(goal_small[(hy - r.y0) * rw + hx - r.x0]);
        }
        let goal_board = Board::new(size, goal_small).map_err(|_| Stuck)?;
        let board = Board::new(size, now).map_err(|_| Stuck)?;
        Ok((board, goal_board))
    }
}

/// Runs a whole reduction. `interrupted` is polled between lines.
pub(super) fn reduce(
    board: &Board,
    goal: &Arc<GoalInfo>,
    strategy: Strategy,
    rng: &mut SplitMix,
    interrupted: &dyn Fn() -> bool,
) -> Result<Vec<Move>, Failure> {
    let mut r = Reducer::new(board, Arc::clone(goal), &strategy);
    let mut s = Scratch::new(board.tiles().len());
    while !r.is_small() {
        peel_one(&mut r, &mut s, &strategy, rng, interrupted)?;
    }
    r.finish()?;
    Ok(r.grid.moves)
}

/// Runs a reduction until the region left has at most `cells` cells: its moves, and that
/// region as a board of its own and its goal (`Reducer::region_boards`).
pub(super) fn reduce_to(
    board: &Board,
    goal: &Arc<GoalInfo>,
    cells: usize,
    interrupted: &dyn Fn() -> bool,
) -> Result<(Vec<Move>, Board, Board), Failure> {
    let strategy = Strategy::PLAIN;
    let mut rng = SplitMix::new(0);
    let mut r = Reducer::new(board, Arc::clone(goal), &strategy);
    let mut s = Scratch::new(board.tiles().len());
    while !r.is_small() && r.region_size().0 * r.region_size().1 > cells {
        peel_one(&mut r, &mut s, &strategy, &mut rng, interrupted)?;
    }
    let (region, region_goal) = r.region_boards()?;
    Ok((r.grid.moves, region, region_goal))
}

/// Peels one line off the region, as `strategy` says.
fn peel_one(
    r: &mut Reducer,
    s: &mut Scratch,
    strategy: &Strategy,
    rng: &mut SplitMix,
    interrupted: &dyn Fn() -> bool,
) -> Result<(), Failure> {
    if interrupted() {
        return Err(Failure::Interrupted);
    }
    let side = if strategy.random_sides {
        let sides = r.sides();
        sides.get(rng.below(sides.len())).copied().unwrap_or_else(|| r.default_side())
    } else {
        r.default_side()
    };
    let fill = strategy.fill.unwrap_or_else(|| match rng.below(4) {
        0 => Fill::Forward,
        1 => Fill::Backward,
        _ => Fill::Cheapest,
    });
    let ties = if strategy.random_ties { Some(&mut *rng) } else { None };
    r.peel(s, side, fill, ties)?;
    Ok(())
}

/// Why a reduction did not produce a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Failure {
    /// The budget ran out.
    Interrupted,
    /// A step found no way forward (a bug).
    Stuck,
}

impl From<Stuck> for Failure {
    fn from(_: Stuck) -> Failure {
        Failure::Stuck
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler};

    /// A trial takes its moves back: the board and the moves are as before it, and the
    /// Manhattan distance it reports taken off is the one its moves took off.
    #[test]
    fn trials_leave_no_trace() {
        let size = Size::new(9, 7).unwrap();
        let g = Goal::Snail.board(size).unwrap();
        let info = Arc::new(GoalInfo::new(&g, Arc::default()));
        let mut sc = Scrambler::new(5);
        for _ in 0..10 {
            let b = sc.solvable(&g);
            let strategy = Strategy { trials: true, ..Strategy::PLAIN };
            let mut r = Reducer::new(&b, Arc::clone(&info), &strategy);
            let mut s = Scratch::new(b.tiles().len());
            while !r.is_small() {
                let (line, _) = r.line(r.default_side());
                let (cells, moves) = (r.grid.cells.clone(), r.grid.moves.clone());
                let md = |cells: &[u16]| {
                    let now = Board::new(size, cells.to_vec()).unwrap();
                    crate::engine::reduction::manhattan_lower_bound(&now, &g) as i64
                };
                for &c in &line {
                    // The trial's moves, made again and measured from outside.
                    let len = r.grid.moves.len();
                    r.grid.move_tile(&mut s, info.cells[c], c, &|_| false, None).unwrap();
                    let after = md(&r.grid.cells);
                    assert_eq!(r.grid.undo_to(len), md(&cells) - after);
                    assert_eq!((&r.grid.cells, &r.grid.moves), (&cells, &moves));
                    r.trial(&mut s, c);
                    assert_eq!((&r.grid.cells, &r.grid.moves), (&cells, &moves));
                }
                r.peel(&mut s, r.default_side(), Fill::Cheapest, None).unwrap();
            }
        }
    }

    /// Every combination of choices (sides, fill orders, tie-breaking, blank costs, final
    /// region) on every small shape and goal: the raw reduction always reaches the goal.
    #[test]
    fn random_strategies_always_finish() {
        let mut sc = Scrambler::new(11);
        let mut count = 0;
        for w in 2..=9 {
            for h in 2..=9 {
                let size = Size::new(w, h).unwrap();
                let mut goals = vec![Goal::BlankLast, Goal::BlankFirst, Goal::Snail];
                let rg = sc.solvable(&Goal::BlankLast.board(size).unwrap());
                goals.push(Goal::Board(rg));
                for goal in goals {
                    let g = goal.board(size).unwrap();
                    let info = Arc::new(GoalInfo::new(&g, Arc::default()));
                    for seed in 0..12u64 {
                        let b = sc.solvable(&g);
                        let costs =
                            [(1, 1), (1, 3), (1, 4), (2, 5), (3, 7), (1, 31)][seed as usize % 6];
                        let strategy = Strategy {
                            random_sides: seed % 2 == 0,
                            fill: None,
                            random_ties: seed % 3 != 0,
                            costs,
                            big_finish: seed % 4 < 2,
                            hot_costs: [(1, 20), (2, 5), (1, 1)][seed as usize % 3],
                            hot_lines: seed as usize % 4,
                            trials: seed % 5 == 0,
                            plan_routes: seed % 7 < 4,
                        };
                        let mut rng = SplitMix::new(seed);
                        let res = reduce(&b, &info, strategy, &mut rng, &|| false);
                        count += 1;
                        match res {
                            Ok(m) => {
                                let mut e = b.clone();
                                e.apply_all(&npuzzle_core::Moves(m)).unwrap();
                                assert_eq!(e, g);
                            }
                            Err(e) => panic!("{e:?} {w}x{h} {b} -> {g} seed {seed}"),
                        }
                    }
                }
            }
        }
        assert_eq!(count, 8 * 8 * 4 * 12);
    }
}
