//! Move pruning for depth-first search on sliding-tile puzzles: a small finite-state machine
//! that forbids move strings with a shorter or equal equivalent (Taylor & Korf 1993).
//!
//! "Never undo the last move" is the simplest case: `UD` does what the empty string does. The
//! blank circling a 2x2 block is the next one: six moves one way round do what six moves the
//! other way round do, so a depth-first search reaches the same position twice at the same
//! depth and searches the same subtree twice. The machine here is built by duplicate
//! detection over every move string up to a length: two strings are *equivalent* when they
//! move the tiles the same way (on an unbounded board, tiles labelled by their cells); a
//! string is *forbidden* when an equivalent string comes before it in shortlex order (shorter,
//! or as long and lexicographically smaller in the order of [`Move::ALL`]) and stays inside the
//! rectangle the string itself visits. The forbidden strings, each minimal (no forbidden
//! proper substring), are compiled into an Aho-Corasick automaton: the search carries one
//! small state per node, and a move is a table load that says forbidden or gives the next
//! state.
//!
//! # Why no optimal solution is lost
//! - **Claim.** If the goal is reachable in `n` moves, it is reachable in `n` moves by a string
//!   that contains no forbidden string.
//! - **Why.** Take, among the shortest solutions, the first in lexicographic order. If it held
//!   a forbidden string `s`, replace `s` by its smaller equivalent `s'`: `s'` only visits cells
//!   inside the rectangle that `s` visits, and the board is a rectangle holding every cell `s`
//!   visits, so `s'` is legal there, leads to the same position, and the whole solution is
//!   then shorter, or as long and lexicographically smaller: a contradiction. IDA* with an
//!   admissible bound prunes no prefix of that solution, so it finds it.
//! - **Test.** `tests/twentyfour.rs` solves seeded random-walk boards of 4x4 and 5x5 with and
//!   without the machine and compares the lengths; the unit tests below check the machine
//!   against brute force on every string up to its length.
//!
//! L. A. Taylor and R. E. Korf, "Pruning duplicate nodes in depth-first search", AAAI 1993.

#[cfg(test)]
use std::collections::HashMap;
use std::sync::OnceLock;

use npuzzle_core::Move;

/// The longest strings a machine considers (12 moves: 2,540 forbidden strings, 9,223 states).
pub const MAX_DEPTH: usize = 12;

/// A state of the machine that means "this move is forbidden".
pub const FORBIDDEN: u16 = u16::MAX;

/// The move-pruning machine. Immutable once built; `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Pruner {
    /// `next[state * 4 + m]`: the state after move `m` (an index into [`Move::ALL`]), or
    /// [`FORBIDDEN`].
    next: Vec<u16>,
    /// The forbidden strings found, for the docs and the tests.
    forbidden: Vec<Vec<u8>>,
    depth: usize,
}

impl Pruner {
    /// The machine that forbids the strings of at most `depth` moves (at least 2, at most
    /// [`MAX_DEPTH`]) that have a smaller equivalent. `depth` 2 is "never undo the last move";
    /// 6 adds the 2x2 circles. The strings are stored in the source (finding them costs
    /// `3^depth`: 2.4 CPU-seconds at 12), so building a machine takes a millisecond or so.
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::Move;
    /// use npuzzle_solver::pruning::{Pruner, FORBIDDEN};
    /// let p = Pruner::new(2);
    /// let s = p.next(p.start(), Move::Up.index());
    /// assert_eq!(p.next(s, Move::Down.index()), FORBIDDEN);
    /// assert_ne!(p.next(s, Move::Up.index()), FORBIDDEN);
    /// ```
    pub fn new(depth: usize) -> Pruner {
        let depth = depth.clamp(2, MAX_DEPTH);
        let forbidden = stored(depth);
        let next = compile(&forbidden);
        Pruner { next, forbidden, depth }
    }

    /// The machine of [`Pruner::new`], built once per process and depth.
    pub fn shared(depth: usize) -> &'static Pruner {
        static MACHINES: [OnceLock<Pruner>; MAX_DEPTH + 1] =
            [const { OnceLock::new() }; MAX_DEPTH + 1];
        let depth = depth.clamp(2, MAX_DEPTH);
        MACHINES[depth].get_or_init(|| Pruner::new(depth))
    }

    /// The state before any move.
    #[inline]
    pub fn start(&self) -> u16 {
        0
    }

    /// The state after move `m` (an index into [`Move::ALL`]) from `state`, or [`FORBIDDEN`].
    #[inline]
    pub fn next(&self, state: u16, m: usize) -> u16 {
        self.next[usize::from(state) * Move::ALL.len() + m]
    }

    /// The transition table, `state * 4 + move`.
    pub(crate) fn table(&self) -> &[u16] {
        &self.next
    }

    /// How many states the machine has.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The minimal forbidden strings, as indices into [`Move::ALL`].
    pub fn forbidden(&self) -> &[Vec<u8>] {
        &self.forbidden
    }

    /// The longest string considered.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the machine allows every move of `moves` in turn from the start.
    pub fn allows(&self, moves: &[u8]) -> bool {
        let mut s = self.start();
        for &m in moves {
            s = self.next(s, usize::from(m));
            if s == FORBIDDEN {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
/// What a move string does, on an unbounded board with the blank starting at the origin: the
/// blank's end, and every tile that ended elsewhere, as (cell it ends on, cell it came from).
type Effect = ((i8, i8), Vec<((i8, i8), (i8, i8))>);

#[cfg(test)]
/// The rectangle a string's blank visits: min x, min y, max x, max y.
type Rect = (i8, i8, i8, i8);

#[cfg(test)]
fn simulate(moves: &[u8]) -> (Effect, Rect) {
    // Cells as offsets from the start; a tile is named by the cell it started on. Only the
    // cells the blank visits can change, at most one more than the moves: a short list.
    let mut cells: Vec<((i8, i8), (i8, i8))> = Vec::with_capacity(moves.len() + 1);
    let (mut x, mut y) = (0i8, 0i8);
    let mut rect = (0, 0, 0, 0);
    for &m in moves {
        let (dx, dy) = Move::ALL[usize::from(m)].blank_delta();
        let (nx, ny) = (x + dx as i8, y + dy as i8);
        // The tile on (nx, ny) slides to (x, y).
        let tile = match cells.iter().position(|(c, _)| *c == (nx, ny)) {
            Some(i) => cells.swap_remove(i).1,
            None => (nx, ny),
        };
        cells.push(((x, y), tile));
        x = nx;
        y = ny;
        rect = (rect.0.min(x), rect.1.min(y), rect.2.max(x), rect.3.max(y));
    }
    cells.retain(|(cell, tile)| cell != tile);
    cells.sort_unstable();
    (((x, y), cells), rect)
}

#[cfg(test)]
fn inside(a: Rect, b: Rect) -> bool {
    a.0 >= b.0 && a.1 >= b.1 && a.2 <= b.2 && a.3 <= b.3
}

/// The minimal forbidden strings of at most [`MAX_DEPTH`] moves in the order the search
/// finds them (shortlex), one per line, `U D L R` for the moves of [`Move::ALL`]; `#` lines
/// are comments. The strings of a shallower machine are the first ones, those of at most its
/// depth: the search finds the same strings layer by layer, whatever its last layer. Finding
/// them takes 2.4 CPU-seconds (a quarter of one for 10 moves), which a single solve would
/// otherwise pay on every run; compiling them takes about a millisecond.
const STORED: &str = include_str!("pruning-12.txt");

/// The stored minimal forbidden strings of at most `depth` moves.
fn stored(depth: usize) -> Vec<Vec<u8>> {
    STORED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty() && l.len() <= depth)
        .map(|l| {
            l.bytes().map(|c| b"UDLR".iter().position(|&x| x == c).unwrap_or(0) as u8).collect()
        })
        .collect()
}

/// The minimal forbidden strings of at most `depth` moves, found in shortlex order (the
/// stored ones are checked against it).
#[cfg(test)]
fn forbidden_strings(depth: usize) -> Vec<Vec<u8>> {
    // Every string seen so far (allowed or not), by effect, with the rectangles it visits.
    let mut seen: HashMap<Effect, Vec<Rect>> = HashMap::new();
    seen.insert(simulate(&[]).0, vec![(0, 0, 0, 0)]);
    let mut forbidden = Vec::new();
    let mut layer: Vec<Vec<u8>> = vec![Vec::new()];
    let mut allowed_prev: std::collections::HashSet<Vec<u8>> =
        std::iter::once(Vec::new()).collect();
    for _ in 1..=depth {
        let mut next_layer = Vec::new();
        // `layer` is in lexicographic order, and so is each string's extensions: the new layer
        // comes out in lexicographic order.
        for s in &layer {
            for m in 0..4u8 {
                let mut t = s.clone();
                t.push(m);
                // Its prefix is allowed (it is in the layer); its suffix must be too, or a
                // forbidden string is inside it already.
                if !allowed_prev.contains(&t[1..]) {
                    continue;
                }
                let (effect, rect) = simulate(&t);
                let rects = seen.entry(effect).or_default();
                if rects.iter().any(|&r| inside(r, rect)) {
                    forbidden.push(t);
                } else {
                    rects.push(rect);
                    next_layer.push(t);
                }
            }
        }
        allowed_prev = next_layer.iter().cloned().collect();
        layer = next_layer;
    }
    forbidden
}

/// The Aho-Corasick automaton of `patterns` with every transition resolved: states are the
/// trie's nodes (prefixes of forbidden strings), and a move that completes a forbidden string
/// as a suffix goes to [`FORBIDDEN`].
fn compile(patterns: &[Vec<u8>]) -> Vec<u16> {
    const NONE: u32 = u32::MAX;
    let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut terminal = vec![false];
    for p in patterns {
        let mut s = 0usize;
        for &m in p {
            let m = usize::from(m);
            if goto[s][m] == NONE {
                goto[s][m] = goto.len() as u32;
                goto.push([NONE; 4]);
                terminal.push(false);
            }
            s = goto[s][m] as usize;
        }
        terminal[s] = true;
    }
    // Breadth-first: failure links and full transitions.
    let n = goto.len();
    let mut fail = vec![0usize; n];
    let mut delta = vec![[0usize; 4]; n];
    let mut queue = std::collections::VecDeque::new();
    for m in 0..4 {
        match goto[0][m] {
            NONE => delta[0][m] = 0,
            c => {
                delta[0][m] = c as usize;
                fail[c as usize] = 0;
                queue.push_back(c as usize);
            }
        }
    }
    while let Some(s) = queue.pop_front() {
        terminal[s] |= terminal[fail[s]];
        for m in 0..4 {
            match goto[s][m] {
                NONE => delta[s][m] = delta[fail[s]][m],
                c => {
                    let c = c as usize;
                    fail[c] = delta[fail[s]][m];
                    delta[s][m] = c;
                    queue.push_back(c);
                }
            }
        }
    }
    // Renumber the live (non-terminal) states densely, the start first.
    let mut id = vec![FORBIDDEN; n];
    let mut live = 0u16;
    for s in 0..n {
        if !terminal[s] {
            id[s] = live;
            live += 1;
        }
    }
    let mut next = vec![FORBIDDEN; usize::from(live) * 4];
    for s in 0..n {
        if terminal[s] {
            continue;
        }
        for m in 0..4 {
            next[usize::from(id[s]) * 4 + m] = id[delta[s][m]];
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains_forbidden(s: &[u8], forbidden: &[Vec<u8>]) -> bool {
        forbidden.iter().any(|f| s.windows(f.len()).any(|w| w == f.as_slice()))
    }

    #[test]
    fn the_stored_machines_are_the_ones_the_search_finds() {
        let found = forbidden_strings(MAX_DEPTH);
        assert_eq!(stored(MAX_DEPTH), found);
        assert_eq!(found.len(), 2540);
        for depth in 2..MAX_DEPTH {
            let shallower: Vec<Vec<u8>> =
                found.iter().filter(|f| f.len() <= depth).cloned().collect();
            assert_eq!(stored(depth), shallower, "{depth}");
        }
        assert_eq!(stored(10), forbidden_strings(10));
        assert_eq!(Pruner::new(10).states(), 1291);
        assert_eq!(Pruner::new(12).states(), 9223);
    }

    #[test]
    fn depth_two_forbids_exactly_the_inverse_moves() {
        let p = Pruner::new(2);
        assert_eq!(p.forbidden().len(), 4);
        for f in p.forbidden() {
            assert_eq!(Move::ALL[usize::from(f[1])], Move::ALL[usize::from(f[0])].inverse());
        }
        assert_eq!(p.states(), 5);
    }

    #[test]
    fn depth_six_forbids_one_way_round_each_2x2_block() {
        let p = Pruner::new(6);
        let six: Vec<_> = p.forbidden().iter().filter(|f| f.len() == 6).collect();
        // Four blocks around the blank's start, one of the two directions each.
        assert_eq!(six.len(), 4, "{six:?}");
        for f in six {
            let (effect, _) = simulate(f);
            // One and a half times round: the blank ends on the block's opposite corner.
            assert_eq!((effect.0.0.abs(), effect.0.1.abs()), (1, 1), "{f:?}");
        }
    }

    #[test]
    fn the_machine_forbids_exactly_the_strings_holding_a_forbidden_one() {
        let p = Pruner::new(8);
        let mut count = 0;
        for len in 0..=9 {
            for code in 0..4usize.pow(len) {
                let s: Vec<u8> = (0..len).map(|i| ((code >> (2 * i)) & 3) as u8).collect();
                assert_eq!(p.allows(&s), !contains_forbidden(&s, p.forbidden()), "{s:?}");
                count += 1;
            }
        }
        assert!(count > 300_000);
    }

    #[test]
    fn every_forbidden_string_has_a_smaller_equivalent_inside_its_rectangle() {
        let p = Pruner::new(8);
        // Brute force: every string up to the same length, in shortlex order.
        let mut all: Vec<(Vec<u8>, Effect, Rect)> = Vec::new();
        for len in 0..=8u32 {
            for code in 0..4usize.pow(len) {
                let s: Vec<u8> = (0..len).rev().map(|i| ((code >> (2 * i)) & 3) as u8).collect();
                let (e, r) = simulate(&s);
                all.push((s, e, r));
            }
        }
        for f in p.forbidden() {
            let (effect, rect) = simulate(f);
            let witness = all
                .iter()
                .take_while(|(s, _, _)| s.len() < f.len() || (s.len() == f.len() && s < f))
                .any(|(_, e, r)| *e == effect && inside(*r, rect));
            assert!(witness, "{f:?} has no smaller equivalent");
        }
    }
}
