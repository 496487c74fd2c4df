//! Every algorithm on the same table of problems: grid mazes, weighted terrain, an inconsistent
//! heuristic, a pancake-sorting permutation puzzle and an unreachable goal. Optimal algorithms
//! must agree with a brute-force reference; every path must replay; every limit must stop
//! every algorithm.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use npuzzle_search::{
    Flow, Limits, Observer, Outcome, Report, Stats, Stop, astar, bfs, dfs, dijkstra, greedy,
    idastar, iddfs, wastar,
};
use proptest::prelude::*;

type Node = u64;

/// A search problem with integer nodes, as closures so that one table holds them all.
struct Case {
    name: &'static str,
    start: Node,
    successors: Box<dyn Fn(Node) -> Vec<(Node, u32)>>,
    /// Admissible for every case.
    heuristic: Box<dyn Fn(Node) -> u32>,
    goal: Box<dyn Fn(Node) -> bool>,
    /// Every edge costs 1, so BFS and IDDFS are optimal too.
    unit: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Algo {
    Bfs,
    Dfs,
    Iddfs,
    Dijkstra,
    Greedy,
    Astar,
    Wastar(f64),
    Idastar,
}

const ALGOS: [Algo; 9] = [
    Algo::Bfs,
    Algo::Dfs,
    Algo::Iddfs,
    Algo::Dijkstra,
    Algo::Greedy,
    Algo::Astar,
    Algo::Wastar(1.5),
    Algo::Wastar(3.0),
    Algo::Idastar,
];

impl Algo {
    /// Searches edges as if they all cost 1.
    fn unit(self) -> bool {
        matches!(self, Algo::Bfs | Algo::Dfs | Algo::Iddfs)
    }

    /// Returns a cheapest path (for unit-cost searches: when the case is unit-cost).
    fn optimal(self, case: &Case) -> bool {
        match self {
            Algo::Dijkstra | Algo::Astar | Algo::Idastar => true,
            Algo::Bfs | Algo::Iddfs => case.unit,
            Algo::Dfs | Algo::Greedy | Algo::Wastar(_) => false,
        }
    }

    /// Explores without a closed set, so it needs a depth limit to give up.
    fn iterative(self) -> bool {
        matches!(self, Algo::Iddfs | Algo::Idastar)
    }
}

/// Runs `algo` on `case`; unit-cost searches report their edge count as the cost.
fn run<O>(algo: Algo, case: &Case, limits: &Limits, observer: O) -> Report<Node, u32>
where
    O: Observer<Node, u32> + Observer<Node, usize>,
{
    let weighted = |n: &Node| (case.successors)(*n);
    let plain = |n: &Node| (case.successors)(*n).into_iter().map(|(m, _)| m);
    let h = |n: &Node| (case.heuristic)(*n);
    let goal = |n: &Node| (case.goal)(*n);
    let start = &case.start;
    let unit_report = |report: Report<Node, usize>| Report {
        outcome: match report.outcome {
            Outcome::Found { path, cost } => Outcome::Found { path, cost: cost as u32 },
            Outcome::NotFound => Outcome::NotFound,
            Outcome::Stopped(stop) => Outcome::Stopped(stop),
        },
        stats: report.stats,
    };
    match algo {
        Algo::Bfs => unit_report(bfs(start, plain, goal, limits, observer)),
        Algo::Dfs => unit_report(dfs(start, plain, goal, limits, observer)),
        Algo::Iddfs => unit_report(iddfs(start, plain, goal, limits, observer)),
        Algo::Dijkstra => dijkstra(start, weighted, goal, limits, observer),
        Algo::Greedy => greedy(start, weighted, h, goal, limits, observer),
        Algo::Astar => astar(start, weighted, h, goal, limits, observer),
        Algo::Wastar(w) => wastar(start, weighted, h, goal, w, limits, observer),
        Algo::Idastar => idastar(start, weighted, h, goal, limits, observer),
    }
}

/// Checks that `path` is a walk from the start to a goal and returns its real cost.
fn replay(case: &Case, path: &[Node]) -> u32 {
    assert_eq!(path.first(), Some(&case.start), "{}: path must begin at the start", case.name);
    assert!((case.goal)(*path.last().unwrap()), "{}: path must end at a goal", case.name);
    path.windows(2)
        .map(|step| {
            let edge = (case.successors)(step[0]).into_iter().find(|&(m, _)| m == step[1]);
            edge.unwrap_or_else(|| {
                panic!("{}: {} -> {} is not a move", case.name, step[0], step[1])
            })
            .1
        })
        .sum()
}

/// The cheapest cost by brute force (Bellman-Ford over the reachable nodes), or `None`.
fn reference(case: &Case) -> Option<u32> {
    let mut best = std::collections::HashMap::from([(case.start, 0u32)]);
    loop {
        let mut changed = false;
        let known: Vec<(Node, u32)> = best.iter().map(|(&n, &c)| (n, c)).collect();
        for (node, cost) in known {
            for (next, step) in (case.successors)(node) {
                let entry = best.entry(next).or_insert(u32::MAX);
                if cost + step < *entry {
                    *entry = cost + step;
                    changed = true;
                }
            }
        }
        if !changed {
            return best.into_iter().filter(|&(n, _)| (case.goal)(n)).map(|(_, c)| c).min();
        }
    }
}

/// A grid read from text: `#` walls, `S` start, `G` goal, digits the cost of entering a cell
/// (other cells cost 1). Nodes are `y * width + x`; the heuristic is the Manhattan distance.
fn grid(name: &'static str, rows: &[&str]) -> Case {
    let width = rows[0].len() as i64;
    let height = rows.len() as i64;
    let cells: Vec<u8> = rows.concat().into_bytes();
    let find = |c: u8| cells.iter().position(|&x| x == c).unwrap() as u64;
    let (start, goal) = (find(b'S'), find(b'G'));
    let enter: Vec<Option<u32>> = cells
        .iter()
        .map(|&c| match c {
            b'#' => None,
            b'1'..=b'9' => Some(u32::from(c - b'0')),
            _ => Some(1),
        })
        .collect();
    let unit = enter.iter().all(|&c| c.is_none() || c == Some(1));
    let xy = move |n: Node| (n as i64 % width, n as i64 / width);
    Case {
        name,
        start,
        successors: Box::new(move |n| {
            let (x, y) = xy(n);
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .into_iter()
                .filter(|&(a, b)| (0..width).contains(&a) && (0..height).contains(&b))
                .map(|(a, b)| (b * width + a) as Node)
                .filter_map(|m| enter[m as usize].map(|c| (m, c)))
                .collect()
        }),
        heuristic: Box::new(move |n| {
            let ((x, y), (gx, gy)) = (xy(n), xy(goal));
            ((x - gx).abs() + (y - gy).abs()) as u32
        }),
        goal: Box::new(move |n| n == goal),
        unit,
    }
}

/// Pancake sorting of 6 pancakes: flip any prefix of 2 or more; nodes pack 4 bits per
/// pancake. The gap heuristic counts neighbours that are not consecutive (a flip fixes at most
/// one gap), so it is admissible.
fn pancakes(name: &'static str, start: [u64; 6]) -> Case {
    const N: usize = 6;
    let unpack = |n: Node| -> [u64; N] { std::array::from_fn(|i| (n >> (4 * i)) & 15) };
    let pack = |p: [u64; N]| -> Node { p.iter().enumerate().map(|(i, &v)| v << (4 * i)).sum() };
    let goal = pack(std::array::from_fn(|i| i as u64));
    Case {
        name,
        start: pack(start),
        successors: Box::new(move |n| {
            (2..=N)
                .map(|k| {
                    let mut p = unpack(n);
                    p[..k].reverse();
                    (pack(p), 1)
                })
                .collect()
        }),
        heuristic: Box::new(move |n| {
            let p = unpack(n);
            let inner = p.windows(2).filter(|w| w[0].abs_diff(w[1]) != 1).count();
            (inner + usize::from(p[N - 1] != N as u64 - 1)) as u32
        }),
        goal: Box::new(move |n| n == goal),
        unit: true,
    }
}

/// A diamond whose heuristic is admissible but inconsistent, so A* must reopen `c`.
fn inconsistent() -> Case {
    // s = 0, a = 1, b = 2, c = 3, goal = 4.
    Case {
        name: "inconsistent diamond",
        start: 0,
        successors: Box::new(|n| match n {
            0 => vec![(1, 1), (2, 1)],
            1 => vec![(3, 5)],
            2 => vec![(3, 1)],
            3 => vec![(4, 5)],
            _ => vec![],
        }),
        heuristic: Box::new(|n| if n == 2 { 6 } else { 0 }),
        goal: Box::new(|n| n == 4),
        unit: false,
    }
}

fn table() -> Vec<Case> {
    vec![
        grid("open grid", &["S.....", "......", "......", "......", "......", ".....G"]),
        grid("start is the goal", &["S..", ".G.", "..."]).with_start(4),
        grid(
            "maze",
            &[
                "S.#....", //
                ".##.##.", //
                "....#..", //
                "#.#.#.#", //
                "..#...#", //
                ".##.#..", //
                "....#.G", //
            ],
        ),
        grid(
            "weighted terrain",
            &[
                "S11111", //
                "999991", //
                "111111", //
                "199999", //
                "111111", //
                "99999G", //
            ],
        ),
        grid("walled-off goal", &["S....", ".....", "..###", "..#G#", "..###"]),
        inconsistent(),
        pancakes("pancakes", [3, 5, 0, 4, 1, 2]),
        pancakes("pancakes reversed", [5, 4, 3, 2, 1, 0]),
    ]
}

impl Case {
    fn with_start(mut self, start: Node) -> Case {
        self.start = start;
        self
    }
}

/// Enough for IDDFS and IDA* to give up on the unreachable case quickly.
fn iterative_limits() -> Limits {
    Limits { max_depth: Some(12), ..Limits::default() }
}

#[test]
fn every_algorithm_on_every_case() {
    for case in table() {
        let optimum = reference(&case);
        for algo in ALGOS {
            let limits = if optimum.is_none() && algo.iterative() {
                iterative_limits()
            } else {
                Limits::default()
            };
            let report = run(algo, &case, &limits, ());
            let what = format!("{algo:?} on {}", case.name);
            let Some(optimum) = optimum else {
                assert_eq!(report.outcome, Outcome::NotFound, "{what}");
                continue;
            };
            let Outcome::Found { path, cost } = &report.outcome else {
                panic!("{what}: expected a path, got {:?}", report.outcome);
            };
            let real = replay(&case, path);
            let reported = if algo.unit() { path.len() as u32 - 1 } else { real };
            assert_eq!(*cost, reported, "{what}: reported cost");
            if algo.optimal(&case) {
                assert_eq!(real, optimum, "{what}: not optimal");
            }
            if let Algo::Wastar(w) = algo {
                assert!(
                    f64::from(real) <= w * f64::from(optimum),
                    "{what}: {real} > {w} * {optimum}"
                );
            }
            assert!(real >= optimum, "{what}: cheaper than the optimum?");
            check_stats(&what, &report.stats, path.len());
        }
    }
}

fn check_stats(what: &str, stats: &Stats, path_len: usize) {
    assert!(stats.generated >= stats.expanded || stats.expanded <= 1, "{what}: {stats:?}");
    assert!(stats.expanded + 1 >= path_len as u64 - 1, "{what}: too few expansions {stats:?}");
    assert!(stats.seconds >= 0.0, "{what}: {stats:?}");
}

#[test]
fn table_has_the_expected_optima() {
    let optima: Vec<Option<u32>> = table().iter().map(reference).collect();
    assert_eq!(optima, [Some(10), Some(0), Some(12), Some(18), None, Some(7), Some(6), Some(1)]);
}

/// An observer that stops the search at the first expansion.
struct StopAtOnce;

impl<N, C> Observer<N, C> for StopAtOnce {
    fn expand(&mut self, _: &npuzzle_search::Expand<'_, N, C>) -> Flow {
        Flow::Stop
    }
}

#[test]
fn every_limit_stops_every_algorithm() {
    let rows: Vec<String> = (0..200)
        .map(|y| {
            (0..200)
                .map(|x| {
                    if (x, y) == (0, 0) {
                        'S'
                    } else if (x, y) == (199, 199) {
                        'G'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let big = grid("200x200 open grid", &rows);
    let cancelled = Arc::new(AtomicBool::new(true));
    let cases = [
        (Limits { max_nodes: Some(10), ..Limits::default() }, Stop::Nodes),
        (Limits { max_memory: Some(200), ..Limits::default() }, Stop::Memory),
        (Limits { deadline: Some(Instant::now()), ..Limits::default() }, Stop::Time),
        (Limits { cancel: Some(cancelled), ..Limits::default() }, Stop::Cancelled),
    ];
    for algo in ALGOS {
        for (limits, stop) in &cases {
            let report = run(algo, &big, limits, ());
            assert_eq!(report.outcome, Outcome::Stopped(*stop), "{algo:?} under {limits:?}");
            assert!(report.stats.expanded <= 10, "{algo:?} under {limits:?}: {:?}", report.stats);
        }
        let report = run(algo, &big, &Limits::default(), StopAtOnce);
        assert_eq!(report.outcome, Outcome::Stopped(Stop::Cancelled), "{algo:?} with observer");
        assert_eq!(report.stats.expanded, 0, "{algo:?} with observer");
    }
}

#[test]
fn memory_limit_scales_with_node_bytes() {
    let case = grid("open grid", &["S.....", "......", "......", "......", "......", ".....G"]);
    let roomy = Limits { max_memory: Some(1 << 20), ..Limits::default() };
    assert!(run(Algo::Astar, &case, &roomy, ()).is_found());
    let heavy = Limits { node_bytes: 1 << 16, ..roomy };
    assert_eq!(run(Algo::Astar, &case, &heavy, ()).outcome, Outcome::Stopped(Stop::Memory));
}

/// A random `size` x `size` grid with walls; start and goal corners are always open.
fn random_grid(size: usize, walls: &[bool]) -> Case {
    let rows: Vec<String> = (0..size)
        .map(|y| {
            (0..size)
                .map(|x| match (x, y) {
                    (0, 0) => 'S',
                    _ if (x, y) == (size - 1, size - 1) => 'G',
                    _ if walls[y * size + x] => '#',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    grid("random grid", &rows)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// All optimal algorithms agree with BFS, and weighted A* stays within its factor.
    #[test]
    fn optimal_algorithms_agree_on_random_grids(walls in proptest::collection::vec(proptest::bool::weighted(0.3), 36)) {
        let case = random_grid(6, &walls);
        let expected = run(Algo::Bfs, &case, &Limits::default(), ()).cost();
        prop_assert_eq!(expected, reference(&case));
        for algo in ALGOS {
            // Without a closed set, proving a goal unreachable needs a depth limit.
            let limits = if expected.is_none() && algo.iterative() { iterative_limits() } else { Limits::default() };
            let report = run(algo, &case, &limits, ());
            match (expected, report.path()) {
                (None, path) => prop_assert_eq!(path, None),
                (Some(optimum), Some(path)) => {
                    let real = replay(&case, path);
                    if algo.optimal(&case) {
                        prop_assert_eq!(real, optimum, "{:?}", algo);
                    }
                    if let Algo::Wastar(w) = algo {
                        prop_assert!(f64::from(real) <= w * f64::from(optimum));
                    }
                }
                (Some(_), None) => prop_assert!(false, "{:?} found nothing: {:?}", algo, report.outcome),
            }
        }
    }

    /// Terrain costs: Dijkstra, A* and IDA* agree with brute force.
    #[test]
    fn weighted_searches_agree_on_random_terrain(costs in proptest::collection::vec(1u8..=9, 25)) {
        let rows: Vec<String> = costs.chunks(5).enumerate().map(|(y, row)| {
            row.iter().enumerate().map(|(x, &c)| match (x, y) {
                (0, 0) => 'S',
                (4, 4) => 'G',
                _ => char::from(b'0' + c),
            }).collect()
        }).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let case = grid("random terrain", &rows);
        let optimum = reference(&case);
        for algo in [Algo::Dijkstra, Algo::Astar, Algo::Idastar] {
            prop_assert_eq!(run(algo, &case, &Limits::default(), ()).cost(), optimum, "{:?}", algo);
        }
    }
}

/// Records the order and counts of every event kind.
#[derive(Default)]
struct Log {
    events: Vec<&'static str>,
    expanded: u64,
    generated_with_parent: u64,
    bounds: Vec<u64>,
    progress: Vec<u64>,
    finish: Option<(bool, Option<Stop>, u64)>,
}

impl<C: npuzzle_search::Cost> Observer<Node, C> for Log {
    fn begin(&mut self, _: &npuzzle_search::Begin<'_, Node, C>) -> Flow {
        self.events.push("begin");
        Flow::Continue
    }

    fn expand(&mut self, e: &npuzzle_search::Expand<'_, Node, C>) -> Flow {
        self.expanded += 1;
        // Only the start has no parent.
        assert_eq!(e.parent().is_none(), e.g() == C::default(), "parent of {}", e.node());
        assert_eq!(e.f(), e.g() + e.h());
        Flow::Continue
    }

    fn generate(&mut self, _: &npuzzle_search::Generate<'_, Node, C>) -> Flow {
        self.generated_with_parent += 1;
        Flow::Continue
    }

    fn bound(&mut self, b: &npuzzle_search::Bound<C>) -> Flow {
        self.bounds.push(b.bound().to_u64());
        Flow::Continue
    }

    fn progress(&mut self, p: &npuzzle_search::Progress) -> Flow {
        self.progress.push(p.expanded());
        Flow::Continue
    }

    fn finish(&mut self, f: &npuzzle_search::Finish<'_>) {
        self.events.push("finish");
        self.finish = Some((f.found(), f.stop(), f.stats().expanded));
    }
}

#[test]
fn every_algorithm_reports_begin_progress_and_finish() {
    let rows: Vec<String> = (0..60).map(|_| ".".repeat(60)).collect();
    let mut rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    rows[0] = "S...........................................................";
    rows[59] = "...........................................................G";
    let big = grid("60x60 open grid", &rows);
    for algo in ALGOS {
        let mut log = Log::default();
        let limits = if algo.iterative() {
            Limits { max_nodes: Some(5000), ..Limits::default() }
        } else {
            Limits::default()
        };
        let report = run(algo, &big, &limits, &mut log);
        assert_eq!(log.events.first(), Some(&"begin"), "{algo:?}");
        assert_eq!(log.events.last(), Some(&"finish"), "{algo:?}");
        assert_eq!(log.events.len(), 2, "{algo:?}: begin and finish once each");
        assert_eq!(log.expanded, report.stats.expanded, "{algo:?}");
        assert!(log.generated_with_parent <= report.stats.generated, "{algo:?}");
        let (found, stop, expanded) = log.finish.unwrap();
        assert_eq!((found, stop, expanded), (report.is_found(), report.stop(), log.expanded));
        // A progress event every 1024 expansions, with the count at that moment.
        let expected: Vec<u64> = (1..=report.stats.expanded / 1024).map(|k| k * 1024).collect();
        let upto = expected.len().min(log.progress.len());
        assert_eq!(log.progress[..upto], expected[..upto], "{algo:?}");
        assert!(log.progress.len() + 1 >= expected.len(), "{algo:?}: {:?}", log.progress);
        if algo.iterative() {
            assert!(log.bounds.windows(2).all(|w| w[0] < w[1]), "{algo:?}: {:?}", log.bounds);
            assert!(!log.bounds.is_empty(), "{algo:?}");
        } else {
            assert!(log.bounds.is_empty(), "{algo:?}");
        }
    }
}
