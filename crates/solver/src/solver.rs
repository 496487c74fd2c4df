//! The [`Solver`]: an immutable value that owns its tables and answers solve requests, from
//! any number of threads at once.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use npuzzle_core::{Board, Parity};
use npuzzle_search::Observer;

use crate::engine::exact::ExactTable;
use crate::engine::twentyfour;
use crate::error::SolveError;
use crate::heuristic::pdb::{Database, Store};
use crate::options::{Algorithm, Heuristic, Options};
use crate::plan::{self, Plan, Resources, Step};
use crate::relabel::Relabel;
use crate::run::Task;
use crate::sample::{Sampler, Unsampled};
use crate::solution::Solution;
#[cfg(doc)]
use crate::solution::{Limit, Status};
use crate::tables::SolverTables;
use crate::watch::{Nodes, Request, Watcher};
#[cfg(doc)]
use npuzzle_search::Flow;

/// Pattern databases a solver holds besides its store (the command line loads them from its
/// cache), and how it searches over them. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Databases {
    /// A pattern database; used for boards of its size and goal (or its goal's frame).
    pub pdb: Option<Database>,
    /// Threads for one IDA* search over a database (1: sequential).
    pub threads: usize,
    /// Dual lookups in the IDA* over a database (see [`crate::heuristic::pdb`], "Dual lookups").
    pub dual: bool,
    /// The 24-puzzle search's move pruning: the longest move string its pruning machine
    /// considers (`None`: [`twentyfour::DEFAULT_PRUNING`]).
    pub pruning: Option<u8>,
    /// Threads for the near-optimal engine ([`crate::engine::near`]: on two or more, two
    /// beams at once on big boards and a helper thread for each beam's layers); `None`:
    /// every core the machine has.
    pub near_threads: Option<usize>,
    /// The memory a pattern database or Korf & Felner's tables loaded from the store for a
    /// request may take, in bytes: the room the whole process has, which the searches
    /// running at once share out (a table loaded once serves them all). Larger tables are
    /// not loaded, and the answer's note says so. `None`: each request's own memory limit.
    pub table_memory: Option<usize>,
}

/// Solves like [`crate::solve`] on [`Solver::shared`] holding `tables` (see
/// [`Solver::with_databases`]): the plan then takes the engines those tables make possible,
/// and walking distance when asked for.
///
/// # Errors
/// As [`crate::solve`]. Asking for `pdb` without a database for the board's goal runs the
/// same search with linear conflict instead, and the answer's notes say so.
pub fn solve_with(
    board: &Board,
    goal: &Board,
    options: &Options,
    tables: &Databases,
) -> Result<Solution, SolveError> {
    Solver::shared().with_databases(tables.clone()).solve(board, goal, options)
}

/// Solves sliding-tile puzzles, keeping the tables it builds for the next request.
///
/// A `Solver` is immutable and cheap to clone (an `Arc` inside), and can be shared by every
/// thread and request of a process, in the manner of regex-automata's meta `Regex`. The
/// tables it builds on first use (exact distance tables, the packed engines' line tables)
/// depend only on the board's shape and the goal's blank cell, never on the goal's
/// numbering (the tiles are relabelled; see the crate docs), so no sequence of requests can
/// make it hold more than a bounded set: about 3 MB for every 3x3 goal, about 16 MB for every
/// 4x4 goal. The working memory of one search (A*'s records and closed set) is per thread
/// and kept between searches.
///
/// It can also hold pattern databases, which the caller loads or builds (the library reads no
/// files): [`Solver::with_databases`].
///
/// [`crate::solve`] is the easy path: it uses one `Solver` shared by the process.
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal};
/// use npuzzle_solver::{Options, Solver, Status};
/// let solver = Solver::new();
/// let board: Board = "2 6 4/0 7 1/8 5 3".parse()?;
/// // Any goal: here the 42-school snail.
/// let goal = Goal::Snail.board(board.size())?;
/// let solution = solver.solve(&board, &goal, &Options::default())?;
/// assert_eq!(solution.status, Status::Solved);
/// let mut end = board.clone();
/// end.apply_all(&solution.moves)?;
/// assert_eq!(end, goal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Solver {
    tables: Arc<SolverTables>,
    /// Pattern databases the caller loaded (the library reads no files); none by default.
    databases: Databases,
    /// The databases the solver owns: held, cached, built on demand; none by default.
    store: Option<Arc<Store>>,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("tables", &self.tables.len()).finish()
    }
}

impl Solver {
    /// A solver with no tables yet.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The solver that [`crate::solve`] and the other free functions use.
    pub fn shared() -> &'static Solver {
        static SHARED: OnceLock<Solver> = OnceLock::new();
        SHARED.get_or_init(Solver::new)
    }

    /// A solver sharing this one's tables that also holds `databases`: when they hold a
    /// pattern database, its [`Solver::solve`] uses it for the boards of its size and goal
    /// (IDA* over the database, or the database as the heuristic of A*), and walking
    /// distance when asked for (see [`crate::solve_with`] for which request goes where).
    /// The other methods use the solver's own engines.
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal, Size};
    /// use npuzzle_solver::heuristic::pdb::{Database, Partition};
    /// use npuzzle_solver::{Databases, Heuristic, HeuristicKind, Options, Solver};
    /// let goal = Goal::BlankLast.board(Size::square(3)?)?;
    /// let db = Database::build(&goal, &Partition::parse("4-4", &goal)?, 1, &|_| {}, None)?;
    /// let solver = Solver::new().with_databases(Databases { pdb: Some(db), ..Databases::default() });
    /// let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
    /// let options = Options { heuristic: Heuristic::Pdb, ..Options::default() };
    /// let solution = solver.solve(&board, &goal, &options)?;
    /// assert_eq!(solution.moves.len(), 31);
    /// assert_eq!(solution.heuristic, Some(HeuristicKind::Pdb));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_databases(&self, databases: Databases) -> Solver {
        Solver { tables: Arc::clone(&self.tables), databases, store: self.store.clone() }
    }

    /// A solver sharing this one's tables and databases that also owns `store`: the
    /// requests that use a pattern database (`auto` on boards of 10 to 25 cells, `--heuristic
    /// pdb`) take theirs from it, for any goal the store's tables serve through the goal's
    /// frame (see [`crate::heuristic::pdb::store`]); a store that builds on demand builds the small
    /// partition when it has none, unless the board is at its goal or a quick search answers
    /// it at once.
    #[must_use]
    pub fn with_store(&self, store: Arc<Store>) -> Solver {
        Solver { store: Some(store), ..self.clone() }
    }

    /// Readies the pattern database that requests like `options` for boards of `goal` use
    /// (loaded, or built when the store builds on demand), held in anonymous memory for
    /// many solves; returns it, or `None` when such requests use none or none can be had.
    /// For benchmarks and batches, so that the first board's time is the search's alone.
    pub fn prepare(
        &self,
        goal: &Board,
        options: &Options,
    ) -> Option<crate::heuristic::pdb::Database> {
        crate::run::tables::prepare(self, goal, options, true)
    }

    /// As [`Solver::prepare`], but never builds: only a database held in memory or kept by
    /// the cache is readied. For batches that should cost no more than their boards need
    /// (a batch of boards a quick search answers never waits for a build).
    pub fn prepare_cached(
        &self,
        goal: &Board,
        options: &Options,
    ) -> Option<crate::heuristic::pdb::Database> {
        crate::run::tables::prepare(self, goal, options, false)
    }

    /// The store this solver owns, if any.
    pub fn store(&self) -> Option<&Arc<Store>> {
        self.store.as_ref()
    }

    /// The pattern databases this solver holds.
    pub fn databases(&self) -> &Databases {
        &self.databases
    }

    pub(crate) fn tables(&self) -> &Arc<SolverTables> {
        &self.tables
    }

    /// How many tables and engines this solver holds (bounded: see the type's docs).
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// The exact distance table towards `goal` (built on first use and kept), for boards of
    /// at most 9 cells; `None` for larger ones. Its distances are in `goal`'s own numbering:
    /// pass boards through [`Solver::solve`] or relabel them yourself.
    pub fn exact_table(&self, goal: &Board) -> Option<Arc<ExactTable>> {
        self.tables.exact(Relabel::new(goal).goal())
    }

    /// Solves `board` towards `goal` as `options` ask.
    ///
    /// The method comes from [`crate::plan`] (`auto` picks per board). Solvability is
    /// checked first; an unsolvable board is a [`Status::Unsolvable`] answer, and running out
    /// of nodes, memory or time is a [`Status::Limit`] answer with the [`Limit`] in
    /// [`Solution::reason`].
    ///
    /// # Errors
    /// [`SolveError`] when the request itself is wrong: a goal of another size, a weight
    /// below 1, or the table engine on a board of more than 9 cells.
    pub fn solve(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
    ) -> Result<Solution, SolveError> {
        // One plan for every request: the tables the solver holds, walking distance where
        // it is asked for, and honest notes where a request cannot be honoured.
        self.run(board, goal, options, Unsampled(()), Nodes::None)
    }

    /// Solves like [`Solver::solve`], on the same fast engines, showing `observer` the
    /// events that cost nothing per node: [`Observer::begin`], IDA*'s bounds and A*'s f
    /// layers ([`Observer::bound`]: each is a proven lower bound), [`Observer::progress`]
    /// about every 1024 expansions, and [`Observer::finish`]. Returning [`Flow::Stop`] from
    /// any of them stops the search with [`Limit::Cancelled`]. This is what a progress bar
    /// or a Ctrl-C handler needs; for every node, see [`Solver::solve_watched`].
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_observed<O: Observer<Board, u32>>(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        observer: O,
    ) -> Result<Solution, SolveError> {
        self.run(board, goal, options, Unsampled(observer), Nodes::None)
    }

    /// Solves `request`, showing `watcher` what it asks to see ([`Watcher::nodes`]): the
    /// one entry point behind [`Solver::solve`] (no watcher: `&mut ()`),
    /// [`Solver::solve_observed`] ([`Nodes::None`]), [`Solver::solve_sampled`]
    /// ([`Nodes::Sampled`]) and [`Solver::solve_watched`] ([`Nodes::Every`]). Every engine
    /// reports its bounds and progress to it, the databases' and the 24-puzzle's included,
    /// and [`Flow::Stop`] from any event stops the search with the bound it proved.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal};
    /// use npuzzle_search::{Bound, Flow, Observer};
    /// use npuzzle_solver::{Options, Request, Sampler, Solver, Watcher};
    ///
    /// /// Keeps the bounds an optimal search proves.
    /// #[derive(Default)]
    /// struct Bounds(Vec<u32>);
    /// impl Observer<Board, u32> for Bounds {
    ///     fn bound(&mut self, e: &Bound<u32>) -> Flow {
    ///         self.0.push(e.bound());
    ///         Flow::Continue
    ///     }
    /// }
    /// impl Sampler for Bounds {
    ///     fn wants(&mut self, _: u64) -> bool {
    ///         false
    ///     }
    /// }
    /// impl Watcher for Bounds {}
    ///
    /// let board: Board = "5 1 2 3/0 6 7 4/9 10 11 8/13 14 15 12".parse()?;
    /// let goal = Goal::BlankLast.board(board.size())?;
    /// let options = Options::default();
    /// let mut bounds = Bounds::default();
    /// let s = Solver::new().solve_with(&Request::new(&board, &goal, &options), &mut bounds)?;
    /// assert_eq!(s.moves.len(), 7);
    /// // Each bound is proven: the last is the optimum.
    /// assert_eq!(bounds.0.last(), Some(&7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve_with<W: Watcher>(
        &self,
        request: &Request<'_>,
        watcher: &mut W,
    ) -> Result<Solution, SolveError> {
        let Request { board, goal, options } = *request;
        match watcher.nodes() {
            Nodes::None => self.solve_observed(board, goal, options, watcher),
            Nodes::Sampled => self.solve_sampled(board, goal, options, watcher),
            Nodes::Every => self.solve_watched(board, goal, options, watcher),
        }
    }

    /// The solver's own engines, without its databases or walking distance (the quick probe
    /// before a database build).
    pub(crate) fn solve_plain<S: Sampler>(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        sampler: S,
    ) -> Result<Solution, SolveError> {
        crate::run::solve(self, board, goal, options, sampler, Resources::default(), Nodes::None)
    }

    /// Every solve: the plan for the request on this solver's resources, run.
    fn run<S: Sampler>(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        sampler: S,
        nodes: Nodes,
    ) -> Result<Solution, SolveError> {
        let resources = self.resources(goal, options);
        crate::run::solve(self, board, goal, options, sampler, resources, nodes)
    }

    /// What this solver holds or can get for boards towards `goal` (see [`Resources`]).
    pub fn resources(&self, goal: &Board, options: &Options) -> Resources {
        let five = goal.width() == 5 && goal.height() == 5;
        Resources {
            held_database: self
                .databases
                .pdb
                .as_ref()
                .is_some_and(|d| crate::run::tables::serves(d, goal)),
            store: self.store.is_some(),
            twentyfour: self.store.is_some()
                && five
                && twentyfour::Tables::korf_felner_partition(goal).is_ok(),
            // Its tables exist for sides up to MAX_SIDE, and its engine packs up to 32 cells;
            // the plan looks at this for that heuristic alone.
            walking_distance: options.heuristic == Heuristic::WalkingDistance
                && goal.tiles().len() <= 32
                && goal.width().max(goal.height()) <= crate::heuristic::walking_distance::MAX_SIDE,
        }
    }

    /// The plan this solver runs for boards towards `goal` under `options`, for a caller
    /// that watches `nodes` (see [`crate::plan::plan_for`]).
    ///
    /// # Errors
    /// As [`crate::plan::plan_for`].
    pub fn plan(&self, goal: &Board, options: &Options, nodes: Nodes) -> Result<Plan, SolveError> {
        plan::plan_for(goal.size(), options, self.resources(goal, options), nodes)
    }

    /// Whether [`Solver::solve_with`] shows a [`Nodes::Sampled`] watcher nodes for `request`:
    /// whether its plan starts with a step that samples them (see [`Step::samples`]). A
    /// visualizer that gets `false` watches with [`Nodes::Every`] instead.
    pub fn shows_nodes(&self, request: &Request<'_>) -> bool {
        let size = request.board.size();
        self.plan(request.goal, request.options, Nodes::Sampled)
            .is_ok_and(|p| p.steps.first().is_some_and(|s| s.samples(size.width(), size.height())))
    }

    /// Whether [`Solver::solve_sampled`] shows nodes for a request of `options` on boards of
    /// `size`: the packed engines (A*, Dijkstra, breadth-first search, IDA* and IDDFS on
    /// boards of at most 4x4, with an explicit algorithm) and the IDA* over pattern databases
    /// do; the other engines (walking distance's, A* over a database, the table, the
    /// reduction solver) show none, so a visualizer watches those through
    /// [`Solver::solve_watched`]'s generic searches instead.
    #[deprecated(
        since = "0.2.0",
        note = "use `Solver::shows_nodes`, which knows the solver's tables"
    )]
    pub fn samples_nodes(size: npuzzle_core::Size, options: &Options) -> bool {
        let packed = matches!(
            options.algorithm,
            Algorithm::AStar
                | Algorithm::Dijkstra
                | Algorithm::Bfs
                | Algorithm::IdaStar
                | Algorithm::Iddfs
        );
        let generic = match options.heuristic {
            Heuristic::WalkingDistance => options.algorithm.is_informed(),
            Heuristic::Pdb => options.algorithm == Algorithm::AStar,
            _ => false,
        };
        size.width() <= 4 && size.height() <= 4 && packed && !generic
    }

    /// Solves like [`Solver::solve_observed`], on the same fast engines and to the same
    /// answer, and shows `sampler` the nodes it asks for: where the packed engines (A*,
    /// Dijkstra, breadth-first search, IDA* and IDDFS on boards up to 4x4) check their
    /// limits, about every 1024 expansions, they ask [`Sampler::wants`], and only when it
    /// says yes unpack the node about to be expanded into a [`Board`] (in the goal's own
    /// numbering) for [`Observer::expand`], with its `g` and `h`, the list sizes (for IDA*,
    /// the depth-first path) and, for A* and breadth-first search, the open list's soonest
    /// boards ([`Expand::frontier`](npuzzle_search::Expand::frontier)). After a sample they
    /// ask again at the next node, so a sampler can see consecutive nodes, or stop at one
    /// (blocking in `expand`) and go on node by node: what a visualizer needs at full speed,
    /// for a few percent of the search's time. The IDA* over a pattern database does the
    /// same at its checks (about every 16,384 expansions) on one thread, with the boards in
    /// the caller's orientation and numbering. Other steps (the table, the reduction solver,
    /// the generic engines) show no nodes.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_sampled<S: Sampler>(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        sampler: S,
    ) -> Result<Solution, SolveError> {
        self.run(board, goal, options, sampler, Nodes::Sampled)
    }

    /// Solves like [`Solver::solve`], showing every node of the search to `observer` as a
    /// [`Board`]: for visualizers and for teaching.
    ///
    /// The search runs on the generic algorithms of `npuzzle-search` (over boxed positions),
    /// so every event is available, at some cost in speed. The observer receives boards with
    /// their `g`, `h` and parent, the open and closed counts, IDA*'s and IDDFS's bounds
    /// (unit-cost searches report depths), progress and the begin and end; returning
    /// [`Flow::Stop`] cancels the search, which then ends with [`Status::Limit`].
    ///
    /// `auto` is watched as IDA* with linear conflict on boards of up to 16 cells (or with
    /// `optimal`). The exact table, the reduction solver, and `auto` on larger boards are not
    /// node-by-node searches: they run as in [`Solver::solve`] and the observer sees nothing.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_watched<O: Observer<Board, u32>>(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        observer: O,
    ) -> Result<Solution, SolveError> {
        let clock = Instant::now();
        check_request(board, goal)?;
        // The generic searches have no tables: the plan of a bare solver, watched (`auto` is
        // IDA* there on boards of up to 16 cells).
        let plan = plan::plan_for(board.size(), options, Resources::default(), Nodes::Every)?;
        let Step::Search { algorithm, heuristic, weight, .. } = plan.steps[0] else {
            return self.solve(board, goal, options);
        };
        let parity = Parity::of(board, goal);
        if !parity.solvable() {
            return Ok(crate::run::unsolvable(parity, plan.steps[0], clock));
        }
        // No tables: the general engine works in the caller's own numbering, so the
        // observer sees the boards as given.
        let tables = Arc::default();
        let task = Task {
            tables: &tables,
            store: None,
            board,
            goal,
            limits: &options.limits,
            clock,
            near_threads: self.databases.near_threads,
            table_memory: None,
        };
        let mut s = task.watched(algorithm, heuristic, weight, observer);
        crate::run::tables::watched_label_check(&mut s, options);
        Ok(s)
    }
}

/// The checks every request passes first.
fn check_request(board: &Board, goal: &Board) -> Result<(), SolveError> {
    if board.size() != goal.size() {
        return Err(SolveError::GoalSize { goal: goal.size(), board: board.size() });
    }
    Ok(())
}

/// Solves `board` towards `goal` with the process's shared [`Solver`]: see
/// [`Solver::solve`] and [`crate::plan`].
///
/// # Errors
/// As [`Solver::solve`].
pub fn solve(board: &Board, goal: &Board, options: &Options) -> Result<Solution, SolveError> {
    Solver::shared().solve(board, goal, options)
}

/// [`Solver::solve_watched`] with the process's shared [`Solver`].
///
/// # Errors
/// As [`Solver::solve`].
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal};
/// use npuzzle_search::{Expand, Flow, Observer};
/// use npuzzle_solver::{Algorithm, Options, solve_watched};
///
/// /// Counts the boards A* expands.
/// struct Count(u64);
/// impl Observer<Board, u32> for Count {
///     fn expand(&mut self, _: &Expand<'_, Board, u32>) -> Flow {
///         self.0 += 1;
///         Flow::Continue
///     }
/// }
///
/// let board: Board = "1 2 3/4 5 6/0 7 8".parse()?;
/// let goal = Goal::BlankLast.board(board.size())?;
/// let options = Options { algorithm: Algorithm::AStar, ..Options::default() };
/// let mut count = Count(0);
/// let solution = solve_watched(&board, &goal, &options, &mut count)?;
/// assert_eq!(solution.moves.len(), 2);
/// assert_eq!(count.0, solution.stats.expanded);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_watched<O: Observer<Board, u32>>(
    board: &Board,
    goal: &Board,
    options: &Options,
    observer: O,
) -> Result<Solution, SolveError> {
    Solver::shared().solve_watched(board, goal, options, observer)
}
