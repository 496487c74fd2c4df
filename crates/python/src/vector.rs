//! `Boards`: many boards stepped in one call, the core of `npuzzle.gym`'s environments.
//!
//! Actions are indices into `U D L R`, the direction the tile moves (as everywhere in
//! npuzzle). A step costs -1 whether the move is legal or not; an illegal move leaves the
//! board as it was. An episode ends (`terminated`) when the board is the goal, and is cut
//! (`truncated`) after `max_steps` steps. Resets follow Gymnasium's default "next step"
//! mode: the step after an episode ends ignores that board's action and deals it a new
//! board, with reward 0 and neither flag set.

use std::sync::Arc;

use npuzzle_core::{Board, Move, Scrambler, Size};
use npuzzle_solver::ExactTable;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::convert;
use crate::engine;
use crate::errors::Error;

/// The longest walk a deal makes.
const MAX_WALK: usize = 1_000_000;

/// Many boards of one size and goal, stepped together (see the module docs of
/// ``npuzzle.gym``). ``walk=k`` deals boards ``k`` random moves from the goal instead of
/// uniformly random solvable ones.
#[pyclass(name = "Boards", module = "npuzzle._native")]
pub(crate) struct Boards {
    size: Size,
    goal: Board,
    cells: Vec<u16>,
    blank: Vec<u32>,
    steps: Vec<u32>,
    pending: Vec<bool>,
    rng: Scrambler,
    walk: Option<usize>,
    max_steps: Option<u32>,
    /// For each cell, the cell the blank goes to with each move (`U D L R`), if legal.
    targets: Vec<[Option<u32>; 4]>,
    /// The exact table (boards of at most 9 cells) and the canonical names of the tiles.
    table: Option<(Arc<ExactTable>, Vec<u16>)>,
}

impl Boards {
    fn deal(&mut self, i: usize) {
        let n = self.size.cells();
        let mut b = self.draw();
        for _ in 0..100 {
            if b != self.goal {
                break;
            }
            b = self.draw();
        }
        self.cells[i * n..(i + 1) * n].copy_from_slice(b.tiles());
        self.blank[i] = b.blank() as u32;
        self.steps[i] = 0;
        self.pending[i] = false;
    }

    fn draw(&mut self) -> Board {
        match self.walk {
            Some(k) => self.rng.walk(&self.goal, k).0,
            None => self.rng.solvable(&self.goal),
        }
    }

    fn at_goal(&self, i: usize) -> bool {
        let n = self.size.cells();
        self.cells[i * n..(i + 1) * n] == *self.goal.tiles()
    }
}

#[pymethods]
impl Boards {
    #[new]
    #[pyo3(signature = (count, size, goal = None, seed = 0, walk = None, max_steps = None))]
    fn new(
        count: usize,
        size: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        seed: u64,
        walk: Option<usize>,
        max_steps: Option<u32>,
    ) -> PyResult<Boards> {
        let size = convert::size_of(size)?;
        let (goal, _) = convert::goal(goal, size)?;
        let most = crate::batch::MAX_CELLS_PER_CALL / size.cells() as u64;
        if count == 0 || count as u64 > most {
            return Err(Error::Option(format!(
                "count: {count} is not a number of boards (1 to {most})"
            ))
            .into());
        }
        if walk.is_some_and(|k| k > MAX_WALK) {
            return Err(Error::Option(format!(
                "walk: at most {MAX_WALK} moves (a longer walk is as random as a uniform board)"
            ))
            .into());
        }
        if max_steps == Some(0) {
            return Err(Error::Option("max_steps: must be at least 1".to_string()).into());
        }
        let (w, h) = (size.width(), size.height());
        let targets = (0..size.cells())
            .map(|cell| {
                let (x, y) = (cell % w, cell / w);
                Move::ALL.map(|m| {
                    let (dx, dy) = m.blank_delta();
                    let nx = x.checked_add_signed(dx).filter(|&x| x < w)?;
                    let ny = y.checked_add_signed(dy).filter(|&y| y < h)?;
                    Some((ny * w + nx) as u32)
                })
            })
            .collect();
        let table = (size.cells() <= 9)
            .then(|| engine::exact_table(&goal).map(|t| (t, engine::canonical_names(&goal))))
            .flatten();
        let mut boards = Boards {
            size,
            cells: goal.tiles().repeat(count),
            blank: vec![goal.blank() as u32; count],
            steps: vec![0; count],
            pending: vec![false; count],
            goal,
            rng: Scrambler::new(seed),
            walk,
            max_steps,
            targets,
            table,
        };
        for i in 0..count {
            boards.deal(i);
        }
        Ok(boards)
    }

    /// Deals every board anew (from ``seed`` when given) and returns the observations.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(seed) = seed {
            self.rng = Scrambler::new(seed);
        }
        for i in 0..self.steps.len() {
            self.deal(i);
        }
        self.observations(py)
    }

    /// Makes one move on every board (``actions``: indices into ``UDLR``); returns
    /// ``(observations, rewards, terminated, truncated)`` (see the module docs).
    #[expect(clippy::type_complexity, reason = "Gymnasium's four arrays")]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)>
    {
        let count = self.steps.len();
        let actions = actions.as_slice().map_err(|e| Error::Option(format!("actions: {e}")))?;
        if actions.len() != count {
            return Err(Error::Option(format!(
                "actions: {} given for {count} boards",
                actions.len()
            ))
            .into());
        }
        if let Some((i, a)) = actions.iter().enumerate().find(|(_, a)| !(0..4).contains(*a)) {
            return Err(Error::Option(format!(
                "actions[{i}] is {a}: actions are 0 to 3 (U, D, L, R: the tile's direction)"
            ))
            .into());
        }
        let n = self.size.cells();
        let mut rewards = vec![0f64; count];
        let mut terminated = vec![false; count];
        let mut truncated = vec![false; count];
        for i in 0..count {
            if self.pending[i] {
                self.deal(i);
                continue;
            }
            let from = self.blank[i] as usize;
            if let Some(to) = self.targets[from][actions[i] as usize] {
                self.cells.swap(i * n + from, i * n + to as usize);
                self.blank[i] = to;
            }
            self.steps[i] += 1;
            rewards[i] = -1.0;
            terminated[i] = self.at_goal(i);
            truncated[i] = !terminated[i] && self.max_steps.is_some_and(|m| self.steps[i] >= m);
            self.pending[i] = terminated[i] || truncated[i];
        }
        Ok((
            self.observations(py)?,
            PyArray1::from_vec(py, rewards).into_any(),
            PyArray1::from_vec(py, terminated).into_any(),
            PyArray1::from_vec(py, truncated).into_any(),
        ))
    }

    /// The boards, as a numpy array ``(count, height, width)``.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::boards_array(py, self.size, self.cells.clone())
    }

    /// Which actions (``U D L R``) are legal on each board: a ``bool`` array ``(count, 4)``.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mask: Vec<bool> = self
            .blank
            .iter()
            .flat_map(|&b| self.targets[b as usize].map(|t| t.is_some()))
            .collect();
        Ok(PyArray1::from_vec(py, mask).reshape([self.steps.len(), 4])?.into_any())
    }

    /// Each board's optimal distance to the goal (``int32``) where the exact table gives it
    /// at once (boards of at most 9 cells); ``None`` otherwise.
    fn distances<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<i32>>> {
        let (table, names) = self.table.as_ref()?;
        let n = self.size.cells();
        let d: Vec<i32> = self
            .cells
            .chunks(n)
            .map(|tiles| {
                let renamed = tiles.iter().map(|&t| names[usize::from(t)]).collect();
                Board::new(self.size, renamed)
                    .ok()
                    .and_then(|b| table.distance(&b))
                    .map_or(-1, i32::from)
            })
            .collect();
        Some(PyArray1::from_vec(py, d))
    }

    /// Steps taken in each board's episode so far.
    fn steps<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_vec(py, self.steps.clone())
    }

    /// Puts the given boards in place (a numpy array ``(count, height, width)`` or a list of
    /// boards, all solvable towards the goal), with their episodes started afresh.
    fn set_boards(&mut self, boards: &Bound<'_, PyAny>) -> PyResult<()> {
        let batch = convert::batch(boards)?;
        let count = self.steps.len();
        if batch.size != self.size || batch.count != count {
            return Err(Error::Board(format!(
                "expected {count} boards of {}, got {} of {}",
                self.size, batch.count, batch.size
            ))
            .into());
        }
        let n = self.size.cells();
        let mut cells = Vec::with_capacity(count * n);
        for i in 0..count {
            let b = match batch.cells() {
                convert::Cells::U8(c) => convert::board_at(&c[i * n..(i + 1) * n], self.size, i),
                convert::Cells::U16(c) => convert::board_at(&c[i * n..(i + 1) * n], self.size, i),
            }?;
            if !b.is_solvable(&self.goal) {
                return Err(Error::Board(format!(
                    "boards[{i}] ({b}) cannot reach the goal {}",
                    self.goal
                ))
                .into());
            }
            cells.extend_from_slice(b.tiles());
        }
        self.cells = cells;
        for i in 0..count {
            self.blank[i] =
                self.cells[i * n..(i + 1) * n].iter().position(|&t| t == 0).unwrap_or(0) as u32;
            self.steps[i] = 0;
            self.pending[i] = false;
        }
        Ok(())
    }

    /// How many boards.
    #[getter]
    fn count(&self) -> usize {
        self.steps.len()
    }

    /// The size, as text (``"4x4"``).
    #[getter]
    fn size(&self) -> String {
        self.size.to_string()
    }

    /// The goal, in the standard notation.
    #[getter]
    fn goal(&self) -> String {
        self.goal.to_string()
    }
}
