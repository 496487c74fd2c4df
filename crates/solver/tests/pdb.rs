//! Pattern databases against exact distances: every position of small boards.

mod common;

use std::collections::{HashMap, VecDeque};

use common::exact;
use npuzzle_core::{Board, Goal, Move, Size};
use npuzzle_solver::heuristic::GoalMap;
use npuzzle_solver::heuristic::pdb::{Database, Indexing, Partition};

fn check(goal: &Board, spec: &str, dist: &HashMap<Board, u32>) -> Database {
    let partition = Partition::parse(spec, goal).unwrap();
    let db = Database::build(goal, &partition, 2, &|_| {}, None).unwrap();
    for (b, &d) in dist {
        let h = db.estimate(b);
        assert!(h <= d, "{spec} on {goal}: h({b}) = {h} > {d}");
        assert_eq!(h % 2, d % 2, "{spec}: parity of h({b})");
    }
    db
}

/// The fewest moves of `group`'s tiles that bring them home from every placement, minimised
/// over the blank's cells, by a 0-1 breadth-first search over (tile cells, blank cell): an
/// independent reference for one table (the builder works on blank regions instead).
fn group_distances(goal: &Board, group: &[u16]) -> HashMap<Vec<usize>, u32> {
    let mut best: HashMap<Vec<usize>, u32> = HashMap::new();
    for ((cells, _), d) in blank_distances(goal, group) {
        let e = best.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

/// The fewest moves of `group`'s tiles that bring them home from every (tile cells, blank
/// cell), by a 0-1 breadth-first search: what a table with one entry per blank region would
/// hold.
fn blank_distances(goal: &Board, group: &[u16]) -> HashMap<(Vec<usize>, usize), u32> {
    let size = goal.size();
    let pos = goal.positions();
    let start: (Vec<usize>, usize) =
        (group.iter().map(|&t| pos[usize::from(t)]).collect(), goal.blank());
    let mut dist: HashMap<(Vec<usize>, usize), u32> = HashMap::from([(start.clone(), 0)]);
    let mut deque = VecDeque::from([(start, 0u32)]);
    while let Some(((cells, blank), d)) = deque.pop_front() {
        if dist[&(cells.clone(), blank)] < d {
            continue;
        }
        let (x, y) = size.xy(blank);
        for (dx, dy) in [(0isize, 1isize), (0, -1), (1, 0), (-1, 0)] {
            let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else {
                continue;
            };
            if nx >= size.width() || ny >= size.height() {
                continue;
            }
            let to = size.index(nx, ny);
            let mut next = cells.clone();
            let cost = match cells.iter().position(|&c| c == to) {
                Some(i) => {
                    next[i] = blank;
                    1
                }
                None => 0,
            };
            let key = (next, to);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    deque.push_front((key, d));
                } else {
                    deque.push_back((key, d + 1));
                }
            }
        }
    }
    dist
}

#[test]
fn one_group_tables_equal_a_reference_search() {
    for (w, h, group) in [(3, 3, vec![1u16, 2, 4, 5]), (3, 3, vec![8, 7, 6]), (2, 4, vec![2, 3, 5])]
    {
        let size = Size::new(w, h).unwrap();
        for goal in [Goal::BlankLast, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let reference = group_distances(&goal, &group);
            let per_cell = blank_distances(&goal, &group);
            let partition = Partition::new(vec![group.clone()], size.cells()).unwrap();
            let db =
                Database::build_indexed(&goal, &partition, Indexing::Placement, 2, &|_| {}, None)
                    .unwrap();
            let zdb = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
            let cells_of = |b: &Board| -> Vec<usize> {
                let pos = b.positions();
                group.iter().map(|&t| pos[usize::from(t)]).collect()
            };
            for b in exact(&goal).keys() {
                let mut expected = reference[&cells_of(b)];
                // Per region: the blank's own place counts.
                let mut zexpected = per_cell[&(cells_of(b), b.blank())];
                if db.has_reflection() {
                    // The mirror about the main diagonal, tiles relabelled to fix the goal.
                    let tr = |c: usize| (c % w) * w + c / w;
                    let gpos = goal.positions();
                    let mut m = vec![0u16; size.cells()];
                    for (c, &t) in b.tiles().iter().enumerate() {
                        m[tr(c)] = goal.tiles()[tr(gpos[usize::from(t)])];
                    }
                    let m = Board::new(size, m).unwrap();
                    expected = expected.max(reference[&cells_of(&m)]);
                    zexpected = zexpected.max(per_cell[&(cells_of(&m), m.blank())]);
                }
                assert_eq!(db.estimate(b), expected, "{goal} {group:?} at {b}");
                assert_eq!(zdb.estimate(b), zexpected, "per region: {goal} {group:?} at {b}");
            }
        }
    }
}

#[test]
fn every_partition_is_admissible_on_every_3x3_and_2x4_position() {
    for (w, h, specs) in [
        (3, 3, &["4-4", "3-5", "2-3-3", "1-1-1-1-1-1-1-1", "8"][..]),
        (2, 4, &["3-4", "2-2-3", "7"][..]),
        (4, 2, &["4-3", "7"][..]),
    ] {
        let size = Size::new(w, h).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let dist = exact(&goal);
            for spec in specs {
                let db = check(&goal, spec, &dist);
                // The dual bound (see the module docs of `pdb`, "Dual lookups") is a bound
                // too, with the parity of the distance.
                for (b, &d) in &dist {
                    let h = db.dual_estimate(b);
                    assert!(h <= d, "{spec} on {goal}: dual h({b}) = {h} > {d}");
                    assert_eq!(h % 2, d % 2, "{spec}: parity of the dual h({b})");
                }
                if *spec == "8" || *spec == "7" {
                    // One group of every tile: the abstract space is the puzzle itself.
                    for (b, &d) in &dist {
                        assert_eq!(db.estimate(b), d, "{spec} exact at {b}");
                    }
                }
                if spec.starts_with("1-1") {
                    let map = GoalMap::new(&goal);
                    for b in dist.keys() {
                        let md = map.manhattan(b.tiles());
                        assert!(db.estimate(b) >= md);
                    }
                }
            }
        }
    }
}

/// The plain dual lookup (the inverse permutation looked up in the tables) is not a lower
/// bound on a sliding board once the blank is off its goal cell, which is why the dual bound
/// is the restricted one the module docs of `pdb` derive; with the blank home it is exact.
#[test]
fn the_plain_dual_lookup_is_not_admissible_but_the_dual_distance_is_with_the_blank_home() {
    let goal = Goal::BlankFirst.board(Size::square(3).unwrap()).unwrap();
    let dist = exact(&goal);
    let exact_db =
        Database::build(&goal, &Partition::parse("8", &goal).unwrap(), 2, &|_| {}, None).unwrap();
    let db =
        Database::build(&goal, &Partition::parse("4-4", &goal).unwrap(), 2, &|_| {}, None).unwrap();
    let mut over = 0;
    for (b, &d) in &dist {
        let mut inverse = vec![0u16; b.tiles().len()];
        for (c, &t) in b.tiles().iter().enumerate() {
            inverse[usize::from(t)] = c as u16;
        }
        let inverse = Board::new(b.size(), inverse).unwrap();
        if b.blank() == goal.blank() {
            assert_eq!(dist[&inverse], d, "{b} and its inverse");
            assert_eq!(exact_db.dual_estimate(b), d, "the dual bound is exact at {b}");
        }
        over += usize::from(db.estimate(&inverse) > d);
    }
    assert!(over > 10_000, "the plain dual exceeds the distance at {over} positions only");
}

/// Tables with one entry per placement are admissible but not consistent, and this is why:
/// an entry is the minimum over the blank's regions, and after a move the blank may stand in
/// a region that is farther. The same partition with one entry per (placement, blank region),
/// what [`Database::build`] makes, is consistent (every move changes one group's entry by
/// exactly one, and the mirror's sum too), at least as strong, and equal to an independent
/// search over (tile cells, blank cell). This checks all of that on every position of 3x3
/// and 2x4 boards, against exact distances.
#[test]
fn per_placement_tables_are_not_consistent_and_per_region_tables_are() {
    let mut jumps = Vec::new();
    for (w, h, specs) in [(3, 3, &["4-4", "3-5", "2-3-3"][..]), (2, 4, &["3-4", "2-2-3"][..])] {
        let size = Size::new(w, h).unwrap();
        let mut largest_jump = 0;
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let goal = goal.board(size).unwrap();
            let dist = exact(&goal);
            let map = GoalMap::new(&goal);
            for spec in specs {
                let partition = Partition::parse(spec, &goal).unwrap();
                let db = Database::build_indexed(
                    &goal,
                    &partition,
                    Indexing::Placement,
                    2,
                    &|_| {},
                    None,
                )
                .unwrap();
                let zdb = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
                // One entry per placement, or per placement and blank region: more.
                assert_eq!(db.entries(), partition.entries(size.cells()));
                assert!(zdb.entries() > db.entries(), "{spec}: per-region entries");
                let references: Vec<_> =
                    partition.groups().iter().map(|g| blank_distances(&goal, g)).collect();
                // The per-region bound by the reference search: the blank's place counted.
                let per_region = |b: &Board| -> u32 {
                    let pos = b.positions();
                    partition
                        .groups()
                        .iter()
                        .zip(&references)
                        .map(|(g, r)| {
                            let cells = g.iter().map(|&t| pos[usize::from(t)]).collect();
                            r[&(cells, b.blank())]
                        })
                        .sum()
                };
                let regions: HashMap<&Board, u32> =
                    dist.keys().map(|b| (b, zdb.estimate(b))).collect();
                let estimates: HashMap<&Board, u32> =
                    dist.keys().map(|b| (b, db.estimate(b))).collect();
                for (b, &d) in &dist {
                    let (stored, region) = (estimates[b], regions[b]);
                    assert!(stored <= d, "{spec} on {goal}: h({b}) = {stored} > {d}");
                    assert!(region <= d, "{spec}: per-region h({b}) = {region} > {d}");
                    assert_eq!(region % 2, d % 2, "{spec}: parity of the per-region h({b})");
                    assert!(region >= stored, "{spec}: per-region below per-placement at {b}");
                    if zdb.has_reflection() {
                        assert!(region >= per_region(b), "{spec}: mirror lost at {b}");
                    } else {
                        assert_eq!(region, per_region(b), "{spec}: per-region h({b})");
                    }
                    assert!(region >= map.manhattan(b.tiles()));
                    for m in Move::ALL {
                        let Some(n) = b.moved(m) else { continue };
                        assert_eq!(region.abs_diff(regions[&n]), 1, "{spec}: {b} {m}");
                        let jump = stored.abs_diff(estimates[&n]);
                        assert_eq!(jump % 2, 1, "{spec}: parity across {b} {m}");
                        largest_jump = largest_jump.max(jump);
                    }
                }
            }
        }
        jumps.push(largest_jump);
    }
    // Consistency would be a jump of at most one between neighbours; the per-placement
    // tables (mirror included) jump by up to 7 moves on 3x3 and 9 on 2x4.
    assert_eq!(jumps, [7, 9]);
}

#[test]
fn the_mirror_is_used_where_the_goal_allows_it() {
    let size = Size::square(3).unwrap();
    let first = Goal::BlankFirst.board(size).unwrap();
    let snail = Goal::Snail.board(size).unwrap();
    let p = Partition::parse("4-4", &first).unwrap();
    assert!(Database::build(&first, &p, 1, &|_| {}, None).unwrap().has_reflection());
    let p = Partition::parse("4-4", &snail).unwrap();
    // The snail's blank is in the middle, on the diagonal.
    assert!(Database::build(&snail, &p, 1, &|_| {}, None).unwrap().has_reflection());
    let g4 = Goal::Snail.board(Size::square(4).unwrap()).unwrap();
    let p = Partition::parse("1,2/3", &g4).unwrap();
    assert!(!Database::build(&g4, &p, 1, &|_| {}, None).unwrap().has_reflection());
}

#[test]
fn walking_distance_is_admissible_and_consistent_on_every_3x3_and_2x4_position() {
    use npuzzle_solver::heuristic::walking_distance::WalkingDistance;
    for (w, h) in [(3, 3), (2, 4), (4, 2)] {
        let size = Size::new(w, h).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let wd = WalkingDistance::new(&goal).unwrap();
            let map = GoalMap::new(&goal);
            for (b, &d) in &exact(&goal) {
                let walk = wd.walking(b);
                assert!(
                    walk <= d && walk >= map.manhattan(b.tiles()),
                    "{goal}: wd({b}) = {walk}, d = {d}"
                );
                assert!(wd.estimate(b) <= d);
                for m in Move::ALL {
                    if let Some(n) = b.moved(m) {
                        assert!(walk.abs_diff(wd.walking(&n)) <= 1, "{b} {m}");
                    }
                }
            }
        }
    }
}

mod search {
    use npuzzle_core::{Board, Goal, Scrambler, Size, parse_instances};
    use npuzzle_solver::engine::pdb_search;
    use npuzzle_solver::heuristic::pdb::{Database, Indexing, Partition};
    use npuzzle_solver::{
        Algorithm, Databases, Heuristic, HeuristicKind, Limits, Options, Solver, Status, solve,
        solve_with,
    };

    fn replays(board: &Board, goal: &Board, moves: &npuzzle_core::Moves) {
        let mut end = board.clone();
        end.apply_all(moves).unwrap();
        assert_eq!(&end, goal, "the moves of {board} do not reach the goal");
    }

    fn db(goal: &Board, spec: &str) -> Database {
        Database::build(goal, &Partition::parse(spec, goal).unwrap(), 2, &|_| {}, None).unwrap()
    }

    /// The node counts every engine reports, the ones the README compares with Korf and
    /// Felner's: a node is *generated* when a move makes it and its bound is computed (moves
    /// the pruning machine forbids, the undoing move among them, make none; the root is not
    /// counted); a node is *expanded* when its children are made (the goal is not expanded);
    /// every iteration counts, the last one up to the solution.
    #[test]
    fn generated_nodes_are_the_children_made_after_move_pruning() {
        let goal = Goal::BlankLast.board(Size::square(3).unwrap()).unwrap();
        let db = db(&goal, "4-4");
        let counts = |board: &str| {
            let board: Board = board.parse().unwrap();
            let s = pdb_search::solve(&db, &board, &Limits::default(), 1).unwrap();
            assert_eq!(s.status, Status::Solved);
            (s.moves.len(), s.stats.expanded, s.stats.generated)
        };
        // The goal: nothing expanded, nothing generated.
        assert_eq!(counts("1 2 3/4 5 6/7 8 0"), (0, 0, 0));
        // One move away, the blank on an edge: the root's three children are made.
        assert_eq!(counts("1 2 3/4 5 6/7 0 8"), (1, 1, 3));
        // Two moves away, the blank in a corner: the root's two children, then two of the
        // middle child's three (the third would undo the move): 4 generated, 2 expanded.
        assert_eq!(counts("1 2 3/4 5 6/0 7 8"), (2, 2, 4));
    }

    #[test]
    fn ida_on_databases_agrees_with_exact_distances_on_3x3() {
        let size = Size::square(3).unwrap();
        for goal in [Goal::BlankLast, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let db = db(&goal, "4-4");
            // Tables with one entry per placement (Korf & Felner's) serve the search too.
            let partition = Partition::parse("4-4", &goal).unwrap();
            let placement =
                Database::build_indexed(&goal, &partition, Indexing::Placement, 2, &|_| {}, None)
                    .unwrap();
            let mut rng = Scrambler::new(7);
            for i in 0..300 {
                let board = rng.solvable(&goal);
                let exact = solve(&board, &goal, &Options::default()).unwrap();
                let threads = 1 + i % 3;
                let dual = i % 4 < 2;
                let tables = if i % 5 < 2 { &placement } else { &db };
                // Every iteration split among the threads, or only those after one of
                // `HAND_OVER` nodes (none, on 3x3).
                let hand_over = if i % 2 == 0 { 0 } else { pdb_search::HAND_OVER };
                let limits = Limits::default();
                let s = pdb_search::solve_split(tables, &board, &limits, threads, dual, hand_over)
                    .unwrap();
                assert_eq!(s.status, Status::Solved);
                assert_eq!(s.moves.len(), exact.moves.len(), "{board} on {threads} threads");
                replays(&board, &goal, &s.moves);
            }
            let bad = rng.unsolvable(&goal);
            let s = pdb_search::solve(&db, &bad, &Limits::default(), 1).unwrap();
            assert_eq!(s.status, Status::Unsolvable);
        }
    }

    /// One-bit tables (made by `for_many_solves` for per-region tables) give the searches the same
    /// bound at every node as the full entries: the same lengths and the same node counts,
    /// on 3x3, 2x4 and 4x2 boards and on the 4x4 with 5-5-5 tables (reflection included).
    #[test]
    fn one_bit_tables_give_the_searches_the_same_bounds() {
        for (w, h, spec, goals, boards) in [
            (3, 3, "4-4", vec![Goal::BlankLast, Goal::Snail, Goal::BlankFirst], 200),
            (2, 4, "7", vec![Goal::BlankLast], 100),
            (4, 2, "7", vec![Goal::BlankFirst], 100),
            (4, 4, "5-5-5", vec![Goal::BlankLast], 12),
        ] {
            let size = Size::new(w, h).unwrap();
            for goal in goals {
                let goal = goal.board(size).unwrap();
                let full = db(&goal, spec);
                let bits = full.for_many_solves();
                assert!(!full.reads_bits());
                assert!(bits.reads_bits(), "{w}x{h} {spec}");
                let mut rng = Scrambler::new(w as u64 * 7 + h as u64);
                for i in 0..boards {
                    let board =
                        if w * h == 16 { rng.walk(&goal, 50 + i).0 } else { rng.solvable(&goal) };
                    let run = |d: &Database| {
                        let s = pdb_search::solve(d, &board, &Limits::default(), 1).unwrap();
                        assert_eq!(s.status, Status::Solved);
                        replays(&board, &goal, &s.moves);
                        (s.moves.len(), s.stats.expanded, s.stats.generated)
                    };
                    assert_eq!(run(&bits), run(&full), "{w}x{h} {spec}: {board}");
                }
            }
        }
    }

    #[test]
    fn the_4x4_engine_agrees_with_ida_and_linear_conflict_on_seeded_boards() {
        let size = Size::square(4).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let goal = goal.board(size).unwrap();
            let db = db(&goal, "5-5-5");
            assert!(db.has_reflection());
            let tables = Databases { pdb: Some(db.clone()), threads: 2, ..Databases::default() };
            let mut rng = Scrambler::new(11);
            for i in 0..24 {
                let (board, _) = rng.walk(&goal, 60 + i);
                let lc = Options {
                    algorithm: Algorithm::IdaStar,
                    heuristic: Heuristic::LinearConflict,
                    ..Options::default()
                };
                let reference = solve(&board, &goal, &lc).unwrap();
                assert_eq!(reference.status, Status::Solved);
                let threads = 1 + i % 2;
                let dual = i % 4 >= 2;
                let hand_over = if i % 3 == 0 { 0 } else { pdb_search::HAND_OVER };
                let limits = Limits::default();
                let s = pdb_search::solve_split(&db, &board, &limits, threads, dual, hand_over)
                    .unwrap();
                assert_eq!(s.moves.len(), reference.moves.len(), "{board}");
                assert!(s.stats.generated <= reference.stats.generated, "{board}: more nodes");
                replays(&board, &goal, &s.moves);
                if i % 6 == 0 {
                    // The same answer through the policy, with A* and with walking distance.
                    for (algorithm, heuristic) in [
                        (Algorithm::Auto, Heuristic::Auto),
                        (Algorithm::AStar, Heuristic::Pdb),
                        (Algorithm::IdaStar, Heuristic::WalkingDistance),
                    ] {
                        // Walking distance's generic IDA* takes seconds here: a loaded
                        // machine must not turn that into the default time limit.
                        let limits = Limits {
                            timeout: Some(std::time::Duration::from_secs(600)),
                            ..Limits::default()
                        };
                        let o = Options { algorithm, heuristic, limits, ..Options::default() };
                        let s = solve_with(&board, &goal, &o, &tables).unwrap();
                        assert_eq!(s.moves.len(), reference.moves.len(), "{algorithm} {heuristic}");
                        assert!(s.optimal);
                        let kind = if heuristic == Heuristic::WalkingDistance {
                            HeuristicKind::WalkingDistance
                        } else {
                            HeuristicKind::Pdb
                        };
                        assert_eq!(s.heuristic, Some(kind));
                        replays(&board, &goal, &s.moves);
                    }
                }
            }
        }
    }

    #[test]
    fn a_solver_holding_a_database_uses_it_and_its_own_engines_for_the_rest() {
        let goal = Goal::BlankFirst.board(Size::square(4).unwrap()).unwrap();
        let plain = Solver::new();
        let dbs = Databases {
            pdb: Some(db(&goal, "5-5-5")),
            threads: 2,
            dual: true,
            pruning: None,
            near_threads: None,
            table_memory: None,
        };
        let solver = plain.with_databases(dbs);
        assert!(solver.databases().pdb.is_some() && plain.databases().pdb.is_none());
        let mut rng = Scrambler::new(5);
        for i in 0..4 {
            let (board, _) = rng.walk(&goal, 50 + i);
            let s = solver.solve(&board, &goal, &Options::default()).unwrap();
            assert_eq!(s.heuristic, Some(HeuristicKind::Pdb), "{board}");
            assert!(s.optimal);
            replays(&board, &goal, &s.moves);
            let lc = Options {
                algorithm: Algorithm::IdaStar,
                heuristic: Heuristic::LinearConflict,
                ..Options::default()
            };
            let reference = plain.solve(&board, &goal, &lc).unwrap();
            assert_eq!(s.moves.len(), reference.moves.len(), "{board}");
            // The plain solver has no database to use.
            let p = plain.solve(&board, &goal, &Options::default()).unwrap();
            assert_ne!(p.heuristic, Some(HeuristicKind::Pdb));
        }
        // A board of another size: the solver's own engines (and its tables, shared).
        let small = Goal::BlankLast.board(Size::square(3).unwrap()).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let s = solver.solve(&board, &small, &Options::default()).unwrap();
        assert_eq!(s.moves.len(), 31);
        assert!(plain.table_count() > 0 && solver.table_count() == plain.table_count());
    }

    #[test]
    fn easy_korf_instances_with_a_small_database() {
        let text = include_str!("../../../testdata/korf100.txt");
        let instances = parse_instances(text).unwrap();
        let goal = Goal::BlankFirst.board(Size::square(4).unwrap()).unwrap();
        let db = db(&goal, "5-5-5");
        // The instances that take 5-5-5 well under a second (numbered from 1).
        for n in [1usize, 2, 4, 5] {
            let inst = &instances[n - 1];
            assert_eq!(inst.goal.as_deref(), Some(&Goal::BlankFirst));
            let s = pdb_search::solve(&db, &inst.board, &Limits::default(), 1).unwrap();
            assert_eq!(Some(s.moves.len() as u32), inst.optimal, "Korf #{n}");
            replays(&inst.board, &goal, &s.moves);
            // On two threads, handed over after the first iteration of 1,000 nodes or more,
            // and after `HAND_OVER` (these searches reach both).
            for hand_over in [1_000, pdb_search::HAND_OVER] {
                let limits = Limits::default();
                let two = pdb_search::solve_split(&db, &inst.board, &limits, 2, false, hand_over)
                    .unwrap();
                assert_eq!(two.moves.len(), s.moves.len(), "Korf #{n}, {hand_over}");
                replays(&inst.board, &goal, &two.moves);
            }
        }
    }

    #[test]
    fn limits_stop_the_database_search() {
        let goal = Goal::BlankFirst.board(Size::square(4).unwrap()).unwrap();
        let db = db(&goal, "5-5-5");
        // Korf #3 needs millions of nodes with 5-5-5.
        let board: Board = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15".parse().unwrap();
        for threads in [1, 2] {
            let limits = Limits { max_nodes: Some(50_000), ..Limits::default() };
            let s = pdb_search::solve(&db, &board, &limits, threads).unwrap();
            assert_eq!(s.status, Status::Limit);
            assert!(s.moves.is_empty());
        }
        // A limit is a limit: one thread expands exactly as many nodes as allowed, even
        // fewer than the search's check interval, across its iterations.
        for max in [1, 100, 5_000, 50_000] {
            let limits = Limits { max_nodes: Some(max), ..Limits::default() };
            let s = pdb_search::solve(&db, &board, &limits, 1).unwrap();
            assert_eq!((s.status, s.stats.expanded), (Status::Limit, max));
        }
        // Threads reserve their share of the limit before they spend it: together they
        // never pass it (they overshot by up to one check interval each), frontier included.
        // So do they when one thread searched the first iterations alone.
        for max in [1, 100, 5_000, 50_000, 200_000] {
            for hand_over in [0, 1_000, pdb_search::HAND_OVER] {
                let limits = Limits { max_nodes: Some(max), ..Limits::default() };
                let s = pdb_search::solve_split(&db, &board, &limits, 2, false, hand_over).unwrap();
                assert_eq!(s.status, Status::Limit);
                assert!(s.stats.expanded <= max, "{} of {max}", s.stats.expanded);
                assert!(s.stats.expanded + 2 * 256 >= max, "{} of {max}", s.stats.expanded);
            }
        }
    }

    /// Counts what a watcher is told, and stops the search at the first progress when asked.
    #[derive(Default)]
    struct Seen {
        bounds: Vec<u32>,
        progress: usize,
        stop_at_progress: bool,
    }

    impl npuzzle_search::Observer<Board, u32> for Seen {
        fn bound(&mut self, e: &npuzzle_search::Bound<u32>) -> npuzzle_search::Flow {
            self.bounds.push(e.bound());
            npuzzle_search::Flow::Continue
        }
        fn progress(&mut self, _: &npuzzle_search::Progress) -> npuzzle_search::Flow {
            self.progress += 1;
            if self.stop_at_progress {
                npuzzle_search::Flow::Stop
            } else {
                npuzzle_search::Flow::Continue
            }
        }
    }

    impl npuzzle_solver::Sampler for Seen {
        fn wants(&mut self, _: u64) -> bool {
            false
        }
    }

    impl npuzzle_solver::Watcher for Seen {}

    /// The search over a database on one thread and on two reports its proven bounds and
    /// its progress through the one watcher, and a watcher's stop ends it with its bound.
    #[test]
    fn the_database_search_reports_bounds_and_progress_on_any_number_of_threads() {
        let goal = Goal::BlankFirst.board(Size::square(4).unwrap()).unwrap();
        let db = db(&goal, "5-5-5");
        // Korf #3: millions of nodes with 5-5-5, optimum 59.
        let board: Board = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15".parse().unwrap();
        for threads in [1, 2] {
            let databases = Databases { pdb: Some(db.clone()), threads, ..Databases::default() };
            let solver = Solver::new().with_databases(databases);
            let options = Options { algorithm: Algorithm::IdaStar, ..Options::default() };
            let request = npuzzle_solver::Request::new(&board, &goal, &options);
            let mut seen = Seen::default();
            let s = solver.solve_with(&request, &mut seen).unwrap();
            assert_eq!(
                (s.status, s.moves.len(), s.heuristic),
                (Status::Solved, 59, Some(HeuristicKind::Pdb))
            );
            assert!(seen.progress > 0, "{threads} threads: no progress");
            assert!(seen.bounds.windows(2).all(|w| w[0] < w[1]), "{threads}: {:?}", seen.bounds);
            assert!(seen.bounds.last().is_some_and(|&b| b <= 59), "{threads}: {:?}", seen.bounds);
            // Stopped at its first progress: cancelled, with a proven bound.
            let mut stopper = Seen { stop_at_progress: true, ..Seen::default() };
            let s = solver.solve_with(&request, &mut stopper).unwrap();
            assert_eq!(s.status, Status::Limit, "{threads}");
            assert_eq!(s.limit(), Some(npuzzle_solver::Limit::Cancelled));
            let bound = s.lower_bound.unwrap();
            assert!(bound > 0 && bound <= 59, "{threads}: {bound}");
        }
    }
}

mod cache {
    use std::fs;
    use std::path::PathBuf;

    use npuzzle_core::{Goal, Size};
    use npuzzle_solver::heuristic::pdb::{Cache, CacheError, Database, FileError, Partition};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("npuzzle-pdb-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn setup(name: &str) -> (Cache, npuzzle_core::Board, Partition, PathBuf) {
        let goal = Goal::BlankLast.board(Size::square(3).unwrap()).unwrap();
        let partition = Partition::parse("4-4", &goal).unwrap();
        let cache = Cache::new(scratch(name));
        let db = Database::build(&goal, &partition, 1, &|_| {}, None).unwrap();
        let path = cache.save(&db).unwrap();
        (cache, goal, partition, path)
    }

    /// Loading fails as `expected`, and `load_or_build` rebuilds with one warning.
    fn rebuilt(
        cache: &Cache,
        goal: &npuzzle_core::Board,
        partition: &Partition,
        expected: fn(&CacheError) -> bool,
    ) {
        let err = cache.load(goal, partition).unwrap_err();
        assert!(expected(&err), "{err}");
        let mut warnings = Vec::new();
        let db = cache
            .load_or_build(goal, partition, 1, &|_| {}, None, &mut |w| warnings.push(w.to_string()))
            .unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("rebuilding"), "{}", warnings[0]);
        assert!(!warnings[0].contains('\n'));
        assert_eq!(db.estimate(&"8 6 7/2 5 4/3 0 1".parse().unwrap()) % 2, 1);
        assert!(cache.load(goal, partition).unwrap().is_some(), "the rebuilt file loads");
    }

    #[test]
    fn a_saved_database_loads_mapped_and_identical() {
        let (cache, goal, partition, path) = setup("roundtrip");
        let db = cache.load(&goal, &partition).unwrap().unwrap();
        assert!(db.is_mapped());
        assert_eq!(fs::read(&path).unwrap(), db.bytes());
        // Readied for many solves: per-region tables get their one-bit copies and stay
        // mapped; per-placement ones are copied onto anonymous (huge-page) memory. Both hold
        // the same bytes and answer the same.
        let ready = db.for_many_solves();
        assert!(ready.reads_bits());
        assert_eq!(ready.bytes(), db.bytes());
        let placement = Database::build_indexed(
            &goal,
            &partition,
            npuzzle_solver::heuristic::pdb::Indexing::Placement,
            1,
            &|_| {},
            None,
        )
        .unwrap();
        let copy = placement.in_memory();
        assert!(!copy.is_mapped() && !copy.reads_bits());
        assert_eq!(copy.bytes(), placement.bytes());
        let board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        assert_eq!(ready.estimate(&board), db.estimate(&board));
        assert_eq!(copy.estimate(&board), placement.estimate(&board));
        let listed = cache.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].header.as_ref().unwrap().1, partition);
        assert!(cache.verify().unwrap()[0].1.is_ok());
        let mut warn = |_: &str| panic!("no warning expected");
        assert!(cache.best(&goal, &mut warn).unwrap().is_some());
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn a_truncated_file_is_rebuilt() {
        let (cache, goal, partition, path) = setup("truncated");
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
        rebuilt(&cache, &goal, &partition, |e| {
            matches!(e, CacheError::Invalid { source: FileError::Truncated { .. }, .. })
        });
        fs::write(&path, &bytes[..10]).unwrap();
        assert!(cache.verify().unwrap()[0].1.is_err());
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn a_flipped_byte_is_rebuilt() {
        let (cache, goal, partition, path) = setup("flipped");
        let mut bytes = fs::read(&path).unwrap();
        let at = bytes.len() - 1000;
        bytes[at] ^= 0x04;
        fs::write(&path, &bytes).unwrap();
        rebuilt(&cache, &goal, &partition, |e| {
            matches!(e, CacheError::Invalid { source: FileError::Checksum, .. })
        });
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn another_format_version_is_rebuilt() {
        let (cache, goal, partition, path) = setup("version");
        let mut bytes = fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&999u32.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        rebuilt(&cache, &goal, &partition, |e| {
            matches!(e, CacheError::Invalid { source: FileError::Version(999), .. })
        });
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn a_file_8_bytes_too_long_was_called_truncated() {
        let (cache, goal, partition, path) = setup("too-long");
        let mut bytes = fs::read(&path).unwrap();
        let n = bytes.len() as u64;
        bytes.extend_from_slice(&[0; 8]);
        fs::write(&path, &bytes).unwrap();
        let err = cache.load(&goal, &partition).unwrap_err();
        assert!(
            matches!(
                err,
                CacheError::Invalid { source: FileError::TooLong { found, expected }, .. }
                    if found == n + 8 && expected == n
            ),
            "{err}"
        );
        assert!(err.to_string().contains("damaged: too long"), "{err}");
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn an_empty_or_random_file_was_rebuilt_without_saying_damaged() {
        let (cache, goal, partition, path) = setup("random");
        for junk in [Vec::new(), (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect()] {
            fs::write(&path, &junk).unwrap();
            let mut warnings = Vec::new();
            cache
                .load_or_build(&goal, &partition, 1, &|_| {}, None, &mut |w| {
                    warnings.push(w.to_string());
                })
                .unwrap();
            assert_eq!(warnings.len(), 1, "{warnings:?}");
            assert!(warnings[0].contains(": damaged: "), "{}", warnings[0]);
        }
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn a_fifo_named_pdb_hung_every_reader_of_the_cache() {
        let (cache, goal, partition, path) = setup("fifo");
        fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success());
        // Each call would block forever in `open` if it opened the FIFO: they run on a
        // thread, and the test fails (instead of hanging) when one does not come back.
        let (tx, rx) = std::sync::mpsc::channel();
        let worker = cache.clone();
        let (g, p) = (goal.clone(), partition.clone());
        std::thread::spawn(move || {
            let load = worker.load(&g, &p).map(|_| ());
            let listed = worker.list().unwrap();
            let verified = worker.verify().unwrap();
            let best = worker.best(&g, &mut |_| {}).map(|db| db.is_some());
            let _ = tx.send((load.map_err(|e| e.to_string()), listed, verified.len(), best.ok()));
        });
        let (load, listed, verified, best) = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the cache's readers came back from a FIFO");
        assert!(load.unwrap_err().ends_with(": not a regular file"));
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].header.as_ref().unwrap_err(), &FileError::NotAFile);
        assert_eq!(verified, 1);
        assert_eq!(best, Some(false));
        // A build replaces it with a sound file.
        let mut warnings: Vec<String> = Vec::new();
        cache
            .load_or_build(&goal, &partition, 1, &|_| {}, None, &mut |w| warnings.push(w.into()))
            .unwrap();
        assert!(cache.load(&goal, &partition).unwrap().is_some(), "{warnings:?}");
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn a_file_holding_another_partition_is_stale() {
        let (cache, goal, partition, path) = setup("stale");
        let other = Partition::parse("3-5", &goal).unwrap();
        let db = Database::build(&goal, &other, 1, &|_| {}, None).unwrap();
        fs::write(&path, db.bytes()).unwrap();
        rebuilt(&cache, &goal, &partition, |e| matches!(e, CacheError::Stale { .. }));
        let _ = fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn two_builders_at_once_leave_one_sound_file() {
        let goal = Goal::BlankLast.board(Size::new(3, 4).unwrap()).unwrap();
        let partition = Partition::parse("6-5", &goal).unwrap();
        let cache = Cache::new(scratch("race"));
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    let mut warn = |w: &str| panic!("unexpected warning {w}");
                    cache.load_or_build(&goal, &partition, 1, &|_| {}, None, &mut warn).unwrap();
                });
            }
            // Meanwhile, readers never see a torn file: either none yet, or a sound one.
            s.spawn(|| {
                for _ in 0..200 {
                    match cache.load(&goal, &partition) {
                        Ok(_) => {}
                        Err(e) => panic!("a reader saw {e}"),
                    }
                }
            });
        });
        let names: Vec<String> = fs::read_dir(cache.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
        assert!(cache.load(&goal, &partition).unwrap().is_some());
        let _ = fs::remove_dir_all(cache.dir());
    }

    /// Filled past its cap, the cache removes the least recently used files and keeps the one
    /// just used; `clean` empties it.
    #[test]
    fn the_cache_stays_within_its_cap() {
        let size = Size::square(3).unwrap();
        let dir = scratch("cap");
        let mut s = npuzzle_core::Scrambler::new(4);
        let goals: Vec<_> =
            (0..6).map(|_| s.solvable(&Goal::BlankLast.board(size).unwrap())).collect();
        let dbs: Vec<Database> = goals
            .iter()
            .map(|g| Database::build(g, &Partition::parse("4-4", g).unwrap(), 1, &|_| {}, None))
            .collect::<Result<_, _>>()
            .unwrap();
        let one = dbs[0].bytes().len() as u64;
        // Room for two files and a half.
        let cache = Cache::new(&dir).with_cap(one * 5 / 2);
        let mut kept = Vec::new();
        for (i, db) in dbs.iter().enumerate() {
            kept.push(cache.save(db).unwrap());
            assert!(cache.used().unwrap() <= cache.cap(), "after {i} saves");
            // The first file is used again and again: it must survive its younger peers.
            std::thread::sleep(std::time::Duration::from_millis(20));
            let first = Partition::parse("4-4", &goals[0]).unwrap();
            if i > 0 {
                assert!(cache.load(&goals[0], &first).unwrap().is_some(), "after {i} saves");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let left: Vec<_> = cache.list().unwrap().into_iter().map(|f| f.path).collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(left.contains(&kept[0]) && left.contains(&kept[5]), "{left:?}");
        let (removed, freed) = cache.clean().unwrap();
        assert_eq!((removed.len(), freed), (2, 2 * one));
        assert!(cache.list().unwrap().is_empty());
        let _ = fs::remove_dir_all(&dir);
    }
}
