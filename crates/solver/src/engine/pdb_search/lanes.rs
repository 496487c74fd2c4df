//! This engine's pass as the interleaved lanes of [`crate::engine::lanes`] drive it.

use super::{Kid, Node, Pass};
use crate::engine::lanes::{Interleave, Read};

impl Interleave for Pass<'_, '_> {
    type Node = Node;
    type Kid = Kid;

    fn blank_kid() -> Kid {
        Kid::default()
    }
    #[inline(always)]
    fn count(&mut self, node: &Node, g: u32, h: u32) -> bool {
        self.expanded += 1;
        if self.expanded >= self.check_at {
            self.check(node, g, h);
        }
        !self.stopped
    }
    #[inline(always)]
    fn prepare(&self, node: &Node, state: u16, kids: &mut [Kid; 4]) -> usize {
        self.engine.prepare(node, state, kids)
    }
    #[inline(always)]
    fn read(&mut self, node: &Node, g: u32, h: u32, kids: &mut [Kid]) -> Read {
        match self.evaluate(node, g, h, kids) {
            Some(kept) => Read::Kept(kept),
            None => Read::Cut,
        }
    }
    #[inline(always)]
    fn step_of(kid: &Kid) -> (u8, u16, u32) {
        (kid.m, kid.state, kid.h)
    }
    #[inline(always)]
    fn is_goal(kid: &Kid) -> bool {
        kid.md == 0
    }
    #[inline(always)]
    fn make(&self, node: &Node, kid: &Kid, child: &mut Node) {
        self.engine.kid_node_into(node, kid, child);
    }
    fn at_goal(&mut self, node: &Node, g: u32) -> bool {
        if node.md == 0 {
            self.depth = g;
        }
        node.md == 0
    }
    fn found(&mut self, path: &[u8]) {
        self.depth = path.len() as u32;
        self.path[..path.len()].copy_from_slice(path);
    }
    fn prefix(&self, g: u32) -> &[u8] {
        &self.path[..g as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CHECK_EVERY, Pass, PdbEngine, Watch};
    use crate::Limits;
    use crate::engine::lanes;
    use crate::heuristic::pdb::{Database, Partition};
    use npuzzle_core::{Board, Goal, Move, Scrambler, Size};

    fn watch(limits: &Limits) -> Watch<'_> {
        Watch::new(limits, None, None)
    }

    /// Replays `moves` from `board`: whether it ends on `goal`.
    fn reaches(board: &Board, moves: &[u8], goal: &Board) -> bool {
        let mut b = board.clone();
        for &m in moves {
            if b.apply(Move::ALL[usize::from(m)]).is_err() {
                return false;
            }
        }
        &b == goal
    }

    /// Every iteration of IDA* on 1 to 6 interleaved lanes against the recursive pass: an
    /// iteration without a solution generates the same nodes and gives the same next
    /// threshold; the first iteration with one finds one of the same length on every lane
    /// count, which replays to the goal.
    #[test]
    fn interleaved_passes_search_the_recursive_pass_tree() {
        let limits = Limits::default();
        let cases =
            [(Size::new(3, 3).unwrap(), "4-4", 40), (Size::new(4, 4).unwrap(), "5-5-5", 12)];
        for (size, spec, boards) in cases {
            for goal in [Goal::BlankLast, Goal::BlankFirst] {
                let goal = goal.board(size).unwrap();
                let partition = Partition::parse(spec, &goal).unwrap();
                let db = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
                let engine = PdbEngine::new(&db).unwrap();
                // The goal itself, at the root and below a prefix (a parallel pass's start).
                let at_goal = engine.root(&goal);
                for g in [0, 3] {
                    let w = watch(&limits);
                    let mut pass = Pass::new(&engine, 10, &w, CHECK_EVERY);
                    pass.depth = 99;
                    assert!(lanes::search(&mut pass, &at_goal, g, 0, 0));
                    assert_eq!((pass.depth, pass.expanded, pass.generated), (g, 0, 0));
                }
                let mut rng = Scrambler::new(7);
                for i in 0..boards {
                    // Random boards on 3x3; on 4x4 random walks short enough to solve fast.
                    let board = if size.cells() == 9 {
                        rng.solvable(&goal)
                    } else {
                        rng.walk(&goal, 30 + 2 * i).0
                    };
                    let root = engine.root(&board);
                    let mut bound = engine.h(&root);
                    loop {
                        let w = watch(&limits);
                        let mut deep = Pass::new(&engine, bound, &w, CHECK_EVERY);
                        let found = deep.dfs(&root, 0, 0, engine.h(&root));
                        for lanes in 1..=6 {
                            let w = watch(&limits);
                            let mut wide = Pass::new(&engine, bound, &w, CHECK_EVERY);
                            let wide_found =
                                lanes::search_on(lanes, &mut wide, &root, 0, 0, engine.h(&root));
                            assert_eq!(wide_found, found, "{board} bound {bound} lanes {lanes}");
                            if found {
                                assert_eq!(wide.depth, deep.depth);
                                let path = &wide.path[..wide.depth as usize];
                                assert!(reaches(&board, path, &goal), "{board} lanes {lanes}");
                            } else {
                                assert_eq!(
                                    (wide.expanded, wide.generated, wide.next_bound),
                                    (deep.expanded, deep.generated, deep.next_bound),
                                    "{board} bound {bound} lanes {lanes}"
                                );
                            }
                        }
                        if found {
                            assert!(reaches(&board, &deep.path[..deep.depth as usize], &goal));
                            break;
                        }
                        bound = deep.next_bound;
                    }
                }
            }
        }
    }

    /// A node limit stops the interleaved pass within the limit's check, as the recursive.
    #[test]
    fn a_node_limit_stops_the_interleaved_pass() {
        let goal = Goal::BlankLast.board(Size::new(4, 4).unwrap()).unwrap();
        let db =
            Database::build(&goal, &Partition::parse("5-5-5", &goal).unwrap(), 2, &|_| {}, None)
                .unwrap();
        let engine = PdbEngine::new(&db).unwrap();
        let board = Scrambler::new(3).solvable(&goal);
        let root = engine.root(&board);
        let limits = Limits { max_nodes: Some(500), ..Limits::default() };
        let w = watch(&limits);
        // A threshold far above the answer's length: without the limit the pass would
        // search a huge tree before meeting the goal.
        let mut pass = Pass::new(&engine, engine.h(&root) + 30, &w, CHECK_EVERY);
        let _ = lanes::search(&mut pass, &root, 0, 0, engine.h(&root));
        assert!(pass.stopped, "the limit did not stop the pass");
        assert!(pass.expanded <= 500, "{} expansions", pass.expanded);
    }
}
