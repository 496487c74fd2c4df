//! What the command line adds to the solver's answers: advice worded with the options the
//! user actually gave. The library states what happened (which limit, which parity); only
//! the command line knows its flags, so the suggestions live here.

use std::time::Duration;

use npuzzle_core::{Board, Goal, Parity};
use npuzzle_solver::{Algorithm, Limit, Note, Reason, Solution};

use crate::input::Task;

/// The options of a run that advice may suggest changing.
#[derive(Clone, Debug)]
pub struct Given {
    /// `--algorithm`.
    pub algorithm: Algorithm,
    /// `--optimal`.
    pub optimal: bool,
    /// `--timeout`, or its default.
    pub timeout: Duration,
    /// `--improve`, when given: the time limit of a board it applies to.
    pub improve: Option<Duration>,
    /// `--max-memory` in bytes, for the whole run.
    pub max_memory: usize,
    /// `--threads` actually used.
    pub threads: usize,
    /// `--max-nodes`.
    pub max_nodes: Option<u64>,
}

/// Seconds as people write them: `2`, `0.5`, `60`.
fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 { format!("{s:.0}") } else { format!("{s}") }
}

/// Whether `solution` is the near-optimal engine's answer to a board whose goal Korf &
/// Felner's 6-6-6-6 tables would have served (5x5, blank in a corner), given without them
/// because they are not cached: with them its answers are shorter (see
/// [`KORF_FELNER_ADVICE`]).
pub fn korf_felner_would_serve(solution: &Solution, goal: &Board) -> bool {
    solution.notes.iter().any(|n| matches!(n, Note::Near { tables: false, .. }))
        && npuzzle_solver::engine::twentyfour::Tables::korf_felner_partition(goal).is_ok()
}

/// Whether the cache holds Korf & Felner's tables' file: then advice to build them would be
/// wrong (the engine went without them for another reason, which the store has said).
pub fn korf_felner_cached() -> bool {
    use npuzzle_solver::engine::twentyfour::Tables;
    let (goal, partition) = (Tables::korf_felner_base_goal(), Tables::korf_felner_base_partition());
    crate::cmd::pdb::cache().path(&goal, &partition).exists()
}

/// What the command line says, once a run, after answering a 5x5 board without Korf &
/// Felner's tables. With them the near-optimal engine answered DeepCubeA's 496 24-puzzles
/// with 89.86 moves on average, 400 of them optimal; without, the first 203 with 91.35 (95
/// optimal; 89.74 optimal).
pub const KORF_FELNER_ADVICE: &str = "note: 5x5 answers come out shorter (and more often \
    optimal) with Korf & Felner's tables; build them once (about half a minute, 181 MB): \
    npuzzle pdb build --partition korf-felner";

/// What to change after a limit stopped the search of `solution`, naming the limit actually
/// hit and the value it had; `None` when there is nothing to suggest (the user cancelled).
pub fn after_limit(solution: &Solution, given: &Given) -> Option<String> {
    if solution.notes.iter().any(|n| matches!(n, Note::TablesNotReady { .. })) {
        return Some(
            "the 6-6-6-6 tables were not built within the time limit: build them once with \
             `npuzzle pdb build --partition korf-felner` (about a minute)"
                .to_string(),
        );
    }
    let limit = match &solution.reason {
        Some(Reason::Limit(Limit::Cancelled)) | None | Some(Reason::Unsolvable(_)) => {
            return None;
        }
        Some(Reason::Limit(limit)) => *limit,
        Some(_) => return Some("this is a bug in npuzzle: please report the board".to_string()),
    };
    let raise = match limit {
        // The limit was --improve's when it is the shorter of the two and the one hit.
        Limit::Time(hit) => match given.improve {
            Some(improve) if improve < given.timeout && hit == improve => {
                format!("raise --improve (it was {} s)", secs(improve))
            }
            _ => format!("raise --timeout (it was {} s)", secs(given.timeout)),
        },
        Limit::Memory(_) if given.threads > 1 => format!(
            "raise --max-memory (it was {} MiB, split across --threads {}: {} MiB each)",
            given.max_memory >> 20,
            given.threads,
            (given.max_memory / given.threads) >> 20
        ),
        Limit::Memory(_) => format!("raise --max-memory (it was {} MiB)", given.max_memory >> 20),
        Limit::Nodes(n) => format!("raise --max-nodes (it was {})", given.max_nodes.unwrap_or(n)),
        Limit::Cancelled => return None,
    };
    let other = if given.algorithm == Algorithm::Auto {
        given.optimal.then_some("or drop --optimal for a fast answer not proven optimal")
    } else {
        Some(match solution.algorithm {
            Algorithm::Bfs | Algorithm::Dfs | Algorithm::Iddfs | Algorithm::Dijkstra => {
                "or use an informed search: --algorithm idastar (optimal, little memory) or the \
                 default auto"
            }
            Algorithm::Greedy | Algorithm::AStar | Algorithm::WAStar
                if matches!(limit, Limit::Memory(_)) =>
            {
                "or use --algorithm idastar (optimal, memory linear in the depth)"
            }
            Algorithm::IdaStar | Algorithm::AStar => {
                "or use the default --algorithm auto (fast, not proven optimal)"
            }
            _ => "or use the default --algorithm auto",
        })
    };
    Some(match other {
        Some(other) => format!("{raise}, {other}"),
        None => raise,
    })
}

/// The named goals, in the order they are suggested.
const NAMED: [Goal; 3] = [Goal::BlankLast, Goal::BlankFirst, Goal::Snail];

/// Why `task`'s board cannot reach its goal, and which named goals it can reach instead:
/// `unsolvable towards blank-last: the tile permutation is odd ...; solvable towards snail:
/// use --goal snail`. This is what a 42-school user (snail) and a user of Korf's instances
/// (blank-first) meet first.
pub fn unsolvable(task: &Task, parity: &Parity) -> String {
    let towards = match task.goal_name {
        Some(name) => format!("unsolvable towards {name}: {parity}"),
        None => format!("unsolvable towards the given goal: {parity}"),
    };
    let others: Vec<&'static str> = NAMED
        .iter()
        .filter(|g| g.name() != task.goal_name)
        .filter_map(|g| {
            let goal: Board = g.board(task.board.size()).ok()?;
            (goal != task.goal && task.board.is_solvable(&goal)).then(|| g.name()).flatten()
        })
        .collect();
    if others.is_empty() {
        return towards;
    }
    let names = others.join(" and ");
    let how = if task.goal_from_file {
        "change the file's '# goal:' line".to_string()
    } else {
        others.iter().map(|n| format!("--goal {n}")).collect::<Vec<_>>().join(" or ")
    };
    let how = if task.goal_from_file { how } else { format!("use {how}") };
    format!("{towards}; solvable towards {names}: {how}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(board: &str, goal: Goal) -> Task {
        let board: Board = board.parse().unwrap();
        Task {
            goal: goal.board(board.size()).unwrap(),
            goal_name: goal.name(),
            goal_from_file: false,
            board,
        }
    }

    #[test]
    fn an_unsolvable_board_names_the_goals_it_can_reach() {
        let t = task("1 2 3/4 5 6/8 7 0", Goal::BlankLast);
        let parity = Parity::of(&t.board, &t.goal);
        assert_eq!(
            unsolvable(&t, &parity),
            "unsolvable towards blank-last: the tile permutation is odd but the blank is an even \
             number of moves from its goal cell; solvable towards snail: use --goal snail"
        );
        // A 4x4 board that reaches neither blank-last nor snail but blank-first.
        let t = task("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0", Goal::BlankLast);
        let parity = Parity::of(&t.board, &t.goal);
        assert!(
            unsolvable(&t, &parity)
                .ends_with("solvable towards blank-first: use --goal blank-first"),
            "{}",
            unsolvable(&t, &parity)
        );
        let mut from_file = task("1 2 3/4 5 6/8 7 0", Goal::BlankLast);
        from_file.goal_from_file = true;
        let parity = Parity::of(&from_file.board, &from_file.goal);
        assert!(
            unsolvable(&from_file, &parity)
                .ends_with("solvable towards snail: change the file's '# goal:' line")
        );
    }
}
