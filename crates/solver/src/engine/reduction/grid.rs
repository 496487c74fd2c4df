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
    /// Column and row of each cell: the searches' inner loops read these rather than divide
    /// by the width (divisions were a third of the blank search's time on 256x256).
    xs: Arc<[u16]>,
    ys: Arc<[u16]>,
    /// Column and row of the goal cell of the tile at each cell (kept with `cells`: the
    /// blank search reads it for every cell it looks at, and a lookup by tile number jumps
    /// all over a large board).
    ///
    /// The column's top bit ([`HOT`]) marks a hot tile (see [`Grid::heat`]): one word per
    /// cell to swap and read (a separate flag per cell made 256x256 solves 7 % slower).
    cell_home: Vec<(u16, u16)>,
    /// Costs of a blank step in the blank's searches when the tile it shifts goes closer
    /// to its goal cell, and when it goes away; `(1, 1)` for plain shortest paths.
    pub(super) costs: (u32, u32),
    /// The step costs, as `costs`, when the tile shifted is hot.
    pub(super) hot_costs: (u32, u32),
    /// Plan each carried tile's whole route ([`Grid::plan_route`]) rather than choosing
    /// each step by its own cost alone.
    pub(super) plan_routes: bool,
}

/// The bit of a [`Grid`]'s `cell_home` column that marks a hot tile (sides are at most 256).
const HOT: u16 = 1 << 15;

/// Buckets of the blank search's queue: more than the largest step cost plus the
/// heuristic's step (see [`Grid::blank_path`]; step costs are capped at [`MAX_COST`]).
const RING: usize = 2 * MAX_COST as usize + 2;

/// A blank farther than this from the tile it fetches first walks by a shortest path (see
/// [`Grid::approach`])...
const FAR: usize = 32;
/// ... to this distance of the tile.
const NEAR: usize = 12;

/// The blank's walk between two steps of a tile stays within this distance (in both
/// directions) of the tile (see [`Grid::box_path`]).
const BOX_RADIUS: usize = 3;

/// The largest blank step cost accepted.
pub(super) const MAX_COST: u32 = 31;

/// A cell as the blank search saw it.
#[derive(Clone, Copy, Default)]
struct Node {
    stamp: u32,
    g: u32,
    came: u32,
}

/// Per-search scratch memory, kept apart from the [`Grid`] so that grids clone cheaply.
pub(super) struct Scratch {
    /// Per cell: the search that last reached it, its cost and predecessor there (one
    /// record per cell, so that a cell costs one cache line, not three).
    node: Vec<Node>,
    generation: u32,
    /// The blank search's bucket queue: (cell, cost) pairs, and a bit per non-empty bucket.
    buckets: Vec<Vec<(u32, u32)>>,
    full: u64,
    path_a: Vec<usize>,
    local: Vec<u32>,
    /// The route plan of the tile being carried (see [`Grid::plan_route`]): per cell of the
    /// box between the tile and its destination, the cost to go with the blank behind the
    /// tile horizontally and vertically.
    route: Vec<[u32; 2]>,
    route_box: RouteBox,
    /// The route plan's table of step costs round the box.
    route_moves: Vec<[u8; 4]>,
}

/// The box of a route plan: the destination, the direction of travel and the extent.
#[derive(Clone, Copy, Default)]
struct RouteBox {
    qx: usize,
    qy: usize,
    /// The planned steps still to go along each axis: `u0..=du` and `v0..=dv`.
    u0: usize,
    v0: usize,
    du: usize,
    dv: usize,
    /// The horizon it was planned with.
    horizon: usize,
}

/// A route plan's "no way": large, but far from overflowing when added to a walk's cost.
const NO_WAY: u32 = u32::MAX / 4;

/// How many steps ahead along each axis a route is planned (see [`Grid::plan_route`]):
/// the whole route of a tile that travels at most this far along each axis; a new plan is
/// made half-way. On 32x32 (20 boards, median ratio to Manhattan), whole routes gave 2.472,
/// 16 steps 2.478 (replanned at a quarter left: 2.488), 8 steps 2.482.
/// On boards of more than [`ROUTE_WIDE`] cells a side, [`ROUTE_HORIZON_WIDE`]: tiles
/// travel farther there, and the plans' cost grows with the horizon (one 256x256 board on
/// a loaded machine: 7.7 s at 24, 6.8 s at 12, 5.2 to 5.8 s without plans).
const ROUTE_HORIZON: usize = 24;
const ROUTE_HORIZON_WIDE: usize = 12;
const ROUTE_WIDE: usize = 128;

/// The cost to go counted per step beyond the horizon.
const ROUTE_BEYOND: u32 = 16;

/// The 8 cells round a cell, clockwise from the one above.
const RING8: [(isize, isize); 8] =
    [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

impl Scratch {
    /// The planned cost to go once the tile is at `c`, having come from `from`.
    fn route_value(&self, c: usize, from: usize, w: usize) -> u32 {
        let b = self.route_box;
        let (x, y) = (c % w, c / w);
        let (u, v) = (x.abs_diff(b.qx), y.abs_diff(b.qy));
        if u > b.du || v > b.dv || u < b.u0 || v < b.v0 {
            return NO_WAY;
        }
        let horizontal = from / w == y;
        self.route[(v - b.v0) * (b.du - b.u0 + 1) + u - b.u0][usize::from(!horizontal)]
    }

    /// Whether the tile at `p` is past the middle of the planned part of its route.
    fn replan(&self, p: usize, w: usize) -> bool {
        let b = self.route_box;
        let (u, v) = ((p % w).abs_diff(b.qx), (p / w).abs_diff(b.qy));
        (b.u0 > 0 && u < b.u0 + b.horizon / 2) || (b.v0 > 0 && v < b.v0 + b.horizon / 2)
    }
}

impl Scratch {
    pub(super) fn new(cells: usize) -> Scratch {
        Scratch {
            node: vec![Node::default(); cells],
            generation: 0,
            buckets: vec![Vec::new(); RING],
            full: 0,
            path_a: Vec::new(),
            local: vec![u32::MAX; cells],
            route: Vec::new(),
            route_box: RouteBox::default(),
            route_moves: Vec::new(),
        }
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.node.fill(Node::default());
            self.generation = 1;
        }
        self.generation
    }
}

/// Step costs within the range the blank searches' bucket queues hold.
pub(super) fn clamp_costs(costs: (u32, u32)) -> (u32, u32) {
    (costs.0.clamp(1, MAX_COST), costs.1.clamp(1, MAX_COST))
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
        let costs = clamp_costs(costs);
        let xs = (0..tiles.len()).map(|c| (c % w) as u16).collect();
        let ys = (0..tiles.len()).map(|c| (c / w) as u16).collect();
        let cell_home = tiles
            .iter()
            .map(|&t| {
                let c = home[usize::from(t)] as usize;
                ((c % w) as u16, (c / w) as u16)
            })
            .collect();
        Grid {
            w,
            h,
            cells: tiles.to_vec(),
            pos,
            locked: vec![false; tiles.len()],
            moves: Vec::new(),
            xs,
            ys,
            cell_home,
            costs,
            hot_costs: costs,
            plan_routes: false,
        }
    }

    /// Plans the route of the tile at `p` towards `dest` over the board as it is: for every
    /// cell of the box between them (up to [`ROUTE_HORIZON`] steps ahead along each axis)
    /// and each side the blank may be on behind the tile there, the least weighted cost of
    /// the blank's walks round the tile (through the ring of 8 cells) for the rest of a
    /// shortest route, the cells beyond the horizon counted at [`ROUTE_BEYOND`] per step
    /// of the longer axis. [`Grid::move_tile`] then chooses each step by its walk's own
    /// cost plus this cost to go, rather than by the walk alone: a route whose turns make
    /// the blank shift the tiles round it towards their cells. Returns whether a plan was
    /// made (not for straight routes, which have no choice).
    fn plan_route(&self, s: &mut Scratch, p: usize, dest: usize) -> bool {
        let (px, py) = (usize::from(self.xs[p]), usize::from(self.ys[p]));
        let (qx, qy) = (usize::from(self.xs[dest]), usize::from(self.ys[dest]));
        let (du, dv) = (px.abs_diff(qx), py.abs_diff(qy));
        if !self.plan_routes || du == 0 || dv == 0 {
            return false;
        }
        let (right, down) = (qx > px, qy > py);
        let horizon =
            if self.w.max(self.h) > ROUTE_WIDE { ROUTE_HORIZON_WIDE } else { ROUTE_HORIZON };
        let (u0, v0) = (du.saturating_sub(horizon), dv.saturating_sub(horizon));
        s.route_box = RouteBox { qx, qy, u0, v0, du, dv, horizon };
        let bw = du - u0 + 1;
        s.route.clear();
        s.route.resize(bw * (dv - v0 + 1), [NO_WAY; 2]);
        // Ring directions: where the blank is behind the tile after a horizontal (vertical)
        // step, and where it must be for the next horizontal (vertical) step.
        let (back_x, ahead_x) = if right { (6, 2) } else { (2, 6) };
        let (back_y, ahead_y) = if down { (0, 4) } else { (4, 0) };
        let cell = |u: usize, v: usize| {
            let x = if right { qx - u } else { qx + u };
            let y = if down { qy - v } else { qy + v };
            y * self.w + x
        };
        let beyond = |u: usize, v: usize| ROUTE_BEYOND * u.max(v) as u32;
        // What each tile of the box and round it costs to shift one cell left, right, up
        // or down (as [`Grid::step_cost`]), or `u8::MAX` where the blank may not go.
        let bh = dv - v0 + 1;
        let (tw, th) = (bw + 2, bh + 2);
        let xmin = if right { qx - du } else { qx + u0 };
        let ymin = if down { qy - dv } else { qy + v0 };
        s.route_moves.clear();
        s.route_moves.resize(tw * th, [u8::MAX; 4]);
        for j in 0..th {
            let Some(y) = (ymin + j).checked_sub(1).filter(|&y| y < self.h) else { continue };
            for i in 0..tw {
                let Some(x) = (xmin + i).checked_sub(1).filter(|&x| x < self.w) else { continue };
                let n = y * self.w + x;
                if self.locked[n] {
                    continue;
                }
                let (hx, hy) = self.cell_home[n];
                let costs = if hx & HOT != 0 { self.hot_costs } else { self.costs };
                let (hx, hy) = (usize::from(hx & !HOT), usize::from(hy));
                let cost = |closer: bool| (if closer { costs.0 } else { costs.1 }) as u8;
                s.route_moves[j * tw + i] =
                    [cost(hx < x), cost(hx > x), cost(hy < y), cost(hy > y)];
            }
        }
        // The tile shifted by the blank's step from ring cell i to i + 1 moves (left,
        // right, up, down: 0..4) this way, and by its step back that way.
        const FORTH: [usize; 8] = [0, 2, 2, 1, 1, 3, 3, 0];
        const BACK: [usize; 8] = [1, 3, 3, 0, 0, 2, 2, 1];
        let offsets = RING8.map(|(dx, dy)| dy * tw as isize + dx);
        for v in v0..=dv {
            for u in u0..=du {
                let at = (v - v0) * bw + u - u0;
                if u == 0 && v == 0 {
                    s.route[at] = [0, 0];
                    continue;
                }
                let c = cell(u, v);
                if self.locked[c] && c != p {
                    continue;
                }
                // The cost to go after a step along x (the blank then behind in x), or y.
                let after_x = match u {
                    0 => NO_WAY,
                    _ if u == u0 => beyond(u - 1, v),
                    _ => s.route[at - 1][0],
                };
                let after_y = match v {
                    0 => NO_WAY,
                    _ if v == v0 => beyond(u, v - 1),
                    _ => s.route[at - bw][1],
                };
                // The blank's steps round c, both ways (through the ring of 8 cells).
                let (i, j) =
                    (usize::from(self.xs[c]) + 1 - xmin, usize::from(self.ys[c]) + 1 - ymin);
                let lc = j * tw + i;
                let ring = offsets.map(|o| s.route_moves[lc.wrapping_add_signed(o)]);
                let mut forth = [NO_WAY; 8];
                let mut back = [NO_WAY; 8];
                for k in 0..8 {
                    let (a, b) = (ring[k], ring[(k + 1) % 8]);
                    if a[0] != u8::MAX && b[0] != u8::MAX {
                        forth[k] = u32::from(b[FORTH[k]]);
                        back[k] = u32::from(a[BACK[k]]);
                    }
                }
                let round = |from: usize, to: usize| {
                    if ring[from][0] == u8::MAX {
                        return NO_WAY;
                    }
                    let (mut one, mut other, mut k) = (0u32, 0u32, from);
                    while k != to {
                        one = one.saturating_add(forth[k]);
                        k = (k + 1) % 8;
                    }
                    while k != from {
                        other = other.saturating_add(back[k]);
                        k = (k + 1) % 8;
                    }
                    one.min(other)
                };
                for (state, from) in [(0, back_x), (1, back_y)] {
                    let best = round(from, ahead_x)
                        .saturating_add(after_x)
                        .min(round(from, ahead_y).saturating_add(after_y));
                    s.route[at][state] = best.min(NO_WAY);
                }
            }
        }
        true
    }

    /// The taxicab distance from `at` to the goal cell of the tile now on `cell`.
    #[inline]
    fn home_distance(&self, cell: usize, at: usize) -> u16 {
        let (hx, hy) = self.cell_home[cell];
        self.xs[at].abs_diff(hx & !HOT) + self.ys[at].abs_diff(hy)
    }

    /// Makes exactly `tiles` hot: steps that shift them cost `hot_costs` rather than
    /// `costs`. The reduction heats the tiles of the line it places and of the next one, so
    /// that the blank, while it works on one tile, pushes those it will need soon towards
    /// their cells rather than away (each cell they come closer saves the 3 to 5 moves per
    /// cell of carrying them later).
    pub(super) fn heat(&mut self, tiles: &[u16]) {
        for home in &mut self.cell_home {
            home.0 &= !HOT;
        }
        for &t in tiles {
            let c = self.tile_cell(t);
            self.cell_home[c].0 |= HOT;
        }
    }

    /// Takes back the moves made after the first `len` (the blank walks back; the board and
    /// the move list are as they were), and returns the Manhattan distance those moves had
    /// taken off the board (negative when they added some).
    pub(super) fn undo_to(&mut self, len: usize) -> i64 {
        let mut taken = 0i64;
        while self.moves.len() > len {
            let Some(m) = self.moves.pop() else { break };
            let b = self.blank();
            // The blank came from the cell opposite the one the move sent it to.
            let back = match m {
                Move::Left => b - 1,
                Move::Right => b + 1,
                Move::Up => b - self.w,
                Move::Down => b + self.w,
            };
            taken +=
                i64::from(self.home_distance(back, b)) - i64::from(self.home_distance(back, back));
            self.step(back);
            self.moves.pop();
        }
        taken
    }

    /// Manhattan distance between two cells (as [`dist`], without dividing).
    #[inline]
    pub(super) fn d(&self, a: usize, b: usize) -> usize {
        usize::from(self.xs[a].abs_diff(self.xs[b])) + usize::from(self.ys[a].abs_diff(self.ys[b]))
    }

    /// The least step cost: the blank searches' heuristic charges this per cell.
    #[inline]
    fn per_step(&self) -> u32 {
        self.costs.0.min(self.costs.1).min(self.hot_costs.0).min(self.hot_costs.1).max(1)
    }

    /// The cost of the blank stepping from `from` to `to` in the blank's searches.
    #[inline]
    fn step_cost(&self, from: usize, to: usize) -> u32 {
        let costs = if self.cell_home[to].0 & HOT != 0 { self.hot_costs } else { self.costs };
        if self.home_distance(to, from) < self.home_distance(to, to) { costs.0 } else { costs.1 }
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
        let (x, y) = (usize::from(self.xs[c]), usize::from(self.ys[c]));
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
        self.cell_home.swap(from, to);
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
        let per_step = self.per_step();
        // Callers pass at most four targets (a tile's neighbours); more would only weaken
        // the guidance, never make a path wrong.
        let mut spots = [(0u16, 0u16); 4];
        let kept = targets.len().min(4);
        for (spot, &t) in spots.iter_mut().zip(targets) {
            *spot = (self.xs[t], self.ys[t]);
        }
        let spots = &spots[..kept];
        let hfn = |c: usize| {
            let (x, y) = (self.xs[c], self.ys[c]);
            let near = spots.iter().map(|&(tx, ty)| x.abs_diff(tx) + y.abs_diff(ty)).min();
            u32::from(near.unwrap_or(0)) * per_step
        };
        // A bucket queue: with a consistent heuristic, f never decreases and a push lands at
        // most (largest step cost + per_step) above the f being expanded, so RING buckets
        // indexed by f modulo RING hold it; `full` has a bit per non-empty bucket, so that
        // neither clearing nor finding the next bucket looks at empty ones (clearing all 64
        // took as long as the search itself between two steps of a tile).
        const _: () = assert!(RING == 64);
        let slot = |f: u32| f as usize % RING;
        let mut full = s.full;
        while full != 0 {
            let b = full.trailing_zeros() as usize;
            s.buckets[b].clear();
            full &= full - 1;
        }
        s.node[start] = Node { stamp: generation, g: 0, came: start as u32 };
        let mut f = hfn(start);
        s.buckets[slot(f)].push((start as u32, 0));
        full |= 1 << slot(f);
        let mut found: Option<(usize, u32)> = None;
        let mut ties = 0u32;
        loop {
            let Some((c, gc)) = s.buckets[slot(f)].pop() else {
                full &= !(1 << slot(f));
                if found.is_some() || full == 0 {
                    break;
                }
                f += full.rotate_right(slot(f) as u32).trailing_zeros();
                continue;
            };
            let c = c as usize;
            if gc != s.node[c].g {
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
                let seen = s.node[n];
                if seen.stamp != generation || ng < seen.g {
                    s.node[n] = Node { stamp: generation, g: ng, came: c as u32 };
                    let b = slot(ng + hfn(n));
                    s.buckets[b].push((n as u32, ng));
                    full |= 1 << b;
                }
            }
        }
        s.full = full;
        let (target, cost) = found?;
        let mut at = target;
        while at != start {
            out.push(at);
            at = s.node[at].came as usize;
        }
        out.reverse();
        Some((target, cost))
    }

    /// [`Grid::blank_path`] for the blank's walk between two steps of the tile at `p`,
    /// kept within the box of [`BOX_RADIUS`] cells round `p` (7x7): the blank starts in the
    /// box, goes round `p` and ends next to it. Returns the walk's cost, or `None` when the
    /// blank is outside the box or no way round exists inside it (then the general search
    /// takes over).
    ///
    /// This walk is made once per cell a tile travels (6 million times on 256x256), and the
    /// general search, with its board-sized scratch and queue, spent 80 % of the solve on
    /// it. An A* over at most 49 cells with the open set as bits on the stack is several
    /// times faster. The box barely changes the answers: on 32x32 (20 boards, median) a 5x5
    /// box gave the same lengths as the unbounded search and a 7x7 one, with step costs
    /// (1, 10), 2 % shorter; the ring of 8 cells round the tile alone gave 7 % longer ones
    /// (the blank's cheap detours matter).
    fn box_path(
        &self,
        p: usize,
        start: usize,
        targets: &[usize],
        out: &mut Vec<usize>,
        mut rng: Option<&mut SplitMix>,
        bias: Option<&[u32]>,
    ) -> Option<u32> {
        const R: usize = BOX_RADIUS;
        const SIDE: usize = 2 * R + 1;
        const _: () = assert!(SIDE * SIDE <= 64);
        let (px, py) = (usize::from(self.xs[p]), usize::from(self.ys[p]));
        let (x0, y0) = (px.saturating_sub(R), py.saturating_sub(R));
        let (bw, bh) = ((px + R).min(self.w - 1) + 1 - x0, (py + R).min(self.h - 1) + 1 - y0);
        let (sx, sy) = (usize::from(self.xs[start]), usize::from(self.ys[start]));
        if sx < x0 || sy < y0 || sx >= x0 + bw || sy >= y0 + bh {
            return None;
        }
        // Local cells: l = ly * SIDE + lx.
        let local = |c: usize| (usize::from(self.ys[c]) - y0) * SIDE + usize::from(self.xs[c]) - x0;
        let cell = |l: usize| (y0 + l / SIDE) * self.w + x0 + l % SIDE;
        let mut spots = [(0usize, 0usize); 4];
        let mut wanted = 0u64;
        for (spot, &t) in spots.iter_mut().zip(targets) {
            let l = local(t);
            wanted |= 1 << l;
            *spot = (l % SIDE, l / SIDE);
        }
        let spots = &spots[..targets.len().min(4)];
        let per_step = self.per_step();
        let h = |l: usize| {
            let (x, y) = (l % SIDE, l / SIDE);
            let near = spots.iter().map(|&(tx, ty)| x.abs_diff(tx) + y.abs_diff(ty)).min();
            near.unwrap_or(0) as u32 * per_step
        };
        let mut g = [u32::MAX; SIDE * SIDE];
        let mut f = [u32::MAX; SIDE * SIDE];
        let mut came = [u8::MAX; SIDE * SIDE];
        let first = local(start);
        g[first] = 0;
        f[first] = h(first);
        // Open cells by f modulo RING (a bit per cell), and a bit per non-empty bucket: f
        // never decreases and a push lands less than RING above the f being expanded.
        let mut open = [0u64; RING];
        let slot = |f: u32| f as usize % RING;
        open[slot(f[first])] = 1 << first;
        let mut full = 1u64 << slot(f[first]);
        let mut at_f = f[first];
        let mut done = 1u64 << local(p);
        let mut found: Option<(usize, u32)> = None;
        let mut ties = 0usize;
        let mut reached = 0u64;
        while full != 0 {
            let b = slot(at_f);
            if open[b] == 0 {
                full &= !(1 << b);
                if full == 0 {
                    break;
                }
                at_f += full.rotate_right(b as u32).trailing_zeros();
                continue;
            }
            // The open cell of least f (the lowest index among equals).
            let best = open[b].trailing_zeros() as usize;
            open[b] &= open[b] - 1;
            if done & (1 << best) != 0 || f[best] != at_f {
                continue; // stale: expanded, or queued again at a lower f
            }
            let gc = g[best];
            if bias.is_none() && found.is_some_and(|(_, cost)| f[best] > cost) {
                break;
            }
            // With a bias: done when no target left can beat the best one reached (a target
            // is reached at a cost of at least the f being expanded).
            if let Some(bias) = bias
                && reached != 0
            {
                let mut settled = u32::MAX;
                let mut hope = u32::MAX;
                for (k, &t) in targets.iter().enumerate().take(4) {
                    let l = local(t);
                    let extra = bias.get(k).copied().unwrap_or(0);
                    if reached & (1 << l) != 0 {
                        settled = settled.min(g[l].saturating_add(extra));
                    } else {
                        hope = hope.min(f[best].saturating_add(extra));
                    }
                }
                if hope > settled {
                    break;
                }
            }
            done |= 1 << best;
            if wanted & (1 << best) != 0 {
                if bias.is_some() {
                    // Every target's own cost is wanted: go on until all are reached,
                    // through the targets reached first if need be.
                    reached |= 1 << best;
                    if reached == wanted {
                        break;
                    }
                } else {
                    ties += 1;
                    let take = found.is_none() || rng.as_mut().is_some_and(|r| r.below(ties) == 0);
                    if take {
                        found = Some((best, gc));
                    }
                    continue;
                }
            }
            if found.is_some() {
                continue;
            }
            let (lx, ly) = (best % SIDE, best / SIDE);
            let c = cell(best);
            // (local neighbour, board neighbour, whether the step is horizontal)
            let mut next = [(usize::MAX, 0usize, false); 4];
            if lx > 0 {
                next[0] = (best - 1, c - 1, true);
            }
            if lx + 1 < bw {
                next[1] = (best + 1, c + 1, true);
            }
            if ly > 0 {
                next[2] = (best - SIDE, c - self.w, false);
            }
            if ly + 1 < bh {
                next[3] = (best + SIDE, c + self.w, false);
            }
            let (cx, cy) = (x0 + lx, y0 + ly);
            for (l, n, across) in next {
                if l == usize::MAX || done & (1 << l) != 0 || self.locked[n] {
                    continue;
                }
                // The tile at n slides to c: closer to its goal or not (one coordinate
                // changes).
                let (hx, hy) = self.cell_home[n];
                let (hot, hx) = (hx & HOT != 0, hx & !HOT);
                let closer = if across {
                    cx.abs_diff(usize::from(hx)) < (x0 + l % SIDE).abs_diff(usize::from(hx))
                } else {
                    cy.abs_diff(usize::from(hy)) < (y0 + l / SIDE).abs_diff(usize::from(hy))
                };
                let costs = if hot { self.hot_costs } else { self.costs };
                let ng = gc + if closer { costs.0 } else { costs.1 };
                if ng < g[l] {
                    g[l] = ng;
                    f[l] = ng + h(l);
                    came[l] = best as u8;
                    open[slot(f[l])] |= 1 << l;
                    full |= 1 << slot(f[l]);
                }
            }
        }
        if let Some(bias) = bias {
            // The target of least cost plus its bias (ties at random with `rng`).
            let mut ties = 0usize;
            for (k, &t) in targets.iter().enumerate().take(4) {
                let l = local(t);
                if reached & (1 << l) == 0 {
                    continue;
                }
                let total = g[l].saturating_add(bias.get(k).copied().unwrap_or(0));
                match found {
                    Some((_, best)) if total > best => {}
                    Some((_, best)) if total == best => {
                        ties += 1;
                        if rng.as_mut().is_some_and(|r| r.below(ties) == 0) {
                            found = Some((l, total));
                        }
                    }
                    _ => {
                        ties = 1;
                        found = Some((l, total));
                    }
                }
            }
            let (l, _) = found?;
            found = Some((l, g[l]));
        }
        let (target, cost) = found?;
        out.clear();
        let mut at = target;
        while at != first {
            out.push(cell(at));
            at = usize::from(came[at]);
        }
        out.reverse();
        Some(cost)
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
        let mut planned = self.plan_route(s, self.tile_cell(tile), dest);
        let mut far = false;
        let result = loop {
            let p = self.tile_cell(tile);
            if p == dest || stop(p) {
                break Ok(());
            }
            // Half-way through the plan's horizon, or after a walk from afar (not within the
            // box round the tile: the first step's, as a rule), which may have changed the
            // board anywhere on the route, plan again.
            if planned && (far || s.replan(p, self.w)) {
                planned = self.plan_route(s, p, dest);
            }
            let here = self.d(p, dest);
            let mut steps = [0usize; 4];
            let mut k = 0;
            for n in self.neighbours(p) {
                if n != usize::MAX && !self.locked[n] && self.d(n, dest) < here {
                    steps[k] = n;
                    k += 1;
                }
            }
            let blank = self.blank();
            let mut found = if planned && k == 2 {
                self.planned_step(s, p, blank, &steps[..k], &mut path, rng.as_deref_mut())
            } else {
                self.box_path(p, blank, &steps[..k], &mut path, rng.as_deref_mut(), None).is_some()
            };
            far = !found;
            if !found {
                found = self
                    .blank_path(s, blank, &steps[..k], &[p], &mut path, rng.as_deref_mut())
                    .is_some();
            }
            if !found {
                break self.tile_search(s, tile, dest, stop);
            }
            for &c in &path {
                self.step(c);
            }
            self.step(p);
        };
        s.path_a = path;
        result
    }

    /// The blank's walk (into `path`) for the next step of the tile at `p`, to whichever
    /// of `steps` costs least with the plan's cost to go from there (see
    /// [`Grid::plan_route`]); ties at random with `rng`. Whether a walk was found.
    fn planned_step(
        &self,
        s: &Scratch,
        p: usize,
        blank: usize,
        steps: &[usize],
        path: &mut Vec<usize>,
        rng: Option<&mut SplitMix>,
    ) -> bool {
        let mut bias = [0u32; 4];
        for (b, &c) in bias.iter_mut().zip(steps) {
            *b = s.route_value(c, p, self.w);
        }
        self.box_path(p, blank, steps, path, rng, Some(&bias[..steps.len().min(4)])).is_some()
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
        let hot_costs = std::mem::replace(&mut self.hot_costs, (1, 1));
        let found = self.blank_path(s, self.blank(), &[cell], &[], path, None).is_some();
        self.costs = costs;
        self.hot_costs = hot_costs;
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

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler, Size};

    fn grid(seed: u64, side: usize) -> Grid {
        let goal = Goal::BlankLast.board(Size::square(side).unwrap()).unwrap();
        let board = Scrambler::new(seed).solvable(&goal);
        let home: Arc<[u32]> = goal.positions().iter().map(|&p| p as u32).collect();
        let mut g = Grid::new(side, side, board.tiles(), home, (1, 10));
        g.hot_costs = (1, 20);
        g.heat(&(1..=side as u16).collect::<Vec<_>>());
        g
    }

    /// With a bias per target, the walk found goes to the target of least walk cost plus
    /// bias, and that total is the least of the single-target searches' (the search's early
    /// stop loses nothing).
    #[test]
    fn biased_walk_is_the_best_of_the_single_ones() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let g = grid(seed, 9);
            let mut rng = SplitMix::new(seed);
            for _ in 0..50 {
                let p = rng.below(81);
                let blank = g.blank();
                if p == blank || g.d(p, blank) > 3 {
                    continue;
                }
                let steps: Vec<usize> =
                    g.neighbours(p).into_iter().filter(|&n| n != usize::MAX).collect();
                let bias: Vec<u32> = steps.iter().map(|_| rng.below(30) as u32).collect();
                let mut singles = Vec::new();
                let mut path = Vec::new();
                for (k, &t) in steps.iter().enumerate() {
                    if let Some(c) = g.box_path(p, blank, &[t], &mut path, None, None) {
                        singles.push(c + bias[k]);
                    }
                }
                let found = g.box_path(p, blank, &steps, &mut path, None, Some(&bias));
                match (found, singles.iter().min()) {
                    (Some(cost), Some(&best)) => {
                        let end = *path.last().unwrap_or(&blank);
                        let k = steps.iter().position(|&t| t == end).unwrap();
                        assert_eq!(cost + bias[k], best, "seed {seed}");
                        checked += 1;
                    }
                    (None, None) => {}
                    other => panic!("{other:?} seed {seed}"),
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// Carrying tiles with and without route plans: each tile arrives, nothing locked moves,
    /// the moves replay to the grid's board, and the same call gives the same moves.
    #[test]
    fn planned_routes_carry_tiles_home() {
        for seed in 0..20u64 {
            for plan in [false, true] {
                let mut runs = Vec::new();
                for _ in 0..2 {
                    let mut g = grid(seed, 12);
                    g.plan_routes = plan;
                    let start = g.cells.clone();
                    let mut s = Scratch::new(g.cells.len());
                    let mut rng = SplitMix::new(seed);
                    // The top row, left to right but for its last two cells.
                    for x in 0..10 {
                        let tile = x as u16 + 1;
                        g.move_tile(&mut s, tile, x, &|_| false, Some(&mut rng)).unwrap();
                        assert_eq!(g.tile_cell(tile), x);
                        g.locked[x] = true;
                    }
                    for x in 0..10 {
                        assert_eq!(usize::from(g.cells[x]), x + 1);
                    }
                    let mut replay =
                        npuzzle_core::Board::new(Size::square(12).unwrap(), start.clone()).unwrap();
                    replay.apply_all(&npuzzle_core::Moves(g.moves.clone())).unwrap();
                    assert_eq!(replay.tiles(), &g.cells[..]);
                    runs.push(g.moves);
                }
                assert_eq!(runs[0], runs[1]);
            }
        }
    }
}
