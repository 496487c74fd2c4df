"""Board: every input form, the notation, equality, hashing, pickling, moves."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import npuzzle
from npuzzle import Board


def test_every_input_form_gives_the_same_board():
    b = Board("8 6 7/2 5 4/3 0 1")
    same = [
        "8 6 7\n2 5 4\n3 0 1",
        "8,6,7/2,5,4/3,0,1",
        "8 6 7 2 5 4 3 0 1",
        "867254301",
        "# This puzzle is solvable\n3\n 8 6 7\n 2 5 4\n 3 0 1\n",
        [[8, 6, 7], [2, 5, 4], [3, 0, 1]],
        [8, 6, 7, 2, 5, 4, 3, 0, 1],
        ((8, 6, 7), (2, 5, 4), (3, 0, 1)),
        np.array([[8, 6, 7], [2, 5, 4], [3, 0, 1]]),
        np.array([[8, 6, 7], [2, 5, 4], [3, 0, 1]], dtype=np.uint8),
        b,
    ]
    for form in same:
        assert Board(form) == b, form


def test_notation_round_trips():
    b = Board("1 2 3 4 5/6 7 8 9 10/11 12 13 14 0")
    assert str(b) == "1 2 3 4 5/6 7 8 9 10/11 12 13 14 0"
    assert repr(b) == "Board('1 2 3 4 5/6 7 8 9 10/11 12 13 14 0')"
    assert Board(str(b)) == b
    assert (b.width, b.height, b.size, b.shape, len(b)) == (5, 3, "5x3", (3, 5), 15)
    assert b.blank == (4, 2)
    assert b.tiles == tuple(range(1, 15)) + (0,)
    assert b.tolist()[1] == [6, 7, 8, 9, 10]
    assert b.grid().splitlines()[-1] == "11 12 13 14  ."


@pytest.mark.parametrize(
    "text, reason",
    [
        ("1 1/2 3", "tile 1 appears twice"),
        ("1 2 3/4 5", "row 2 has 2 cells, expected 3"),
        ("", "empty board: no tiles given"),
        ("1 2 3/4 5 6/7 8 9", "tile 9 is out of range for a 3x3 board (tiles are 0 to 8)"),
        ("1 2 x/4 5 6/7 8 0", '"x" is not a number'),
        ("1 2 3 4 5", "5 tiles in one row: a flat list must hold N*N tiles (for example 9 or 16); separate rows with '/' or newlines"),
        ("1 -2/3 0", "tile -2 is negative"),
    ],
)
def test_bad_boards_raise_with_the_cli_reason(text, reason):
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        Board(text)
    assert str(e.value) == reason
    assert isinstance(e.value, ValueError) and e.value.exit_status == 2


def test_bad_rows_and_values_raise():
    for bad, reason in [
        ([[1, 2], [3]], "row 2 has 1 cell, expected 2"),
        ([[1.5, 0], [2, 3]], '"1.5" is not a number'),
        ([[True, 0], [2, 3]], '"True" is not a number'),
        (np.zeros((2, 2)), '"0.0" is not a number'),
        (np.array([[0, 1], [2, 2]]), "tile 2 appears twice"),
        ([[0, 1], [2, 99999999999999999999999]], "tile 99999999999999999999999 is too large"),
        (
            npuzzle.scramble("3x3", count=2, seed=1),
            "a board has two dimensions (rows of numbers); this has three, a batch of 2 "
            "boards: pass one of them (boards[0]), or all of them to solve_many",
        ),
    ]:
        with pytest.raises(npuzzle.InvalidBoardError) as e:
            Board(bad)
        assert str(e.value) == reason, bad
    with pytest.raises(npuzzle.InvalidBoardError):
        Board(42)
    with pytest.raises(npuzzle.InvalidBoardError):
        Board(None)


def test_equality_hash_and_pickle():
    a = Board("1 2/3 0")
    b = Board([[1, 2], [3, 0]])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Board("1 2/0 3")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(a, protocol)) == a
    assert copy.deepcopy(a) == a
    big = npuzzle.goal("16x16")
    assert pickle.loads(pickle.dumps(big)) == big


def test_numpy_views():
    b = Board("8 6 7/2 5 4/3 0 1")
    a = np.asarray(b)
    assert a.shape == (3, 3) and a.dtype == np.uint8 and a[2, 1] == 0
    assert np.asarray(b, dtype=np.int64).dtype == np.int64
    assert Board(b.to_numpy()) == b
    assert npuzzle.goal("17x16").to_numpy().dtype == np.uint16


def test_moves_apply_and_tiles():
    b = Board("8 6 7/2 5 4/3 0 1")
    assert b.moves() == ["D", "L", "R"]
    assert b.apply("D") == Board("8 6 7/2 0 4/3 5 1")
    assert b.apply("D2") == b.apply("DD") == b.apply("d, d")
    assert b.apply([5, 6]) == b.apply("DD")
    assert b.tiles_moved("DD") == [5, 6]
    assert b.tile_for_move("L") == 1 and b.tile_for_move("U") is None
    assert [m for m, _ in b.neighbours()] == ["D", "L", "R"]
    assert all(n == b.apply(m) for m, n in b.neighbours())
    with pytest.raises(npuzzle.InvalidMoveError) as e:
        b.apply("DDD")
    assert str(e.value) == "move 3 (D) is illegal: no tile can slide down into the blank"
    with pytest.raises(npuzzle.InvalidMoveError) as e:
        b.apply("X")
    assert str(e.value) == "invalid move 'X' at character 1: expected U, D, L or R"
    with pytest.raises(npuzzle.InvalidMoveError):
        b.apply([8])


def test_goals_and_solvability():
    assert str(npuzzle.goal("3x3")) == "1 2 3/4 5 6/7 8 0"
    assert str(npuzzle.goal("3x3", "blank-first")) == "0 1 2/3 4 5/6 7 8"
    assert str(npuzzle.goal(3, "snail")) == "1 2 3/8 0 4/7 6 5"
    assert str(npuzzle.goal((5, 3), "snail")) == "1 2 3 4 5/12 13 14 0 6/11 10 9 8 7"
    assert Board.goal("2x2", "0 1/2 3") == Board("0 1/2 3")
    b = Board("1 2 3/4 5 6/8 7 0")
    assert not b.solvable() and b.solvable("snail")
    with pytest.raises(npuzzle.InvalidGoalError) as e:
        b.solvable("1 2/3 0")
    assert str(e.value) == "goal is 2x2 but the board is 3x3"
    with pytest.raises(npuzzle.InvalidGoalError) as e:
        npuzzle.goal("3x3", "spiral-ish")
    assert str(e.value).startswith('invalid goal "spiral-ish": expected blank-last, blank-first, snail or a board')
    with pytest.raises(npuzzle.InvalidOptionError) as e:
        npuzzle.goal("1x4")
    assert str(e.value) == "size 1x4 is out of range: each side must be 2 to 256"
