//! The working board of the reduction: tiles, locks, the moves made so far, and the two
//! searches that move things on it (the blank alone, and a few tracked tiles with the blank).

use std::sync::Arc;

use npuzzle_core::Move;

use super::rng::SplitMix;

/// An internal step found no way forward. The reduction is built so that this cannot happen
/// on a solvable board; it is reported as an error rather than a panic all the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stuck;

/// The board being solved, the cells that must not be disturbed, and the moves made.
#[derive(Clone)]
pub(super) struct Grid {
    pub(super) w: usize,
    pub(super) h: usize,
    /// Tile at each cell.
    pub(super) cells: Vec<u16>,
    /// Cell of each tile.
    pub(super) pos: Vec<u32>,
    /// Cells the blank may not enter (placed lines and tiles being held).
    pub(super) locked: Vec<bool>,
    pub(super) moves: Vec<Move>,
    /// Goal cell of each tile, to steer the blank's walks (see [`Grid::blank_path`]).
    home: Arc<[u32]>,
    /// Costs of a blank step in the blank's searches when the tile it shifts goes closer
    /// to its goal cell, and when it goes away; `(1, 1)` for plain shortest paths.
    pub(super) costs: (u32, u32),
}

/// Buckets of the blank search's queue: more than the largest step cost plus the
/// heuristic's step (see [`Grid::blank_path`]; step costs are capped at [`MAX_COST`]).
const RING: usize = 2 * MAX_COST as usize + 2;

/// A blank farther than this from the tile it fetches first walks by a shortest path (see
/// [`Grid::approach`])...
const FAR: usize = 32;
/// ... to this distance of the tile.
const NEAR: usize = 12;

/// The largest blank step cost accepted.
pub(super) const MAX_COST: u32 = 31;

/// Per-search scratch memory, kept apart from the [`Grid`] so that grids clone cheaply.
pub(super) struct Scratch {
    stamp: Vec<u32>,
    generation: u32,
    g: Vec<u32>,
    came: Vec<u32>,
    buckets: Vec<Vec<u32>>,
    path_a: Vec<usize>,
    local: Vec<u32>,
}

impl Scratch {
    pub(super) fn new(cells: usize) -> Scratch {
        Scratch {
            stamp: vec![0; cells],
            generation: 0,
            g: vec![0; cells],
            came: vec![0; cells],
            buckets: vec![Vec::new(); RING],
            path_a: Vec::new(),
            local: vec![u32::MAX; cells],
        }
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.generation
    }
}

/// Manhattan distance between two cells of a board `w` wide.
#[inline]
pub(super) fn dist(w: usize, a: usize, b: usize) -> usize {
    (a % w).abs_diff(b % w) + (a / w).abs_diff(b / w)
}

impl Grid {
    pub(super) fn new(
        w: usize,
        h: usize,
        tiles: &[u16],
        home: Arc<[u32]>,
        costs: (u32, u32),
    ) -> Grid {
        let mut pos = vec![0u32; tiles.len()];
        for (i, &t) in tiles.iter().enumerate() {
            pos[usize::from(t)] = i as u32;
        }
        let costs = (costs.0.clamp(1, MAX_COST), costs.1.clamp(1, MAX_COST));
        Grid {
            w,
            h,
            cells: tiles.to_vec(),
            pos,
            locked: vec![false; tiles.len()],
            moves: Vec::new(),
            home,
            costs,
        }
    }

    /// The cost of the blank stepping from `from` to `to` in the blank's searches.
    #[inline]
    fn step_cost(&self, from: usize, to: usize) -> u32 {
        let home = self.home[usize::from(self.cells[to])] as usize;
        if dist(self.w, from, home) < dist(self.w, to, home) { self.costs.0 } else { self.costs.1 }
    }

    #[inline]
    pub(super) fn blank(&self) -> usize {
        self.pos[0] as usize
    }

    #[inline]
    pub(super) fn tile_cell(&self, tile: u16) -> usize {
        self.pos[usize::from(tile)] as usize
    }

    /// The up-to-four neighbours of a cell (`usize::MAX` where the board ends).
    #[inline]
    pub(super) fn neighbours(&self, c: usize) -> [usize; 4] {
        let (x, y) = (c % self.w, c / self.w);
        [
            if y > 0 { c - self.w } else { usize::MAX },
            if y + 1 < self.h { c + self.w } else { usize::MAX },
            if x > 0 { c - 1 } else { usize::MAX },
            if x + 1 < self.w { c + 1 } else { usize::MAX },
        ]
    }

    /// Moves the blank to the neighbouring cell `to` (the tile there slides into the blank).
    #[inline]
    pub(super) fn step(&mut self, to: usize) {
        let from = self.blank();
        let m = if to == from + 1 {
            Move::Left
        } else if to + 1 == from {
            Move::Right
        } else if to > from {
            Move::Up
        } else {
            Move::Down
        };
        let t = self.cells[to];
        self.cells[from] = t;
        self.pos[usize::from(t)] = from as u32;
        self.cells[to] = 0;
        self.pos[0] = to as u32;
        self.moves.push(m);
    }

    /// Makes move `m`, which must be legal.
    pub(super) fn apply(&mut self, m: Move) -> Result<(), Stuck> {
        let b = self.blank();
        let (dx, dy) = m.blank_delta();
        let x = (b % self.w).checked_add_signed(dx).filter(|&x| x < self.w).ok_or(Stuck)?;
        let y = (b / self.w).checked_add_signed(dy).filter(|&y| y < self.h).ok_or(Stuck)?;
        self.step(y * self.w + x);
        Ok(())
    }

    /// A cheapest path for the blank from `start` to the nearest of `targets` through
    /// unlocked cells not in `avoid` (A* with Manhattan guidance, so usually only the cells
    /// near the straight route are looked at). `out` receives the cells after `start`.
    /// Returns the target reached (among equally cheap ones, the first found, or a random
    /// one with `rng`) and the cost, or `None` when no target can be reached.
    ///
    /// Every step of the blank shifts one tile by one cell, towards its goal cell or away
    /// from it. A step costs `costs.0` when it brings that tile closer and `costs.1` when it
    /// takes it away, so with `costs.0 < costs.1` the blank prefers, among routes of similar
    /// length, the one that tidies up on its way (a route is a simple path, so each tile on
    /// it moves once and the costs are fixed). This alone shortens solutions by a quarter.
    fn blank_path(
        &self,
        s: &mut Scratch,
        start: usize,
        targets: &[usize],
        avoid: &[usize],
        out: &mut Vec<usize>,
        mut rng: Option<&mut SplitMix>,
    ) -> Option<(usize, u32)> {
        out.clear();
        if targets.contains(&start) {
            return Some((start, 0));
        }
        let generation = s.next_generation();
        let w = self.w;
        let per_step = self.costs.0.min(self.costs.1).max(1);
        let hfn =
            |c: usize| targets.iter().map(|&t| dist(w, c, t)).min().unwrap_or(0) as u32 * per_step;
        // A bucket queue: with a consistent heuristic, f never decreases and a push lands at
        // most (largest step cost + per_step) above the f being expanded.
        let ring = s.buckets.len();
        for b in &mut s.buckets {
            b.clear();
        }
        s.stamp[start] = generation;
        s.g[start] = 0;
        s.came[start] = start as u32;
        let mut f = hfn(start);
        s.buckets[f as usize % ring].push(start as u32);
        let mut queued = 1usize;
        let mut found: Option<(usize, u32)> = None;
        let mut ties = 0u32;
        while queued > 0 {
            let Some(c) = s.buckets[f as usize % ring].pop() else {
                f += 1;
                if found.is_some() {
                    break;
                }
                continue;
            };
            queued -= 1;
            let c = c as usize;
            let gc = s.g[c];
            if gc + hfn(c) != f {
                continue; // stale: reached more cheaply since
            }
            if targets.contains(&c) && !self.locked[c] && !avoid.contains(&c) {
                // Reservoir choice among the targets reached at this same cost.
                ties += 1;
                let take = match (&found, rng.as_mut()) {
                    (None, _) => true,
                    (Some(_), Some(r)) => r.below(ties as usize) == 0,
                    (Some(_), None) => false,
                };
                if take {
                    found = Some((c, gc));
                }
                continue;
            }
            if found.is_some() {
                continue;
            }
            for n in self.neighbours(c) {
                if n == usize::MAX || self.locked[n] || avoid.contains(&n) {
                    continue;
                }
                let ng = gc + self.step_cost(c, n);
                if s.stamp[n] != generation || ng < s.g[n] {
                    s.stamp[n] = generation;
                    s.g[n] = ng;
                    s.came[n] = c as u32;
                    s.buckets[(ng + hfn(n)) as usize % ring].push(n as u32);
                    queued += 1;
                }
            }
        }
        let (target, cost) = found?;
        let mut at = target;
        while at != start {
            out.push(at);
            at = s.came[at] as usize;
        }
        out.reverse();
        Some((target, cost))
    }

    /// Walks the blank to `target` without entering locked cells or `avoid`.
    pub(super) fn route_blank(
        &mut self,
        s: &mut Scratch,
        target: usize,
        avoid: &[usize],
    ) -> Result<(), Stuck> {
        let mut path = std::mem::take(&mut s.path_a);
        let found = self.blank_path(s, self.blank(), &[target], avoid, &mut path, None).is_some();
        if found {
            for &c in &path {
                self.step(c);
            }
        }
        s.path_a = path;
        if found { Ok(()) } else { Err(Stuck) }
    }

    /// Brings `tile` to `dest` (or to any cell where `stop` holds), never disturbing locked
    /// cells. Each step takes the tile one cell closer, choosing among the (at most two)
    /// closer cells the one the blank reaches first; this makes tiles travel diagonally in
    /// staircases, 3 moves per cell instead of 5 in a straight line. Ties are broken at
    /// random when `rng` is given. Falls back to an exact search near the tile when no step
    /// is possible.
    pub(super) fn move_tile(
        &mut self,
        s: &mut Scratch,
        tile: u16,
        dest: usize,
        stop: &dyn Fn(usize) -> bool,
        mut rng: Option<&mut SplitMix>,
    ) -> Result<(), Stuck> {
        let mut path = std::mem::take(&mut s.path_a);
        self.approach(s, self.tile_cell(tile), &mut path);
        let result = loop {
            let p = self.tile_cell(tile);
            if p == dest || stop(p) {
                break Ok(());
            }
            let here = dist(self.w, p, dest);
            let mut steps = [0usize; 4];
            let mut k = 0;
            for n in self.neighbours(p) {
                if n != usize::MAX && !self.locked[n] && dist(self.w, n, dest) < here {
                    steps[k] = n;
                    k += 1;
                }
            }
            let blank = self.blank();
            match self.blank_path(s, blank, &steps[..k], &[p], &mut path, rng.as_deref_mut()) {
                Some(_) => {
                    for &c in &path {
                        self.step(c);
                    }
                    self.step(p);
                }
                None => break self.tile_search(s, tile, dest, stop),
            }
        };
        s.path_a = path;
        result
    }

    /// Brings the blank from afar to within [`NEAR`] cells of `cell` by a shortest path,
    /// before the weighted search of [`Grid::blank_path`] takes over for the last stretch.
    ///
    /// With steps costing 1 or 6, the weighted A* looks at every cell whose cost plus distance
    /// is below the cheapest route's: for a walk of `d` cells, a region of order `d²`. The walk
    /// to fetch each tile is that long on a large board (about a third of its width), so on
    /// 256x256 the fetches were 62% of a 32-CPU-second solve. A shortest path looks at about
    /// `d` cells; the tidying that the weights buy is kept where it counts, near the tile
    /// (the cells the tile's transport will disturb again).
    fn approach(&mut self, s: &mut Scratch, cell: usize, path: &mut Vec<usize>) {
        if dist(self.w, self.blank(), cell) <= FAR {
            return;
        }
        let costs = std::mem::replace(&mut self.costs, (1, 1));
        let found = self.blank_path(s, self.blank(), &[cell], &[], path, None).is_some();
        self.costs = costs;
        if !found {
            return; // The weighted search finds out and says so.
        }
        for &c in path.iter() {
            if dist(self.w, c, cell) < NEAR {
                break;
            }
            self.step(c);
        }
    }

    /// Exact fallback for [`Grid::move_tile`]: breadth-first search over (tile, blank) in
    /// growing windows around the tile, its destination and the blank.
    fn tile_search(
        &mut self,
        s: &mut Scratch,
        tile: u16,
        dest: usize,
        stop: &dyn Fn(usize) -> bool,
    ) -> Result<(), Stuck> {
        for margin in [1, 2, 4, 8, 16] {
            let cells = [self.tile_cell(tile), dest, self.blank()];
            let window = self.window_around(&cells, margin);
            if window.len() > 700 {
                break;
            }
            let goal = |at: &[usize]| at[0] == dest || stop(at[0]);
            if self.window_search(s, &window, &[tile], &goal).is_ok() {
                return Ok(());
            }
        }
        Err(Stuck)
    }

    /// The unlocked cells of the bounding box of `cells` grown by `margin`.
    pub(super) fn window_around(&self, cells: &[usize], margin: usize) -> Vec<usize> {
        let xs = cells.iter().map(|&c| c % self.w);
        let ys = cells.iter().map(|&c| c / self.w);
        let x0 = xs.clone().min().unwrap_or(0).saturating_sub(margin);
        let x1 = (xs.max().unwrap_or(0) + margin).min(self.w - 1);
        let y0 = ys.clone().min().unwrap_or(0).saturating_sub(margin);
        let y1 = (ys.max().unwrap_or(0) + margin).min(self.h - 1);
        let mut out = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.w + x;
                if !self.locked[c] {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Breadth-first search over the positions of the blank and of the `tracked` tiles, all
    /// kept inside `window` (other tiles there are free to move), for a shortest sequence
    /// reaching a position where `goal` (given the tracked tiles' cells) holds; makes it.
    /// The blank and the tracked tiles must be inside the window.
    pub(super) fn window_search(
        &mut self,
        s: &mut Scratch,
        window: &[usize],
        tracked: &[u16],
        goal: &dyn Fn(&[usize]) -> bool,
    ) -> Result<(), Stuck> {
        let n = window.len();
        let k = tracked.len();
        let states = (0..=k).try_fold(1usize, |acc, _| acc.checked_mul(n)).ok_or(Stuck)?;
        if n == 0 || k > 3 || states > 1 << 22 {
            return Err(Stuck);
        }
        for (i, &c) in window.iter().enumerate() {
            s.local[c] = i as u32;
        }
        let result = self.window_bfs(s, window, tracked, goal, states);
        for &c in window {
            s.local[c] = u32::MAX;
        }
        let path = result?;
        for c in path {
            self.step(c);
        }
        Ok(())
    }

    fn window_bfs(
        &self,
        s: &Scratch,
        window: &[usize],
        tracked: &[u16],
        goal: &dyn Fn(&[usize]) -> bool,
        states: usize,
    ) -> Result<Vec<usize>, Stuck> {
        let n = window.len();
        let k = tracked.len();
        // State: local index of the blank, then of each tracked tile, in base n.
        let encode = |locals: &[usize]| locals.iter().rev().fold(0usize, |acc, &l| acc * n + l);
        let decode = |mut code: usize, out: &mut [usize; 4]| {
            for slot in out.iter_mut().take(k + 1) {
                *slot = code % n;
                code /= n;
            }
        };
        let mut start = [0usize; 4];
        let local_of = |c: usize| -> Result<usize, Stuck> {
            let l = s.local[c];
            if l == u32::MAX { Err(Stuck) } else { Ok(l as usize) }
        };
        start[0] = local_of(self.blank())?;
        for (i, &t) in tracked.iter().enumerate() {
            start[i + 1] = local_of(self.tile_cell(t))?;
        }
        let start_code = encode(&start[..=k]);
        let mut parent = vec![u32::MAX; states];
        parent[start_code] = start_code as u32;
        let mut queue = vec![start_code as u32];
        let mut head = 0;
        let mut cur = [0usize; 4];
        let mut global = [0usize; 3];
        while head < queue.len() {
            let code = queue[head] as usize;
            head += 1;
            decode(code, &mut cur);
            for i in 0..k {
                global[i] = window[cur[i + 1]];
            }
            if goal(&global[..k]) {
                let mut path = Vec::new();
                let mut at = code;
                while at != start_code {
                    let mut st = [0usize; 4];
                    decode(at, &mut st);
                    path.push(window[st[0]]);
                    at = parent[at] as usize;
                }
                path.reverse();
                return Ok(path);
            }
            let blank_cell = window[cur[0]];
            for nb in self.neighbours(blank_cell) {
                if nb == usize::MAX || s.local[nb] == u32::MAX {
                    continue;
                }
                let l = s.local[nb] as usize;
                let mut next = cur;
                next[0] = l;
                for slot in next.iter_mut().take(k + 1).skip(1) {
                    if *slot == l {
                        *slot = cur[0];
                    }
                }
                let nc = encode(&next[..=k]);
                if parent[nc] == u32::MAX {
                    parent[nc] = code as u32;
                    queue.push(nc as u32);
                }
            }
        }
        Err(Stuck)
    }
}
