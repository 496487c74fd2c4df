//! Integration tests of the solver: heuristics against exact distances on every 3x3 board,
//! every optimal algorithm against the exact table, every solution replayed to the goal.

use npuzzle_core::Parity;
use npuzzle_core::{Board, Goal, Scrambler, Size};
use npuzzle_solver::heuristic::GoalMap;
use npuzzle_solver::{
    Algorithm, ExactTable, Heuristic, HeuristicKind, Limit, Limits, Options, Reason, Solution,
    SolveError, Status, solve,
};

const GOALS: [Goal; 3] = [Goal::BlankLast, Goal::BlankFirst, Goal::Snail];
const HEURISTICS: [Heuristic; 3] =
    [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict];

fn goal3(goal: &Goal) -> Board {
    goal.board(Size::square(3).unwrap()).unwrap()
}

/// Every reachable 3x3 board with its exact distance, by BFS from the goal (independent of
/// the table's own indexing).
fn all_boards(goal: &Board) -> Vec<(Board, u32)> {
    use std::collections::{HashSet, VecDeque};
    let mut seen = HashSet::from([goal.clone()]);
    let mut queue = VecDeque::from([(goal.clone(), 0u32)]);
    let mut out = Vec::new();
    while let Some((b, d)) = queue.pop_front() {
        for m in b.legal_moves() {
            let n = b.moved(m).unwrap();
            if seen.insert(n.clone()) {
                queue.push_back((n, d + 1));
            }
        }
        out.push((b, d));
    }
    out
}

#[test]
fn heuristics_never_overestimate_on_any_3x3_board() {
    for goal in &GOALS {
        let g = goal3(goal);
        let map = GoalMap::new(&g);
        let boards = all_boards(&g);
        assert_eq!(boards.len(), 181_440);
        let table = ExactTable::build(&g).unwrap();
        let mut lc_sum = 0u64;
        let mut md_sum = 0u64;
        for (b, d) in &boards {
            assert_eq!(
                table.distance(b).map(u32::from),
                Some(*d),
                "table disagrees with BFS on {b}"
            );
            let (hm, md, lc) =
                (map.hamming(b.tiles()), map.manhattan(b.tiles()), map.linear_conflict(b.tiles()));
            assert!(
                hm <= *d && md <= *d && lc <= *d,
                "{goal}: {b} at {d}: hamming {hm}, manhattan {md}, lc {lc}"
            );
            assert!(hm <= md && md <= lc);
            // Each heuristic has the parity of the true distance or less (a move changes
            // Manhattan by exactly one).
            assert_eq!((md + d) % 2, 0);
            lc_sum += u64::from(lc);
            md_sum += u64::from(md);
        }
        // Linear conflict must actually add something.
        assert!(lc_sum > md_sum + md_sum / 20, "{goal}: lc {lc_sum} vs md {md_sum}");
    }
}

fn check(board: &Board, goal: &Board, options: &Options) -> npuzzle_solver::Solution {
    let s = solve(board, goal, options).unwrap();
    assert_eq!(s.status, Status::Solved, "{board}: {:?}", s.reason);
    if let Err(e) = s.replay(board, goal) {
        panic!("{} {:?} from {board}: {e}", s.algorithm, s.heuristic);
    }
    s
}

/// Every optimal algorithm/heuristic pair gives the table's length on `n` boards per goal.
fn agree(algorithm: Algorithm, heuristics: &[Option<Heuristic>], n: usize, seed: u64) {
    agree_on(&GOALS, algorithm, heuristics, n, seed);
}

/// [`agree`] under the given goals only.
fn agree_on(
    goals: &[Goal],
    algorithm: Algorithm,
    heuristics: &[Option<Heuristic>],
    n: usize,
    seed: u64,
) {
    for goal in goals {
        let g = goal3(goal);
        let table = ExactTable::build(&g).unwrap();
        let mut s = Scrambler::new(seed);
        for _ in 0..n {
            let b = s.solvable(&g);
            let want = usize::from(table.distance(&b).unwrap());
            for &h in heuristics {
                let options = Options {
                    algorithm,
                    heuristic: h.unwrap_or(Heuristic::Auto),
                    limits: Limits::unlimited(),
                    ..Options::default()
                };
                let sol = check(&b, &g, &options);
                assert_eq!(sol.moves.len(), want, "{algorithm} {h:?} on {b} ({goal})");
                assert!(sol.optimal);
            }
        }
    }
}

const ALL_H: [Option<Heuristic>; 3] =
    [Some(Heuristic::Hamming), Some(Heuristic::Manhattan), Some(Heuristic::LinearConflict)];

#[test]
fn astar_agrees_with_the_table() {
    agree(Algorithm::AStar, &ALL_H, 2000, 1);
}

#[test]
fn idastar_agrees_with_the_table() {
    agree(Algorithm::IdaStar, &ALL_H, 2000, 2);
}

/// Boards per goal for the searches without a heuristic: each explores up to the whole 3x3
/// space (BFS, Dijkstra) or re-walks it (IDDFS), so they cost the suite the most (2,000 per
/// goal took minutes of CI). Uniform random boards sit mostly 18-28 moves out, the range
/// where these searches do most of their work.
const UNINFORMED_BOARDS: usize = 600;

#[test]
fn bfs_agrees_with_the_table() {
    agree(Algorithm::Bfs, &[None], UNINFORMED_BOARDS, 3);
}

#[test]
fn dijkstra_agrees_with_the_table() {
    agree(Algorithm::Dijkstra, &[None], UNINFORMED_BOARDS, 4);
}

// IDDFS has no heuristic and no memory: it re-walks about 1.73^d paths per iteration, so
// a 28-move board costs it tens of millions of nodes (about 22 ms per board on average).
// One test per goal, so that the test harness spreads them over the cores.

#[test]
fn iddfs_agrees_with_the_table_blank_last() {
    agree_on(&[Goal::BlankLast], Algorithm::Iddfs, &[None], UNINFORMED_BOARDS, 5);
}

#[test]
fn iddfs_agrees_with_the_table_blank_first() {
    agree_on(&[Goal::BlankFirst], Algorithm::Iddfs, &[None], UNINFORMED_BOARDS, 5);
}

#[test]
fn iddfs_agrees_with_the_table_snail() {
    agree_on(&[Goal::Snail], Algorithm::Iddfs, &[None], UNINFORMED_BOARDS, 5);
}

#[test]
fn auto_agrees_with_the_table() {
    agree(Algorithm::Auto, &[None], 2000, 6);
    agree(Algorithm::Table, &[None], 200, 7);
}

#[test]
fn non_optimal_algorithms_reach_the_goal() {
    let mut s = Scrambler::new(8);
    for goal in &GOALS {
        let g = goal3(goal);
        let table = ExactTable::build(&g).unwrap();
        for _ in 0..200 {
            let b = s.solvable(&g);
            let best = usize::from(table.distance(&b).unwrap());
            let dfs = check(&b, &g, &Options { algorithm: Algorithm::Dfs, ..Options::default() });
            // DFS finds some path, never claims it is shortest, and cannot beat the table.
            assert!(!dfs.optimal);
            assert!(dfs.moves.len() >= best);
            assert_eq!((dfs.moves.len() - best) % 2, 0);
            for h in HEURISTICS {
                let greedy =
                    Options { algorithm: Algorithm::Greedy, heuristic: h, ..Options::default() };
                let sol = check(&b, &g, &greedy);
                claims_optimal_only_at_its_bound(&sol, best);
                for weight in [1.5, 3.0] {
                    let o = Options {
                        algorithm: Algorithm::WAStar,
                        heuristic: h,
                        weight,
                        ..Options::default()
                    };
                    let sol = check(&b, &g, &o);
                    assert!(
                        sol.moves.len() as f64 <= weight * best as f64,
                        "wA* {weight} {h} on {b}"
                    );
                    claims_optimal_only_at_its_bound(&sol, best);
                }
            }
        }
    }
}

/// A non-optimal algorithm's answer is called optimal exactly when it is as long as its
/// proven lower bound, which never exceeds the exact distance `best`: then it is the optimum.
fn claims_optimal_only_at_its_bound(sol: &Solution, best: usize) {
    let bound = sol.lower_bound.expect("a bound") as usize;
    assert!(bound <= best, "bound {bound} above the exact {best}");
    assert_eq!(sol.optimal, sol.moves.len() == bound, "{sol:?}");
    if sol.optimal {
        assert_eq!(sol.moves.len(), best);
    }
}

#[test]
fn optimal_on_other_small_shapes_agrees_with_tables() {
    // 2x4 and 4x2 have tables; check the packed and general engines against them.
    let mut s = Scrambler::new(9);
    for (w, h) in [(2, 4), (4, 2), (2, 3), (3, 2), (2, 2)] {
        for goal in &GOALS {
            let g = goal.board(Size::new(w, h).unwrap()).unwrap();
            let table = ExactTable::build(&g).unwrap();
            for _ in 0..50 {
                let b = s.solvable(&g);
                let want = usize::from(table.distance(&b).unwrap());
                for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
                    let sol = check(&b, &g, &Options { algorithm, ..Options::default() });
                    assert_eq!(sol.moves.len(), want);
                }
            }
        }
    }
}

#[test]
fn larger_boards_solve_and_replay() {
    let mut s = Scrambler::new(10);
    // Random walks keep these quick while exercising both engines and every goal.
    for (w, h) in [(4, 4), (3, 4), (4, 3), (5, 2), (2, 6), (5, 5), (6, 3)] {
        for goal in &GOALS {
            let g = goal.board(Size::new(w, h).unwrap()).unwrap();
            let (b, walk) = s.walk(&g, 30);
            for algorithm in [
                Algorithm::IdaStar,
                Algorithm::AStar,
                Algorithm::WAStar,
                Algorithm::Greedy,
                Algorithm::Auto,
            ] {
                let sol = check(&b, &g, &Options { algorithm, ..Options::default() });
                assert!(sol.moves.len() <= walk.len() || !sol.optimal);
            }
            let optimal =
                check(&b, &g, &Options { algorithm: Algorithm::IdaStar, ..Options::default() });
            let astar =
                check(&b, &g, &Options { algorithm: Algorithm::AStar, ..Options::default() });
            assert_eq!(optimal.moves.len(), astar.moves.len());
        }
    }
}

#[test]
fn unsolvable_boards_are_answers_not_errors() {
    let mut s = Scrambler::new(11);
    for (w, h) in [(3, 3), (4, 4), (5, 3)] {
        let g = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
        let b = s.unsolvable(&g);
        for algorithm in [Algorithm::Auto, Algorithm::Bfs, Algorithm::IdaStar] {
            let sol = solve(&b, &g, &Options { algorithm, ..Options::default() }).unwrap();
            assert_eq!(sol.status, Status::Unsolvable);
            assert_eq!(sol.reason, Some(Reason::Unsolvable(Parity::of(&b, &g))));
            assert!(sol.error().unwrap().contains("permutation"));
        }
    }
}

#[test]
fn limits_stop_searches_with_a_reason() {
    let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
    let b = Scrambler::new(12).solvable(&g);
    let bfs = Options {
        algorithm: Algorithm::Bfs,
        limits: Limits { max_memory: Some(16 << 20), ..Limits::default() },
        ..Options::default()
    };
    let sol = solve(&b, &g, &bfs).unwrap();
    assert_eq!(sol.status, Status::Limit);
    assert_eq!(sol.limit(), Some(Limit::Memory(16 << 20)));
    let msg = sol.error().unwrap();
    assert!(msg.starts_with("memory limit of 16 MiB reached after "), "{msg}");
    // Library messages give no command-line advice: that is each front end's to word.
    assert!(!msg.contains("--") && !msg.contains("try"), "{msg}");
    let nodes = Options {
        algorithm: Algorithm::IdaStar,
        limits: Limits { max_nodes: Some(1000), ..Limits::default() },
        ..Options::default()
    };
    let sol = solve(&b, &g, &nodes).unwrap();
    assert_eq!(sol.status, Status::Limit);
    assert_eq!(sol.limit(), Some(Limit::Nodes(1000)));
    assert!(sol.stats.expanded <= 1000);
    // IDA*'s lower bound is at least the start's heuristic.
    let lc = npuzzle_solver::heuristic::estimate(HeuristicKind::LinearConflict, &b, &g);
    assert!(sol.lower_bound.unwrap() >= u64::from(lc));
    // So does A* over walking distance (the generic engines, which reported none).
    let wd = Options {
        algorithm: Algorithm::AStar,
        heuristic: Heuristic::WalkingDistance,
        limits: Limits { max_nodes: Some(100), ..Limits::default() },
        ..Options::default()
    };
    let sol = solve(&b, &g, &wd).unwrap();
    assert_eq!((sol.status, sol.heuristic), (Status::Limit, Some(HeuristicKind::WalkingDistance)));
    let walking = npuzzle_solver::heuristic::estimate(HeuristicKind::WalkingDistance, &b, &g);
    assert!(sol.lower_bound.is_some_and(|l| l >= u64::from(walking)), "{:?}", sol.lower_bound);
    // The near-optimal engine (`auto` on 6x6) keeps to it too: its IDA* from the board asked
    // about the limit every 65,536 nodes, and made 65,536 for a limit of 1,000.
    let six = Goal::BlankLast.board(Size::square(6).unwrap()).unwrap();
    let auto = Options {
        algorithm: Algorithm::Auto,
        limits: Limits { max_nodes: Some(1000), ..Limits::default() },
        ..Options::default()
    };
    let sol = solve(&Scrambler::new(5).solvable(&six), &six, &auto).unwrap();
    assert_eq!(sol.algorithm, Algorithm::Near);
    assert_eq!(sol.status, Status::Limit);
    assert_eq!(sol.limit(), Some(Limit::Nodes(1000)));
    assert!(sol.stats.expanded <= 1000, "{}", sol.stats.expanded);
    let time = Options {
        algorithm: Algorithm::Iddfs,
        limits: Limits { timeout: Some(std::time::Duration::from_millis(50)), ..Limits::default() },
        ..Options::default()
    };
    let sol = solve(&b, &g, &time).unwrap();
    assert_eq!(sol.status, Status::Limit);
    assert_eq!(sol.limit(), Some(Limit::Time(std::time::Duration::from_millis(50))));
}

#[test]
fn bad_requests_are_errors() {
    let g = Goal::BlankLast.board(Size::square(2).unwrap()).unwrap();
    let b: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
    assert!(matches!(solve(&b, &g, &Options::default()), Err(SolveError::GoalSize { .. })));
    let g3 = goal3(&Goal::BlankLast);
    let bad_weight = Options { algorithm: Algorithm::WAStar, weight: 0.5, ..Options::default() };
    assert!(matches!(solve(&b, &g3, &bad_weight), Err(SolveError::Weight(_))));
    let g4 = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
    let b4 = Scrambler::new(1).solvable(&g4);
    let table = Options { algorithm: Algorithm::Table, ..Options::default() };
    assert_eq!(solve(&b4, &g4, &table), Err(SolveError::TableTooLarge(16)));
}

/// What a watcher saw of a search.
#[derive(Default)]
struct Seen {
    expanded: u64,
    generated: u64,
    bounds: Vec<u32>,
    /// Expanded boards whose reported h differs from the heuristic's value.
    wrong_h: u64,
    /// Stop after this many expansions (0: never).
    stop_after: u64,
    map: Option<(GoalMap, HeuristicKind)>,
}

impl npuzzle_search::Observer<Board, u32> for Seen {
    fn expand(&mut self, e: &npuzzle_search::Expand<'_, Board, u32>) -> npuzzle_search::Flow {
        self.expanded += 1;
        if let Some((map, kind)) = &self.map {
            if map.estimate(*kind, e.node().tiles()) != e.h() {
                self.wrong_h += 1;
            }
        }
        if self.stop_after > 0 && self.expanded >= self.stop_after {
            npuzzle_search::Flow::Stop
        } else {
            npuzzle_search::Flow::Continue
        }
    }

    fn generate(&mut self, _: &npuzzle_search::Generate<'_, Board, u32>) -> npuzzle_search::Flow {
        self.generated += 1;
        npuzzle_search::Flow::Continue
    }

    fn bound(&mut self, bound: &npuzzle_search::Bound<u32>) -> npuzzle_search::Flow {
        self.bounds.push(bound.bound());
        npuzzle_search::Flow::Continue
    }
}

#[test]
fn watched_searches_show_every_expansion_and_agree() {
    let all = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Iddfs,
        Algorithm::Dijkstra,
        Algorithm::Greedy,
        Algorithm::AStar,
        Algorithm::WAStar,
        Algorithm::IdaStar,
        Algorithm::Auto,
    ];
    for goal in &GOALS {
        let g = goal3(goal);
        let table = ExactTable::build(&g).unwrap();
        let mut s = Scrambler::new(21);
        for _ in 0..8 {
            // Walks of 14 moves keep IDDFS and BFS quick under the generic engine.
            let b = s.walk(&g, 14).0;
            let want = usize::from(table.distance(&b).unwrap());
            for algorithm in all {
                let heuristic = Heuristic::Manhattan;
                let options = Options { algorithm, heuristic, ..Options::default() };
                let informed = !matches!(
                    algorithm,
                    Algorithm::Bfs | Algorithm::Dfs | Algorithm::Iddfs | Algorithm::Dijkstra
                );
                let mut seen = Seen {
                    map: informed.then(|| (GoalMap::new(&g), HeuristicKind::Manhattan)),
                    ..Seen::default()
                };
                let sol = npuzzle_solver::solve_watched(&b, &g, &options, &mut seen).unwrap();
                assert_eq!(sol.status, Status::Solved, "{algorithm} on {b}");
                let mut end = b.clone();
                end.apply_all(&sol.moves).unwrap();
                assert_eq!(end, g, "{algorithm} on {b}");
                if sol.optimal {
                    assert_eq!(sol.moves.len(), want, "{algorithm} on {b}");
                }
                assert_eq!(seen.wrong_h, 0, "{algorithm}: h shown differs from the heuristic");
                if want > 0 {
                    assert!(seen.expanded > 0 && seen.generated > 0, "{algorithm} showed nothing");
                }
                if matches!(algorithm, Algorithm::IdaStar | Algorithm::Auto | Algorithm::Iddfs) {
                    assert!(seen.bounds.windows(2).all(|w| w[0] < w[1]), "{:?}", seen.bounds);
                    assert_eq!(seen.bounds.last().copied(), Some(want as u32), "{algorithm}");
                } else {
                    assert_eq!(seen.expanded, sol.stats.expanded, "{algorithm}");
                }
            }
        }
    }
}

#[test]
fn a_watcher_can_stop_the_search() {
    let g = goal3(&Goal::BlankLast);
    let b: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
        let mut seen = Seen { stop_after: 10, ..Seen::default() };
        let options = Options { algorithm, ..Options::default() };
        let sol = npuzzle_solver::solve_watched(&b, &g, &options, &mut seen).unwrap();
        assert_eq!(sol.status, Status::Limit, "{algorithm}");
        assert_eq!(seen.expanded, 10);
        assert_eq!(sol.limit(), Some(Limit::Cancelled), "{algorithm}");
    }
    // Not node searches: they run as `solve` does and show nothing.
    let mut seen = Seen::default();
    let table = Options { algorithm: Algorithm::Table, ..Options::default() };
    let sol = npuzzle_solver::solve_watched(&b, &g, &table, &mut seen).unwrap();
    assert_eq!(sol.moves.len(), 31);
    assert_eq!(seen.expanded, 0);
    let unsolvable: Board = "1 2 3/4 5 6/8 7 0".parse().unwrap();
    let sol =
        npuzzle_solver::solve_watched(&unsolvable, &g, &Options::default(), &mut seen).unwrap();
    assert_eq!(sol.status, Status::Unsolvable);
}

/// Regression: tables were cached per goal board and never freed, so a batch of boards each
/// with its own goal grew the process without bound (445 MB for 400 4x4 goals).
#[test]
fn tables_stay_bounded_whatever_the_goals() {
    let solver = npuzzle_solver::Solver::new();
    let mut s = Scrambler::new(400);
    for (w, h, count) in [(3, 3, 200), (4, 4, 60), (3, 4, 40)] {
        let size = Size::new(w, h).unwrap();
        for _ in 0..count {
            // A random goal (blank anywhere, any numbering) and an easy board towards it.
            let goal = s.solvable(&Goal::BlankLast.board(size).unwrap());
            let board = s.walk(&goal, 20).0;
            let sol = solver.solve(&board, &goal, &Options::default()).unwrap();
            assert_eq!(sol.status, Status::Solved);
            let mut end = board.clone();
            end.apply_all(&sol.moves).unwrap();
            assert_eq!(end, goal);
        }
    }
    // One exact table per 3x3 blank cell, one packed engine per 4x4 and 3x4 blank cell.
    assert!(solver.table_count() <= 9 + 16 + 12, "{}", solver.table_count());
}

/// Records what `solve_observed` shows from the fast engines.
#[derive(Default)]
struct Progressed {
    begun: u32,
    bounds: Vec<u32>,
    progress: u64,
    finished: Option<bool>,
    stop_at_progress: bool,
}

impl npuzzle_search::Observer<Board, u32> for Progressed {
    fn begin(&mut self, _: &npuzzle_search::Begin<'_, Board, u32>) -> npuzzle_search::Flow {
        self.begun += 1;
        npuzzle_search::Flow::Continue
    }

    fn bound(&mut self, b: &npuzzle_search::Bound<u32>) -> npuzzle_search::Flow {
        self.bounds.push(b.bound());
        npuzzle_search::Flow::Continue
    }

    fn progress(&mut self, p: &npuzzle_search::Progress) -> npuzzle_search::Flow {
        assert!(p.expanded() > 0 && p.expanded() % 1024 == 0);
        self.progress += 1;
        if self.stop_at_progress {
            npuzzle_search::Flow::Stop
        } else {
            npuzzle_search::Flow::Continue
        }
    }

    fn finish(&mut self, f: &npuzzle_search::Finish<'_>) {
        self.finished = Some(f.found());
    }
}

#[test]
fn the_fast_engines_report_bounds_progress_and_stop_when_asked() {
    let solver = npuzzle_solver::Solver::new();
    let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
    let b = Scrambler::new(9).walk(&g, 60).0;
    for algorithm in [Algorithm::IdaStar, Algorithm::AStar] {
        let options = Options { algorithm, heuristic: Heuristic::Manhattan, ..Options::default() };
        let mut seen = Progressed::default();
        let sol = solver.solve_observed(&b, &g, &options, &mut seen).unwrap();
        assert_eq!(sol.status, Status::Solved);
        assert_eq!(seen.begun, 1);
        assert_eq!(seen.finished, Some(true));
        assert_eq!(seen.bounds.last().copied(), Some(sol.moves.len() as u32), "{algorithm}");
        assert!(seen.bounds.windows(2).all(|w| w[0] < w[1]), "{:?}", seen.bounds);
        assert_eq!(seen.progress, (sol.stats.expanded - 1) / 1024, "{algorithm}");
        // Stopping from a progress event ends the search as cancelled, with the bound kept.
        if sol.stats.expanded > 1024 {
            let mut stopper = Progressed { stop_at_progress: true, ..Progressed::default() };
            let stopped = solver.solve_observed(&b, &g, &options, &mut stopper).unwrap();
            assert_eq!(stopped.limit(), Some(Limit::Cancelled));
            assert_eq!(stopped.stats.expanded, 1024);
            assert_eq!(stopper.finished, Some(false));
            let lb = stopped.lower_bound.unwrap();
            assert!(lb >= u64::from(stopper.bounds.last().copied().unwrap_or(0)));
            assert!(lb <= sol.moves.len() as u64);
        }
    }
}

/// Records what the near-optimal engine shows a watcher: its bounds and its best lengths.
#[derive(Default)]
struct Anytime {
    bounds: Vec<u32>,
    bests: Vec<u64>,
    stop_at_best: bool,
}

impl npuzzle_search::Observer<Board, u32> for Anytime {
    fn bound(&mut self, b: &npuzzle_search::Bound<u32>) -> npuzzle_search::Flow {
        self.bounds.push(b.bound());
        npuzzle_search::Flow::Continue
    }

    fn progress(&mut self, p: &npuzzle_search::Progress) -> npuzzle_search::Flow {
        if let Some(best) = p.best() {
            if self.bests.last() != Some(&best) {
                self.bests.push(best);
            }
        }
        if self.stop_at_best && !self.bests.is_empty() {
            npuzzle_search::Flow::Stop
        } else {
            npuzzle_search::Flow::Continue
        }
    }
}

impl npuzzle_solver::Sampler for Anytime {
    fn wants(&mut self, _: u64) -> bool {
        false
    }
}

impl npuzzle_solver::Watcher for Anytime {}

/// A hint on a big board is a near-optimal solve of seconds: its watcher hears the best path
/// so far and the bound as they improve (the games show them while it runs), and stopping it
/// gives the first move of the best path it has.
#[test]
fn a_hint_shows_its_best_path_and_bound_as_they_improve() {
    let solver = npuzzle_solver::Solver::new();
    let g = Goal::BlankLast.board(Size::square(8).unwrap()).unwrap();
    let b = Scrambler::new(3).solvable(&g);
    let limits = Limits { timeout: Some(std::time::Duration::from_secs(3)), ..Limits::default() };
    let options = Options { limits, ..Options::default() };
    let request = npuzzle_solver::Request::new(&b, &g, &options);
    let live = std::sync::Arc::new(npuzzle_solver::Live::new());
    let hint = solver.hint_with(&request, &mut live.watcher()).unwrap();
    let (best, bound) = (live.best().unwrap(), live.bound().unwrap());
    let distance = hint.distance.unwrap();
    assert!(distance <= best, "{distance} after {best}");
    let proved = hint.solution.lower_bound.unwrap();
    assert!(u64::from(bound) <= proved && proved < distance, "{bound} {proved} {distance}");
    assert_eq!(hint.best, hint.solution.moves.as_slice().first().copied());
    hint.solution.replay(&b, &g).unwrap();
    // Stopped at the first best length it hears: the first move of that path or a shorter one.
    let mut stopper = Anytime { stop_at_best: true, ..Anytime::default() };
    let stopped = solver.best_move_hint_with(&request, &mut stopper).unwrap();
    assert!(stopped.best.is_some() && !stopped.exact);
    assert!(stopped.distance.unwrap() <= stopper.bests[0], "{:?}", stopper.bests);
    assert!(stopped.solution.stats.seconds < 2.5, "{}", stopped.solution.stats.seconds);
    stopped.solution.replay(&b, &g).unwrap();
}

/// The near-optimal engine tells a watcher its best length so far each time it falls, and its
/// bound each time it rises, and stops when the watcher asks, with the best answer it has: an
/// 8x8, which has a path within half a second and improves it for seconds more.
#[test]
fn the_near_engine_shows_its_best_answer_and_bound_as_they_improve() {
    let solver = npuzzle_solver::Solver::new();
    let g = Goal::BlankLast.board(Size::square(8).unwrap()).unwrap();
    let b = Scrambler::new(3).solvable(&g);
    let limits = Limits { timeout: Some(std::time::Duration::from_secs(3)), ..Limits::default() };
    let options = Options { algorithm: Algorithm::Near, limits, ..Options::default() };
    let mut seen = Anytime::default();
    let sol = solver.solve_observed(&b, &g, &options, &mut seen).unwrap();
    assert_eq!(sol.status, Status::Solved);
    assert!(!seen.bests.is_empty() && !seen.bounds.is_empty());
    assert!(seen.bests.windows(2).all(|w| w[0] > w[1]), "{:?}", seen.bests);
    assert!(seen.bounds.windows(2).all(|w| w[0] < w[1]), "{:?}", seen.bounds);
    let (length, bound) = (sol.moves.len() as u64, sol.lower_bound.unwrap());
    assert!(length <= *seen.bests.last().unwrap(), "{length} after {:?}", seen.bests);
    assert!(u64::from(*seen.bounds.last().unwrap()) <= bound, "{bound} after {:?}", seen.bounds);
    assert!(bound < seen.bests[0], "{bound} {:?}", seen.bests);
    // Stopped at the first best length it shows: that answer or a shorter one, at once.
    let mut stopper = Anytime { stop_at_best: true, ..Anytime::default() };
    let stopped = solver.solve_observed(&b, &g, &options, &mut stopper).unwrap();
    assert_eq!(stopped.status, Status::Solved);
    assert!(stopped.moves.len() as u64 <= stopper.bests[0], "{:?}", stopper.bests);
    assert!(stopped.stats.seconds < 2.5, "{}", stopped.stats.seconds);
    let mut end = b.clone();
    for m in stopped.moves.as_slice() {
        end = end.moved(*m).unwrap();
    }
    assert_eq!(end, g);
}

/// Replays `sol`'s moves from `board` and says whether they reach `goal`.
fn reaches(board: &Board, goal: &Board, sol: &Solution) -> bool {
    let mut b = board.clone();
    sol.moves.as_slice().iter().all(|&m| b.apply(m).is_ok()) && &b == goal
}

/// The near-optimal engine's note names the limit that cut its plan short (a tight node,
/// time or memory limit, a cancel), and none when its plan ran whole: its answers under a
/// tight limit are far longer (a seeded 7x7 board: 318 moves in its usual 11 s, 472 within
/// 0.3 s or 3 M nodes), and nothing said why.
#[test]
fn a_limit_that_cuts_the_near_engines_plan_short_is_noted() {
    use npuzzle_solver::Note;
    use std::time::Duration;
    let six = Goal::BlankLast.board(Size::square(6).unwrap()).unwrap();
    let board = Scrambler::new(5).solvable(&six);
    let near = |limits: Limits| {
        let options = Options { algorithm: Algorithm::Near, limits, ..Options::default() };
        let sol = solve(&board, &six, &options).unwrap();
        assert_eq!(sol.status, Status::Solved, "{:?}", sol.reason);
        assert!(reaches(&board, &six, &sol));
        sol
    };
    let cut = |sol: &Solution| {
        sol.notes.iter().find_map(|n| match n {
            Note::NearCut { limit, quick } => Some((*limit, *quick)),
            _ => None,
        })
    };
    let nodes = near(Limits { max_nodes: Some(3_000_000), ..Limits::default() });
    assert_eq!(cut(&nodes), Some((Limit::Nodes(3_000_000), false)));
    let text = nodes.note().unwrap();
    assert!(
        text.ends_with(
            "; the node limit (3,000,000) cut the near-optimal engine's plan short: with more \
             nodes its answers are shorter"
        ),
        "{text}"
    );
    let second = Duration::from_secs(1);
    let time = near(Limits { timeout: Some(second), ..Limits::default() });
    assert_eq!(cut(&time), Some((Limit::Time(second), false)), "{:?}", time.notes);
    assert!(time.note().unwrap().contains("the time limit (1.0 s) cut"));
    let memory = near(Limits { max_memory: Some(2 << 20), ..Limits::default() });
    assert_eq!(cut(&memory), Some((Limit::Memory(2 << 20), false)), "{:?}", memory.notes);
    // Stopped from another thread after its first answers: the best so far, and the note.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let stopped = near(Limits { cancel: Some(cancel), ..Limits::default() });
    stopper.join().unwrap();
    assert_eq!(cut(&stopped), Some((Limit::Cancelled, false)), "{:?}", stopped.notes);
    // A 4x5 board's plan (about a second) runs whole within the default limits: no note.
    let goal = Goal::BlankLast.board(Size::new(4, 5).unwrap()).unwrap();
    let board = Scrambler::new(5).solvable(&goal);
    let options = Options { algorithm: Algorithm::Near, ..Options::default() };
    let whole = solve(&board, &goal, &options).unwrap();
    assert!(reaches(&board, &goal, &whole));
    assert_eq!(cut(&whole), None, "{:?}", whole.notes);
}
