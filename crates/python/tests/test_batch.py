"""Batch calls: the same answers as the command line and as one-by-one calls."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import npuzzle
from npuzzle import Board

from conftest import run_cli


def cli_records(cli: str, boards, *args: str) -> list[dict]:
    text = "\n".join(str(Board(b)) for b in boards) + "\n"
    out = run_cli(cli, "solve", "--input", "-", "--format", "json", *args, stdin=text)
    assert out.returncode in (0, 3), out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def comparable(record: dict) -> dict:
    """A record without its timing (and input line), with the command line's flag named as the argument."""
    r = dict(record)
    r.pop("seconds")
    r.pop("line", None)  # the input file's line: the command line's own
    if r.get("error"):
        r["error"] = re.sub(r"--goal ([a-z-]+)", r'goal="\1"', r["error"])
    return r


def test_scramble_gives_the_cli_boards(cli):
    for args, kwargs in [
        (["--size", "4x4", "--seed", "1", "--count", "5"], {"size": "4x4", "count": 5, "seed": 1}),
        (["--size", "3x3", "--seed", "9", "--count", "4", "--goal", "snail"], {"size": "3x3", "count": 4, "seed": 9, "goal": "snail"}),
        (["--size", "5x3", "--seed", "2", "--count", "3", "--walk", "40"], {"size": "5x3", "count": 3, "seed": 2, "walk": 40}),
        (["--size", "3x3", "--seed", "4", "--count", "3", "--unsolvable"], {"size": "3x3", "count": 3, "seed": 4, "unsolvable": True}),
    ]:
        out = run_cli(cli, "scramble", *args)
        assert out.returncode == 0, out.stderr
        lines = [l for l in out.stdout.splitlines() if not l.startswith("#")]
        assert lines == [str(Board(b)) for b in npuzzle.scramble(**kwargs)]


def test_scramble_shapes_and_types():
    a = npuzzle.scramble("5x3", count=7, seed=1)
    assert a.shape == (7, 3, 5) and a.dtype == np.uint8
    assert npuzzle.solvable(a).all()
    assert not npuzzle.solvable(npuzzle.scramble("3x3", 20, seed=1, unsolvable=True)).any()
    assert npuzzle.scramble("17x16", seed=1).dtype == np.uint16
    assert npuzzle.scramble("3x3", count=0, seed=1).shape == (0, 3, 3)
    assert (npuzzle.scramble("4x4", 3, seed=8) == npuzzle.scramble("4x4", 3, seed=8)).all()
    walked = npuzzle.scramble("4x4", 50, seed=3, walk=6)
    assert (npuzzle.distances(walked) <= 6).all()
    with pytest.raises(npuzzle.InvalidOptionError):
        npuzzle.scramble("3x3", count=-1)
    with pytest.raises(npuzzle.InvalidOptionError):
        npuzzle.scramble("256x256", count=10**9)


def test_solve_many_equals_the_cli_json(cli):
    boards = list(npuzzle.scramble("3x3", count=40, seed=21))
    boards += ["1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/7 8 0"]
    mine = [s.to_dict() for s in npuzzle.solve_many(boards)]
    theirs = cli_records(cli, boards)
    assert [comparable(r) for r in mine] == [comparable(r) for r in theirs]
    # A chosen algorithm: the same search, node for node.
    some = boards[:10]
    mine = [s.to_dict() for s in npuzzle.solve_many(some, algorithm="astar", heuristic="manhattan")]
    theirs = cli_records(cli, some, "--algorithm", "astar", "--heuristic", "manhattan")
    assert [comparable(r) for r in mine] == [comparable(r) for r in theirs]


def test_solve_many_equals_the_cli_json_on_4x4(cli):
    # Through the pattern database both find in the shared cache: built first, so that
    # neither front end answers a board on which the other found no table yet (a board
    # a quick search answers never starts a build, but uses a table that is there).
    npuzzle.build_database("4x4", partition="6-6-3")
    boards = npuzzle.scramble("4x4", count=6, seed=2, walk=45)
    mine = [s.to_dict() for s in npuzzle.solve_many(boards)]
    theirs = cli_records(cli, boards)
    assert [comparable(r) for r in mine] == [comparable(r) for r in theirs]
    assert all(r["optimal"] for r in mine)


def test_solve_many_equals_solve_one_by_one():
    boards = npuzzle.scramble("3x3", count=30, seed=5, goal="snail")
    many = npuzzle.solve_many(boards, "snail", threads=2)
    single = [npuzzle.solve(b, "snail") for b in boards]
    assert [s.moves for s in many] == [s.moves for s in single]
    assert all(Board(s.board).apply(s.moves) == npuzzle.goal("3x3", "snail") for s in many)
    assert npuzzle.solve_many(np.zeros((0, 3, 3), dtype=np.uint8)) == []


@pytest.mark.parametrize("goal", ["blank-last", "blank-first", "snail", "2 4 6/8 0 1/3 5 7"])
def test_distances_are_the_optimal_lengths(goal):
    boards = npuzzle.scramble("3x3", count=300, seed=8, goal=goal)
    d = npuzzle.distances(boards, goal)
    assert d.dtype == np.int32
    assert d.tolist() == [npuzzle.solve(b, goal).length for b in boards]
    # Other dtypes and a list of boards give the same answers.
    assert (npuzzle.distances(boards.astype(np.int64), goal) == d).all()
    assert (npuzzle.distances([str(Board(b)) for b in boards[:5]], goal) == d[:5]).all()
    unsolvable = npuzzle.scramble("3x3", count=5, seed=8, goal=goal, unsolvable=True)
    assert (npuzzle.distances(unsolvable, goal) == -1).all()


def test_distances_on_other_small_shapes_and_4x4():
    for size in ["2x2", "2x3", "4x2", "2x5", "3x4"]:
        boards = npuzzle.scramble(size, count=20, seed=1)
        assert npuzzle.distances(boards).tolist() == [npuzzle.solve(b, optimal=True).length for b in boards]
    boards = npuzzle.scramble("4x4", count=4, seed=9, walk=40)
    d = npuzzle.distances(boards)
    assert d.tolist() == [npuzzle.solve(b).length for b in boards]


def test_distances_beyond_exact_need_the_explicit_mode():
    boards = npuzzle.scramble("5x5", count=3, seed=1)
    with pytest.raises(npuzzle.NotExactError) as e:
        npuzzle.distances(boards)
    assert "pass exact=False" in str(e.value)
    upper = npuzzle.distances(boards, exact=False)
    assert (upper >= npuzzle.heuristic(boards, "manhattan")).all()


def test_batch_input_errors_name_the_board():
    boards = npuzzle.scramble("3x3", count=4, seed=1)
    boards[2, 0, 0] = boards[2, 0, 1]
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.distances(boards)
    assert re.fullmatch(r"boards\[2\]: tile \d appears twice", str(e.value))
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.heuristic(boards)
    assert str(e.value).startswith("boards[2]: ")
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.solve_many(np.zeros((3, 9)))
    assert str(e.value) == "boards must be an array of shape (count, height, width); got shape (3, 9)"
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.distances(np.zeros((1, 3, 3), dtype=float))
    assert str(e.value) == "boards must hold whole numbers; got an array of float64"
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.distances(np.full((1, 3, 3), -1))
    assert str(e.value) == "tile -1 is negative"
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.distances(np.full((1, 3, 3), 70000))
    assert str(e.value) == "tile 70000 is out of range for a 3x3 board (tiles are 0 to 8)"
    with pytest.raises(npuzzle.InvalidBoardError) as e:
        npuzzle.distances(["1 2/3 0", "1 2 3/4 5 6/7 8 0"])
    assert str(e.value) == "boards[1] is 3x3 but boards[0] is 2x2: a batch holds boards of one size"
    with pytest.raises(npuzzle.InvalidBoardError):
        npuzzle.distances([])
    with pytest.raises(npuzzle.InvalidBoardError):
        npuzzle.distances(np.zeros((1, 1, 3), dtype=np.uint8))
    # Strided views are read as well.
    boards = npuzzle.scramble("3x3", count=10, seed=1)
    assert (npuzzle.distances(boards[::2]) == npuzzle.distances(boards)[::2]).all()
    assert (npuzzle.distances(boards.transpose(0, 2, 1).copy().transpose(0, 2, 1)) == npuzzle.distances(boards)).all()


def manhattan(board: np.ndarray, goal: Board) -> int:
    b = np.asarray(board)
    g = np.asarray(goal)
    total = 0
    for t in range(1, b.size):
        (y, x), (gy, gx) = np.argwhere(b == t)[0], np.argwhere(g == t)[0]
        total += abs(int(y) - int(gy)) + abs(int(x) - int(gx))
    return total


@pytest.mark.parametrize("goal", ["blank-last", "snail"])
def test_heuristics_are_right_and_admissible(goal):
    boards = npuzzle.scramble("3x3", count=200, seed=4, goal=goal)
    g = npuzzle.goal("3x3", goal)
    d = npuzzle.distances(boards, goal)
    m = npuzzle.heuristic(boards, "manhattan", goal)
    assert m.tolist() == [manhattan(b, g) for b in boards]
    h = npuzzle.heuristic(boards, "hamming", goal)
    assert h.tolist() == [int(((b != np.asarray(g)) & (b != 0)).sum()) for b in boards]
    lc = npuzzle.heuristic(boards, "linear-conflict", goal)
    wd = npuzzle.heuristic(boards, "walking-distance", goal)
    assert (h <= m).all() and (m <= lc).all() and (lc <= d).all() and (wd <= d).all()
    assert npuzzle.heuristic(["3 2 1/4 5 6/7 8 0"], "linear-conflict").tolist() == [8]


def test_heuristics_on_4x4_and_large_boards():
    boards = npuzzle.scramble("4x4", count=50, seed=6, walk=30)
    d = npuzzle.distances(boards)
    for kind in ["hamming", "manhattan", "linear-conflict", "walking-distance", "pdb"]:
        assert (npuzzle.heuristic(boards, kind) <= d).all(), kind
    assert (npuzzle.heuristic(boards, "pdb") >= npuzzle.heuristic(boards, "manhattan")).all()
    big = npuzzle.scramble("70x70", count=2, seed=1)
    assert (npuzzle.heuristic(big, "manhattan") > npuzzle.heuristic(big, "hamming")).all()
    with pytest.raises(npuzzle.InvalidOptionError):
        npuzzle.heuristic(big, "walking-distance")
    with pytest.raises(npuzzle.InvalidOptionError):
        npuzzle.heuristic(boards, "auto")


def test_hints_batch():
    boards = npuzzle.scramble("3x3", count=50, seed=12)
    best, after, exact = npuzzle.hints(boards)
    d = npuzzle.distances(boards)
    assert best.shape == (50,) and after.shape == (50, 4)
    assert exact[after >= 0].all() and not exact[after < 0].any()
    for i, b in enumerate(boards):
        board = Board(b)
        for a, letter in enumerate(npuzzle.MOVES):
            if letter in board.moves():
                assert after[i, a] == npuzzle.distances([board.apply(letter)])[0]
            else:
                assert after[i, a] == -1
        assert after[i, best[i]] == d[i] - 1


def test_optimal_paths_fall_by_one_a_move():
    boards = npuzzle.scramble("3x3", count=30, seed=2, goal="blank-first")
    states, dist, src = npuzzle.optimal_paths(boards, "blank-first")
    assert len(states) == len(dist) == len(src) == int((npuzzle.distances(boards, "blank-first") + 1).sum())
    assert (npuzzle.distances(states, "blank-first") == dist).all()
    for k in range(len(states) - 1):
        if src[k] == src[k + 1]:
            assert dist[k + 1] == dist[k] - 1
            assert Board(states[k + 1]) in [n for _, n in Board(states[k]).neighbours()]
        else:
            assert dist[k] == 0
    with pytest.raises(npuzzle.UnsolvableError):
        npuzzle.optimal_paths(["1 2 3/4 5 6/8 7 0"])
