//! Pattern databases against exact distances: every position of small boards.

use std::collections::HashMap;
use std::collections::VecDeque;

use npuzzle_core::{Board, Goal, Move, Size};
use npuzzle_solver::heuristic::GoalMap;
use npuzzle_solver::pdb::{Database, Partition};

/// Exact distance to `goal` of every reachable board, by breadth-first search.
fn exact(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in Move::ALL {
            if let Some(n) = b.moved(m) {
                dist.entry(n.clone()).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
    }
    dist
}

fn check(goal: &Board, spec: &str, dist: &HashMap<Board, u32>) -> Database {
    let partition = Partition::parse(spec, goal).unwrap();
    let db = Database::build(goal, &partition, 2, &|_| {}, None).unwrap();
    for (b, &d) in dist {
        let h = db.estimate(b);
        assert!(h <= d, "{spec} on {goal}: h({b}) = {h} > {d}");
        assert_eq!(h % 2, d % 2, "{spec}: parity of h({b})");
        for m in Move::ALL {
            if let Some(n) = b.moved(m) {
                let hn = db.estimate(&n);
                assert!(h.abs_diff(hn) <= 1, "{spec}: h jumps from {h} to {hn} at {b} {m}");
            }
        }
    }
    db
}

#[test]
fn every_partition_is_admissible_and_consistent_on_every_3x3_and_2x4_position() {
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
