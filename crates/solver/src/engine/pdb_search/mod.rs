//! IDA* over additive pattern databases: the optimal solver for the 15-puzzle (and any board
//! of at most 25 cells that has a [`Database`]).
//!
//! The bound of a position is its Manhattan distance plus twice the larger of the table sums
//! for it and for its mirror about the main diagonal (see [`crate::heuristic::pdb`]). The search keeps,
//! for every group, the cell set as a bit mask and the order rank of its tiles, and for the
//! mirror the same; a move changes one group on each side, and updating it is a shift of the
//! mask, two population counts, a rank load and at most one shift-table load (none for a
//! horizontal move, which passes no other cell) — never a re-rank of the pattern. The
//! Manhattan distance changes by the moving tile's step. The child's bound is tested against
//! the threshold as soon as the first side is known, so the mirror's table is only read for
//! children that survive it. Nothing is allocated while searching; a node is a small copyable
//! value.
//!
//! No move undoes the one before, and more: a move-pruning machine ([`crate::pruning`],
//! Taylor & Korf 1993) forbids every move string of up to 10 moves that has an equivalent
//! string before it in shortlex order (the 2x2 circles and longer duplicates), so the search
//! meets far fewer positions twice by paths of the same length; no optimal solution is lost
//! (the proof is in that module). On Korf's 100 this takes the generated nodes from 37,926 to
//! 29,271 per instance; searching the children in increasing order of their bound (tried)
//! changed nothing worth keeping (29,244).
//!
//! Every child's bound is known before the first is searched, which buys bidirectional
//! pathmax (BPMX; A. Felner, U. Zahavi, J. Schaeffer and R. C. Holte, "Dual lookups in
//! pattern databases", IJCAI 2005): the tables are admissible but not consistent (see
//! [`crate::heuristic::pdb`]), and a move costs one in both directions, so a child's bound less one
//! bounds its parent and the parent's less one bounds every child. A child whose bound
//! jumps cuts off its parent, siblings and all. On Korf's 100 with 7-8 and reflection this
//! took the generated nodes from 39,303 to 37,926 per instance at the same time per node
//! (per-placement tables). The default tables now have one entry per (placement, blank
//! region) and are consistent (see [`crate::heuristic::pdb`]): a child's bound is then never
//! more than one above its parent's, and pathmax never cuts; it stays for per-placement
//! tables. With them Korf's 100 take 16,926 nodes per instance instead of 29,271.
//!
//! A per-region table's index needs the blank's region in the group's new cell set: after a
//! move of the group's tile the blank stands where the tile was, and one read of the set's
//! region words ([`crate::heuristic::pdb`]'s `Regions`, 206 KB for 8 tiles) gives the
//! region; a move of another tile keeps the blank in the same region of every other group.
//!
//! A pass does not recurse: it runs four interleaved depth-first searches on one thread
//! (module `engine::lanes`), so that one waits for its children's entries while the others compute,
//! and a search out of work takes the largest untried subtree of another. The recursive pass
//! stays for a watcher that asks to see the nodes in order (the visualizer) and as the
//! reference the tests hold the interleaved one to.
//!
//! [`solve`] runs the iterations on one thread or, with `threads > 1`, on threads started once
//! per solve that take (iteration, frontier node) pairs in turn from a shared counter, a thread
//! done with one iteration going on with the next instead of waiting (module `parallel`); the
//! solution of the earliest iteration that holds one is kept, so it is optimal. Even then the
//! first iterations run on the caller's thread, until one expands [`HAND_OVER`] nodes: most
//! 15-puzzles over 7-8 are solved in a few thousand nodes, and splitting those cost more
//! than it saved.
//!
//! R. E. Korf, "Depth-first iterative-deepening: An optimal admissible tree search",
//! *Artificial Intelligence* 27(1), 1985; R. E. Korf and A. Felner, "Disjoint pattern database
//! heuristics", *Artificial Intelligence* 134, 2002.

mod lanes;
mod parallel;

use std::time::Instant;

use npuzzle_core::{Board, Move, Moves, Parity};

use crate::engine::common::{self, Entries, moved};
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::rank::{Suffixes, subset_rank};
use crate::heuristic::pdb::{Database, Encoding, Geometry, Regions, index_of};
use crate::options::{Algorithm, Limits};
use crate::pruning::{FORBIDDEN, Pruner};
use crate::solution::{Reason, Solution, Stats, Status};

/// The most groups a searched partition may have.
pub const MAX_GROUPS: usize = 8;

/// Why a board cannot be searched with a database.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The board's size or goal is not the database's.
    #[error("the database is for another board size or goal")]
    Mismatch,
    /// The partition has more than [`MAX_GROUPS`] groups.
    #[error("the search takes partitions of at most {MAX_GROUPS} groups")]
    TooManyGroups,
}

/// One group's state: its cell set, the order of its tiles, and its table entry.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    mask: u32,
    order: u32,
    value: u8,
    /// The Manhattan distance of the group's tiles (what a one-bit table needs).
    md: u8,
}

/// A position and everything the bound needs, copied from parent to child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    board: [u8; 32],
    blank: u8,
    md: u16,
    sum: u16,
    msum: u16,
    groups: [Group; MAX_GROUPS],
    mirror: [Group; MAX_GROUPS],
}

/// The precomputed tables of one database.
pub(crate) struct PdbEngine<'a> {
    db: &'a Database,
    cells: usize,
    /// For each blank cell and last move (4: none): the moves to try, as (move, cell).
    next: Vec<[(u8, u8); 4]>,
    next_len: Vec<u8>,
    /// Manhattan distance of each tile from each cell: `dist[tile * 32 + cell]`.
    dist: Vec<u8>,
    /// The group of each tile (`u8::MAX`: none).
    group_of: [u8; 32],
    /// The mirrored cell and tile label (identity when there is no mirror).
    mcell: [u8; 32],
    mtile: [u8; 32],
    reflect: bool,
    tables: Vec<TableRef<'a>>,
    suffixes: &'static Suffixes,
    /// The move-pruning machine's transitions (see [`crate::pruning`]).
    prune: &'static [u16],
    /// Dual lookups on (see [`crate::heuristic::pdb`], "Dual lookups"): for each group, the blank cells
    /// for which its table serves the dual position.
    dual: bool,
    zones: [u32; MAX_GROUPS],
    any_zone: u32,
    /// The goal cell of each tile, the goal's tile on each cell, and every tile's Manhattan
    /// distance from each cell (`full_dist[tile * 32 + cell]`, the blank's too).
    goal_pos: [u8; 32],
    goal_tile: [u8; 32],
    full_dist: Vec<u8>,
}

struct TableRef<'a> {
    entries: Entries<'a>,
    /// A per-region table's regions (see `Regions`); empty for a per-placement one.
    regions: &'a Regions,
    /// The table's one-bit copy (see `Database::search_bits`), or empty.
    bits: &'a [u8],
    orders: u32,
    /// Tiles in the group.
    k: u8,
}

impl<'a> PdbEngine<'a> {
    pub(crate) fn new(db: &'a Database) -> Result<PdbEngine<'a>, SearchError> {
        let size = db.size();
        let (w, h) = (size.width(), size.height());
        let cells = w * h;
        if db.tables().len() > MAX_GROUPS {
            return Err(SearchError::TooManyGroups);
        }
        let geometry = Geometry::new(w, h);
        let goal = db.goal();
        let goal_pos = goal.positions();
        let mut dist = vec![0u8; 32 * 32];
        let mut group_of = [u8::MAX; 32];
        for (gi, t) in db.tables().iter().enumerate() {
            for &tile in &t.tiles {
                group_of[usize::from(tile)] = gi as u8;
                for c in 0..cells {
                    dist[usize::from(tile) * 32 + c] =
                        geometry.distance(c, goal_pos[usize::from(tile)]) as u8;
                }
            }
        }
        let mut next = vec![[(0u8, 0u8); 4]; cells * 5];
        let mut next_len = vec![0u8; cells * 5];
        for b in 0..cells {
            let (x, y) = (b % w, b / w);
            for last in 0..5 {
                let mut n = 0;
                for m in Move::ALL {
                    if last < 4 && m == Move::ALL[last].inverse() {
                        continue;
                    }
                    let (dx, dy) = m.blank_delta();
                    let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                    else {
                        continue;
                    };
                    if nx < w && ny < h {
                        next[b * 5 + last][n] = (m.index() as u8, (ny * w + nx) as u8);
                        n += 1;
                    }
                }
                next_len[b * 5 + last] = n as u8;
            }
        }
        let mut mcell = [0u8; 32];
        let mut mtile = [0u8; 32];
        for i in 0..32 {
            mcell[i] = i as u8;
            mtile[i] = i as u8;
        }
        if let Some(m) = db.mirror() {
            mcell[..cells].copy_from_slice(&m.cell);
            mtile[..cells].copy_from_slice(&m.tile);
        }
        let tables = (0..db.tables().len())
            .map(|t| {
                let info = &db.tables()[t];
                TableRef {
                    entries: Entries {
                        bytes: db.table_bytes(t),
                        nibble: info.encoding == Encoding::Nibble,
                    },
                    regions: &info.regions,
                    bits: db.search_bits(t),
                    orders: info.orders as u32,
                    k: info.tiles.len() as u8,
                }
            })
            .collect();
        let mut zones = [0u32; MAX_GROUPS];
        zones[..db.tables().len()].copy_from_slice(&db.dual_zones());
        let mut goal_tile = [0u8; 32];
        let mut goal_pos = [0u8; 32];
        let mut full_dist = vec![0u8; 32 * 32];
        for (c, &t) in goal.tiles().iter().enumerate() {
            goal_tile[c] = t as u8;
            goal_pos[usize::from(t)] = c as u8;
        }
        for t in 0..cells {
            for c in 0..cells {
                full_dist[t * 32 + c] = geometry.distance(c, usize::from(goal_pos[t])) as u8;
            }
        }
        Ok(PdbEngine {
            db,
            cells,
            next,
            next_len,
            dist,
            group_of,
            mcell,
            mtile,
            reflect: db.mirror().is_some(),
            tables,
            suffixes: Suffixes::get(),
            prune: Pruner::shared(PRUNING).table(),
            dual: false,
            zones,
            any_zone: zones.iter().fold(0, |a, z| a | z),
            goal_pos,
            goal_tile,
            full_dist,
        })
    }

    /// The root node of `board`.
    pub(crate) fn root(&self, board: &Board) -> Node {
        let mut node = Node {
            board: [0; 32],
            blank: board.blank() as u8,
            md: 0,
            sum: 0,
            msum: 0,
            groups: [Group::default(); MAX_GROUPS],
            mirror: [Group::default(); MAX_GROUPS],
        };
        let mut mboard = [0u8; 32];
        for (c, &t) in board.tiles().iter().enumerate() {
            node.board[c] = t as u8;
            mboard[usize::from(self.mcell[c])] = self.mtile[usize::from(t)];
            node.md += u16::from(self.dist[usize::from(t) * 32 + c])
                * u16::from(self.group_of[usize::from(t)] != u8::MAX);
        }
        let fill = |b: &[u8; 32], out: &mut [Group; MAX_GROUPS]| {
            let mut pos = [0u8; 32];
            for c in 0..self.cells {
                pos[usize::from(b[c])] = c as u8;
            }
            let mut sum = 0u16;
            for (gi, info) in self.db.tables().iter().enumerate() {
                let cells: Vec<u8> = info.tiles.iter().map(|&t| pos[usize::from(t)]).collect();
                let index = self.db.index(gi, &cells, pos[0].into());
                let mask = cells.iter().fold(0u32, |m, &c| m | 1 << c);
                let order = (index_of(&cells, info.orders) % info.orders) as u32;
                let value = self.lookup(gi, index);
                let md = info
                    .tiles
                    .iter()
                    .map(|&t| self.dist[usize::from(t) * 32 + usize::from(pos[usize::from(t)])])
                    .sum();
                out[gi] = Group { mask, order, value, md };
                sum += u16::from(value);
            }
            sum
        };
        node.sum = fill(&node.board, &mut node.groups);
        node.msum = if self.reflect { fill(&mboard, &mut node.mirror) } else { node.sum };
        node
    }

    /// The child of `node` whose blank moves to cell `to`, with both sides' entries.
    pub(crate) fn child(&self, node: &Node, to: u8) -> Node {
        let blank = usize::from(node.blank);
        let to_c = usize::from(to);
        let tile = usize::from(node.board[to_c]);
        let mut child = *node;
        child.md = node.md + u16::from(self.dist[tile * 32 + blank])
            - u16::from(self.dist[tile * 32 + to_c]);
        let gi = usize::from(self.group_of[tile]);
        let dmd = child.md.wrapping_sub(node.md) as i8;
        let new = self.step(gi, node.groups[gi], to.into(), blank as u32, dmd);
        child.sum = node.sum - u16::from(node.groups[gi].value) + u16::from(new.value);
        child.groups[gi] = new;
        if self.reflect {
            let mg = usize::from(self.group_of[usize::from(self.mtile[tile])]);
            let mnew = self.step(
                mg,
                node.mirror[mg],
                self.mcell[to_c].into(),
                self.mcell[blank].into(),
                dmd,
            );
            child.msum = node.msum - u16::from(node.mirror[mg].value) + u16::from(mnew.value);
            child.mirror[mg] = mnew;
        } else {
            child.msum = child.sum;
        }
        child.board[blank] = tile as u8;
        child.board[to_c] = 0;
        child.blank = to;
        child
    }

    /// The cells of `node` (tile per cell; unused cells 0).
    pub(crate) fn cells_of(&self, node: &Node) -> [u8; 32] {
        node.board
    }

    /// The moves to try from `node` after move `last` (4: none), as (move, cell).
    pub(crate) fn moves(&self, node: &Node, last: usize) -> &[(u8, u8)] {
        let slot = usize::from(node.blank) * 5 + last;
        &self.next[slot][..usize::from(self.next_len[slot])]
    }

    /// The pruning machine's state after move `m` from `state`, or [`FORBIDDEN`].
    #[inline(always)]
    pub(crate) fn prune(&self, state: u16, m: u8) -> u16 {
        self.prune[usize::from(state) * 4 + usize::from(m)]
    }

    /// The bound of `node`.
    #[inline]
    pub(crate) fn h(&self, node: &Node) -> u32 {
        let h = u32::from(node.md) + 2 * u32::from(node.sum.max(node.msum));
        if self.dual { h.max(self.dual_h(&node.board, usize::from(node.blank))) } else { h }
    }

    /// The dual bound of the position `board` with the blank on `blank` (see [`crate::heuristic::pdb`],
    /// "Dual lookups"): the Manhattan distance of the dual position's tiles but its hole, plus
    /// twice the entries of the groups whose tables serve it.
    #[inline]
    fn dual_h(&self, board: &[u8; 32], blank: usize) -> u32 {
        let h = self.dual_side(board, blank);
        if !self.reflect {
            return h;
        }
        let mut mboard = [0u8; 32];
        for c in 0..self.cells {
            mboard[usize::from(self.mcell[c])] = self.mtile[usize::from(board[c])];
        }
        h.max(self.dual_side(&mboard, usize::from(self.mcell[blank])))
    }

    /// [`PdbEngine::dual_h`] for one side.
    #[inline]
    fn dual_side(&self, board: &[u8; 32], blank: usize) -> u32 {
        if self.any_zone & (1 << blank) == 0 {
            // No table serves: the dual Manhattan distance alone is rarely the larger bound.
            return 0;
        }
        let hole = usize::from(self.goal_tile[blank]);
        let mut dcell = [0u8; 32];
        let mut md = 0u32;
        for t in 0..self.cells {
            let c = self.goal_pos[usize::from(board[usize::from(self.goal_pos[t])])];
            dcell[t] = c;
            md += u32::from(self.full_dist[t * 32 + usize::from(c)]) * u32::from(t != hole);
        }
        let mut extra = 0u32;
        let mut cells = [0u8; crate::heuristic::pdb::MAX_PATTERN_TILES];
        for (gi, info) in self.db.tables().iter().enumerate() {
            if self.zones[gi] & (1 << blank) == 0 {
                continue;
            }
            let k = info.tiles.len();
            for (slot, &x) in cells.iter_mut().zip(&info.tiles) {
                *slot = dcell[usize::from(x)];
            }
            // The dual position's hole stands on the blank's goal cell.
            let index = self.db.index(gi, &cells[..k], self.db.goal().blank());
            extra += u32::from(self.lookup(gi, index));
        }
        md + 2 * extra
    }

    #[inline(always)]
    fn lookup(&self, t: usize, index: u64) -> u8 {
        self.tables[t].entries.get(index)
    }

    /// Moves the tile of group `g` (state `group`) from cell `from` to cell `to`: the new
    /// state with its table entry.
    #[inline(always)]
    fn step(&self, gi: usize, group: Group, from: u32, to: u32, dmd: i8) -> Group {
        let (mut g, index) = self.locate(gi, group, from, to, dmd);
        g.value = self.entry(gi, group, g.md, index);
        g
    }

    /// The entry `index` of table `gi` for a group whose state before the move was `parent`
    /// and whose Manhattan distance is now `md`: read whole, or followed from the one-bit
    /// table (see `Database::search_bits`).
    #[inline(always)]
    fn entry(&self, gi: usize, parent: Group, md: u8, index: u64) -> u8 {
        let t = &self.tables[gi];
        if t.bits.is_empty() {
            return t.entries.get(index);
        }
        crate::heuristic::pdb::entry_from_bit(t.bits, index, parent.value, parent.md, md)
    }

    /// Moves the tile of group `g` from cell `from` to cell `to`: the new state (entry not yet
    /// read) and the index of its entry.
    #[inline(always)]
    fn locate(&self, gi: usize, group: Group, from: u32, to: u32, dmd: i8) -> (Group, u64) {
        let table = &self.tables[gi];
        let (mask, i, j) = moved(group.mask, from, to);
        let order = self.suffixes.shift(usize::from(table.k), i, j, group.order);
        let set = subset_rank(mask);
        // A per-region table: the blank now stands where the tile was.
        let index = if table.regions.is_empty() {
            u64::from(set) * u64::from(table.orders) + u64::from(order)
        } else {
            table.regions.index(set, from, order, table.orders)
        };
        (Group { mask, order, value: 0, md: group.md.wrapping_add_signed(dmd) }, index)
    }

    /// The children of `node` that the pruning machine in `state` allows, in `kids` (their
    /// number is returned): each with its tile's move, Manhattan distance and the index of its
    /// entry on both sides, and the cache lines of those entries asked for. First every
    /// child's table positions, then the lookups ([`Pass::evaluate`]): the two to three
    /// children's misses overlap instead of queueing.
    #[inline(always)]
    pub(crate) fn prepare(&self, node: &Node, state: u16, kids: &mut [Kid; 4]) -> usize {
        let blank = usize::from(node.blank);
        let slot = blank * 5 + 4;
        let moves = &self.next[slot][..usize::from(self.next_len[slot])];
        let mut n = 0;
        for &(m, to) in moves {
            let next = self.prune(state, m);
            if next == FORBIDDEN {
                continue;
            }
            let kid = &mut kids[n];
            n += 1;
            let to_c = usize::from(to);
            let tile = usize::from(node.board[to_c]);
            kid.m = m;
            kid.state = next;
            kid.to = to;
            kid.tile = tile as u8;
            kid.md = node.md + u16::from(self.dist[tile * 32 + blank])
                - u16::from(self.dist[tile * 32 + to_c]);
            kid.gi = self.group_of[tile];
            let dmd = kid.md.wrapping_sub(node.md) as i8;
            let (group, index) = self.locate(
                usize::from(kid.gi),
                node.groups[usize::from(kid.gi)],
                to.into(),
                blank as u32,
                dmd,
            );
            kid.group = group;
            kid.index = index;
            self.prefetch(usize::from(kid.gi), index);
            if self.reflect {
                kid.mg = self.group_of[usize::from(self.mtile[tile])];
                let mg = usize::from(kid.mg);
                let (mgroup, mindex) = self.locate(
                    mg,
                    node.mirror[mg],
                    self.mcell[to_c].into(),
                    self.mcell[blank].into(),
                    dmd,
                );
                kid.mgroup = mgroup;
                kid.mindex = mindex;
            }
        }
        // The mirror's lines after every first side's: each is read only if its first side
        // passes, so those walks and misses go first.
        if self.reflect {
            for kid in &kids[..n] {
                self.prefetch(usize::from(kid.mg), kid.mindex);
            }
        }
        n
    }

    /// The child of `node` that `kid` (evaluated by [`Pass::evaluate`]) describes.
    #[inline(always)]
    pub(crate) fn kid_node(&self, node: &Node, kid: &Kid) -> Node {
        let mut child = *node;
        self.kid_node_into(node, kid, &mut child);
        child
    }

    /// [`PdbEngine::kid_node`], written into `child`.
    #[inline(always)]
    pub(crate) fn kid_node_into(&self, node: &Node, kid: &Kid, child: &mut Node) {
        *child = *node;
        child.board[usize::from(node.blank)] = kid.tile;
        child.board[usize::from(kid.to)] = 0;
        child.blank = kid.to;
        child.md = kid.md;
        child.groups[usize::from(kid.gi)] = kid.group;
        child.sum = kid.sum;
        if self.reflect {
            child.mirror[usize::from(kid.mg)] = kid.mgroup;
            child.msum = kid.msum;
        } else {
            child.msum = kid.sum;
        }
    }

    /// Asks for the cache line of entry `index` of table `t` (a hint; never faults).
    #[inline(always)]
    fn prefetch(&self, t: usize, index: u64) {
        let table = &self.tables[t];
        if table.bits.is_empty() {
            table.entries.prefetch(index);
        } else {
            Entries { bytes: table.bits, nibble: false }.prefetch(index >> 3);
        }
    }
}

/// The longest move string the search's pruning machine considers. On Korf's 100 with 7-8
/// and reflection (generated nodes per instance): 37,926 with only "never undo the last
/// move" (2), 33,489 with the 2x2 circles (6), 31,269 at 8, 29,271 at 10 and 27,986 at 12.
/// The 12-move machine (9,223 states, 74 KB) no longer sits in the L1 cache, and with its
/// strings stored it was still no faster here (5 alternating runs: DeepCubeA's 500 medians
/// 0.457 s against 0.459 s, 3.4 % fewer nodes; Korf's 100 0.112 s against 0.110 s), so the
/// 15-puzzle keeps 10 where the 24-puzzle takes 12
/// ([`DEFAULT_PRUNING`](crate::engine::twentyfour::DEFAULT_PRUNING)).
pub(crate) const PRUNING: usize = 10;

/// A child being made: where its entries are, before they are read.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Kid {
    m: u8,
    state: u16,
    to: u8,
    tile: u8,
    gi: u8,
    mg: u8,
    md: u16,
    group: Group,
    index: u64,
    mgroup: Group,
    mindex: u64,
    /// The table sums for the child and its mirror, and its bound.
    sum: u16,
    msum: u16,
    h: u32,
}

/// What one depth-first pass counts and where it stops.
pub(crate) struct Pass<'e, 'a> {
    engine: &'e PdbEngine<'a>,
    pub(crate) bound: u32,
    /// The smallest bound seen above the threshold.
    pub(crate) next_bound: u32,
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    pub(crate) path: [u8; 256],
    /// The depth of the goal, once found.
    pub(crate) depth: u32,
    /// Expansions between two checks of the limits and of the other threads.
    every: u64,
    /// Set when a limit fired or another thread finished.
    pub(crate) stopped: bool,
    /// The threads sharing the node limit.
    pub(crate) share: u64,
    pub(crate) check_at: u64,
    watch: &'e Watch<'e>,
    /// The iteration this pass belongs to, and the earliest iteration in which any thread
    /// found a solution (parallel mode): a pass of that iteration or a later one stops.
    pub(crate) iteration: u32,
    pub(crate) best: Option<&'e std::sync::atomic::AtomicU32>,
    /// The watcher of a sequential search, told of progress at every check, and the
    /// expansions and generations of the passes before this one.
    tick: Option<&'e mut dyn Tick>,
    before: (u64, u64),
    /// The expansions and generations already added to the watch's totals.
    counted: (u64, u64),
}

/// What a search over a database tells its watcher (the solver's observer): each new
/// bound, a proven lower bound, and progress at every check of the limits. Returning
/// `false` stops the search as cancelled.
pub(crate) trait Tick {
    /// An iteration with `bound` starts, after `expanded` expansions in all.
    fn bound(&mut self, bound: u32, expanded: u64) -> bool {
        let _ = (bound, expanded);
        true
    }
    /// `expanded` and `generated` nodes so far, in all.
    fn progress(&mut self, expanded: u64, generated: u64) -> bool {
        let _ = (expanded, generated);
        true
    }
    /// Whether to be shown the node about to be expanded after `expanded` expansions:
    /// asked at every check, and at every node after a node was shown.
    fn wants(&mut self, expanded: u64) -> bool {
        let _ = expanded;
        false
    }
    /// Whether it may ask for nodes at all: then the search checks every 1024 expansions
    /// (not every 16,384) and at the root of every iteration.
    fn samples(&self) -> bool {
        false
    }
    /// The node about to be expanded (its tile on each cell, in the database's goal
    /// numbering), at depth `g` with bound `h`.
    fn node(&mut self, cells: &[u8], g: u32, h: u32) -> bool {
        let _ = (cells, g, h);
        true
    }
}

/// What the threads of a parallel search report, from any of them (the caller relays it to
/// its watcher on its own thread).
pub(crate) enum ThreadReport {
    /// Every path shorter than this has been searched: a proven lower bound.
    Bound(u32),
    /// Expansions and generations so far, in all.
    Progress(u64, u64),
}

/// Where the threads of a parallel search send their [`ThreadReport`]s.
pub(crate) type Sink<'a> = &'a (dyn Fn(ThreadReport) + Sync);

impl Tick for () {}

/// The limits of one solve, shared by its threads.
pub(crate) struct Watch<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) deadline: Option<Instant>,
    /// Raised by the thread that finds a solution or hits a limit.
    pub(crate) done: std::sync::atomic::AtomicBool,
    /// Nodes expanded by every thread, updated at each check.
    pub(crate) nodes: std::sync::atomic::AtomicU64,
    pub(crate) limit_hit: std::sync::atomic::AtomicBool,
    /// Which limit fired: 1 nodes, 2 time, 3 cancel.
    pub(crate) which: std::sync::atomic::AtomicU8,
    /// Nodes generated by every thread, updated at each check.
    pub(crate) generated: std::sync::atomic::AtomicU64,
    /// Expansions the threads of a parallel search reserved from the node limit.
    pub(crate) reserved: std::sync::atomic::AtomicU64,
    /// Where a parallel search reports (a sequential one tells its [`Tick`]).
    pub(crate) sink: Option<Sink<'a>>,
}

impl<'a> Watch<'a> {
    /// A watch of `limits`, ending at `deadline`, reporting a parallel search to `sink`;
    /// nothing counted yet.
    pub(crate) fn new(
        limits: &'a Limits,
        deadline: Option<Instant>,
        sink: Option<Sink<'a>>,
    ) -> Watch<'a> {
        Watch {
            limits,
            deadline,
            done: Default::default(),
            nodes: Default::default(),
            limit_hit: Default::default(),
            which: Default::default(),
            generated: Default::default(),
            reserved: Default::default(),
            sink,
        }
    }
}

/// Expansions between two looks at the clock, the node budget and the cancel flag.
const CHECK_EVERY: u64 = 1 << 14;

impl<'e, 'a> Pass<'e, 'a> {
    pub(crate) fn new(
        engine: &'e PdbEngine<'a>,
        bound: u32,
        watch: &'e Watch<'e>,
        every: u64,
    ) -> Pass<'e, 'a> {
        // A node limit below the check interval is checked at every node: a limit is a limit.
        let every = watch.limits.max_nodes.map_or(every, |m| every.min(m.max(1)));
        Pass {
            engine,
            bound,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            path: [0; 256],
            depth: 0,
            every,
            stopped: false,
            share: 1,
            check_at: every,
            watch,
            iteration: 0,
            best: None,
            tick: None,
            before: (0, 0),
            counted: (0, 0),
        }
    }

    fn check(&mut self, node: &Node, g: u32, h: u32) {
        use std::sync::atomic::Ordering::Relaxed;
        let w = self.watch;
        let (expanded, generated) =
            (self.expanded - self.counted.0, self.generated - self.counted.1);
        self.counted = (self.expanded, self.generated);
        let total = w.nodes.fetch_add(expanded, Relaxed) + expanded;
        let made = w.generated.fetch_add(generated, Relaxed) + generated;
        let which = common::fired(w.limits, w.deadline, total);
        let (e0, g0) = self.before;
        let mut go_on = true;
        let mut again = false;
        if which == 0 {
            if let Some(t) = self.tick.as_mut() {
                go_on = t.progress(e0 + self.expanded, g0 + self.generated);
                if go_on && t.wants(e0 + self.expanded) {
                    let cells = &node.board[..self.engine.cells];
                    go_on = t.node(cells, g, h);
                    again = true;
                }
            } else if let Some(sink) = w.sink {
                sink(ThreadReport::Progress(total, made));
            }
        }
        // After a node was shown, the next one is asked about too; a node limit is checked
        // when it is due, not at the next interval.
        let every = if again { 1 } else { self.every };
        let (chunk, which) = if self.share > 1 {
            let chunk = common::reserve(w.limits, &w.reserved, every, self.share);
            (chunk, if chunk == 0 && which == 0 { common::FIRED_NODES } else { which })
        } else {
            (common::until_check(w.limits, total, every, 1), which)
        };
        self.check_at = self.expanded + chunk.max(1);
        let which = if go_on { which } else { common::FIRED_CANCEL };
        if which != common::FIRED_NONE {
            w.which.store(which, Relaxed);
            w.limit_hit.store(true, Relaxed);
            w.done.store(true, Relaxed);
        }
        if w.done.load(Relaxed) || self.best.is_some_and(|b| b.load(Relaxed) <= self.iteration) {
            self.stopped = true;
        }
    }

    /// Searches below `node` (at depth `g`, pruning machine in `state`, with lower
    /// bound `h`) within the threshold; true when it reached the goal (the moves are in
    /// `path[..depth]`).
    pub(crate) fn dfs(&mut self, node: &Node, g: u32, state: u16, h: u32) -> bool {
        if node.md == 0 {
            self.depth = g;
            return true;
        }
        self.expanded += 1;
        if self.expanded >= self.check_at {
            self.check(node, g, h);
            if self.stopped {
                return false;
            }
        }
        let e = self.engine;
        let mut kids = [Kid::default(); 4];
        let n = e.prepare(node, state, &mut kids);
        let Some(n) = self.evaluate(node, g, h, &mut kids[..n]) else {
            return false;
        };
        for kid in &kids[..n] {
            let child = e.kid_node(node, kid);
            self.path[g as usize] = kid.m;
            if self.dfs(&child, g + 1, kid.state, kid.h) {
                return true;
            }
            if self.stopped {
                return false;
            }
        }
        false
    }

    /// Reads the entries of `node`'s children `kids` (made by [`PdbEngine::prepare`], their
    /// lines asked for) and their bounds; `node` is at depth `g` with bound `h`. `None` when
    /// pathmax cuts `node` off; otherwise the number of children within the threshold, moved
    /// to the front of `kids` in their order, each with its bound raised by pathmax.
    #[inline(always)]
    pub(crate) fn evaluate(
        &mut self,
        node: &Node,
        g: u32,
        h: u32,
        kids: &mut [Kid],
    ) -> Option<usize> {
        let e = self.engine;
        let blank = usize::from(node.blank);
        // The mirror's table is read only for children the first side leaves under the
        // threshold (the others are cut off by that side alone).
        let mut most = 0u32;
        for kid in kids.iter_mut() {
            self.generated += 1;
            let gi = usize::from(kid.gi);
            kid.group.value = e.entry(gi, node.groups[gi], kid.group.md, kid.index);
            kid.sum = node.sum - u16::from(node.groups[gi].value) + u16::from(kid.group.value);
            kid.h = u32::from(kid.md) + 2 * u32::from(kid.sum);
            if e.reflect && g + 1 + kid.h <= self.bound {
                let mg = usize::from(kid.mg);
                kid.mgroup.value = e.entry(mg, node.mirror[mg], kid.mgroup.md, kid.mindex);
                kid.msum =
                    node.msum - u16::from(node.mirror[mg].value) + u16::from(kid.mgroup.value);
                kid.h = kid.h.max(u32::from(kid.md) + 2 * u32::from(kid.msum));
            }
            if e.dual && g + 1 + kid.h <= self.bound {
                let mut board = node.board;
                board[blank] = kid.tile;
                board[usize::from(kid.to)] = 0;
                kid.h = kid.h.max(e.dual_h(&board, usize::from(kid.to)));
            }
            most = most.max(kid.h);
        }
        // Bidirectional pathmax (Felner, Zahavi et al. 2005): the tables are not consistent
        // (see `crate::heuristic::pdb`), and a move costs one both ways, so a child's bound
        // less one is a bound for this node too, and this node's less one a bound for every
        // child. A child far above the threshold cuts off its parent and so its siblings'
        // subtrees.
        let h = h.max(most.saturating_sub(1));
        if g + h > self.bound {
            self.next_bound = self.next_bound.min(g + h);
            return None;
        }
        let mut kept = 0;
        for i in 0..kids.len() {
            let kid = kids[i];
            let kh = kid.h.max(h.saturating_sub(1));
            let f = g + 1 + kh;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            kids[kept] = Kid { h: kh, ..kid };
            kept += 1;
        }
        // Move ordering (Reinefeld & Marsland's enhanced IDA*): the kept children by bound,
        // lowest first (stable: ties keep the move order). An iteration without the goal
        // searches the same tree in any order; the last one meets the goal sooner. On
        // DeepCubeA's 500 15-puzzles, 14,069 nodes a board become 12,547; on Korf's 100,
        // 17,190 become 15,433.
        for i in 1..kept {
            let mut j = i;
            while j > 0 && kids[j - 1].h > kids[j].h {
                kids.swap(j - 1, j);
                j -= 1;
            }
        }
        Some(kept)
    }
}

/// Solves `board` optimally with IDA* on `db`, on `threads` threads (1: sequential), under
/// `limits`. An unsolvable board is answered [`Status::Unsolvable`] at once; running out of
/// nodes, time or a cancel is [`Status::Limit`].
///
/// # Errors
/// [`SearchError`] when `db` is not for this board's size and goal, or has too many groups.
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal, Size};
/// use npuzzle_solver::heuristic::pdb::{Database, Partition};
/// use npuzzle_solver::engine::pdb_search;
/// use npuzzle_solver::{Limits, Status};
/// let goal = Goal::BlankLast.board(Size::new(3, 3)?)?;
/// let db = Database::build(&goal, &Partition::parse("4-4", &goal)?, 1, &|_| {}, None)?;
/// let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
/// let solution = pdb_search::solve(&db, &board, &Limits::default(), 1)?;
/// assert_eq!(solution.status, Status::Solved);
/// assert_eq!(solution.moves.len(), 31);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    db: &Database,
    board: &Board,
    limits: &Limits,
    threads: usize,
) -> Result<Solution, SearchError> {
    solve_dual(db, board, limits, threads, false)
}

/// As [`solve`], with dual lookups when `dual` (see [`crate::heuristic::pdb`], "Dual lookups"): the bound
/// of a node is also at least its dual bound, read for the nodes the regular bound keeps.
///
/// # Errors
/// As [`solve`].
pub fn solve_dual(
    db: &Database,
    board: &Board,
    limits: &Limits,
    threads: usize,
    dual: bool,
) -> Result<Solution, SearchError> {
    solve_split(db, board, limits, threads, dual, HAND_OVER)
}

/// As [`solve_dual`], the iterations going over to the threads after the first one that
/// expands at least `hand_over` nodes on one thread ([`HAND_OVER`] in [`solve_dual`]; 0
/// splits every iteration, as the tests of the split do).
///
/// # Errors
/// As [`solve`].
pub fn solve_split(
    db: &Database,
    board: &Board,
    limits: &Limits,
    threads: usize,
    dual: bool,
    hand_over: u64,
) -> Result<Solution, SearchError> {
    let split = (threads > 1).then_some(hand_over);
    match begin(db, board, limits, dual, &mut (), split)? {
        Begun::Done(solution) => Ok(solution),
        Begun::HandOver(h) => finish(db, board, limits, threads, dual, None, h),
    }
}

/// How [`begin`] ended.
pub(crate) enum Begun {
    /// The solve is over.
    Done(Solution),
    /// Its iterations go on, from a threshold, on several threads ([`finish`]).
    HandOver(HandOver),
}

/// Where [`begin`] left a solve for [`finish`].
pub(crate) struct HandOver {
    first: u32,
    stats: Stats,
    clock: Instant,
    generated: u64,
}

/// The first part of a solve: its iterations on this thread, telling `tick` of them, until
/// one expands `split` nodes or more; with `split` none, all of them. A caller that relays
/// the threads' reports to an observer on its own thread runs this part without relaying:
/// most 15-puzzles end here, within a few milliseconds.
pub(crate) fn begin(
    db: &Database,
    board: &Board,
    limits: &Limits,
    dual: bool,
    tick: &mut dyn Tick,
    split: Option<u64>,
) -> Result<Begun, SearchError> {
    let clock = Instant::now();
    if board.size() != db.size() {
        return Err(SearchError::Mismatch);
    }
    let mut engine = PdbEngine::new(db)?;
    engine.dual = dual;
    let goal = db.goal();
    let parity = Parity::of(board, goal);
    let mut solution =
        Solution::without_moves(Status::Unsolvable, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    if !parity.solvable() {
        solution.reason = Some(Reason::Unsolvable(parity));
        solution.stats.seconds = clock.elapsed().as_secs_f64();
        return Ok(Begun::Done(solution));
    }
    if db.partition().groups().iter().map(Vec::len).sum::<usize>() + 1 != board.tiles().len() {
        // The goal test is "Manhattan distance zero", which needs every tile in a group.
        return Err(SearchError::Mismatch);
    }
    let watch = Watch::new(limits, limits.timeout.map(|t| clock + t), None);
    let root = engine.root(board);
    let mut proven = engine.h(&root);
    let found =
        match sequential(&engine, &root, &watch, &mut solution.stats, tick, &mut proven, split) {
            Pass1::Done(found) => found,
            Pass1::HandOver(first) => {
                let generated = watch.generated.load(std::sync::atomic::Ordering::Relaxed);
                return Ok(Begun::HandOver(HandOver {
                    first,
                    stats: solution.stats,
                    clock,
                    generated,
                }));
            }
        };
    Ok(Begun::Done(conclude(solution, found, proven, &watch, limits, clock)))
}

/// The rest of a solve [`begin`] handed over: its iterations from the threshold it reached
/// on `threads` threads, reporting to `sink`, within what is left of `limits`.
pub(crate) fn finish(
    db: &Database,
    board: &Board,
    limits: &Limits,
    threads: usize,
    dual: bool,
    sink: Option<Sink<'_>>,
    h: HandOver,
) -> Result<Solution, SearchError> {
    use std::sync::atomic::Ordering::Relaxed;
    let mut engine = PdbEngine::new(db)?;
    engine.dual = dual;
    let watch = Watch::new(limits, limits.timeout.map(|t| h.clock + t), sink);
    // The first part's nodes count towards the node limit; the threads reserve their
    // shares of what is left.
    watch.nodes.store(h.stats.expanded, Relaxed);
    watch.reserved.store(h.stats.expanded, Relaxed);
    watch.generated.store(h.generated, Relaxed);
    if let Some(sink) = sink {
        sink(ThreadReport::Bound(h.first));
    }
    let root = engine.root(board);
    let mut proven = h.first;
    let mut solution =
        Solution::without_moves(Status::Unsolvable, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    solution.stats = h.stats;
    let found = parallel::search(
        &engine,
        &root,
        &watch,
        threads,
        &mut solution.stats,
        &mut proven,
        h.first,
    );
    Ok(conclude(solution, found, proven, &watch, limits, h.clock))
}

/// The solution of a search that found `found` (or stopped, having proved `proven`).
fn conclude(
    mut solution: Solution,
    found: Option<Vec<u8>>,
    proven: u32,
    watch: &Watch<'_>,
    limits: &Limits,
    clock: Instant,
) -> Solution {
    solution.stats.seconds = clock.elapsed().as_secs_f64();
    match found {
        Some(path) => {
            solution.status = Status::Solved;
            solution.optimal = true;
            solution.lower_bound = Some(path.len() as u64);
            solution.moves = Moves(path.iter().map(|&m| Move::ALL[usize::from(m)]).collect());
        }
        None => {
            solution.status = Status::Limit;
            solution.lower_bound = Some(u64::from(proven));
            let limit =
                common::limit(watch.which.load(std::sync::atomic::Ordering::Relaxed), limits);
            solution.reason = Some(Reason::Limit(limit));
        }
    }
    solution
}

/// An iteration that expands at least this many nodes on one thread hands the next ones
/// over to the threads of a parallel solve ([`solve_dual`]) (IDA*'s iterations grow several times over
/// each). Below it, splitting costs more than it saves: starting threads, building a
/// frontier and handing out its items for a search of a millisecond or two. With every
/// iteration split, Korf's 100 on two threads took 0.16–0.18 s against 0.12–0.14 s on one;
/// handed over after 20,000 nodes (and with the first iterations told to the observer on
/// the caller's thread, see `run::tables`), 0.112–0.133 s (median 0.117 s against 0.161 s
/// in 5 alternating runs), and DeepCubeA's 500 0.454–0.496 s against 0.637–0.832 s (median
/// 0.469 s against 0.696 s): two threads as fast as one where a board takes milliseconds.
pub const HAND_OVER: u64 = 20_000;

/// How [`sequential`] ended.
enum Pass1 {
    /// With the goal's path, or none (a limit, or no threshold left).
    Done(Option<Vec<u8>>),
    /// An iteration was large enough that the ones from this threshold on go to threads.
    HandOver(u32),
}

/// IDA* on one thread; `proven` ends as the largest bound every path below was searched
/// within (a lower bound on the answer). With `hand_over`, an iteration that expands at
/// least that many nodes without the goal ends it, handing the next threshold over.
fn sequential(
    engine: &PdbEngine<'_>,
    root: &Node,
    watch: &Watch<'_>,
    stats: &mut Stats,
    tick: &mut dyn Tick,
    proven: &mut u32,
    hand_over: Option<u64>,
) -> Pass1 {
    let mut bound = engine.h(root);
    loop {
        *proven = bound;
        if !tick.bound(bound, stats.expanded) {
            watch.which.store(3, std::sync::atomic::Ordering::Relaxed);
            return Pass1::Done(None);
        }
        let sampled = tick.samples();
        let mut pass = Pass::new(engine, bound, watch, if sampled { 1 << 10 } else { CHECK_EVERY });
        if sampled {
            // A watcher sees each iteration start at the root.
            pass.check_at = 1;
        }
        if let Some(m) = watch.limits.max_nodes {
            let done = watch.nodes.load(std::sync::atomic::Ordering::Relaxed);
            pass.check_at = pass.check_at.min(m.saturating_sub(done).max(1));
        }
        pass.before = (stats.expanded, stats.generated);
        pass.tick = Some(&mut *tick);
        // A watcher that asks for nodes sees them in the recursive pass's order.
        let found = if sampled {
            pass.dfs(root, 0, 0, engine.h(root))
        } else {
            crate::engine::lanes::search(&mut pass, root, 0, 0, engine.h(root))
        };
        stats.expanded += pass.expanded;
        stats.generated += pass.generated;
        // The pass's expansions since its last check count towards the limits too.
        let (e, g) = (pass.expanded - pass.counted.0, pass.generated - pass.counted.1);
        watch.nodes.fetch_add(e, std::sync::atomic::Ordering::Relaxed);
        watch.generated.fetch_add(g, std::sync::atomic::Ordering::Relaxed);
        if found {
            stats.max_frontier = u64::from(pass.depth);
            return Pass1::Done(Some(pass.path[..pass.depth as usize].to_vec()));
        }
        if pass.stopped || pass.next_bound == u32::MAX || pass.next_bound > 255 {
            return Pass1::Done(None);
        }
        bound = pass.next_bound;
        if hand_over.is_some_and(|n| pass.expanded >= n) {
            *proven = bound;
            return Pass1::HandOver(bound);
        }
    }
}
