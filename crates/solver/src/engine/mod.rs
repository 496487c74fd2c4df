//! The engines: each runs one kind of search on the boards it takes. The plan
//! ([`crate::plan_for`], with the tables a [`Solver`](crate::Solver) holds or can get)
//! decides which one answers a request; the engines themselves never choose.
//!
//! | engine ([`Engine`]) | boards | optimal | `auto` picks it |
//! |---|---|---|---|
//! | [`Engine::Table`]: [`exact`], a breadth-first distance table per shape and blank cell | up to 9 cells | yes | always, on those boards |
//! | [`Engine::Packed`]: IDA*, A*, Dijkstra, BFS, IDDFS on positions packed in a `u64`/`u128` | up to 4x4 | with A*, IDA*, Dijkstra, BFS | IDA* with linear conflict on 10 to 16 cells when no database serves the board |
//! | [`Engine::PatternDatabase`]: [`pdb_search`], IDA* over additive pattern databases, direct and reflected (dual) lookups, one instance on several threads | up to 25 cells | yes | on 10 to 16 cells when the solver holds (or builds) a database |
//! | [`Engine::TwentyFour`]: [`twentyfour`], IDA* over Korf & Felner's 6-6-6-6 tables with reflection and move pruning | 5x5 with the blank in a corner | yes | with `--optimal` (or IDA* over `pdb`) on 5x5 |
//! | [`Engine::Generic`]: the searches of `npuzzle-search` over packed positions with a database or walking distance as the heuristic | up to 32 cells | with A*, IDA* | when walking distance or A* over a database is asked for |
//! | [`Engine::General`]: every search of `npuzzle-search` over boxed positions | any | with A*, IDA*, Dijkstra, BFS | weighted A* on boards above 16 cells, within a budget |
//! | [`Engine::Near`]: [`near`], beam searches from both ends ranked by Manhattan + linear conflict + squared distances (not a lower bound), loop cutting, beams and IDA* over windows of the path, a root IDA* for the lower bound; anytime with `improve` | up to 4,096 cells (64x64); up to 16,384 (128x128) after the reduction solver peels the board down to 64x64 | no: its lower bound says how far the answer may be | on 25 to 256 cells (5x5 without `optimal`, 6x6, ..., 16x16), unless the reduction solver's answer is shorter |
//! | [`Engine::Reduction`]: [`reduction`], rows and columns placed one by one, then a peephole pass | any | no | when nothing else answers in time, and on large boards |

pub(crate) mod boards;
pub(crate) mod common;
pub mod exact;
pub(crate) mod general;
pub(crate) mod generic;
pub(crate) mod lanes;
pub mod near;
pub(crate) mod packed;
pub mod pdb_search;
pub mod reduction;
pub(crate) mod split;
pub mod twentyfour;

/// The engines of the crate, as the table in the module docs lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// The exact distance table ([`exact`]).
    Table,
    /// The packed engines for boards up to 4x4.
    Packed,
    /// IDA* over additive pattern databases ([`pdb_search`]).
    PatternDatabase,
    /// The 24-puzzle's IDA* over Korf & Felner's tables ([`twentyfour`]).
    TwentyFour,
    /// The generic searches over packed positions with a database or walking distance.
    Generic,
    /// The general engine over boxed positions, for any size.
    General,
    /// The near-optimal engine ([`near`]).
    Near,
    /// The reduction solver ([`reduction`]).
    Reduction,
}

impl Engine {
    /// Every engine, in the order of the module docs' table.
    pub const ALL: [Engine; 8] = [
        Engine::Table,
        Engine::Packed,
        Engine::PatternDatabase,
        Engine::TwentyFour,
        Engine::Generic,
        Engine::General,
        Engine::Near,
        Engine::Reduction,
    ];

    /// A short name (`table`, `packed`, `pdb`, `twentyfour`, `generic`, `general`, `near`,
    /// `reduction`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Table => "table",
            Engine::Packed => "packed",
            Engine::PatternDatabase => "pdb",
            Engine::TwentyFour => "twentyfour",
            Engine::Generic => "generic",
            Engine::General => "general",
            Engine::Near => "near",
            Engine::Reduction => "reduction",
        }
    }

    /// Whether the engine takes boards of `cells` cells at all.
    pub fn takes(self, cells: usize) -> bool {
        match self {
            Engine::Table => cells <= exact::MAX_CELLS,
            Engine::Packed => cells <= 16,
            Engine::PatternDatabase => cells <= 25,
            Engine::TwentyFour => cells == 25,
            Engine::Generic => cells <= 32,
            Engine::Near => cells <= near::MAX_CELLS,
            Engine::General | Engine::Reduction => true,
        }
    }

    /// Whether the engine can show a watcher the nodes it expands: sampled at full speed
    /// (the packed engines and the IDA* over pattern databases) or every one of them (the
    /// general engine, which the watched searches run on).
    pub fn shows_nodes(self) -> bool {
        matches!(self, Engine::Packed | Engine::PatternDatabase | Engine::General)
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
