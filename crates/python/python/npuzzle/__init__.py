"""npuzzle: sliding-tile puzzles, solved optimally by the npuzzle Rust solver.

Boards are row-major with ``0`` the blank, written ``"8 6 7/2 5 4/3 0 1"`` (rows separated by
``/``), or given as rows of numbers or numpy arrays ``(height, width)``; batches are arrays
``(count, height, width)``. Moves are letters naming the direction the **tile** moves
(``U D L R``). Goals: ``"blank-last"`` (default, ``1 2 3/4 5 6/7 8 0``), ``"blank-first"``
(``0 1 2/3 4 5/6 7 8``), ``"snail"`` (``1 2 3/8 0 4/7 6 5``) or any board.

>>> import npuzzle
>>> s = npuzzle.solve("8 6 7/2 5 4/3 0 1")
>>> s.length, s.optimal
(31, True)
>>> boards = npuzzle.scramble("3x3", count=1000, seed=7)
>>> d = npuzzle.distances(boards)           # exact, one table lookup a board
>>> int(d.max()) <= 31
True

Submodules: ``npuzzle.datasets`` (exact labels for learned heuristics, as shards) and
``npuzzle.gym`` (the Gymnasium environment ``SlidingPuzzle-v0``, and a vector environment).
"""

from __future__ import annotations

from . import errors
from ._native import (
    Board,
    Hint,
    HintMove,
    Progress,
    Solution,
    build_database,
    cache_dir,
    distances,
    goal,
    heuristic,
    hint,
    hints,
    optimal_paths,
    scramble,
    solvable,
    solve,
    solve_many,
)
from .errors import (
    InternalError,
    InvalidBoardError,
    InvalidGoalError,
    InvalidInputError,
    InvalidMoveError,
    InvalidOptionError,
    LimitError,
    NotExactError,
    NpuzzleError,
    UnsolvableError,
)

try:
    from importlib.metadata import version as _version

    __version__ = _version("npuzzle")
except Exception:  # not installed as a distribution (a source checkout on sys.path)
    __version__ = "0+unknown"

MOVES = "UDLR"
"""The action letters in index order: ``MOVES[a]`` is action ``a`` of ``hints`` and ``npuzzle.gym``."""

__all__ = [
    "__version__",
    "MOVES",
    "Board",
    "Hint",
    "HintMove",
    "Progress",
    "Solution",
    "build_database",
    "cache_dir",
    "distances",
    "errors",
    "goal",
    "heuristic",
    "hint",
    "hints",
    "optimal_paths",
    "scramble",
    "solvable",
    "solve",
    "solve_many",
    "NpuzzleError",
    "InvalidInputError",
    "InvalidBoardError",
    "InvalidGoalError",
    "InvalidMoveError",
    "InvalidOptionError",
    "NotExactError",
    "UnsolvableError",
    "LimitError",
    "InternalError",
]
