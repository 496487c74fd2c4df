//! The tables a [`crate::Solver`] owns: exact distance tables and packed engines, one per
//! (shape, blank cell of the canonical goal, heuristic), built on first use.
//!
//! Keys never mention the goal's numbering (see [`crate::relabel`]), so the number of
//! tables is bounded by the shapes and blank cells that exist: at most 9 exact tables per
//! shape of up to 9 cells (about 3 MB for every 3x3 goal there is), and at most 16 packed
//! engines per heuristic for 4x4 (about 1 MB each). No request can make the store grow
//! beyond that.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use npuzzle_core::Board;

use crate::engine::exact::{self, ExactTable};
use crate::engine::packed;
use crate::heuristic::HeuristicKind;

/// (width, height, blank cell of the canonical goal).
type Shape = (usize, usize, usize);

/// A map from key to a value built once, outside the map's lock: two threads asking for
/// different tables build them at the same time, two asking for the same one build it once.
struct Memo<K, V> {
    slots: Mutex<HashMap<K, Arc<OnceLock<Arc<V>>>>>,
}

impl<K: std::hash::Hash + Eq, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo { slots: Mutex::new(HashMap::new()) }
    }
}

impl<K: std::hash::Hash + Eq, V> Memo<K, V> {
    fn get(&self, key: K, build: impl FnOnce() -> V) -> Arc<V> {
        let slot = {
            // A poisoned lock only means another thread panicked while holding it; the map
            // of slots is still sound.
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(slots.entry(key).or_default())
        };
        Arc::clone(slot.get_or_init(|| Arc::new(build())))
    }

    fn len(&self) -> usize {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// Exact tables and packed engines for canonical goals.
#[derive(Default)]
pub(crate) struct SolverTables {
    exact: Memo<Shape, ExactTable>,
    packed: Memo<(Shape, Option<HeuristicKind>), packed::PackedEngine>,
}

impl SolverTables {
    /// The exact table towards `goal`, which must be canonical; `None` above
    /// [`exact::MAX_CELLS`] cells.
    pub(crate) fn exact(&self, goal: &Board) -> Option<Arc<ExactTable>> {
        if goal.tiles().len() > exact::MAX_CELLS {
            return None;
        }
        let key = (goal.width(), goal.height(), goal.blank());
        // Every board of 4 to 9 cells has a table, so `build` cannot fail here.
        let table = self.exact.get(key, || ExactTable::build(goal).expect("at most 9 cells"));
        Some(table)
    }

    /// The packed engine towards `goal` (canonical, both sides at most 4) with `kind`.
    pub(crate) fn packed(
        &self,
        goal: &Board,
        kind: Option<HeuristicKind>,
    ) -> Arc<packed::PackedEngine> {
        let key = ((goal.width(), goal.height(), goal.blank()), kind);
        self.packed.get(key, || packed::PackedEngine::new(goal, kind))
    }

    /// How many tables and engines are held (for tests of the bound).
    pub(crate) fn len(&self) -> usize {
        self.exact.len() + self.packed.len()
    }
}
