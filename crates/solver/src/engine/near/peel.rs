//! Measurements, not part of the engine: peel the first row and column by a beam, then
//! solve the board left (one row and one column smaller) with the engine (`experiment`,
//! see "What did not help" in the module's docs); and big boards in strips of rows by such
//! beams (`strips`, see the reduction solver's docs).

use std::time::{Duration, Instant};

use npuzzle_core::{Board, Goal, Move, Size};

use super::beam::{Zobrist, keep_best, splitmix};
use super::heuristic::{Evaluator, Neighbours};
use super::*;

/// A beam from `board` until every tile of `stage` (by tile number) is home: children
/// ranked by `p x (4 md + squares)` over the stage's tiles, `4 md + squares` over the
/// others, `5 x` the conflicts, and `STRIP_BLANK` (0 unless set) times the blank's distance
/// to the nearest tile of the stage not home. The path, when it got there.
fn peel_beam(
    board: &Board,
    goal: &Board,
    stage: &[bool],
    width: usize,
    p: u32,
    max_depth: usize,
) -> Option<Vec<Move>> {
    let n = board.tiles().len();
    let blank_w: u64 = std::env::var("STRIP_BLANK").map_or(0, |s| s.parse().unwrap());
    let eval = Evaluator::new(goal);
    let next = Neighbours::new(board.width(), board.height());
    let zobrist = Zobrist::new(n);
    let mut tie = 7u64;
    let salt = splitmix(&mut tie);
    let mut tiles = board.tiles().to_vec();
    let split = |tiles: &[u16]| {
        let (mut s, mut o) = (0u32, 0u32);
        for (c, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let d = eval.distance(t, c);
            if stage[usize::from(t)] { s += 4 * d + d * d } else { o += 4 * d + d * d }
        }
        (s, o)
    };
    let (s0, o0) = split(&tiles);
    let lc0 = eval.value(&tiles) - eval.manhattan(&tiles);
    // Per node: stage part, other part, conflicts, blank, hash, last move.
    let mut nodes: Vec<(u32, u32, u32, u16, u64, u8)> =
        vec![(s0, o0, lc0, board.blank() as u16, zobrist.hash(&tiles), u8::MAX)];
    if s0 == 0 {
        return Some(Vec::new());
    }
    let mut trail: Vec<Vec<(u32, u8)>> = Vec::new();
    for _ in 0..max_depth {
        let mut children: Vec<(u64, u32, u32, u32, u64, u32, u8)> = Vec::new();
        for (i, &(s, o, lc, blank, hash, last)) in nodes.iter().enumerate() {
            let state = &mut tiles[i * n..(i + 1) * n];
            let blank = usize::from(blank);
            for m in 0..4 {
                if usize::from(last) == Move::ALL[m].inverse().index() {
                    continue;
                }
                let Some(from) = next.of(blank, m) else { continue };
                let tile = state[from];
                let (b, a) = (eval.distance(tile, from), eval.distance(tile, blank));
                let delta = (4 * a + a * a) as i64 - (4 * b + b * b) as i64;
                let (_, dl) = eval.slide_parts(state, blank, from);
                state.swap(from, blank);
                let (mut s2, mut o2) = (s, o);
                if stage[usize::from(tile)] {
                    s2 = (s2 as i64 + delta) as u32;
                } else {
                    o2 = (o2 as i64 + delta) as u32;
                }
                let lc2 = (lc as i32 + dl) as u32;
                let h = zobrist.moved(hash, tile, from, blank);
                let mut score = u64::from(p * s2 + o2 + 5 * lc2);
                if blank_w > 0 {
                    // The blank's distance to the nearest stage tile not home, in the child.
                    let w = board.width();
                    let (bx, by) = (from % w, from / w);
                    state.swap(from, blank);
                    let near = state
                        .iter()
                        .enumerate()
                        .filter(|&(c, &t)| stage[usize::from(t)] && eval.distance(t, c) > 0)
                        .map(|(c, _)| (c % w).abs_diff(bx) + (c / w).abs_diff(by))
                        .min()
                        .unwrap_or(1);
                    state.swap(from, blank);
                    score += blank_w * near as u64;
                }
                let mixed = (h ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                children.push((score << 24 | mixed, s2, o2, lc2, h, i as u32, m as u8));
            }
        }
        if children.is_empty() {
            return None;
        }
        keep_best(&mut children, width, |c| c.0, |c| c.4);
        let mut new_tiles = vec![0u16; children.len() * n];
        let mut new_nodes = Vec::with_capacity(children.len());
        let mut layer = Vec::with_capacity(children.len());
        for (c, slot) in children.iter().zip(new_tiles.chunks_mut(n)) {
            let parent = c.5 as usize;
            slot.copy_from_slice(&tiles[parent * n..(parent + 1) * n]);
            let blank = usize::from(nodes[parent].3);
            let from = next.of(blank, usize::from(c.6)).unwrap();
            slot.swap(from, blank);
            new_nodes.push((c.1, c.2, c.3, from as u16, c.4, c.6));
            layer.push((c.5, c.6));
        }
        trail.push(layer);
        tiles = new_tiles;
        nodes = new_nodes;
        // The best-ranked child with the stage home.
        if let Some(at) = (0..nodes.len()).filter(|&i| nodes[i].0 == 0).min_by_key(|&i| {
            let (_, o, lc, ..) = nodes[i];
            o + 5 * lc
        }) {
            let mut at = at;
            let mut path = Vec::new();
            for layer in trail.iter().rev() {
                path.push(Move::ALL[usize::from(layer[at].1)]);
                at = layer[at].0 as usize;
            }
            path.reverse();
            return Some(path);
        }
    }
    eprintln!("  no way: the best stage part {:?}", nodes.iter().map(|n| n.0).min());
    None
}

/// The board left when the rows above `top` and the columns left of `left` are home: its
/// cells from (`left`, `top`) on, each tile renumbered as the goal's sub-board numbers it
/// (and that goal).
fn sub_board(board: &Board, goal: &Board, left: usize, top: usize) -> (Board, Board) {
    let (w, h) = (board.width(), board.height());
    let size = Size::new(w - left, h - top).unwrap();
    let cells = || (top..h).flat_map(move |y| (left..w).map(move |x| (x, y)));
    let mut label = vec![0u16; w * h];
    let mut k = 0u16;
    for (x, y) in cells() {
        let t = goal.get(x, y);
        if t != 0 {
            k += 1;
            label[usize::from(t)] = k;
        }
    }
    let sub = cells().map(|(x, y)| label[usize::from(board.get(x, y))]).collect();
    let sub_goal = cells().map(|(x, y)| label[usize::from(goal.get(x, y))]).collect();
    (Board::new(size, sub).unwrap(), Board::new(size, sub_goal).unwrap())
}

/// `NEAR_FILE=... LIMIT=10 PEEL=20000:2 PEEL_SECONDS=10 [PLAIN=10] cargo test --release -p
/// npuzzle-solver --lib peel::experiment -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a test"]
fn experiment() {
    let rows = super::tables_beam::rows();
    let goal = Goal::BlankLast.board(rows[0].0.size()).unwrap();
    let (w, h) = (goal.width(), goal.height());
    let secs: f64 = std::env::var("PEEL_SECONDS").map_or(10.0, |s| s.parse().unwrap());
    let tables = std::env::var("NPUZZLE_CACHE").ok().filter(|_| w == 6 && h == 6).map(|dir| {
        let sub = Goal::BlankLast.board(Size::new(5, 5).unwrap()).unwrap();
        let cache = crate::heuristic::pdb::Cache::new(dir);
        crate::engine::twentyfour::Tables::korf_felner_cached(
            &cache,
            &sub,
            2,
            &|_| {},
            None,
            &mut |_| {},
        )
        .unwrap()
    });
    let mut stage = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 {
                stage[usize::from(goal.get(x, y))] = true;
            }
        }
    }
    stage[0] = false;
    let plain: Option<f64> = std::env::var("PLAIN").ok().map(|s| s.parse().unwrap());
    for v in std::env::var("PEEL").unwrap().split(',') {
        let x: Vec<usize> = v.split(':').map(|x| x.parse().unwrap()).collect();
        let (width, p) = (x[0], x[1] as u32);
        let (mut total, mut plain_total, mut peel_total, mut time) = (0, 0, 0, 0.0);
        let mut each = Vec::new();
        for (board, _) in &rows {
            let t = Instant::now();
            let Some(peel) = peel_beam(board, &goal, &stage, width, p, 400) else {
                eprintln!("no peel");
                continue;
            };
            let mut mid = board.clone();
            mid.apply_all(&npuzzle_core::Moves(peel.clone())).unwrap();
            let (sub, sub_goal) = sub_board(&mid, &goal, 1, 1);
            let mut settings = Settings::new(Budget::for_duration(Duration::from_secs_f64(secs)));
            settings.tables = tables.clone();
            let answer = solve(&sub, &sub_goal, &settings).unwrap();
            let mut moves = peel.clone();
            moves.extend(answer.moves.0.iter().copied());
            let meter = Meter::unlimited();
            super::tables_beam::shorten(board, &mut moves, &meter);
            assert!(replays(board, &goal, &moves));
            time += t.elapsed().as_secs_f64();
            total += moves.len();
            peel_total += peel.len();
            let p_len = plain.map_or(0, |s| {
                let settings = Settings::new(Budget::for_duration(Duration::from_secs_f64(s)));
                solve(board, &goal, &settings).unwrap().moves.len()
            });
            plain_total += p_len;
            each.push((peel.len(), answer.moves.len(), moves.len(), p_len));
        }
        let k = each.len() as f64;
        eprintln!(
            "{v}: mean {:.2} (peel {:.2}), plain {:.2}, {:.2} s a board: {each:?}",
            total as f64 / k,
            peel_total as f64 / k,
            plain_total as f64 / k,
            time / k
        );
    }
}

/// Big boards in strips: a beam (`peel_beam`) until the next `k` rows are home, on the rows
/// left, until `rest` rows are left, which the reduction solver finishes. Against the
/// reduction solver alone, as ratios to the Manhattan distance. `STRIP=size:k:width:p:rest
/// COUNT=3 [STRIP_BLANK=20] cargo test --release -p npuzzle-solver --lib peel::strips -- --ignored
/// --nocapture`
#[test]
#[ignore = "a measurement, not a test"]
fn strips() {
    let count: u64 = std::env::var("COUNT").map_or(3, |s| s.parse().unwrap());
    for v in std::env::var("STRIP").unwrap().split(',') {
        let x: Vec<usize> = v.split(':').map(|x| x.parse().unwrap()).collect();
        let (n, k, width, p, rest_rows) = (x[0], x[1], x[2], x[3] as u32, x[4]);
        let goal = Goal::BlankLast.board(Size::new(n, n).unwrap()).unwrap();
        let (mut ours, mut theirs, mut time, mut solved) = (0.0, 0.0, 0.0, 0);
        for seed in 0..count {
            let board = npuzzle_core::Scrambler::new(seed).solvable(&goal);
            let md = reduction::manhattan_lower_bound(&board, &goal) as f64;
            let t = Instant::now();
            let mut pos = board.clone();
            let mut moves: Vec<Move> = Vec::new();
            let mut top = 0;
            let mut failed = false;
            while n - top > rest_rows {
                let rows = k.min(n - top - rest_rows);
                let (sub, sub_goal) = sub_board(&pos, &goal, 0, top);
                let mut stage = vec![false; sub.tiles().len()];
                for y in 0..rows {
                    for x in 0..n {
                        stage[usize::from(sub_goal.get(x, y))] = true;
                    }
                }
                stage[0] = false;
                let Some(path) = peel_beam(&sub, &sub_goal, &stage, width, p, 20_000) else {
                    failed = true;
                    break;
                };
                pos.apply_all(&npuzzle_core::Moves(path.clone())).unwrap();
                moves.extend(path);
                top += rows;
            }
            if failed {
                eprintln!("  seed {seed}: a strip's beam found no way");
                continue;
            }
            let (sub, sub_goal) = sub_board(&pos, &goal, 0, top);
            moves.extend(reduction::solve(&sub, &sub_goal).unwrap().0);
            time += t.elapsed().as_secs_f64();
            assert!(replays(&board, &goal, &moves));
            let plain = reduction::solve(&board, &goal).unwrap().len() as f64;
            eprintln!("  seed {seed}: {:.3} against {:.3}", moves.len() as f64 / md, plain / md);
            ours += moves.len() as f64 / md;
            theirs += plain / md;
            solved += 1;
        }
        // Means over the boards whose strips all came home.
        let c = f64::from(solved);
        eprintln!(
            "{v}: {solved} of {count} boards: {:.3} against {:.3}, {:.2} s a board",
            ours / c,
            theirs / c,
            time / c
        );
    }
}
