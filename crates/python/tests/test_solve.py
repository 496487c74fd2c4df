"""solve and hint: every solution replays, the record's fields, reasons, limits, pickling."""

from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest

import npuzzle
from npuzzle import Board

RECORD_FIELDS = [
    "status", "board", "goal", "width", "height", "algorithm", "heuristic", "optimal",
    "length", "moves", "tiles", "expanded", "generated", "max_frontier", "seconds", "error",
]


def replays(s: npuzzle.Solution) -> bool:
    return s.solved and Board(s.board).apply(s.moves) == Board(s.goal)


def test_the_classic_board():
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1")
    assert (s.status, s.length, s.optimal, s.algorithm) == ("solved", 31, True, "table")
    assert s.moves == "DDLURRULLDRRDLLURURDDLUURDDLLUU"
    assert s.tiles == Board(s.board).tiles_moved(s.moves)
    assert s.compact == "D2LUR2UL2DR2DL2URURD2LU2RD2L2U2" and s.multi_tile_length == 21
    assert replays(s)
    states = s.states()
    assert len(states) == 32 and states[0] == Board(s.board) and states[-1] == Board(s.goal)
    assert list(s.to_dict())[: len(RECORD_FIELDS)] == RECORD_FIELDS
    assert json.loads(s.to_json()) == s.to_dict()


@pytest.mark.parametrize("goal", ["blank-last", "blank-first", "snail"])
def test_every_solution_replays_on_random_3x3_boards(goal):
    boards = npuzzle.scramble("3x3", count=200, seed=3, goal=goal)
    for b in boards:
        s = npuzzle.solve(b, goal)
        assert s.optimal and replays(s), (b, s)


@pytest.mark.parametrize(
    "algorithm, heuristic",
    [
        ("bfs", "auto"), ("dfs", "auto"), ("iddfs", "auto"), ("dijkstra", "auto"),
        ("greedy", "manhattan"), ("astar", "hamming"), ("astar", "manhattan"),
        ("wastar", "linear-conflict"), ("idastar", "linear-conflict"),
        ("idastar", "walking-distance"), ("table", "auto"), ("reduction", "auto"),
    ],
)
def test_every_algorithm_replays(algorithm, heuristic):
    optimal_ones = {"bfs", "iddfs", "dijkstra", "astar", "idastar", "table"}
    for b in npuzzle.scramble("3x3", count=5, seed=11):
        s = npuzzle.solve(b, algorithm=algorithm, heuristic=heuristic)
        assert replays(s), (algorithm, s)
        assert s.algorithm == algorithm
        if algorithm in optimal_ones:
            assert s.optimal and s.length == npuzzle.distances([b])[0]


def test_larger_boards_replay():
    # 4x4 walks (optimal through the pattern database), other shapes, and a large board
    # (the reduction solver, not proven optimal, and saying so).
    for b in npuzzle.scramble("4x4", count=4, seed=5, walk=30):
        s = npuzzle.solve(b)
        assert s.optimal and replays(s)
    for size in ["2x5", "5x2", "3x4"]:
        for b in npuzzle.scramble(size, count=3, seed=2):
            assert replays(npuzzle.solve(b)), size
    big = npuzzle.scramble("65x16", seed=1)[0]
    s = npuzzle.solve(big)
    assert replays(s) and not s.optimal and s.algorithm == "reduction"
    assert s.note.startswith("not proven optimal: the reduction solver placed rows and columns")
    assert s.lower_bound is not None and s.lower_bound <= s.length
    # Up to 64x64, a short solve of the near-optimal engine first (the reduction solver's
    # answer when that is shorter, saying so).
    mid = npuzzle.scramble("17x16", seed=1)[0]
    s = npuzzle.solve(mid)
    assert replays(s) and not s.optimal and s.lower_bound <= s.length
    assert (s.algorithm, "near-optimal engine" in s.note) in [("near", True), ("reduction", True)]


def test_improve_runs_the_anytime_mode_and_says_so():
    # A 6x6 board: the near-optimal engine's anytime mode for a second, as `--improve 1`.
    b = npuzzle.scramble("6x6", seed=1)[0]
    s = npuzzle.solve(b, improve=1.0)
    assert replays(s) and s.algorithm == "near" and not s.optimal
    assert "the anytime mode improved it from " in s.note, s.note
    assert s.lower_bound <= s.length
    # The same for each board of a batch; a 3x3 board is answered as without it.
    many = npuzzle.solve_many(npuzzle.scramble("6x6", count=2, seed=2), improve=0.5, threads=2)
    assert all(replays(m) and "anytime mode" in m.note for m in many)
    small = npuzzle.solve("8 6 7/2 5 4/3 0 1", improve=1.0)
    assert (small.algorithm, small.length, small.optimal) == ("table", 31, True)


def test_unsolvable_is_a_status_with_the_cli_reason():
    s = npuzzle.solve("1 2 3/4 5 6/8 7 0")
    assert s.status == "unsolvable" and s.moves == "" and s.length is None
    assert s.error == (
        "unsolvable towards blank-last: the tile permutation is odd but the blank is an even "
        'number of moves from its goal cell; solvable towards snail: use goal="snail"'
    )
    with pytest.raises(npuzzle.UnsolvableError) as e:
        s.raise_for_status()
    assert str(e.value) == s.error and e.value.exit_status == 3
    assert npuzzle.solve("1 2 3/4 5 6/8 7 0", "snail").solved


def test_limits_are_a_status_with_the_cli_reason():
    hard = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0"
    s = npuzzle.solve(hard, algorithm="astar", heuristic="manhattan", max_nodes=1000)
    assert s.status == "limit"
    assert s.error.startswith("node limit of 1,000 reached (lower bound ")
    assert s.lower_bound is not None
    with pytest.raises(npuzzle.LimitError) as e:
        s.raise_for_status()
    assert e.value.exit_status == 4
    s = npuzzle.solve(hard, algorithm="bfs", max_memory=1)
    assert s.status == "limit" and s.error.startswith("memory limit of 1 MiB reached after ")
    s = npuzzle.solve(hard, algorithm="idastar", heuristic="hamming", timeout=0.2)
    assert s.status == "limit" and s.error.startswith("time limit of 0.2 s reached after ")


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"algorithm": "quantum"}, 'unknown algorithm "quantum": expected one of auto, bfs, dfs, iddfs, dijkstra, greedy, astar, wastar, idastar, table, reduction, near'),
        ({"heuristic": "psychic"}, 'unknown heuristic "psychic": expected one of auto, hamming, manhattan, linear-conflict, walking-distance, pdb'),
        ({"weight": 0.5}, "weight: 0.5 is not a weight: expected a number from 1 to 100"),
        ({"timeout": -1}, "timeout: -1 is not a time: expected a positive number of seconds (at most a year), or math.inf for none"),
        ({"timeout": math.nan}, "timeout: NaN is not a time: expected a positive number of seconds (at most a year), or math.inf for none"),
        ({"max_nodes": 0}, "max_nodes: must be at least 1"),
        ({"max_memory": 0}, "max_memory: must be at least 1"),
        ({"improve": 0}, "improve: 0 is not a time: expected a positive number of seconds (at most a year)"),
        ({"improve": math.inf}, "improve: inf is not a time: expected a positive number of seconds (at most a year)"),
    ],
)
def test_bad_options_raise_with_the_cli_reason(kwargs, reason):
    with pytest.raises(npuzzle.InvalidOptionError) as e:
        npuzzle.solve("1 2/3 0", **kwargs)
    assert str(e.value) == reason


def test_the_table_refuses_large_boards():
    with pytest.raises(npuzzle.InvalidOptionError) as e:
        npuzzle.solve(npuzzle.scramble("4x4", seed=1)[0], algorithm="table")
    assert str(e.value) == "the table algorithm handles boards of at most 9 cells; this one has 16"


def test_no_time_limit_and_names_in_any_case():
    s = npuzzle.solve("1 2 3/4 5 6/0 7 8", algorithm="A*", heuristic="Manhattan", timeout=math.inf)
    assert s.moves == "LL" and s.algorithm == "astar" and s.heuristic == "manhattan"


def test_solutions_pickle_and_compare():
    for s in [npuzzle.solve("8 6 7/2 5 4/3 0 1"), npuzzle.solve("1 2 3/4 5 6/8 7 0")]:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(s, protocol))
            assert back == s and back.to_dict() == s.to_dict()
    assert npuzzle.Solution.from_json(s.to_json()) == s


def test_hint():
    h = npuzzle.hint("1 2 3/4 5 6/7 0 8")
    assert (h.best, h.distance, h.exact) == ("L", 1, True)
    assert [(m.move, m.tile, m.distance, m.exact) for m in h.moves] == [
        ("D", 5, 2, True), ("L", 8, 0, True), ("R", 7, 2, True)]
    assert h.solution.moves == "L"
    h = npuzzle.hint("1 2 3/4 5 6/8 7 0")
    assert h.best is None and all(m.distance is None for m in h.moves)
    h = npuzzle.hint(npuzzle.goal("3x3"))
    assert h.best is None and h.distance == 0
    b = npuzzle.scramble("4x4", seed=4, walk=20)[0]
    h = npuzzle.hint(b)
    assert h.exact and h.distance == npuzzle.distances([b])[0]
    assert min(m.distance for m in h.moves) == h.distance - 1


def test_a_panic_never_reaches_python():
    # Whatever is thrown at it, the package raises Python exceptions, never aborts.
    weird = [
        ("0 1/2 3", {"goal": "3 2 1 0"}),
        (np.zeros((2, 2), dtype=np.int64), {}),
        ("1 2 3/4 5 6/7 8 0", {"weight": 1e308}),
        ("1 2 3/4 5 6/7 8 0", {"timeout": 1e308}),
        ("1 2 3/4 5 6/7 8 0", {"max_nodes": 2**62}),
        ("1 2 3/4 5 6/7 8 0", {"max_memory": 2**62}),
    ]
    for board, kwargs in weird:
        try:
            npuzzle.solve(board, **kwargs)
        except npuzzle.NpuzzleError:
            pass


def test_progress_tells_the_best_answer_so_far_and_the_bound():
    # An 8x8: the near-optimal engine has a path within half a second and improves it for
    # seconds more; the callback hears each shorter path and each higher bound.
    board = npuzzle.scramble("8x8", seed=3)[0]
    heard = []
    s = npuzzle.solve(board, timeout=3, progress=heard.append)
    assert replays(s) and s.algorithm == "near" and not s.optimal
    assert heard, "no progress"
    assert all(isinstance(p, npuzzle.Progress) for p in heard)
    bests = [p.best for p in heard if p.best is not None]
    bounds = [p.lower_bound for p in heard if p.lower_bound is not None]
    assert bests and bounds
    assert bests == sorted(bests, reverse=True) and bounds == sorted(bounds)
    assert s.length <= bests[-1] and s.lower_bound >= bounds[-1]
    assert bounds[0] < bests[0]
    assert heard[-1].seconds < 3.5
    assert repr(heard[0]).startswith("Progress(seconds=")


def test_progress_returning_false_stops_with_the_best_answer_so_far():
    board = npuzzle.scramble("8x8", seed=3)[0]
    heard = []

    def first_path(p):
        heard.append(p)
        return p.best is None  # False once there is a path: stop

    s = npuzzle.solve(board, timeout=10, progress=first_path)
    assert replays(s) and s.status == "solved" and not s.optimal
    first = next(p.best for p in heard if p.best is not None)
    assert s.length <= first
    assert s.seconds < 5


def test_an_exception_in_progress_stops_the_solve_and_is_raised():
    board = npuzzle.scramble("8x8", seed=3)[0]

    def fail(p):
        raise ValueError("enough")

    with pytest.raises(ValueError, match="enough"):
        npuzzle.solve(board, timeout=10, progress=fail)
    with pytest.raises(npuzzle.InvalidOptionError, match="progress must be a callable"):
        npuzzle.solve(board, progress=3)


def test_a_hint_tells_its_progress_and_stops_with_its_best_move_so_far():
    # On an 8x8 a hint is a near-optimal solve of seconds: the callback hears its best path
    # and bound; False stops it with the first move of the best path so far.
    board = npuzzle.scramble("8x8", seed=3)[0]
    heard = []

    def first_path(p):
        heard.append(p)
        return p.best is None

    h = npuzzle.hint(board, timeout=10, progress=first_path)
    first = next(p.best for p in heard if p.best is not None)
    assert h.best is not None and not h.exact and h.distance <= first
    assert replays(h.solution) and h.solution.moves[0] == h.best
    assert h.solution.seconds < 5
    with pytest.raises(npuzzle.InvalidOptionError, match="progress must be a callable"):
        npuzzle.hint(board, progress="no")
