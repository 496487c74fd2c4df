//! A beam search ranked by [`Tables`]' bound: the near-optimal engine's beam
//! (`engine::near::beam`) with Korf & Felner's databases in place of the linear conflicts.
//!
//! Breadth-first, keeping the `width` children of each layer with the smallest
//! `md x Manhattan + extra x (bound - Manhattan) + squares x (sum of squared distances)`,
//! each kept once (Zobrist hash). The bound is kept up to date move by move by the IDA*
//! engine's incremental lookups. Each thread expands its share of a layer and keeps its
//! children's nodes; the best are chosen in linear time (`keep_best`) and only they are
//! copied into the next layer, on the threads too: at a width of 100,000 a beam takes 1.81
//! s on two threads where sorting the children and copying every node on one took 3.31 s
//! (DeepCubeA's first ten 24-puzzles, the same lengths).

use npuzzle_core::{Board, Move};

use super::engine::{KorfEngine, Node};
use super::tables::Tables;
use crate::engine::near::beam::{compact, keep_best, splitmix};
use crate::pruning::Pruner;

const LOOKUPS: usize = 8;
const SIDES: usize = 2;
/// A child's `at`: its thread in the top bits, its place among that thread's nodes below.
const AT_SHIFT: u32 = 27;
const AT_MASK: u32 = (1 << AT_SHIFT) - 1;

/// Whether `tables` fit this beam's nodes (Korf & Felner's partition with its mirror).
pub(crate) fn fits(tables: &Tables) -> bool {
    tables.lookups.len() <= LOOKUPS && tables.sides.len() <= SIDES
}

/// Layers between two compactions of the trail (`near::beam::compact`): a beam's lineages
/// merge within a few layers, so that the trail holds about the width in each of its last
/// layers and a node a layer before them, where it held the width in every layer (at a width
/// of 600,000, about 330 MB over a 24-puzzle's 110 layers).
const COMPACT_EVERY: usize = 16;

/// About the bytes a beam of `width` holds at once: each kept node's children (about three,
/// with their keys), the layer and the next, and the trail's last layers (up to
/// `COMPACT_EVERY` whole and about as many where the lineages have not merged yet).
pub(crate) fn memory(width: usize) -> usize {
    let entry = std::mem::size_of::<(Node<LOOKUPS, SIDES>, u64, u32, u8)>();
    let child = std::mem::size_of::<Child>() + std::mem::size_of::<Node<LOOKUPS, SIDES>>();
    let per_width = 3 * child + 2 * entry + 5 * 2 * COMPACT_EVERY;
    width.saturating_mul(per_width)
}

/// The ranking's weights.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    /// Of the Manhattan distance.
    pub(crate) md: u32,
    /// Of the tables' bound above the Manhattan distance.
    pub(crate) extra: u32,
    /// Of the sum of the tiles' squared distances.
    pub(crate) squares: u32,
}

#[derive(Clone, Copy)]
struct Child {
    key: u64,
    hash: u64,
    parent: u32,
    /// Where its node is among the layer's children.
    at: u32,
    sq: u32,
    mv: u8,
}

/// Searches from `board` to the tables' goal keeping `width` nodes a layer for at most
/// `max_depth` layers on `threads` threads; `None` when it ran out of depth or `stop()`
/// (asked once a layer) said so. Adds the children it makes to `nodes`.
///
/// # Panics
/// If the tables do not [`fit`].
#[expect(
    clippy::too_many_arguments,
    reason = "the search's own knobs, each a plain value, as in the near engine's beam"
)]
pub(crate) fn search(
    tables: &Tables,
    board: &Board,
    width: usize,
    seed: u64,
    max_depth: usize,
    threads: usize,
    weights: Weights,
    nodes: &mut u64,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<Move>> {
    assert!(fits(tables), "tables too large for this beam");
    let engine = KorfEngine::<LOOKUPS, SIDES>::new(tables, Pruner::shared(2));
    let goal = tables.goal();
    let n = goal.size().cells();
    let w = goal.width();
    let goal_pos = goal.positions();
    // Squared taxicab distance of each tile from each cell.
    let mut sqd = vec![0u32; 32 * 32];
    for t in 1..n {
        for c in 0..n {
            let g = goal_pos[t];
            let d = ((g % w).abs_diff(c % w) + (g / w).abs_diff(c / w)) as u32;
            sqd[t * 32 + c] = d * d;
        }
    }
    let mut s = 0x7461_626C_6573_u64 ^ seed;
    let keys: Vec<u64> = (0..32 * 32).map(|_| splitmix(&mut s)).collect();
    let root = engine.root(tables, board);
    if root.md == 0 {
        return Some(Vec::new());
    }
    let hash0 = (0..n)
        .filter(|&c| root.board[c] != 0)
        .fold(0u64, |h, c| h ^ keys[usize::from(root.board[c]) * 32 + c]);
    let sq0: u32 = (0..n).map(|c| sqd[usize::from(root.board[c]) * 32 + c]).sum();
    let mut layer: Vec<(Node<LOOKUPS, SIDES>, u64, u32, u8)> = vec![(root, hash0, sq0, u8::MAX)];
    let mut trail: Vec<(Vec<u32>, Vec<u8>)> = Vec::new();
    let salt = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    let (mut since, mut settled) = (0usize, 0usize);
    for _ in 0..max_depth {
        if stop() {
            return None;
        }
        let count = layer.len();
        // At most 32 threads: `at` keeps five bits for them.
        let threads = threads.clamp(1, count.div_ceil(256).clamp(1, 32));
        let chunk = count.div_ceil(threads);
        // Each thread's children: their keys (selected below) and, apart, their nodes.
        let expand = |range: std::ops::Range<usize>| -> (Vec<Child>, Vec<Node<LOOKUPS, SIDES>>) {
            let mut out = Vec::with_capacity(range.len() * 3);
            let mut made = Vec::with_capacity(range.len() * 3);
            for i in range {
                let (node, hash, sq, back) = &layer[i];
                let blank = usize::from(node.blank);
                for &(m, to) in engine.moves(node) {
                    if to == *back {
                        continue;
                    }
                    let tile = usize::from(node.board[usize::from(to)]);
                    let to_c = usize::from(to);
                    let h = hash ^ keys[tile * 32 + to_c] ^ keys[tile * 32 + blank];
                    let child = engine.child(node, to);
                    let bound = engine.h(&child);
                    let md = u32::from(child.md);
                    let sq = sq + sqd[tile * 32 + blank] - sqd[tile * 32 + to_c];
                    let score =
                        weights.md * md + weights.extra * (bound - md) + weights.squares * sq;
                    let mixed = (h ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                    out.push(Child {
                        key: u64::from(score) << 24 | mixed,
                        hash: h,
                        parent: i as u32,
                        at: made.len() as u32,
                        sq,
                        mv: m,
                    });
                    made.push(child);
                }
            }
            (out, made)
        };
        // Each thread keeps its children's nodes; `at` says whose and where (the thread in
        // the top bits), so that only the kept ones are ever copied.
        let parts: Vec<(Vec<Child>, Vec<Node<LOOKUPS, SIDES>>)> = if threads == 1 {
            vec![expand(0..count)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let range = t * chunk..((t + 1) * chunk).min(count);
                        let expand = &expand;
                        scope.spawn(move || {
                            let (mut kids, made) = expand(range);
                            for c in &mut kids {
                                c.at |= (t as u32) << AT_SHIFT;
                            }
                            (kids, made)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
            })
        };
        let mut children: Vec<Child> = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
        let mut made: Vec<Vec<Node<LOOKUPS, SIDES>>> = Vec::with_capacity(parts.len());
        for (kids, nodes) in parts {
            children.extend(kids);
            made.push(nodes);
        }
        *nodes += children.len() as u64;
        if children.is_empty() {
            return None;
        }
        keep_best(&mut children, width, |c| c.key, |c| c.hash);
        let kept = children.len();
        let node_of = |c: &Child| made[(c.at >> AT_SHIFT) as usize][(c.at & AT_MASK) as usize];
        if let Some(c) = children.iter().find(|c| node_of(c).md == 0) {
            let mut path = vec![Move::ALL[usize::from(c.mv)]];
            let mut at = c.parent as usize;
            for (ps, ms) in trail.iter().rev() {
                path.push(Move::ALL[usize::from(ms[at])]);
                at = ps[at] as usize;
            }
            path.reverse();
            return Some(path);
        }
        // The next layer, built on the threads too.
        let mut next = vec![layer[0]; kept];
        let parents: Vec<u32> = children.iter().map(|c| c.parent).collect();
        let moves: Vec<u8> = children.iter().map(|c| c.mv).collect();
        let fill = |kids: &[Child], out: &mut [(Node<LOOKUPS, SIDES>, u64, u32, u8)]| {
            for (c, slot) in kids.iter().zip(out) {
                *slot = (node_of(c), c.hash, c.sq, layer[c.parent as usize].0.blank);
            }
        };
        let part = kept.div_ceil(threads.clamp(1, kept.div_ceil(1024).max(1)));
        if part >= kept {
            fill(&children, &mut next);
        } else {
            std::thread::scope(|scope| {
                for (kids, out) in children.chunks(part).zip(next.chunks_mut(part)) {
                    let fill = &fill;
                    scope.spawn(move || fill(kids, out));
                }
            });
        }
        trail.push((parents, moves));
        since += 1;
        if since == COMPACT_EVERY {
            compact(&mut trail, None, &mut 0, settled);
            (since, settled) = (0, trail.len() - 1);
        }
        layer = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ExactTable;
    use crate::heuristic::pdb::{Database, Partition};
    use npuzzle_core::{Goal, Moves, Scrambler, Size};

    /// On 3x3 (a 4-4 partition with its mirror), every beam reaches the goal, never below
    /// the exact distance; a wide beam finds the optimum on most boards, a beam of one
    /// (greedy) on few; a board at the goal needs no move; a stop ends it.
    #[test]
    fn beams_over_tables_replay_and_never_beat_the_exact_distance() {
        let goal = Goal::BlankFirst.board(Size::square(3).unwrap()).unwrap();
        let partition = Partition::parse("1,2,3,4/5,6,7,8", &goal).unwrap();
        let base = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
        let tables = Tables::new(base, &goal, &partition).unwrap();
        assert!(fits(&tables));
        let exact = ExactTable::build(&goal).unwrap();
        let weights = Weights { md: 4, extra: 5, squares: 1 };
        let mut rng = Scrambler::new(23);
        let (mut optimal_wide, mut optimal_narrow) = (0, 0);
        for i in 0..40 {
            let board = rng.solvable(&goal);
            let d = exact.distance(&board).unwrap() as usize;
            for (width, threads) in [(1, 1), (2000, 1 + i % 2)] {
                let mut nodes = 0;
                let path =
                    search(&tables, &board, width, 5, 500, threads, weights, &mut nodes, &|| false)
                        .expect("a path");
                let mut end = board.clone();
                end.apply_all(&Moves(path.clone())).unwrap();
                assert_eq!(end, goal, "{board}");
                assert!(path.len() >= d, "{board}: {} below {d}", path.len());
                assert!(nodes > 0 || d == 0);
                if path.len() == d {
                    if width == 1 {
                        optimal_narrow += 1;
                    } else {
                        optimal_wide += 1;
                    }
                }
            }
        }
        assert!(
            optimal_wide >= 30 && optimal_wide > optimal_narrow,
            "{optimal_wide} {optimal_narrow}"
        );
        let mut nodes = 0;
        assert_eq!(
            search(&tables, &goal, 10, 1, 10, 1, weights, &mut nodes, &|| false),
            Some(Vec::new())
        );
        let board = rng.solvable(&goal);
        assert_eq!(search(&tables, &board, 10, 1, 100, 1, weights, &mut nodes, &|| true), None);
    }
}
