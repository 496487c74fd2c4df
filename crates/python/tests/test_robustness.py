"""No input makes the package panic or abort: every failure is an ordinary Python exception
(a panic would surface as pyo3's PanicException, a BaseException)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import npuzzle
from npuzzle import _native

ODD_VALUES = [
    None, 0, -1, 1, 2**70, -(2**70), 1.5, float("nan"), float("inf"), "", " ", "x", "3x3",
    "0x0", "1x1", "257x2", "2x2", "1 2/3 0", "0 0/0 0", "\x00", "9" * 400, [], [[]], [[0]],
    [[1, 0]], [[0, 1], [2]], [[0, 1], [2, 3]], (0, 1, 2, 3), np.zeros((0,)), np.zeros((2, 2)),
    np.array([[0, 1], [2, 3]], dtype=np.int8), np.array([[[0, 1], [2, 3]]], dtype=np.uint64),
    np.full((1, 2, 2), 2**40, dtype=np.int64), b"1 2/3 0", {"a": 1}, object(),
]

ALLOWED = (npuzzle.NpuzzleError, TypeError, ValueError, OverflowError)


def call(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except ALLOWED:
        pass


@pytest.mark.parametrize("value", ODD_VALUES, ids=lambda v: repr(v)[:30])
def test_odd_values_everywhere(value):
    call(npuzzle.Board, value)
    call(npuzzle.goal, value)
    call(npuzzle.goal, "2x2", value)
    call(npuzzle.solve, value)
    call(npuzzle.solve, "1 2/3 0", value)
    call(npuzzle.hint, value)
    for fn in [npuzzle.distances, npuzzle.heuristic, npuzzle.solvable, npuzzle.solve_many,
               npuzzle.hints, npuzzle.optimal_paths]:
        call(fn, value)
        call(fn, np.zeros((1, 2, 2), dtype=np.uint8), value)
    call(npuzzle.scramble, value)
    call(npuzzle.scramble, "2x2", value)
    call(npuzzle.Board("1 2/3 0").apply, value)
    call(npuzzle.Board("1 2/3 0").solvable, value)
    call(npuzzle.Solution.from_json, value)
    call(_native.Boards, 1, value)
    call(_native.Boards, value, "2x2")


def test_odd_keyword_values():
    for key, value in itertools.product(
        ["timeout", "max_nodes", "max_memory", "weight", "algorithm", "heuristic", "optimal"],
        [0, -1, 2**64, 1e308, float("nan"), "", "auto", None, True],
    ):
        call(npuzzle.solve, "1 2 3/4 5 6/0 7 8", **{key: value})
    for threads in [0, -1, 2**40, None, 1, 3]:
        call(npuzzle.distances, npuzzle.scramble("3x3", 4, seed=1), threads=threads)


def test_every_2x2_board_with_every_goal_and_algorithm():
    boards = [np.array(p).reshape(2, 2) for p in itertools.permutations(range(4))]
    for goal in ["blank-last", "blank-first", "snail", "3 2/1 0"]:
        d = npuzzle.distances(boards, goal)
        for algorithm in ["auto", "bfs", "dfs", "iddfs", "dijkstra", "greedy", "astar", "wastar", "idastar", "table", "reduction", "near"]:
            for b, dist in zip(boards, d):
                s = npuzzle.solve(b, goal, algorithm=algorithm)
                assert s.solved == (dist >= 0)
                if s.solved:
                    assert npuzzle.Board(b).apply(s.moves) == npuzzle.goal("2x2", goal)


def test_vector_boards_refuse_what_they_cannot_hold():
    with pytest.raises(npuzzle.InvalidOptionError):
        _native.Boards(2**40, "4x4")
    with pytest.raises(npuzzle.InvalidOptionError):
        _native.Boards(1, "4x4", walk=10**12)
    boards = _native.Boards(3, "3x3", seed=1)
    with pytest.raises(npuzzle.InvalidOptionError):
        boards.step(np.array([0, 1], dtype=np.int64))
    with pytest.raises(npuzzle.InvalidOptionError):
        boards.step(np.array([0, 1, 7], dtype=np.int64))
    with pytest.raises(npuzzle.InvalidBoardError):
        boards.set_boards(["1 2 3/4 5 6/8 7 0"] * 3)
