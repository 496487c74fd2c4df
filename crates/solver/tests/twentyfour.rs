//! The 24-puzzle engine: tables served through symmetries against tables built directly and
//! exact distances, the move-pruning machine and the parallel search against plain IDA*.
//!
//! No 6-tile table is built here (a minute each): the same code runs on 3-tile patterns of
//! 5x5 cut like Korf & Felner's, and on 3x3 where every position is checked.

mod common;

use common::exact;
use npuzzle_core::{Board, Goal, Scrambler, Size};
use npuzzle_solver::engine::twentyfour::{self, Config, Tables, TablesError};
use npuzzle_solver::heuristic::pdb::{Database, Indexing, Partition};
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options, Status};

fn goal(size: Size, g: Goal) -> Board {
    g.board(size).unwrap()
}

/// The groups, as cells of the blank-first goal, carried to `goal` by the symmetry that takes
/// cell 0 to its blank (the half turn for blank-last).
fn partition_by_cells(goal: &Board, cells: &[&[usize]]) -> Partition {
    let n = goal.tiles().len();
    let turn = goal.blank() != 0;
    let groups = cells
        .iter()
        .map(|g| g.iter().map(|&c| goal.tiles()[if turn { n - 1 - c } else { c }]).collect())
        .collect();
    Partition::new(groups, n).unwrap()
}

/// The database of `groups` (tiles) on `goal`, built on `threads` threads.
fn stored(goal: &Board, groups: &str, threads: usize) -> Database {
    Database::build(goal, &Partition::parse(groups, goal).unwrap(), threads, &|_| {}, None).unwrap()
}

/// Two stored tables on blank-first 3x3, {1,2} and the 2x2 block {4,5,7,8}: the group {3,6}
/// is the mirror of {1,2}, and blank-last's groups are the half turns of all three.
#[test]
fn symmetric_lookups_equal_the_directly_built_tables_on_every_3x3_position() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base_partition = Partition::parse("1,2/4,5,7,8", &first).unwrap();
    // Tables with one entry per (placement, blank region), the default, and with one per
    // placement: the symmetry carries both.
    for indexing in [Indexing::Region, Indexing::Placement] {
        let build = |goal: &Board, partition: &Partition| {
            Database::build_indexed(goal, partition, indexing, 2, &|_| {}, None).unwrap()
        };
        let base = build(&first, &base_partition);
        for g in [Goal::BlankFirst, Goal::BlankLast] {
            let goal = goal(size, g.clone());
            let partition = partition_by_cells(&goal, &[&[1, 2], &[3, 6], &[4, 5, 7, 8]]);
            let tables = Tables::new(base.clone(), &goal, &partition).unwrap();
            assert!(tables.has_reflection());
            assert_eq!(tables.lookups(), (6, 2));
            let direct = build(&goal, &partition);
            let dist = exact(&goal);
            assert_eq!(dist.len(), 181_440);
            for (b, &d) in &dist {
                let h = tables.estimate(b);
                assert_eq!(h, direct.estimate(b), "{g} {indexing:?}: {b}");
                assert!(h <= d && h % 2 == d % 2, "{g}: h({b}) = {h}, distance {d}");
            }
            // The search over them finds the optimal lengths.
            let mut rng = Scrambler::new(3);
            for i in 0..60 {
                let b = rng.solvable(&goal);
                let d = dist[&b] as usize;
                assert_eq!(solve(&tables, &b, 1 + i % 2, 10), d, "{g} {indexing:?}: {b}");
            }
        }
    }
}

#[test]
fn a_group_that_is_no_image_of_a_stored_table_is_refused() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base = stored(&first, "1,2/4,5,7,8", 1);
    let partition = Partition::parse("1,2,3/4,5/6,7,8", &first).unwrap();
    assert!(matches!(Tables::new(base.clone(), &first, &partition), Err(TablesError::NoImage(_))));
    // {1,5} is the mirror image (left to right) of {1,3}, but {1,3} closes the blank's
    // corner and {1,5} closes another: the blank's side of the pattern must be kept.
    let base = stored(&first, "1,3/2,4,5,6,7,8", 1);
    let partition = Partition::parse("1,5/2,3,4,6,7,8", &first).unwrap();
    assert_eq!(
        Tables::new(base, &first, &partition).unwrap_err(),
        TablesError::NoImage(vec![1, 5])
    );
}

/// Korf & Felner's cut with 3-tile groups: their corner group and 2x3 block each cut in two,
/// stored on blank-first; every other group is a quarter turn, a half turn or a mirror.
const KF3: [&[usize]; 8] = [
    &[1, 5, 6],
    &[10, 11, 12],
    &[2, 3, 4],
    &[7, 8, 9],
    &[14, 19, 24],
    &[13, 18, 23],
    &[20, 21, 22],
    &[15, 16, 17],
];

fn kf3_tables(g: Goal) -> Tables {
    let size = Size::square(5).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base_partition = Partition::parse("1,5,6/10,11,12/2,3,4/7,8,9", &first).unwrap();
    let base = Database::build(&first, &base_partition, 2, &|_| {}, None).unwrap();
    let goal = goal(size, g);
    let partition = partition_by_cells(&goal, &KF3);
    let tables = Tables::new(base, &goal, &partition).unwrap();
    assert_eq!(tables.lookups(), (16, 4));
    tables
}

fn manhattan_ida(board: &Board, goal: &Board) -> usize {
    let options = Options {
        algorithm: Algorithm::IdaStar,
        heuristic: Heuristic::Manhattan,
        limits: Limits::unlimited(),
        ..Options::default()
    };
    let s = npuzzle_solver::solve(board, goal, &options).unwrap();
    assert_eq!(s.status, Status::Solved);
    assert!(s.optimal);
    s.moves.len()
}

fn solve(tables: &Tables, board: &Board, threads: usize, pruning: usize) -> usize {
    let config = Config { threads, pruning, ..Config::default() };
    let s = twentyfour::solve(tables, board, &Limits::unlimited(), &config, None).unwrap();
    assert_eq!(s.status, Status::Solved);
    assert!(s.optimal);
    if let Err(e) = s.replay(board, tables.goal()) {
        panic!("{board}: {e}");
    }
    s.moves.len()
}

#[test]
fn on_5x5_the_symmetric_tables_equal_direct_ones_and_never_overestimate() {
    let size = Size::square(5).unwrap();
    for g in [Goal::BlankFirst, Goal::BlankLast] {
        let tables = kf3_tables(g.clone());
        let goal = goal(size, g.clone());
        let direct = Database::build(&goal, tables.partition(), 2, &|_| {}, None).unwrap();
        let mut rng = Scrambler::new(24);
        for _ in 0..300 {
            let b = rng.solvable(&goal);
            assert_eq!(tables.estimate(&b), direct.estimate(&b), "{g}: {b}");
        }
        for k in [10, 20, 30, 40] {
            for _ in 0..3 {
                let (b, _) = rng.walk(&goal, k);
                let d = manhattan_ida(&b, &goal);
                assert!(tables.estimate(&b) as usize <= d, "{g}: {b}");
                assert_eq!(solve(&tables, &b, 1, twentyfour::DEFAULT_PRUNING), d, "{g}: {b}");
            }
        }
    }
}

#[test]
fn move_pruning_keeps_the_optimal_lengths_on_5x5_walks() {
    let tables = kf3_tables(Goal::BlankFirst);
    let mut rng = Scrambler::new(9);
    for k in (20..=60).step_by(4) {
        let (b, _) = rng.walk(tables.goal(), k);
        let plain = solve(&tables, &b, 1, 2);
        for depth in [6, 8, 10, 12] {
            assert_eq!(solve(&tables, &b, 1, depth), plain, "{b}, pruning {depth}");
        }
    }
}

#[test]
fn move_pruning_keeps_the_optimal_lengths_on_4x4_walks() {
    let g = goal(Size::square(4).unwrap(), Goal::BlankLast);
    let partition = Partition::parse("5-5-5", &g).unwrap();
    let base = Database::build(&g, &partition, 2, &|_| {}, None).unwrap();
    let tables = Tables::new(base, &g, &partition).unwrap();
    let mut rng = Scrambler::new(16);
    for k in (10..=80).step_by(5) {
        let (b, _) = rng.walk(&g, k);
        let plain = solve(&tables, &b, 1, 2);
        if k <= 40 {
            assert_eq!(plain, manhattan_ida(&b, &g), "{b}");
        }
        for depth in [6, 10, 12] {
            assert_eq!(solve(&tables, &b, 1, depth), plain, "{b}, pruning {depth}");
        }
    }
}

#[test]
fn parallel_and_sequential_searches_agree_on_lengths() {
    let tables = kf3_tables(Goal::BlankLast);
    let mut rng = Scrambler::new(2);
    for k in [3, 15, 40, 60, 80] {
        let (b, _) = rng.walk(tables.goal(), k);
        let one = solve(&tables, &b, 1, twentyfour::DEFAULT_PRUNING);
        assert_eq!(solve(&tables, &b, 2, twentyfour::DEFAULT_PRUNING), one, "{b}");
        assert_eq!(solve(&tables, &b, 3, 2), one, "{b}");
    }
}

#[test]
fn limits_stop_the_search_with_the_bound_reached() {
    let tables = kf3_tables(Goal::BlankFirst);
    let b: Board =
        "14 5 9 2 18/8 23 19 12 17/15 0 10 20 4/6 11 21 1 7/24 3 16 22 13".parse().unwrap();
    let limits = Limits { max_nodes: Some(200_000), ..Limits::unlimited() };
    for threads in [1, 2] {
        let config = Config { threads, ..Config::default() };
        let s = twentyfour::solve(&tables, &b, &limits, &config, None).unwrap();
        assert_eq!(s.status, Status::Limit);
        let bound = s.lower_bound.unwrap();
        assert!(bound >= u64::from(tables.estimate(&b)) && bound <= 95, "{bound}");
        // A limit is a limit: the threads reserve their share before they spend it.
        assert!(s.stats.expanded <= 200_000, "{} expanded on {threads} threads", s.stats.expanded);
    }
    for max in [1, 1000, 30_000] {
        let limits = Limits { max_nodes: Some(max), ..Limits::unlimited() };
        for threads in [1, 2] {
            let config = Config { threads, ..Config::default() };
            let s = twentyfour::solve(&tables, &b, &limits, &config, None).unwrap();
            assert_eq!(s.status, Status::Limit);
            assert!(s.stats.expanded <= max, "{} of {max} on {threads}", s.stats.expanded);
        }
    }
    let unsolvable: Board =
        "1 0 2 3 4/5 6 7 8 9/10 11 12 13 14/15 16 17 18 19/20 21 22 24 23".parse().unwrap();
    let s = twentyfour::solve(&tables, &unsolvable, &limits, &Config::default(), None).unwrap();
    assert_eq!(s.status, Status::Unsolvable);
}

/// A search within a threshold (`Config::within`) against exact distances on 3x3, both
/// goals, one and two threads: below the distance it finds nothing and proves the
/// threshold plus two; at or above it, a path no longer than the threshold that replays,
/// called optimal only when as long as its bound; a node limit returns no false bound.
#[test]
fn a_search_within_a_threshold_finds_a_path_no_longer_or_proves_there_is_none() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base = stored(&first, "1,2/4,5,7,8", 2);
    for g in [Goal::BlankFirst, Goal::BlankLast] {
        let goal = goal(size, g.clone());
        let partition = partition_by_cells(&goal, &[&[1, 2], &[3, 6], &[4, 5, 7, 8]]);
        let tables = Tables::new(base.clone(), &goal, &partition).unwrap();
        let dist = exact(&goal);
        let mut rng = Scrambler::new(23);
        let (mut longer, mut proven) = (0, 0);
        for i in 0..80 {
            let b = rng.solvable(&goal);
            let d = dist[&b];
            let h = tables.estimate(&b);
            for within in [d.saturating_sub(2), d, d + 1, d + 6] {
                let config =
                    Config { threads: 1 + i % 2, within: Some(within), ..Config::default() };
                let s =
                    twentyfour::solve(&tables, &b, &Limits::unlimited(), &config, None).unwrap();
                let bound = s.lower_bound.unwrap();
                assert!(bound <= u64::from(d) && bound >= u64::from(h), "{b}: {bound}, {d}");
                if within < d {
                    assert_eq!(s.status, Status::Limit, "{b} within {within}");
                    assert!(s.reason.is_none(), "{b}: no limit fired");
                    // The iteration at the threshold searched to its end (unless the root's
                    // bound is already above it).
                    if within >= h {
                        assert_eq!(bound, u64::from(within) + 2, "{b}");
                        proven += 1;
                    }
                } else {
                    assert_eq!(s.status, Status::Solved, "{b} within {within}");
                    s.replay(&b, &goal).unwrap();
                    let length = s.moves.len() as u64;
                    assert!(length >= u64::from(d) && length <= u64::from(within), "{b}");
                    assert_eq!(s.optimal, length <= bound, "{b}");
                    longer += usize::from(length > u64::from(d));
                }
            }
        }
        // Both branches ran; a threshold well above the distance often gives a longer path.
        assert!(proven > 20 && longer > 0, "{g}: {proven} proven, {longer} longer");
        // A limit leaves only the root's bound, never the threshold.
        let b: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let b = if g == Goal::BlankFirst { b } else { rng.solvable(&goal) };
        let config = Config { within: Some(dist[&b] + 20), ..Config::default() };
        let limits = Limits { max_nodes: Some(1), ..Limits::unlimited() };
        let s = twentyfour::solve(&tables, &b, &limits, &config, None).unwrap();
        if s.status == Status::Limit {
            assert_eq!(s.lower_bound, Some(u64::from(tables.estimate(&b))));
            assert!(s.reason.is_some(), "{b}: the node limit fired");
        }
    }
}

/// Tables served from one-bit copies (a per-region base readied by `for_many_solves`) give the
/// search the same bound at every node: the same lengths and node counts as the full
/// entries, both goals of 3x3, reflection included.
#[test]
fn one_bit_tables_give_the_search_the_same_bounds() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base_partition = Partition::parse("1,2,3,4/5,6,7,8", &first).unwrap();
    let full = Database::build(&first, &base_partition, 2, &|_| {}, None).unwrap();
    let bits = full.for_many_solves();
    assert!(bits.reads_bits() && !full.reads_bits());
    for g in [Goal::BlankFirst, Goal::BlankLast] {
        let goal = goal(size, g.clone());
        let partition = partition_by_cells(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
        let with_full = Tables::new(full.clone(), &goal, &partition).unwrap();
        let with_bits = Tables::new(bits.clone(), &goal, &partition).unwrap();
        let dist = exact(&goal);
        let mut rng = Scrambler::new(5);
        for i in 0..120 {
            let b = rng.solvable(&goal);
            let run = |t: &Tables| {
                let config = Config { threads: 1 + i % 2, ..Config::default() };
                let s = twentyfour::solve(t, &b, &Limits::default(), &config, None).unwrap();
                assert_eq!(s.status, Status::Solved);
                (s.moves.len(), s.stats.expanded, s.stats.generated)
            };
            let (length, expanded, generated) = run(&with_bits);
            assert_eq!(length, dist[&b] as usize, "{g}: {b}");
            if i % 2 == 0 {
                // One thread: the counts are the tree's, the same for the same bounds.
                assert_eq!((length, expanded, generated), run(&with_full), "{g}: {b}");
            }
        }
    }
}

/// A catalogue of two partitions over two sets of stored tables (Holte et al.'s maximum of
/// additive databases, as the 24-puzzle's catalogue of seven): on every 3x3 position its
/// estimate is the larger of the two partitions' own, never above the distance; the search
/// over it (four sides, the engine sized for catalogues) finds the optimal lengths on one
/// and two threads and, on one thread, never generates more nodes than either partition
/// alone (a pointwise larger consistent bound prunes a subtree of the same tree).
#[test]
fn a_catalogue_takes_the_largest_partition_and_searches_a_subtree() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base1 = stored(&first, "1,2/4,5,7,8", 2);
    let base2 = stored(&first, "1,4,7/2,5/3,6,8", 2);
    for g in [Goal::BlankFirst, Goal::BlankLast] {
        let goal = goal(size, g.clone());
        let a = partition_by_cells(&goal, &[&[1, 2], &[3, 6], &[4, 5, 7, 8]]);
        let b = partition_by_cells(&goal, &[&[1, 4, 7], &[2, 5], &[3, 6, 8]]);
        let one = Tables::new(base1.clone(), &goal, &a).unwrap();
        let two = Tables::new(base2.clone(), &goal, &b).unwrap();
        let both =
            Tables::catalogue(vec![base1.clone(), base2.clone()], &goal, &[a.clone(), b.clone()])
                .unwrap();
        assert_eq!(both.partitions().len(), 2);
        assert!(both.has_reflection());
        // Three groups a side, four sides (each partition and its mirror).
        assert_eq!(both.lookups().0, 12);
        let dist = exact(&goal);
        let (mut first_wins, mut second_wins) = (0, 0);
        for (p, &d) in &dist {
            let (h1, h2, h) = (one.estimate(p), two.estimate(p), both.estimate(p));
            assert_eq!(h, h1.max(h2), "{g}: {p}");
            assert!(h <= d && h % 2 == d % 2, "{g}: h({p}) = {h}, distance {d}");
            first_wins += usize::from(h1 > h2);
            second_wins += usize::from(h2 > h1);
        }
        // Each partition is the larger one somewhere: the maximum is stronger than either.
        assert!(first_wins > 0 && second_wins > 0, "{first_wins} {second_wins}");
        let mut rng = Scrambler::new(11);
        for i in 0..60 {
            let p = rng.solvable(&goal);
            let d = dist[&p] as usize;
            assert_eq!(solve(&both, &p, 1 + i % 2, 10), d, "{g}: {p}");
            let generated = |t: &Tables| {
                let config = Config { threads: 1, pruning: 10, ..Config::default() };
                let s = twentyfour::solve(t, &p, &Limits::unlimited(), &config, None).unwrap();
                assert_eq!(s.moves.len(), d);
                s.stats.generated
            };
            let n = generated(&both);
            assert!(n <= generated(&one) && n <= generated(&two), "{g}: {p}");
        }
    }
}

#[test]
fn a_catalogue_refuses_partitions_it_cannot_serve() {
    let size = Size::square(3).unwrap();
    let first = goal(size, Goal::BlankFirst);
    let base = stored(&first, "1,2/4,5,7,8", 1);
    let a = partition_by_cells(&first, &[&[1, 2], &[3, 6], &[4, 5, 7, 8]]);
    assert_eq!(
        Tables::catalogue(vec![base.clone()], &first, &[]).unwrap_err(),
        TablesError::NotCovering
    );
    let unserved = Partition::parse("1,2,3/4,5/6,7,8", &first).unwrap();
    assert!(matches!(
        Tables::catalogue(vec![base.clone()], &first, &[a.clone(), unserved]),
        Err(TablesError::NoImage(_))
    ));
    // Nine partitions with their mirrors are 18 sides: more than the engine takes.
    let many = vec![a; 9];
    assert_eq!(
        Tables::catalogue(vec![base], &first, &many).unwrap_err(),
        TablesError::TooManyGroups
    );
}
