//! 3x3 benchmarks against the `pathfinding` crate, on the same 1,000 seeded random boards.
//!
//! Run: `cargo bench -p npuzzle-solver --bench solve3x3`. Each measurement solves all 1,000
//! boards; divide by 1,000 for the time per board. The baselines use pathfinding's `astar`
//! and `idastar` with the same Manhattan heuristic on a plain `[u8; 9]` state, the way its
//! documentation shows; ours go through the public `solve` entry point, request checks and
//! all.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle_core::{Board, Goal, Scrambler, Size};
use npuzzle_solver::{Algorithm, ExactTable, Heuristic, Limits, Options, solve};

const BOARDS: usize = 1000;

fn boards() -> (Board, Vec<Board>) {
    let goal = Goal::BlankLast.board(Size::square(3).unwrap()).unwrap();
    let mut s = Scrambler::new(2026);
    let boards = (0..BOARDS).map(|_| s.solvable(&goal)).collect();
    (goal, boards)
}

/// The baseline's state: cells in row-major order.
type State = [u8; 9];

fn state(b: &Board) -> State {
    let mut s = [0u8; 9];
    for (i, &t) in b.tiles().iter().enumerate() {
        s[i] = t as u8;
    }
    s
}

fn neighbours(s: &State) -> Vec<(State, u32)> {
    let blank = s.iter().position(|&t| t == 0).unwrap_or(0);
    let (x, y) = (blank % 3, blank / 3);
    let mut out = Vec::with_capacity(4);
    let mut push = |to: usize| {
        let mut n = *s;
        n.swap(blank, to);
        out.push((n, 1));
    };
    if x > 0 {
        push(blank - 1);
    }
    if x < 2 {
        push(blank + 1);
    }
    if y > 0 {
        push(blank - 3);
    }
    if y < 2 {
        push(blank + 3);
    }
    out
}

fn manhattan(s: &State, goal_pos: &[usize; 9]) -> u32 {
    let mut d = 0;
    for (i, &t) in s.iter().enumerate() {
        if t != 0 {
            let g = goal_pos[usize::from(t)];
            d += ((i % 3).abs_diff(g % 3) + (i / 3).abs_diff(g / 3)) as u32;
        }
    }
    d
}

fn bench(c: &mut Criterion) {
    let (goal, boards) = boards();
    let goal_state = state(&goal);
    let mut goal_pos = [0usize; 9];
    for (i, &t) in goal_state.iter().enumerate() {
        goal_pos[usize::from(t)] = i;
    }
    let states: Vec<State> = boards.iter().map(state).collect();
    let unlimited = |algorithm, heuristic| Options {
        algorithm,
        heuristic,
        limits: Limits::unlimited(),
        ..Options::default()
    };

    // Sanity: every engine below finds the same total length.
    let table = ExactTable::build(&goal).unwrap();
    let total: usize = boards.iter().map(|b| usize::from(table.distance(b).unwrap())).sum();
    let pf_total: u32 = states
        .iter()
        .map(|s| {
            pathfinding::directed::astar::astar(
                s,
                neighbours,
                |n| manhattan(n, &goal_pos),
                |n| *n == goal_state,
            )
            .unwrap()
            .1
        })
        .sum();
    assert_eq!(pf_total as usize, total);
    let ours: usize = boards
        .iter()
        .map(|b| {
            solve(b, &goal, &unlimited(Algorithm::AStar, Heuristic::Manhattan)).unwrap().moves.len()
        })
        .sum();
    assert_eq!(ours, total);

    let mut g = c.benchmark_group("3x3 x1000");
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    g.bench_function("pathfinding astar manhattan", |b| {
        b.iter(|| {
            for s in &states {
                black_box(pathfinding::directed::astar::astar(
                    s,
                    neighbours,
                    |n| manhattan(n, &goal_pos),
                    |n| *n == goal_state,
                ));
            }
        })
    });
    g.bench_function("pathfinding idastar manhattan", |b| {
        b.iter(|| {
            for s in &states {
                black_box(pathfinding::directed::idastar::idastar(
                    s,
                    neighbours,
                    |n| manhattan(n, &goal_pos),
                    |n| *n == goal_state,
                ));
            }
        })
    });
    let astar = unlimited(Algorithm::AStar, Heuristic::Manhattan);
    g.bench_function("npuzzle astar manhattan", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(solve(board, &goal, &astar).unwrap());
            }
        })
    });
    let idastar_md = unlimited(Algorithm::IdaStar, Heuristic::Manhattan);
    g.bench_function("npuzzle idastar manhattan", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(solve(board, &goal, &idastar_md).unwrap());
            }
        })
    });
    let idastar = unlimited(Algorithm::IdaStar, Heuristic::LinearConflict);
    g.bench_function("npuzzle idastar linear-conflict", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(solve(board, &goal, &idastar).unwrap());
            }
        })
    });
    let auto = Options::default();
    g.bench_function("npuzzle auto", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(solve(board, &goal, &auto).unwrap());
            }
        })
    });
    g.finish();

    let mut t = c.benchmark_group("3x3 table");
    t.sample_size(20);
    t.bench_function("build exact table (181,440 states)", |b| {
        b.iter(|| black_box(ExactTable::build(&goal)))
    });
    t.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
