"""The exceptions npuzzle raises.

Every message is the command line's one-line reason for the same problem (``tile 8 appears
twice``, ``unknown algorithm "quantum": expected one of ...``). ``exit_status`` is the exit
status ``npuzzle`` gives for it (2 invalid input, 3 unsolvable, 4 a limit).

>>> import npuzzle
>>> try:
...     npuzzle.Board("1 1/2 3")
... except npuzzle.InvalidBoardError as e:
...     print(e)
tile 1 appears twice
"""

from __future__ import annotations

__all__ = [
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


class NpuzzleError(Exception):
    """Base class of every npuzzle exception."""

    exit_status: int = 1


class InvalidInputError(NpuzzleError, ValueError):
    """Input that cannot be used: a bad board, goal, move or option (exit status 2)."""

    exit_status = 2


class InvalidBoardError(InvalidInputError):
    """A board that cannot be read: not a permutation, a ragged row, a bad size..."""


class InvalidGoalError(InvalidInputError):
    """A goal that is neither a name (blank-last, blank-first, snail) nor a board of the size."""


class InvalidMoveError(InvalidInputError):
    """Moves that cannot be read, or a move that cannot be made on the board."""


class InvalidOptionError(InvalidInputError):
    """An option the solver refuses: an unknown algorithm or heuristic, a bad limit or size."""


class NotExactError(InvalidInputError):
    """Exact distances asked for on boards larger than the exact methods serve (over 16 cells)."""


class UnsolvableError(NpuzzleError):
    """A board that cannot reach its goal where an answer was required (exit status 3)."""

    exit_status = 3


class LimitError(NpuzzleError):
    """A limit (time, memory, nodes) stopped a search whose answer was required (exit status 4)."""

    exit_status = 4


class InternalError(NpuzzleError, RuntimeError):
    """A defect of npuzzle (the solver panicked): please report the input."""

    exit_status = 101
