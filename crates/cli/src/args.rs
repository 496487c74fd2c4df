//! The command line, as clap derive types, and the validators of its numbers.
//!
//! Every value is checked here, at the boundary, so a malformed flag is a one-line usage error
//! (exit 2) and the commands can trust what they get.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand, ValueEnum};
use npuzzle_core::{Goal, Size};
use npuzzle_solver::{Algorithm, Heuristic};

/// Solve and scramble sliding-tile puzzles (8-puzzle, 15-puzzle, any WxH).
///
/// Boards are row-major, 0 is the blank, rows separated by '/': "8 6 7/2 5 4/3 0 1".
/// Moves name the direction the TILE slides: R moves the tile left of the blank to the right.
#[derive(Debug, Parser)]
#[command(name = "npuzzle", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve boards given as arguments, in a file, or on stdin.
    ///
    /// Exit status: 0 every board solved; 2 invalid input or usage; 3 a board is unsolvable;
    /// 4 a limit (nodes, memory, time) was reached. With several boards, the highest.
    Solve(SolveArgs),
    /// Print random boards, one per line (an instance file `npuzzle solve --input -` reads).
    Scramble(ScrambleArgs),
    /// Play in the terminal: arrows slide tiles, h hints, s solves and plays the solution.
    ///
    /// Keys: arrows (or Shift+W A S D, Shift+H J K L) move a tile; b toggles moving the
    /// blank; mouse clicks slide tiles; u/y undo/redo; r new board; 0 back to the start;
    /// +/- board size; h hint; s solve (space pauses, . steps, +/- speed); ? all keys;
    /// q or Esc quits. NO_COLOR=1 gives a monochrome look.
    Play(PlayArgs),
    /// Serve the web game (and its API) on a local address until Ctrl-C.
    Serve(ServeArgs),
    /// Solve an instance file (or Korf's built-in sets) and report nodes and times.
    ///
    /// Exit status: 0 every length as expected; 1 a length differs from the expected one;
    /// otherwise 3 an instance cannot reach its goal, 4 a limit was reached (the highest).
    Bench(BenchArgs),
    /// Build, list and verify the pattern databases in the cache ($NPUZZLE_CACHE, or the
    /// platform cache directory's npuzzle/).
    Pdb(PdbArgs),
    /// Check a solution: replay MOVES on BOARD and say whether they reach the goal.
    ///
    /// Exit status: 0 the moves reach the goal (with --optimal: in the optimal number of
    /// moves); 1 they do not (an illegal move, another end position, or with --optimal a
    /// longer path); 2 invalid input or usage; 4 --optimal could not prove the optimum
    /// within the limits.
    Check(CheckArgs),
    /// Show every legal move with the distance to the goal after it, and the best one.
    ///
    /// Exact on boards up to 4x4 (instant on 3x3, from the distance table), a clearly
    /// labelled estimate on larger boards. Exit status as `solve`.
    Hint(HintArgs),
    /// Print a shell completion script: `npuzzle completions bash > /etc/bash_completion.d/npuzzle`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff): `npuzzle man > npuzzle.1; man ./npuzzle.1`.
    Man,
}

/// `npuzzle bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// An instance file, or korf100 (Korf's 100 15-puzzles) or korf24 (Korf & Felner's 50
    /// 24-puzzles), built in.
    #[arg(value_name = "FILE|korf100|korf24")]
    pub source: String,

    /// Solve only the first N instances.
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = count)]
    pub limit: Option<u64>,

    /// Threads for each instance (one search split over them); with --across, instances
    /// solved at a time instead.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = threads)]
    pub threads: usize,

    /// With --threads N: N instances at a time, one thread each, over one loaded table
    /// (labels in bulk), rows still in file order; the total gives instances a second.
    #[arg(long)]
    pub across: bool,

    /// With a pattern database: dual lookups too (fewer nodes, each dearer; see the
    /// README's figures).
    #[arg(long)]
    pub dual: bool,

    /// Algorithm, as for solve.
    #[arg(long, value_name = "A", default_value = "auto")]
    pub algorithm: Algorithm,

    /// Heuristic, as for solve.
    #[arg(long, value_name = "H", default_value = "auto")]
    pub heuristic: Heuristic,

    /// Time limit per instance in seconds [default: 60].
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<Duration>,

    /// Stop an instance after expanding N nodes [default: no node limit].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = positive_u64)]
    pub max_nodes: Option<u64>,

    /// Output format: a table, or one JSON object per instance and a summary object.
    #[arg(long, value_enum, default_value_t)]
    pub format: ScrambleFormat,

    /// Solve only these instances, numbered from 1 in file order: 38,40,25.
    #[arg(long, alias = "instances", value_name = "I,J,...", value_delimiter = ',', value_parser = instance)]
    pub only: Option<Vec<usize>>,

    /// Move pruning for the 5x5 search: the longest move string the pruning machine
    /// considers (2: only "never undo the last move").
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=12))]
    pub pruning: Option<u8>,

    /// Spend SECS on each instance improving a non-optimal answer (the anytime mode of the
    /// near-optimal engine or of the reduction solver); replaces --timeout.
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub improve: Option<Duration>,

    /// A results file to compare lengths with: tab-separated with a header naming `puzzle`
    /// (tiles: 15, 24, ...), `index` (the instance's number in FILE) and a `*_length`
    /// column (and optionally `*_seconds`), such as DeepCubeA's deepcubea-results.tsv.
    #[arg(long, value_name = "TSV")]
    pub compare: Option<std::path::PathBuf>,
}

fn instance(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not an instance number (1, 2, ...)")),
    }
}

/// `npuzzle pdb`.
#[derive(Debug, Args)]
pub struct PdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: PdbAction,
}

/// `npuzzle pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbAction {
    /// Build a database (and save it in the cache); does nothing if a sound one is there.
    Build(PdbBuildArgs),
    /// List the databases in the cache, least recently used first, with the space they take
    /// and the cache's cap ($NPUZZLE_CACHE_MAX MiB, default 1024; past it, saving a database
    /// removes the least recently used others).
    List,
    /// Remove every database from the cache (they are rebuilt when next needed).
    Clean,
    /// Check every database file in the cache (length, checksum, contents). Exit status 1
    /// when one is damaged.
    Verify,
}

/// `npuzzle pdb build`.
#[derive(Debug, Args)]
pub struct PdbBuildArgs {
    /// Tile groups: sizes like 7-8, 6-6-3, 5-5-5 (tiles taken in the goal's reading order), or
    /// explicit groups like 1,2,3,4/5,6,7,8/... [default: 7-8 on 4x4, 6-6-6-6 on 5x5, equal
    /// groups elsewhere]. korf-felner: the two stored tables of the 24-puzzle's 6-6-6-6
    /// databases with reflection (what bench and solve --optimal use on 5x5). catalogue: those
    /// two and nine more, for a catalogue of seven 6-6-6-6 partitions with reflection (about
    /// 1 GB and 4 minutes on two cores; used on 5x5 when all are cached; raise the cache cap
    /// with NPUZZLE_CACHE_MAX (MiB) to keep the 4x4's tables beside them).
    #[arg(long, value_name = "P")]
    pub partition: Option<String>,

    /// Board size, width first [default: 4x4]. At most 25 cells.
    #[arg(long, value_name = "WxH")]
    pub size: Option<Size>,

    /// Goal: blank-last, blank-first (Korf's instances), snail, or a board.
    #[arg(long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// Threads [default: every core].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = threads)]
    pub threads: Option<usize>,

    /// Build even if a sound database is already cached.
    #[arg(long)]
    pub force: bool,
}

/// Output formats of `solve`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// A summary, the moves and (with --steps) every position, for people.
    #[default]
    Text,
    /// Only the moves, one line per board (an empty line for a board not solved).
    Moves,
    /// Only the moves with runs as counts (R2U2LD), one line per board.
    Compact,
    /// One JSON object per line and board.
    Json,
}

/// Output formats of `scramble`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ScrambleFormat {
    /// One board per line, inline form, after a `# goal:` line for a non-default goal.
    #[default]
    Text,
    /// One JSON object per line and board.
    Json,
}

/// `npuzzle solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Boards to solve, in any text form: "8 6 7/2 5 4/3 0 1" (quoted), "8,6,7,2,5,4,3,0,1"...
    ///
    /// With no BOARD and no --input, boards are read from stdin when it is not a terminal.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,

    /// Read boards from FILE ('-' for stdin): an instance file (one board per line, optional
    /// '| OPTIMAL_LENGTH', '# goal: G' lines), a 42-style file, or one multi-line board.
    /// At most 64 MiB.
    #[arg(short, long, value_name = "FILE|-")]
    pub input: Option<PathBuf>,

    /// Goal: blank-last, blank-first, snail, or a board. A '# goal:' line in an input file
    /// takes precedence for the boards after it.
    #[arg(short, long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// Algorithm. auto picks an optimal method where one finishes in seconds, otherwise a
    /// fast non-optimal one, and says so.
    #[arg(short, long, value_name = "A", default_value = "auto", value_parser = NameParser::<Algorithm>::new(Algorithm::NAMES))]
    pub algorithm: Algorithm,

    /// Heuristic.
    #[arg(long, value_name = "H", default_value = "auto", value_parser = NameParser::<Heuristic>::new(Heuristic::NAMES))]
    pub heuristic: Heuristic,

    /// Weight of weighted A* (f = g + W*h), from 1 to 100.
    #[arg(long, allow_negative_numbers = true, value_name = "W", default_value = "2", value_parser = weight)]
    pub weight: f64,

    /// Stop a search after expanding N nodes [default: no node limit].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = positive_u64)]
    pub max_nodes: Option<u64>,

    /// Memory limit in MiB, split evenly across --threads.
    #[arg(long, allow_negative_numbers = true, value_name = "MIB", default_value = "1024", value_parser = mebibytes)]
    pub max_memory: usize,

    /// Time limit per board in seconds (fractions allowed) [default: 60]. Only a limit: no
    /// board takes longer than it needs. With --algorithm auto, a longer limit lets the
    /// optimal attempt on 4x4 boards run longer (80% of it) before a fast method answers.
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<Duration>,

    /// Spend up to SECS improving a non-optimal answer (the near-optimal engine's on boards
    /// of 17 to 4,096 cells, 4x5 to 64x64, and with 10 s or more up to 128x128; the
    /// reduction solver's on larger ones), within --timeout (the anytime mode).
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub improve: Option<Duration>,

    /// Solve this many boards at once; results are still printed in input order.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = threads)]
    pub threads: usize,

    /// Output format.
    #[arg(short, long, value_enum, ignore_case = true, default_value_t)]
    pub format: SolveFormat,

    /// With text output, print every position along the solution.
    #[arg(long)]
    pub steps: bool,

    /// Write the moves as the directions the BLANK moves (the convention of many AI
    /// courses) in the text, moves and compact formats. JSON keeps tile directions.
    #[arg(long)]
    pub blank: bool,

    /// With --algorithm auto, insist on a proven-optimal method even where it may hit the
    /// limits.
    #[arg(long)]
    pub optimal: bool,

    /// No progress line and no batch summary on stderr (reasons for a failure are still
    /// printed).
    #[arg(short, long, conflicts_with_all = ["progress", "summary"])]
    pub quiet: bool,

    /// Show the progress line on stderr even when it is not a terminal [default: on a
    /// terminal only].
    #[arg(long)]
    pub progress: bool,

    /// Print the batch summary on stderr [default: for several boards, on a terminal only].
    #[arg(long)]
    pub summary: bool,
}

/// `npuzzle scramble`.
#[derive(Debug, Args)]
pub struct ScrambleArgs {
    /// Board size, width first: 3x3, 4x4, 5x3... [default: the size of an explicit --goal,
    /// otherwise 4x4]
    #[arg(short, long, value_name = "WxH")]
    pub size: Option<Size>,

    /// Number of boards (at most 1,000,000).
    #[arg(short = 'n', long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = count)]
    pub count: u64,

    /// Random seed, for reproducible boards [default: from the clock, printed to stderr as
    /// '# seed: N'].
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = seed)]
    pub seed: Option<u64>,

    /// Goal: blank-last, blank-first, snail, or a board.
    #[arg(short, long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// Make K random moves from the goal (never undoing the last one) instead of drawing a
    /// uniformly random solvable board. At most 1,000,000.
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = walk, conflicts_with = "unsolvable")]
    pub walk: Option<u64>,

    /// Draw uniformly random UNSOLVABLE boards (to test solvers' refusals).
    #[arg(long)]
    pub unsolvable: bool,

    /// Output format.
    #[arg(short, long, value_enum, ignore_case = true, default_value_t)]
    pub format: ScrambleFormat,
}

/// `npuzzle play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The starting board, in any text form [default: a random solvable board].
    #[arg(value_name = "BOARD")]
    pub board: Option<String>,

    /// Board size, width first: 3x3, 4x4, 5x3... [default: the BOARD's size, or 4x4]
    #[arg(long, value_name = "WxH")]
    pub size: Option<Size>,

    /// Goal: blank-last, blank-first, snail, or a board (which fixes the size).
    #[arg(long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// Random seed of the boards `r` deals [default: from the clock].
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = seed)]
    pub seed: Option<u64>,

    /// Do not build the 4x4's 7-8 pattern database (or, for a 5x5 game with the blank of its
    /// goal in a corner, Korf & Felner's tables) in the background when the cache lacks it
    /// (the game then answers hints and solves without it, or with the small table if cached).
    #[arg(long)]
    pub no_build: bool,
}

/// `npuzzle serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on; loopback by default (use 0.0.0.0:PORT to serve other machines).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,

    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub open: bool,

    /// Solves running at once [default: the number of cores].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = threads)]
    pub workers: Option<usize>,

    /// Most memory one solve may hold, in MiB [default: 256]; solving holds at most
    /// workers x this.
    #[arg(long, allow_negative_numbers = true, value_name = "MIB", value_parser = mebibytes)]
    pub max_memory: Option<usize>,

    /// Longest one solve may run, in seconds [default: 10]; requests may ask for less.
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<Duration>,

    /// Do not build the 4x4's 7-8 pattern database and Korf & Felner's 5x5 tables in the
    /// background when the cache lacks them (the server then answers 4x4 and 5x5 hints and
    /// solves without them, or with the small 4x4 table if cached).
    #[arg(long)]
    pub no_build: bool,
}

/// Output formats of `check` and `hint`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    /// A verdict in words, for people.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// `npuzzle check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The starting board, in any text form, or a file holding one board (a 42-style file).
    #[arg(value_name = "BOARD")]
    pub board: String,

    /// The moves: letters U D L R naming the direction each tile slides, long or compact
    /// (R2U2LD), in any case, spaces and commas ignored; or the numbers of the tiles slid
    /// ("5 6 8"); or '-' to read them from stdin.
    #[arg(value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: String,

    /// Goal: blank-last, blank-first, snail, or a board. A '# goal:' line in a BOARD file
    /// takes precedence.
    #[arg(short, long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// The letters name the direction the BLANK moves (the convention of many AI courses),
    /// not the tile.
    #[arg(long)]
    pub blank: bool,

    /// Also find the optimal length, and report the gap.
    #[arg(long)]
    pub optimal: bool,

    /// Memory limit of the --optimal search, in MiB.
    #[arg(long, allow_negative_numbers = true, value_name = "MIB", default_value = "1024", value_parser = mebibytes)]
    pub max_memory: usize,

    /// Time limit of the --optimal search, in seconds [default: 60].
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<Duration>,

    /// Output format.
    #[arg(short, long, value_enum, ignore_case = true, default_value_t)]
    pub format: TextOrJson,
}

/// `npuzzle hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// The board, in any text form, or a file holding one board.
    #[arg(value_name = "BOARD")]
    pub board: String,

    /// Goal: blank-last, blank-first, snail, or a board.
    #[arg(short, long, value_name = "G", default_value = "blank-last")]
    pub goal: Goal,

    /// Memory limit of the searches, in MiB.
    #[arg(long, allow_negative_numbers = true, value_name = "MIB", default_value = "1024", value_parser = mebibytes)]
    pub max_memory: usize,

    /// Time limit of each search, in seconds [default: 60].
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<Duration>,

    /// Name moves by the direction the BLANK moves.
    #[arg(long)]
    pub blank: bool,

    /// Output format.
    #[arg(short, long, value_enum, ignore_case = true, default_value_t)]
    pub format: TextOrJson,

    /// No progress line on stderr (reasons for a failure are still printed).
    #[arg(short, long, conflicts_with = "progress")]
    pub quiet: bool,

    /// Show the progress line on stderr even when it is not a terminal [default: on a
    /// terminal only]: on big boards a hint is a near-optimal solve of seconds, and the line
    /// shows its best path so far and its bound.
    #[arg(long)]
    pub progress: bool,
}

/// `npuzzle completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, ignore_case = true)]
    pub shell: clap_complete::Shell,
}

/// A value parser for names read with `FromStr` (algorithms, heuristics): it lists the
/// canonical names for help and shell completion, accepts whatever `FromStr` accepts
/// (aliases, any case), and reports a wrong name as clap reports a wrong enum value.
#[derive(Clone)]
pub struct NameParser<T> {
    names: &'static [&'static str],
    parsed: std::marker::PhantomData<fn() -> T>,
}

impl<T> NameParser<T> {
    fn new(names: &'static [&'static str]) -> NameParser<T> {
        NameParser { names, parsed: std::marker::PhantomData }
    }
}

impl<T: FromStr + Clone + Send + Sync + 'static> TypedValueParser for NameParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<T>().map_err(|_| {
            let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            let name = arg.map_or_else(|| "...".to_string(), ToString::to_string);
            err.insert(ContextKind::InvalidArg, ContextValue::String(name));
            err.insert(ContextKind::InvalidValue, ContextValue::String(text.into_owned()));
            let names = self.names.iter().map(ToString::to_string).collect();
            err.insert(ContextKind::ValidValue, ContextValue::Strings(names));
            err
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|&name| PossibleValue::new(name))))
    }
}

/// The most boards one `scramble` prints.
pub const MAX_COUNT: u64 = 1_000_000;
/// The longest random walk.
pub const MAX_WALK: u64 = 1_000_000;
/// The most threads `solve` starts: more than any machine it runs on has cores to give.
const MAX_THREADS: usize = 1024;

fn whole(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{t:?} is not a whole number"));
    }
    t.parse::<u64>().map_err(|_| format!("{t} is too large"))
}

/// A seed: any whole number that fits in 64 bits (clap's own parser said "invalid digit found
/// in string" for `-1`).
fn seed(text: &str) -> Result<u64, String> {
    whole(text).map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

fn positive_u64(text: &str) -> Result<u64, String> {
    match whole(text)? {
        0 => Err("must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// The largest weight of weighted A*. Past it the search is greedy best-first in all but
/// name, and its answers are absurdly long (weight 1e15 gave a 795,946-move answer on a
/// 4x4); `--algorithm greedy` says that honestly.
const MAX_WEIGHT: f64 = 100.0;

fn weight(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if (1.0..=MAX_WEIGHT).contains(&w) => Ok(w),
        _ => Err(format!("{:?} is not a weight: expected a number from 1 to 100", text.trim())),
    }
}

fn mebibytes(text: &str) -> Result<usize, String> {
    positive_u64(text)?
        .checked_mul(1 << 20)
        .and_then(|bytes| usize::try_from(bytes).ok())
        .ok_or_else(|| format!("{} MiB is more memory than this machine can address", text.trim()))
}

/// The longest time limit: a year. Far longer than any search anyone waits for, and far from
/// where adding it to the clock could overflow (`1e19` seconds did).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

fn seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("{:?} is not a time: expected a positive number of seconds", text.trim());
    let secs = text.trim().parse::<f64>().map_err(|_| bad())?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(bad());
    }
    if secs > MAX_SECONDS {
        return Err(format!("{} seconds is too long: at most 31536000 (a year)", text.trim()));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| bad())
}

fn threads(text: &str) -> Result<usize, String> {
    match usize::try_from(positive_u64(text)?) {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!("at most {MAX_THREADS} threads")),
    }
}

fn count(text: &str) -> Result<u64, String> {
    match positive_u64(text)? {
        n if n <= MAX_COUNT => Ok(n),
        _ => Err("at most 1,000,000 boards at a time".to_string()),
    }
}

fn walk(text: &str) -> Result<u64, String> {
    match whole(text)? {
        k if k <= MAX_WALK => Ok(k),
        _ => Err("a walk is at most 1,000,000 moves".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Parses an argument list the way the `cli_args` fuzz target does: NUL-separated.
    fn parse_nul_separated(data: &[u8]) {
        let Ok(text) = std::str::from_utf8(data) else { return };
        let argv = std::iter::once("npuzzle").chain(text.split('\0'));
        let _ = Cli::try_parse_from(argv);
    }

    #[test]
    fn argument_lists_that_once_failed_the_fuzzer_parse_without_panicking() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
        let mut checked = 0;
        for dir in ["regressions/cli_args", "seeds/cli_args"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("the fuzz folder is there") {
                let path = entry.expect("a readable directory").path();
                if path.file_name().is_some_and(|n| n == ".gitkeep") {
                    continue;
                }
                parse_nul_separated(&std::fs::read(&path).expect("a readable file"));
                checked += 1;
            }
        }
        assert!(checked > 0);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The stable counterpart of the `cli_args` fuzz target: any argument list, biased
        /// towards real flags and values, parses or is refused, never panics.
        #[test]
        fn no_argument_list_panics(
            args in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(vec![
                        "solve", "scramble", "check", "completions", "man", "--timeout",
                        "--weight", "--max-memory", "--max-nodes", "--threads", "-a", "-f",
                        "-g", "-i", "-s", "-n", "--seed", "--walk", "--goal", "--heuristic",
                        "--optimal", "--blank", "-", "1e19", "1e308", "-0", "nan", "inf",
                        "18446744073709551616", "0x10", "3x3", "4X4", "256x256", "snail",
                        "1 2/3 0", "idastar", "LC", "json", "BASH",
                    ]).prop_map(String::from),
                    "[ -~]{0,12}",
                    any::<String>(),
                ],
                0..8,
            )
        ) {
            let _ = Cli::try_parse_from(std::iter::once("npuzzle".to_string()).chain(args));
        }
    }

    #[test]
    fn numbers_are_validated() {
        assert_eq!(mebibytes("64"), Ok(64 << 20));
        assert!(mebibytes("0").is_err());
        assert!(mebibytes("99999999999999999999").is_err());
        assert!(mebibytes("18446744073709551615").is_err());
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        for bad in ["0", "-1", "nan", "inf", "1e300", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert!(weight("0.5").is_err());
        assert!(weight("NaN").is_err());
        assert!(weight("1e15").is_err());
        assert!(weight("inf").is_err());
        assert_eq!(weight("1.5"), Ok(1.5));
        assert_eq!(weight("100"), Ok(100.0));
        assert!(seconds("1e19").is_err());
        assert!(seconds("31536001").is_err());
        assert_eq!(seconds("31536000"), Ok(Duration::from_secs(31_536_000)));
        assert!(threads("0").is_err());
        assert!(threads("100000").is_err());
        assert!(count("1000001").is_err());
        assert!(walk("-3").is_err());
    }
}
