//! A measurement, not part of the engine: DeepCubeA's search, batch weighted A*, over the
//! beam's ranking (see "What did not help" in the module's docs).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use npuzzle_core::{Board, Goal, Move};

use super::beam::Zobrist;
use super::heuristic::{Evaluator, Neighbours};
use super::*;

/// One position reached: its tiles, blank, path length, ranking's parts and parent.
struct Node {
    tiles: Vec<u8>,
    blank: u8,
    g: u32,
    md: u32,
    lc: u32,
    sq: u32,
    parent: u32,
    mv: u8,
}

/// The search's parameters: `f = lambda x g + md x Manhattan + lc x conflicts + sq x the
/// squared distances`; the `batch` best positions of the open list are expanded together;
/// at most `max_nodes` expansions.
struct Params {
    lambda: u32,
    md: u32,
    lc: u32,
    sq: u32,
    batch: usize,
    max_nodes: usize,
}

/// Batch weighted A* from `board` to `goal` (a position is expanded again only when reached
/// by a shorter path): the path to the first goal generated, if any, and the expansions.
fn search(board: &Board, goal: &Board, p: &Params) -> (Option<Vec<Move>>, usize) {
    let n = board.tiles().len();
    let eval = Evaluator::new(goal);
    let next = Neighbours::new(board.width(), board.height());
    let zobrist = Zobrist::new(n);
    let mut tiles: Vec<u16> = board.tiles().to_vec();
    let md = eval.manhattan(&tiles);
    let (lc, sq) = (eval.value(&tiles) - md, eval.squares(&tiles));
    let key = |g: u32, md: u32, lc: u32, sq: u32| p.lambda * g + p.md * md + p.lc * lc + p.sq * sq;
    let pack = |t: &[u16]| t.iter().map(|&x| x as u8).collect::<Vec<u8>>();
    let mut nodes = vec![Node {
        tiles: pack(&tiles),
        blank: board.blank() as u8,
        g: 0,
        md,
        lc,
        sq,
        parent: u32::MAX,
        mv: u8::MAX,
    }];
    let mut best_g: HashMap<u64, u32> = HashMap::from([(zobrist.hash(&tiles), 0)]);
    let mut open = BinaryHeap::from([Reverse((key(0, md, lc, sq), 0u32))]);
    let mut expanded = 0;
    while !open.is_empty() && expanded < p.max_nodes {
        let batch: Vec<u32> =
            std::iter::from_fn(|| open.pop().map(|Reverse((_, i))| i)).take(p.batch).collect();
        for i in batch {
            expanded += 1;
            let node = &nodes[i as usize];
            for (d, &s) in tiles.iter_mut().zip(&node.tiles) {
                *d = u16::from(s);
            }
            let (blank, g, md, lc, sq, last) =
                (usize::from(node.blank), node.g, node.md, node.lc, node.sq, node.mv);
            let hash = zobrist.hash(&tiles);
            if best_g.get(&hash).is_some_and(|&b| b < g) {
                continue;
            }
            for m in 0..4 {
                if last != u8::MAX && Move::ALL[m] == Move::ALL[usize::from(last)].inverse() {
                    continue;
                }
                let Some(to) = next.of(blank, m) else { continue };
                let tile = tiles[to];
                let dsq = eval.distance(tile, blank).pow(2) as i32
                    - eval.distance(tile, to).pow(2) as i32;
                let (dmd, dlc) = eval.slide_parts(&mut tiles, blank, to);
                let child = (md as i32 + dmd, lc as i32 + dlc, sq as i32 + dsq);
                let (cmd, clc, csq) = (child.0 as u32, child.1 as u32, child.2 as u32);
                let ch = zobrist.moved(hash, tile, to, blank);
                if best_g.get(&ch).is_none_or(|&b| b > g + 1) {
                    best_g.insert(ch, g + 1);
                    nodes.push(Node {
                        tiles: pack(&tiles),
                        blank: to as u8,
                        g: g + 1,
                        md: cmd,
                        lc: clc,
                        sq: csq,
                        parent: i,
                        mv: m as u8,
                    });
                    let id = (nodes.len() - 1) as u32;
                    if cmd == 0 {
                        let mut path = Vec::new();
                        let mut k = id as usize;
                        while nodes[k].parent != u32::MAX {
                            path.push(Move::ALL[usize::from(nodes[k].mv)]);
                            k = nodes[k].parent as usize;
                        }
                        path.reverse();
                        return (Some(path), expanded);
                    }
                    open.push(Reverse((key(g + 1, cmd, clc, csq), id)));
                }
                tiles.swap(to, blank);
            }
        }
    }
    (None, expanded)
}

/// Batch weighted A* on a file's first boards, each answer then shortened by the plain
/// windows: `WA=lambda:md:lc:sq:batch,...` (`3:4:5:1:10000`), `WA_NODES` expansions at
/// most (5 M). `NEAR_FILE=... LIMIT=20 WA=... cargo test --release -p npuzzle-solver --lib
/// wastar::experiment -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a test"]
fn experiment() {
    let rows = super::tables_beam::rows();
    let goal = Goal::BlankLast.board(rows[0].0.size()).unwrap();
    let meter = Meter::unlimited();
    let max_nodes = std::env::var("WA_NODES").map_or(5_000_000, |s| s.parse().unwrap());
    for v in std::env::var("WA").unwrap().split(',') {
        let x: Vec<u32> = v.split(':').map(|x| x.parse().unwrap()).collect();
        let (lambda, md, lc, sq, batch) = (x[0], x[1], x[2], x[3], x[4] as usize);
        let params = Params { lambda, md, lc, sq, batch, max_nodes };
        let (mut total, mut secs, mut found) = (0, 0.0, 0);
        let mut each = Vec::new();
        for (board, _) in &rows {
            let t = Instant::now();
            let (moves, expanded) = search(board, &goal, &params);
            secs += t.elapsed().as_secs_f64();
            let Some(mut moves) = moves else {
                each.push(0);
                continue;
            };
            let raw = moves.len();
            super::tables_beam::shorten(board, &mut moves, &meter);
            assert!(replays(board, &goal, &moves));
            found += 1;
            total += moves.len();
            each.push(moves.len());
            eprintln!("  {} moves ({raw} before the windows), {expanded} expanded", moves.len());
        }
        eprintln!(
            "{v}: {found} of {} answered, mean {:.2}, {:.2} s a board: {each:?}",
            rows.len(),
            total as f64 / found.max(1) as f64,
            secs / rows.len() as f64
        );
    }
}
