//! Honest labels, through the one `Solver` that owns its databases: every algorithm with every
//! heuristic on a 3x3, a 3x4 and a 4x4 board answers with the algorithm and heuristic asked
//! for, or with a note that says what ran instead and why; a database serves every goal of
//! its frame with the same optimal lengths as one built for the goal itself.

mod common;

use common::Scratch;

use std::sync::Arc;

use npuzzle_core::{Board, Goal, Scrambler, Size};
use npuzzle_solver::heuristic::pdb::{Cache, Database, Partition, Store};
use npuzzle_solver::{
    Algorithm, Databases, Heuristic, HeuristicKind, Limits, Note, Options, SolveError, Solver,
    Status,
};

/// A solver owning a store over a fresh cache that builds the small partitions on demand,
/// and the cache's directory (removed when dropped: keep it until the solver is done).
fn solver(name: &str) -> (Scratch, Solver) {
    let dir = Scratch::new(&format!("labels-{name}"));
    let store = Store::new(Some(Cache::new(dir.path()))).building_on_demand(true, 2);
    (dir, Solver::new().with_store(Arc::new(store)))
}

/// `auto` with a timeout.
fn within(timeout: std::time::Duration) -> Options {
    Options { limits: Limits { timeout: Some(timeout), ..Limits::default() }, ..Options::default() }
}

#[test]
fn every_algorithm_and_heuristic_is_what_ran_or_a_note_says_why() {
    let (_dir, solver) = solver("table");
    let boards = [
        ("7 5 3/1 2 8/4 0 6", Goal::BlankLast),
        ("1 2 3 4/5 6 0 8/9 10 7 11", Goal::BlankLast),
        // 16 moves from the goal: every algorithm answers within the limits.
        ("5 1 2 3/9 6 7 4/13 10 11 8/14 0 15 12", Goal::BlankLast),
    ];
    for (text, goal) in boards {
        let board: Board = text.parse().unwrap();
        let goal = goal.board(board.size()).unwrap();
        for a in Algorithm::NAMES {
            for h in Heuristic::NAMES {
                let algorithm: Algorithm = a.parse().unwrap();
                let heuristic: Heuristic = h.parse().unwrap();
                let options = Options {
                    algorithm,
                    heuristic,
                    limits: Limits {
                        max_nodes: Some(300_000),
                        timeout: Some(std::time::Duration::from_secs(20)),
                        ..Limits::default()
                    },
                    ..Options::default()
                };
                let at = format!("{text} -a {a} --heuristic {h}");
                let s = match solver.solve(&board, &goal, &options) {
                    Ok(s) => s,
                    // The table engine refuses boards of more than 9 cells, as documented.
                    Err(SolveError::TableTooLarge(_)) if algorithm == Algorithm::Table => {
                        continue;
                    }
                    Err(e) => panic!("{at}: {e}"),
                };
                if let Err(e) = s.replay(&board, &goal) {
                    panic!("{at}: {e}");
                }
                if algorithm != Algorithm::Auto && s.status == Status::Solved {
                    assert!(
                        s.algorithm == algorithm || !s.notes.is_empty(),
                        "{at}: ran {} with no note",
                        s.algorithm.name()
                    );
                }
                if heuristic != Heuristic::Auto {
                    let ran = s.heuristic.map(|k| k.name());
                    let explained = s
                        .notes
                        .iter()
                        .any(|n| matches!(n, Note::HeuristicNotUsed { .. } | Note::NoDatabase));
                    assert!(
                        ran == Some(heuristic.name()) || explained,
                        "{at}: ran {ran:?} with notes {:?}",
                        s.notes
                    );
                }
                // Walking distance runs wherever it is asked for with an informed search.
                if heuristic == Heuristic::WalkingDistance && algorithm.is_informed() {
                    assert_eq!(s.heuristic.map(|k| k.name()), Some("walking-distance"), "{at}");
                }
                // A held or buildable database always serves `pdb` on these shapes.
                if heuristic == Heuristic::Pdb && algorithm.is_informed() {
                    assert_eq!(s.heuristic.map(|k| k.name()), Some("pdb"), "{at}: {:?}", s.notes);
                }
            }
        }
    }
}

#[test]
fn a_goal_and_its_frame_give_the_same_optimal_lengths_through_a_database() {
    let mut rng = Scrambler::new(17);
    let (_dir, store_solver) = solver("frame");
    let options = Options { heuristic: Heuristic::Pdb, ..Options::default() };
    for (size, goals) in [(Size::square(3).unwrap(), 8), (Size::new(4, 3).unwrap(), 2)] {
        let exact_goal = Goal::BlankLast.board(size).unwrap();
        for _ in 0..goals {
            // Any goal, any blank cell: the store builds or reuses its frame's table.
            let goal = rng.solvable(&exact_goal);
            let own = Database::build(&goal, &Partition::small(&goal).unwrap(), 1, &|_| {}, None)
                .unwrap();
            let direct =
                Solver::new().with_databases(Databases { pdb: Some(own), ..Databases::default() });
            let exact = (size.cells() <= 9).then(|| common::exact(&goal));
            for _ in 0..3 {
                let board = rng.solvable(&goal);
                let framed = store_solver.solve(&board, &goal, &options).unwrap();
                let own = direct.solve(&board, &goal, &options).unwrap();
                assert_eq!(framed.status, Status::Solved);
                assert!(framed.optimal && own.optimal);
                assert_eq!(framed.moves.len(), own.moves.len(), "{board} -> {goal}");
                let mut end = board.clone();
                end.apply_all(&framed.moves).unwrap();
                assert_eq!(end, goal);
                if let Some(exact) = &exact {
                    assert_eq!(framed.moves.len() as u32, exact[&board], "{board} -> {goal}");
                }
            }
        }
    }
    // At most one table per frame: the corner, edge and centre classes of the 3x3, and the
    // 4x3's classes, whatever the goals.
    let held = store_solver.store().unwrap().status().held;
    assert!(held.len() <= 3 + 4, "{held:?}");
}

#[test]
fn a_board_at_its_goal_or_answered_at_once_builds_nothing() {
    let scratch = Scratch::new("labels-nobuild");
    let dir = scratch.path();
    let store = Store::new(Some(Cache::new(dir))).building_on_demand(true, 1);
    let solver = Solver::new().with_store(Arc::new(store));
    let goal = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
    let s = solver.solve(&goal, &goal, &Options::default()).unwrap();
    assert_eq!((s.status, s.moves.len()), (Status::Solved, 0));
    let near: Board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15".parse().unwrap();
    let s = solver.solve(&near, &goal, &Options::default()).unwrap();
    assert_eq!(s.moves.len(), 1);
    assert!(solver.store().unwrap().status().held.is_empty());
    assert!(!dir.exists() || std::fs::read_dir(dir).unwrap().next().is_none());
}

/// What a store tells: the builds it starts and its warnings.
#[derive(Default)]
struct Told {
    builds: std::sync::Mutex<usize>,
    warnings: std::sync::Mutex<Vec<String>>,
}

impl npuzzle_solver::heuristic::pdb::store::Report for Told {
    fn building(&self, _: &Board, _: &Partition) {
        *self.builds.lock().unwrap() += 1;
    }
    fn warn(&self, warning: &str) {
        self.warnings.lock().unwrap().push(warning.to_string());
    }
}

#[test]
fn a_solve_does_not_wait_past_its_timeout_for_a_table_build_which_goes_on_for_the_next() {
    let scratch = Scratch::new("labels-outoftime");
    let dir = scratch.path();
    let told = Arc::new(Told::default());
    let store =
        Store::new(Some(Cache::new(dir))).building_on_demand(true, 1).with_report(told.clone());
    let solver = Solver::new().with_store(Arc::new(store));
    // 56 moves: no quick search answers it, so auto wants the 6-6-3 table (about a second
    // to build), and 20 ms cannot hold that build.
    let board: Board = "0 9 6 3/8 14 12 13/5 2 7 11/15 10 1 4".parse().unwrap();
    let goal = Goal::BlankLast.board(board.size()).unwrap();
    let tight = within(std::time::Duration::from_millis(20));
    // Before, the solve waited for the build's end, past its timeout.
    let s = solver.solve(&board, &goal, &tight).unwrap();
    assert_eq!(s.status, Status::Solved, "{s:?}");
    s.replay(&board, &goal).unwrap();
    assert_ne!(s.heuristic, Some(npuzzle_solver::HeuristicKind::Pdb), "{s:?}");
    let warnings = told.warnings.lock().unwrap().clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("6-6-3 pattern database") && warnings[0].contains("time limit"));
    // The build goes on: the next solves do not start another, and one with time for it
    // (none given here) waits for it and runs over it.
    for _ in 0..3 {
        let s = solver.solve(&board, &goal, &tight).unwrap();
        assert_eq!(s.status, Status::Solved, "{s:?}");
    }
    let s = solver.solve(&board, &goal, &Options::default()).unwrap();
    assert_eq!((s.moves.len(), s.optimal), (56, true));
    assert_eq!(s.heuristic, Some(npuzzle_solver::HeuristicKind::Pdb));
    assert_eq!(*told.builds.lock().unwrap(), 1);
    assert_eq!(solver.store().unwrap().status().held.len(), 1);
}

#[test]
fn a_watched_search_says_when_it_cannot_run_the_heuristic_asked_for() {
    let board: Board = "7 5 3/1 2 8/4 0 6".parse().unwrap();
    let goal = Goal::BlankLast.board(board.size()).unwrap();
    for h in [Heuristic::WalkingDistance, Heuristic::Pdb] {
        let options = Options { algorithm: Algorithm::AStar, heuristic: h, ..Options::default() };
        let watched = Solver::new().solve_watched(&board, &goal, &options, ()).unwrap();
        let sampled = Solver::new().solve_sampled(&board, &goal, &options, ()).unwrap();
        for s in [watched, sampled] {
            assert_eq!(s.status, Status::Solved);
            let ran = s.heuristic.unwrap();
            assert!(
                ran.name() == h.name()
                    || matches!(s.notes[0], Note::NotWatchable { .. } | Note::NoDatabase),
                "{h:?}: {ran:?} {:?}",
                s.notes
            );
        }
    }
}

/// When `auto`'s near-optimal step stops before an answer, the note says which limit
/// stopped it: a memory limit below its narrowest beam is not "no answer within 48 s".
/// (Since its beams' trails are compacted, a beam of 64 on 10x10 fits in 1 MiB; 64 KiB.)
#[test]
fn auto_says_which_limit_stopped_the_near_engine() {
    let goal = Goal::BlankLast.board(Size::new(10, 10).unwrap()).unwrap();
    let board = Scrambler::new(3).solvable(&goal);
    let options = Options {
        limits: Limits { max_memory: Some(1 << 16), ..Limits::default() },
        ..Options::default()
    };
    let s = Solver::new().solve(&board, &goal, &options).unwrap();
    assert_eq!((s.status, s.algorithm), (Status::Solved, Algorithm::Reduction));
    assert!(
        matches!(s.notes[0], Note::NearGaveUp { limit: npuzzle_solver::Limit::Memory(_) }),
        "{:?}",
        s.notes
    );
    let note = s.note().unwrap();
    assert!(note.contains("needs more memory") && !note.contains("within"), "{note}");
    let mut end = board.clone();
    end.apply_all(&s.moves).unwrap();
    assert_eq!(end, goal);
}

/// `auto` gives the near-optimal engine boards of up to 256 cells; in a budget too short for
/// its answer to beat the reduction solver's (a 10x10 in 5 M nodes: its first, narrow beam
/// and that beam's windows, 1,691 moves, longer than the reduction solver's 1,585; a node
/// budget rather than a time, so that the machine's speed does not change the outcome),
/// `auto` answers with the reduction solver's, says why, and keeps the bound the engine
/// proved. Its answer is never longer than the reduction solver's. (It was a 10x10 in half
/// a second, where the engine now answers 1,209 moves: under a tight timeout its beams had
/// been sized for a machine twenty times as fast, and were cut off.)
#[test]
fn auto_answers_the_shorter_of_the_near_engine_and_the_reduction_solver() {
    let goal = Goal::BlankLast.board(Size::new(10, 10).unwrap()).unwrap();
    let board = Scrambler::new(2).solvable(&goal);
    let solver = Solver::new();
    let reduction =
        Options { algorithm: npuzzle_solver::Algorithm::Reduction, ..Options::default() };
    let plain = solver.solve(&board, &goal, &reduction).unwrap();
    let mut tight = Options::default();
    tight.limits.max_nodes = Some(5_000_000);
    let s = solver.solve(&board, &goal, &tight).unwrap();
    assert_eq!((s.status, s.algorithm, s.heuristic), (Status::Solved, Algorithm::Reduction, None));
    let Note::NearLonger { length, .. } = s.notes[0] else {
        panic!("{:?}", s.notes);
    };
    assert!(s.moves.len() < length && s.moves.len() <= plain.moves.len(), "{length} {s:?}");
    let note = s.note().unwrap();
    assert!(note.contains("answer in") && note.contains("was longer"), "{note}");
    assert!(s.lower_bound > plain.lower_bound, "{:?} {:?}", s.lower_bound, plain.lower_bound);
    let mut end = board.clone();
    end.apply_all(&s.moves).unwrap();
    assert_eq!(end, goal);
    // With a few seconds, the engine's answer (about a fifth shorter here).
    let roomy = within(std::time::Duration::from_secs(5));
    let s = solver.solve(&board, &goal, &roomy).unwrap();
    assert_eq!((s.status, s.algorithm), (Status::Solved, Algorithm::Near), "{:?}", s.notes);
    assert!(s.moves.len() < plain.moves.len(), "{} {}", s.moves.len(), plain.moves.len());
    let mut end = board.clone();
    end.apply_all(&s.moves).unwrap();
    assert_eq!(end, goal);
}

/// From 17 cells (4x5, 3x6, 2x9) `auto` answers with the near-optimal engine, as it does
/// from 25: its answers there are about a quarter shorter than the weighted A* and the
/// reduction solver that answered before, and its bound is above Manhattan + linear
/// conflict's. The label says so, and the answer replays.
#[test]
fn auto_gives_boards_from_17_cells_to_the_near_engine() {
    let solver = Solver::new();
    for (w, h, seed) in [(4, 5, 1), (6, 3, 2), (2, 9, 3)] {
        let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
        let board = Scrambler::new(seed).solvable(&goal);
        let options = within(std::time::Duration::from_secs(10));
        let s = solver.solve(&board, &goal, &options).unwrap();
        let at = format!("{w}x{h} {board}");
        assert_eq!(s.status, Status::Solved, "{at}");
        assert_eq!(s.algorithm, Algorithm::Near, "{at}: {:?}", s.notes);
        let mut end = board.clone();
        end.apply_all(&s.moves).unwrap();
        assert_eq!(end, goal, "{at}");
        let reduction = Options { algorithm: Algorithm::Reduction, ..options.clone() };
        let plain = solver.solve(&board, &goal, &reduction).unwrap();
        assert!(s.moves.len() < plain.moves.len(), "{at}: {} {}", s.moves.len(), plain.moves.len());
        let bound = s.lower_bound.unwrap();
        assert!(bound <= s.moves.len() as u64, "{at}");
        assert!(bound >= plain.lower_bound.unwrap(), "{at}");
    }
}

/// Up to 16x16 `auto`'s last step, the reduction solver, answers whatever time the steps
/// before it left (milliseconds there): with a microsecond, the optimal attempt (13 to 16
/// cells), the near-optimal engine and weighted A* (13 to 16 cells) all stop at the limit, and
/// the answer is still there (it was a limit: a 0.5 s solve of a 4x4 on a loaded machine
/// stopped so). Beyond, the timeout still holds.
#[test]
fn auto_answers_boards_up_to_16x16_however_short_the_timeout() {
    let solver = Solver::new();
    let tiny = within(std::time::Duration::from_micros(1));
    for (w, h, seed) in
        [(4, 4, 1), (8, 2, 2), (5, 3, 3), (5, 4, 4), (6, 6, 5), (12, 12, 6), (16, 16, 7)]
    {
        let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
        let board = Scrambler::new(seed).solvable(&goal);
        let s = solver.solve(&board, &goal, &tiny).unwrap();
        let at = format!("{w}x{h} {board}");
        assert_eq!((s.status, s.algorithm), (Status::Solved, Algorithm::Reduction), "{at}");
        let gave_up = if w * h <= 16 {
            matches!(s.notes[..], [Note::OptimalAttemptGaveUp { .. }, Note::NearGaveUp { .. }, ..])
        } else {
            matches!(s.notes[..], [Note::NearGaveUp { .. }, ..])
        };
        assert!(gave_up, "{at}: {:?}", s.notes);
        let note = s.note().unwrap();
        assert!(note.contains("so auto turned to the reduction solver"), "{at}: {note}");
        let mut end = board.clone();
        end.apply_all(&s.moves).unwrap();
        assert_eq!(end, goal, "{at}");
    }
    let goal = Goal::BlankLast.board(Size::new(17, 17).unwrap()).unwrap();
    let board = Scrambler::new(8).solvable(&goal);
    let s = solver.solve(&board, &goal, &tiny).unwrap();
    assert_eq!(s.status, Status::Limit, "{:?}", s.notes);
}

/// On a 5x5 the near-optimal engine answers with the heuristic asked for: linear conflict
/// when it is named (Korf & Felner's tables, when cached, serve only `auto` and `pdb`), and
/// `pdb` asked for without the tables answers with linear conflict and a note saying so.
#[test]
fn the_near_engine_on_a_5x5_names_the_heuristic_that_ran() {
    let (_dir, solver) = solver("near-5x5");
    let goal = Goal::BlankLast.board(Size::square(5).unwrap()).unwrap();
    let board = Scrambler::new(7).solvable(&goal);
    for heuristic in [Heuristic::Auto, Heuristic::LinearConflict, Heuristic::Pdb] {
        let options = Options {
            algorithm: Algorithm::Near,
            heuristic,
            ..within(std::time::Duration::from_secs(2))
        };
        let s = solver.solve(&board, &goal, &options).unwrap();
        let at = format!("{heuristic:?}: {:?}", s.notes);
        assert_eq!((s.status, s.algorithm), (Status::Solved, Algorithm::Near), "{at}");
        let mut end = board.clone();
        end.apply_all(&s.moves).unwrap();
        assert_eq!(end, goal, "{at}");
        // No 24-puzzle tables in a fresh cache (never built for this engine).
        assert_eq!(s.heuristic, Some(npuzzle_solver::HeuristicKind::LinearConflict), "{at}");
        let substituted = s.notes.iter().any(|n| matches!(n, Note::HeuristicNotUsed { .. }));
        assert_eq!(substituted, heuristic == Heuristic::Pdb, "{at}");
        let note = s.note().unwrap_or_default();
        assert!(!note.contains("Korf & Felner"), "{at}");
        if heuristic == Heuristic::Pdb {
            assert!(note.contains("pdb is not available"), "{note}");
        }
    }
}

#[test]
fn under_a_memory_limit_the_strongest_cached_database_within_it_serves_and_the_note_says_so() {
    let scratch = Scratch::new("labels-smaller");
    let cache = Cache::new(scratch.path());
    let board: Board = "5 1 3 4/2 6 0 8/9 10 7 11".parse().unwrap();
    let goal = Goal::BlankLast.board(board.size()).unwrap();
    let mut sizes = Vec::new();
    for spec in ["6-5", "4-4-3"] {
        let partition = Partition::parse(spec, &goal).unwrap();
        let db = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
        let path = cache.save(&db).unwrap();
        sizes.push(std::fs::metadata(path).unwrap().len());
    }
    let (strong, small) = (sizes[0], sizes[1]);
    assert!(small < strong, "{sizes:?}");
    let fresh = || Solver::new().with_store(Arc::new(Store::new(Some(Cache::new(scratch.path())))));
    let pdb = |max_memory: u64| Options {
        algorithm: Algorithm::IdaStar,
        heuristic: Heuristic::Pdb,
        limits: Limits { max_memory: Some(max_memory as usize), ..Limits::default() },
        ..Options::default()
    };
    let store = fresh().store().unwrap().clone();
    assert_eq!(store.bytes_to_load(&goal), Some(strong));
    assert_eq!(store.bytes_to_load_within(&goal, Some(strong - 1)), Some(small));
    assert_eq!(store.bytes_to_load_within(&goal, Some(small - 1)), None);
    // Room for the whole strong one: it serves, without a note.
    let roomy = fresh().solve(&board, &goal, &pdb(strong)).unwrap();
    assert_eq!((roomy.status, roomy.heuristic), (Status::Solved, Some(HeuristicKind::Pdb)));
    assert!(roomy.notes.is_empty(), "{:?}", roomy.notes);
    // Room for the small one only: it serves, the answer as short, and the note says so.
    let solver = fresh();
    let s = solver.solve(&board, &goal, &pdb(strong - 1)).unwrap();
    assert_eq!(
        (s.status, s.heuristic, s.optimal),
        (Status::Solved, Some(HeuristicKind::Pdb), true)
    );
    assert_eq!(s.moves.len(), roomy.moves.len());
    let mut end = board.clone();
    end.apply_all(&s.moves).unwrap();
    assert_eq!(end, goal);
    assert!(
        matches!(s.notes[..], [Note::SmallerDatabase { bytes, used, .. }] if bytes == strong && used == small),
        "{:?}",
        s.notes
    );
    let note = s.note().unwrap();
    assert!(
        note.contains("would not fit in the memory limit") && note.contains("a smaller one"),
        "{note}"
    );
    let held = solver.store().unwrap().status().held;
    assert_eq!(held.len(), 1, "{held:?}");
    // Asked again within the same limit, the held small one serves, with the same note.
    let again = solver.solve(&board, &goal, &pdb(strong - 1)).unwrap();
    assert_eq!(again.heuristic, Some(HeuristicKind::Pdb));
    assert!(
        matches!(again.notes[..], [Note::SmallerDatabase { bytes, used, .. }] if bytes == strong && used == small),
        "{:?}",
        again.notes
    );
    // A later, roomier request of the same process loads the strong one rather than keep
    // to the small one it holds; after that, the strong one serves every request (held, it
    // adds nothing), without a note.
    let store = solver.store().unwrap();
    assert_eq!(store.bytes_to_load_within(&goal, Some(strong)), Some(strong));
    let later = solver.solve(&board, &goal, &pdb(strong)).unwrap();
    assert_eq!((later.heuristic, later.moves.len()), (Some(HeuristicKind::Pdb), roomy.moves.len()));
    assert!(later.notes.is_empty(), "{:?}", later.notes);
    // Only the strong one is held now: the small one serves no request the strong one
    // does not.
    let held = store.status().held;
    assert_eq!(held.iter().map(|e| e.bytes).collect::<Vec<_>>(), [strong], "{held:?}");
    assert_eq!(store.find(&goal).map(|d| d.partition().groups().len()), Some(2));
    assert_eq!(store.bytes_to_load_within(&goal, Some(small)), Some(0));
    let tight = solver.solve(&board, &goal, &pdb(strong - 1)).unwrap();
    assert_eq!(tight.heuristic, Some(HeuristicKind::Pdb));
    assert!(tight.notes.is_empty(), "{:?}", tight.notes);
    // A batch readies the same one before its first board, and none when neither fits.
    let ready = |max_memory: u64| fresh().prepare_cached(&goal, &pdb(max_memory));
    assert_eq!(ready(strong).map(|d| d.partition().groups().len()), Some(2));
    assert_eq!(ready(strong - 1).map(|d| d.partition().groups().len()), Some(3));
    assert!(ready(small - 1).is_none());
    // Room for neither: linear conflict, and the note names the strong one.
    let s = fresh().solve(&board, &goal, &pdb(small - 1)).unwrap();
    assert_eq!((s.status, s.heuristic), (Status::Solved, Some(HeuristicKind::LinearConflict)));
    assert_eq!(s.moves.len(), roomy.moves.len());
    assert!(
        matches!(s.notes[..], [Note::TablesTooLarge { twentyfour: false, bytes, .. }] if bytes == strong),
        "{:?}",
        s.notes
    );
}

#[test]
fn a_database_larger_than_the_memory_limit_is_not_loaded_and_the_note_says_so() {
    let scratch = Scratch::new("labels-toolarge");
    let dir = scratch.path();
    let board: Board = "1 2 3 4/5 6 0 8/9 10 7 11".parse().unwrap();
    let goal = Goal::BlankLast.board(board.size()).unwrap();
    let pdb = |max_memory: Option<usize>| Options {
        algorithm: Algorithm::IdaStar,
        heuristic: Heuristic::Pdb,
        limits: Limits { max_memory, ..Limits::default() },
        ..Options::default()
    };
    // Built into the cache by one solver; each solver after it starts with none held.
    let built = Solver::new()
        .with_store(Arc::new(Store::new(Some(Cache::new(dir))).building_on_demand(true, 1)));
    let first = built.solve(&board, &goal, &pdb(None)).unwrap();
    assert_eq!(first.heuristic, Some(HeuristicKind::Pdb));
    let fresh = || Solver::new().with_store(Arc::new(Store::new(Some(Cache::new(dir)))));
    let bytes = fresh().store().unwrap().bytes_to_load(&goal).unwrap();
    assert!(bytes > 0);
    let s = fresh().solve(&board, &goal, &pdb(Some(bytes as usize - 1))).unwrap();
    assert_eq!((s.status, s.heuristic), (Status::Solved, Some(HeuristicKind::LinearConflict)));
    assert_eq!(s.moves.len(), first.moves.len());
    assert!(
        matches!(s.notes[..], [Note::TablesTooLarge { twentyfour: false, bytes: b, .. }] if b == bytes),
        "{:?}",
        s.notes
    );
    let note = s.note().unwrap();
    assert!(note.contains("would not fit in the memory limit"), "{note}");
    let solver = fresh();
    assert!(solver.store().unwrap().status().held.is_empty());
    // Room for it: loaded, and held for the solves after.
    let s = solver.solve(&board, &goal, &pdb(Some(bytes as usize))).unwrap();
    assert_eq!(s.heuristic, Some(HeuristicKind::Pdb));
    assert!(s.notes.is_empty(), "{:?}", s.notes);
    assert_eq!(solver.store().unwrap().bytes_to_load(&goal), Some(0));
    assert_eq!(s.moves.len(), first.moves.len());
    // `auto` on a board a quick IDA* over linear conflict answers loads nothing for it.
    let solver = fresh();
    let auto = Options::default();
    let s = solver.solve(&board, &goal, &auto).unwrap();
    assert_eq!((s.status, s.optimal), (Status::Solved, true));
    assert_eq!(s.moves.len(), first.moves.len());
    assert_eq!(s.heuristic, Some(HeuristicKind::LinearConflict));
    assert!(s.notes.is_empty(), "{:?}", s.notes);
    assert_eq!(solver.store().unwrap().bytes_to_load(&goal), Some(bytes));
}
