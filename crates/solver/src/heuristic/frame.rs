//! The frame a pattern database is built in: the board turned by a symmetry of its grid and
//! its tiles renamed after their goal cells, so that a database depends on the board's shape,
//! the blank's goal cell up to symmetry, and the partition — never on the goal's numbering.
//!
//! A symmetry of the grid (a mirror, a half-turn, and on square boards the quarter-turns and
//! the diagonal mirrors) maps a sliding move to a sliding move: the tile that slides in one
//! direction slides in the turned direction on the turned board. So the moves that solve the
//! turned board towards the turned goal, turned back, solve the board towards its goal, with
//! the same length; every distance and every admissible bound carries over. After the turn,
//! the tiles are renamed after their cells in the turned goal (as the exact tables do), which
//! changes no move either.
//!
//! [`Frame::new`] picks, among the symmetries that keep the shape, the first that brings the
//! blank's goal cell to the smallest index: every 4x4 goal with the blank in a corner lands on
//! the blank-first goal (`0 1 2 3/...`), the goal of Korf's instances and of the 7-8 table,
//! and the blank-last goal does so by the half-turn. A 4x4 needs at most three tables per
//! partition (corner, edge and centre blank), a 5x5 at most six.
//!
//! `tests` below check on random boards and goals that the turned solve, turned back, replays
//! to the goal with the same length.

use npuzzle_core::{Board, Move, Moves};

use crate::relabel::Relabel;

/// A symmetry of a grid of `w` by `h` cells; the last four only on square grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// Mirror left-right.
    FlipX,
    /// Mirror top-bottom.
    FlipY,
    /// Half-turn.
    HalfTurn,
    /// Mirror about the main diagonal.
    Transpose,
    /// Mirror about the other diagonal.
    AntiTranspose,
    /// Quarter-turn clockwise.
    QuarterTurn,
    /// Quarter-turn anticlockwise.
    QuarterTurnBack,
}

impl Symmetry {
    /// Every symmetry, the shape-keeping ones first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::HalfTurn,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::QuarterTurn,
        Symmetry::QuarterTurnBack,
    ];

    /// The symmetries of a `w` by `h` grid: 8 on a square, 4 otherwise.
    pub fn of(w: usize, h: usize) -> &'static [Symmetry] {
        if w == h { &Symmetry::ALL } else { &Symmetry::ALL[..4] }
    }

    /// Where cell `(x, y)` goes (the grid is square for the last four).
    fn point(self, w: usize, h: usize, x: usize, y: usize) -> (usize, usize) {
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::FlipX => (w - 1 - x, y),
            Symmetry::FlipY => (x, h - 1 - y),
            Symmetry::HalfTurn => (w - 1 - x, h - 1 - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - 1 - y, w - 1 - x),
            Symmetry::QuarterTurn => (h - 1 - y, x),
            Symmetry::QuarterTurnBack => (y, w - 1 - x),
        }
    }

    /// Where a step `(dx, dy)` goes: the linear part of [`Symmetry::point`].
    fn step(self, dx: isize, dy: isize) -> (isize, isize) {
        match self {
            Symmetry::Identity => (dx, dy),
            Symmetry::FlipX => (-dx, dy),
            Symmetry::FlipY => (dx, -dy),
            Symmetry::HalfTurn => (-dx, -dy),
            Symmetry::Transpose => (dy, dx),
            Symmetry::AntiTranspose => (-dy, -dx),
            Symmetry::QuarterTurn => (-dy, dx),
            Symmetry::QuarterTurnBack => (dy, -dx),
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::QuarterTurn => Symmetry::QuarterTurnBack,
            Symmetry::QuarterTurnBack => Symmetry::QuarterTurn,
            other => other,
        }
    }

    /// Where cell `cell` of a `w`-wide, `h`-high grid goes.
    pub fn cell(self, w: usize, h: usize, cell: usize) -> usize {
        let (x, y) = self.point(w, h, cell % w, cell / w);
        y * w + x
    }

    /// `board` turned: the tile on cell `c` goes to [`Symmetry::cell`]`(c)`.
    pub fn board(self, board: &Board) -> Board {
        let (w, h) = (board.width(), board.height());
        let mut tiles = vec![0u16; board.tiles().len()];
        for (c, &t) in board.tiles().iter().enumerate() {
            tiles[self.cell(w, h, c)] = t;
        }
        Board::new(board.size(), tiles).expect("a symmetry of a square or a mirror keeps the shape")
    }

    /// The move a tile makes on the turned board when it makes `m` on the board.
    pub fn movement(self, m: Move) -> Move {
        let (dx, dy) = m.blank_delta();
        let (dx, dy) = self.step(dx, dy);
        Move::from_blank_delta(dx, dy).expect("a symmetry maps a unit step to a unit step")
    }
}

/// A board's frame for the pattern databases: a [`Symmetry`] and then a renaming of the
/// tiles, towards the canonical goal [`Frame::goal`].
#[derive(Clone, Debug)]
pub struct Frame {
    symmetry: Symmetry,
    relabel: Relabel,
}

impl Frame {
    /// The frame for `goal`: the first symmetry (in [`Symmetry::ALL`]'s order) that brings
    /// the blank's goal cell to the smallest index, then the renaming after the turned goal's
    /// cells.
    pub fn new(goal: &Board) -> Frame {
        let (w, h) = (goal.width(), goal.height());
        let blank = goal.blank();
        let symmetry = Symmetry::of(w, h)
            .iter()
            .copied()
            .min_by_key(|s| s.cell(w, h, blank))
            .unwrap_or(Symmetry::Identity);
        Frame::with(goal, symmetry)
    }

    /// The frame that only renames (for a database built for `goal` itself).
    pub fn identity(goal: &Board) -> Frame {
        Frame::with(goal, Symmetry::Identity)
    }

    fn with(goal: &Board, symmetry: Symmetry) -> Frame {
        Frame { symmetry, relabel: Relabel::new(&symmetry.board(goal)) }
    }

    /// The canonical goal: the goal turned and renamed.
    pub fn goal(&self) -> &Board {
        self.relabel.goal()
    }

    /// The symmetry.
    pub fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    /// `board` in this frame.
    pub fn board(&self, board: &Board) -> Board {
        self.relabel.board(&self.symmetry.board(board))
    }

    /// A board of this frame in the caller's numbering and orientation.
    pub fn board_back(&self, board: &Board) -> Board {
        let names = self.relabel.names_back();
        let tiles = board.tiles().iter().map(|&t| names[usize::from(t)]).collect();
        let renamed = Board::new(board.size(), tiles).expect("a renaming keeps a permutation");
        self.symmetry.inverse().board(&renamed)
    }

    /// Moves found in this frame, as the caller makes them.
    pub fn moves_back(&self, moves: &Moves) -> Moves {
        let back = self.symmetry.inverse();
        Moves(moves.as_slice().iter().map(|&m| back.movement(m)).collect())
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Scrambler, Size};

    use super::*;

    #[test]
    fn every_symmetry_maps_moves_to_moves_and_back() {
        let mut s = Scrambler::new(5);
        for (w, h) in [(3, 3), (4, 4), (4, 3), (2, 5)] {
            let size = Size::new(w, h).unwrap();
            let goal = Goal::BlankLast.board(size).unwrap();
            for &sym in Symmetry::of(w, h) {
                assert_eq!(sym.inverse().board(&sym.board(&goal)), goal, "{sym:?}");
                for _ in 0..10 {
                    let b = s.solvable(&goal);
                    for m in b.legal_moves() {
                        let turned = sym.board(&b).moved(sym.movement(m));
                        assert_eq!(turned, Some(sym.board(&b.moved(m).unwrap())), "{sym:?} {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn corner_goals_share_the_blank_first_frame() {
        for n in [3, 4, 5] {
            let size = Size::square(n).unwrap();
            let first = Goal::BlankFirst.board(size).unwrap();
            assert_eq!(Frame::new(&first).goal(), &first);
            assert_eq!(Frame::new(&first).symmetry(), Symmetry::Identity);
            let last = Goal::BlankLast.board(size).unwrap();
            assert_eq!(Frame::new(&last).goal(), &first, "{n}x{n}");
            assert_eq!(Frame::new(&last).symmetry(), Symmetry::HalfTurn);
        }
        // Three classes of blank cell on 4x4: every goal lands on one of three frames.
        let size = Size::square(4).unwrap();
        let mut s = Scrambler::new(9);
        let mut goals = std::collections::HashSet::new();
        for _ in 0..200 {
            let goal = s.solvable(&Goal::BlankLast.board(size).unwrap());
            goals.insert(Frame::new(&goal).goal().clone());
        }
        assert_eq!(goals.len(), 3);
    }

    #[test]
    fn a_solution_in_the_frame_solves_the_board() {
        let mut s = Scrambler::new(3);
        for (w, h) in [(3, 3), (2, 3), (3, 2), (4, 2)] {
            let size = Size::new(w, h).unwrap();
            for _ in 0..20 {
                let goal = s.solvable(&Goal::BlankLast.board(size).unwrap());
                let frame = Frame::new(&goal);
                let board = s.solvable(&goal);
                let turned = frame.board(&board);
                assert_eq!(frame.board_back(&turned), board);
                let table = crate::ExactTable::build(frame.goal()).unwrap();
                let moves = table.solve(&turned).unwrap();
                let mut end = board.clone();
                end.apply_all(&frame.moves_back(&moves)).unwrap();
                assert_eq!(end, goal);
            }
        }
    }
}
