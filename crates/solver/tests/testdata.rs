//! Every engine and heuristic over the shared boards of `testdata/small.txt`, whose optimal
//! lengths come from an exhaustive breadth-first search written independently of npuzzle.
//! Optimal algorithms must give exactly that length and say so; the others must replay to
//! the goal and never claim optimality they do not have. Goals are also renamed at random,
//! and the solver must answer as for the relabelled board.

use npuzzle_core::{Board, Goal, Scrambler, parse_input};
use npuzzle_solver::{Algorithm, Heuristic, Options, Solver, Status};

/// (board, goal, optimal length) of every line of `testdata/small.txt`.
fn small() -> Vec<(Board, Board, u32)> {
    let text = include_str!("../../../testdata/small.txt");
    parse_input(text)
        .unwrap()
        .into_iter()
        .map(|i| {
            let goal = i.goal.as_deref().unwrap_or(&Goal::BlankLast).board(i.board.size()).unwrap();
            (i.board, goal, i.optimal.unwrap())
        })
        .collect()
}

const ALGORITHMS: [Algorithm; 11] = [
    Algorithm::Auto,
    Algorithm::Bfs,
    Algorithm::Dfs,
    Algorithm::Iddfs,
    Algorithm::Dijkstra,
    Algorithm::Greedy,
    Algorithm::AStar,
    Algorithm::WAStar,
    Algorithm::IdaStar,
    Algorithm::Table,
    Algorithm::Reduction,
];

const HEURISTICS: [Heuristic; 4] =
    [Heuristic::Auto, Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict];

#[test]
fn the_shared_boards_are_all_there() {
    let boards = small();
    assert_eq!(boards.len(), 96);
    // The hardest 3x3 positions are 31 moves from a corner-blank goal, 30 from the snail's.
    let mut hardest: Vec<u32> =
        boards.iter().filter(|(b, _, _)| b.tiles().len() == 9).map(|(_, _, d)| *d).collect();
    hardest.sort_unstable();
    assert_eq!(hardest[hardest.len() - 3..], [30, 31, 31]);
}

#[test]
fn every_engine_and_heuristic_agrees_with_breadth_first_search() {
    let solver = Solver::new();
    for (board, goal, optimum) in small() {
        for algorithm in ALGORITHMS {
            for heuristic in HEURISTICS {
                if !algorithm.is_informed() && heuristic != Heuristic::Auto {
                    continue;
                }
                let options = Options { algorithm, heuristic, ..Options::default() };
                let s = solver.solve(&board, &goal, &options).unwrap();
                let what = format!("{algorithm}/{heuristic} on {board} towards {goal}");
                assert_eq!(s.status, Status::Solved, "{what}: {:?}", s.reason);
                if let Err(e) = s.replay(&board, &goal) {
                    panic!("{what}: {e}");
                }
                let length = s.moves.len() as u32;
                assert!(length >= optimum, "{what}: {length} < {optimum}");
                assert_eq!((length - optimum) % 2, 0, "{what}: parity");
                if algorithm.is_optimal() || algorithm == Algorithm::Auto {
                    assert!(s.optimal, "{what}");
                    assert_eq!(length, optimum, "{what}");
                } else {
                    assert!(!s.optimal || length == optimum, "{what}");
                }
                if algorithm == Algorithm::WAStar {
                    assert!(f64::from(length) <= 2.0 * f64::from(optimum), "{what}");
                }
                if s.optimal {
                    assert_eq!(s.lower_bound, Some(u64::from(length)), "{what}");
                }
            }
        }
    }
}

/// Renames the tiles of `board` and `goal` by a random bijection (the blank stays 0).
fn rename(board: &Board, goal: &Board, s: &mut Scrambler) -> (Board, Board) {
    let n = board.tiles().len();
    // A random permutation of 1..n from a random board's non-blank tiles.
    let shuffled: Vec<u16> = s
        .solvable(&Goal::BlankLast.board(board.size()).unwrap())
        .tiles()
        .iter()
        .copied()
        .filter(|&t| t != 0)
        .collect();
    let name = |t: u16| if t == 0 { 0 } else { shuffled[usize::from(t) - 1] };
    let re = |b: &Board| Board::new(b.size(), b.tiles().iter().map(|&t| name(t)).collect());
    assert_eq!(shuffled.len(), n - 1);
    (re(board).unwrap(), re(goal).unwrap())
}

#[test]
fn a_solve_under_a_renamed_goal_equals_the_solve_it_was_renamed_from() {
    let solver = Solver::new();
    let mut s = Scrambler::new(7);
    for (board, goal, optimum) in small() {
        let (b2, g2) = rename(&board, &goal, &mut s);
        for (algorithm, heuristic) in [
            (Algorithm::Auto, Heuristic::Auto),
            (Algorithm::AStar, Heuristic::LinearConflict),
            (Algorithm::IdaStar, Heuristic::Manhattan),
            (Algorithm::Greedy, Heuristic::Hamming),
        ] {
            let options = Options { algorithm, heuristic, ..Options::default() };
            let a = solver.solve(&board, &goal, &options).unwrap();
            let b = solver.solve(&b2, &g2, &options).unwrap();
            // Same moves, same effort: the renamed request ran on the very same tables.
            assert_eq!(a.moves, b.moves, "{algorithm} {board}");
            assert_eq!(a.stats.expanded, b.stats.expanded, "{algorithm} {board}");
            if a.optimal {
                assert_eq!(a.moves.len() as u32, optimum);
            }
        }
    }
}
