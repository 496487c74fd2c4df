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
    }
    db
}

/// The fewest moves of `group`'s tiles that bring them home from every placement, minimised
/// over the blank's cells, by a 0-1 breadth-first search over (tile cells, blank cell): an
/// independent reference for one table (the builder works on blank regions instead).
fn group_distances(goal: &Board, group: &[u16]) -> HashMap<Vec<usize>, u32> {
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
    let mut best: HashMap<Vec<usize>, u32> = HashMap::new();
    for ((cells, _), d) in dist {
        let e = best.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

#[test]
fn one_group_tables_equal_a_reference_search() {
    for (w, h, group) in [(3, 3, vec![1u16, 2, 4, 5]), (3, 3, vec![8, 7, 6]), (2, 4, vec![2, 3, 5])] {
        let size = Size::new(w, h).unwrap();
        for goal in [Goal::BlankLast, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let reference = group_distances(&goal, &group);
            let partition = Partition::new(vec![group.clone()], size.cells()).unwrap();
            let db = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
            let cells_of = |b: &Board| -> Vec<usize> {
                let pos = b.positions();
                group.iter().map(|&t| pos[usize::from(t)]).collect()
            };
            for b in exact(&goal).keys() {
                let mut expected = reference[&cells_of(b)];
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
                }
                assert_eq!(db.estimate(b), expected, "{goal} {group:?} at {b}");
            }
        }
    }
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
                assert!(walk <= d && walk >= map.manhattan(b.tiles()), "{goal}: wd({b}) = {walk}, d = {d}");
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
