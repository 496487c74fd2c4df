"""Datasets of boards with exact optimal distances, for learned heuristics.

``generate`` draws random boards and labels them with their exact distances, and, with
``paths=True`` (the default), every board on an optimal path from each of them to the goal
with its own distance (a path of length ``d`` gives ``d + 1`` labels for the cost of one
solve). Boards are uniformly random among those that reach the goal, or, with ``depth=d``,
boards at exactly ``d`` moves from it.

The work is split in shards of ``shard_size`` start boards, one file each
(``shard-00003-of-00010.npz``), each made from its own seed, so any shard can be made alone
and in any order: a Slurm array (``shard=int(os.environ["SLURM_ARRAY_TASK_ID"])``) or any
job runner splits the work, and the result does not depend on how. ``load`` reads them back
as numpy arrays.

Exact labels are available up to 16 cells: tables up to 9 cells (instant), optimal IDA*
over pattern databases on 4x4 (build the 7-8 one once with ``npuzzle.build_database()``
for full speed; the 6-6-3 one is built on first use).

>>> from npuzzle import datasets
>>> paths = datasets.generate("3x3", count=100, seed=1, directory="data", shard_size=50)
>>> data = datasets.load("data")
>>> data.boards.shape[1:], data.boards.shape[0] == len(data.distances)
((3, 3), True)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import numpy as np

import npuzzle

__all__ = ["Dataset", "generate", "load", "shards", "shard_seed", "FORMAT"]

FORMAT = 1
"""The version of the shard files' layout."""


class Dataset(NamedTuple):
    """Labelled boards.

    Attributes:
        boards: ``(m, height, width)`` boards (``uint8`` up to 256 cells).
        distances: ``(m,)`` optimal distances to the goal (``int32``).
        source: ``(m,)`` the start board each row comes from, numbered across the dataset
            (``int64``); rows of one source go from the start board down to the goal.
    """

    boards: np.ndarray
    distances: np.ndarray
    source: np.ndarray


def shard_seed(seed: int, shard: int, attempt: int = 0) -> int:
    """The seed of one shard's boards: mixed from the dataset's seed and the shard's number
    (numpy's ``SeedSequence``), so shards are independent and reproducible."""
    state = np.random.SeedSequence([int(seed), int(shard), int(attempt)]).generate_state(2, np.uint32)
    return (int(state[0]) << 21) ^ int(state[1])


def _label(
    boards: np.ndarray,
    goal: Any,
    paths: bool,
    threads: int | None,
    timeout: float | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if paths:
        return npuzzle.optimal_paths(boards, goal, threads=threads, timeout=timeout)
    distances = npuzzle.distances(boards, goal, threads=threads, timeout=timeout)
    return boards, distances, np.arange(len(boards), dtype=np.int64)


def _at_depth(
    size: Any,
    count: int,
    depth: int,
    seed: int,
    shard: int,
    goal: Any,
    threads: int | None,
    timeout: float | None,
) -> np.ndarray:
    """``count`` boards at exactly ``depth`` moves from the goal: each is the board ``depth``
    moves before the goal on the optimal path of a uniformly random board (boards whose
    optimum is shorter are drawn again)."""
    found: list[np.ndarray] = []
    have = 0
    for attempt in range(64):
        need = count - have
        if need <= 0:
            break
        # Draw more than needed: most random boards are deeper than small depths, few are
        # deeper than large ones.
        draw = max(16, need * 2)
        starts = npuzzle.scramble(size, draw, seed=shard_seed(seed, shard, attempt), goal=goal)
        states, dist, src = npuzzle.optimal_paths(starts, goal, threads=threads, timeout=timeout)
        picked = states[dist == depth][:need]
        found.append(picked)
        have += len(picked)
    if have < count:
        raise npuzzle.InvalidOptionError(
            f"depth: found {have} of {count} boards at depth {depth} in 64 rounds of random "
            "boards; few or no boards are that far from the goal"
        )
    return np.concatenate(found)[:count]


def generate(
    size: Any,
    count: int,
    seed: int,
    directory: str | os.PathLike[str],
    *,
    goal: Any = None,
    depth: int | None = None,
    paths: bool = True,
    shard_size: int = 10_000,
    shard: int | None = None,
    threads: int | None = None,
    timeout: float | None = None,
) -> list[Path]:
    """Writes ``count`` labelled start boards (and, with ``paths``, the boards on their
    optimal paths) as shards in ``directory``; returns the paths of the files written.

    Args:
        size: ``"3x3"``, ``"4x4"``, ... (at most 16 cells: exact labels).
        count: start boards in all.
        seed: the dataset's seed; shard ``i`` uses ``shard_seed(seed, i)``.
        directory: where the shards and ``manifest.json`` go (created if needed).
        goal: ``"blank-last"`` (default), ``"blank-first"``, ``"snail"`` or a board.
        depth: start boards at exactly this distance instead of uniformly random ones.
        paths: also label every board on each start board's optimal path.
        shard_size: start boards per shard.
        shard: make only this shard (``0 <= shard < ceil(count / shard_size)``), as one
            task of an array job; ``None`` makes them all.
        threads: cores to use (default: all).
        timeout: seconds per optimal solve (default 60).

    Each shard file (``.npz``) holds ``boards``, ``distances`` and ``source`` (see
    ``Dataset``); files are written under a temporary name and renamed, so a reader never
    sees half a shard.
    """
    if count < 0 or shard_size < 1:
        raise npuzzle.InvalidOptionError("count must be at least 0 and shard_size at least 1")
    goal_board = npuzzle.goal(size, goal)
    h, w = goal_board.shape
    if h * w > 16:
        raise npuzzle.NotExactError(
            f"exact labels are known for boards of at most 16 cells; {goal_board.size} has {h * w}"
        )
    total = max(1, -(-count // shard_size))
    which = range(total) if shard is None else [int(shard)]
    if shard is not None and not 0 <= int(shard) < total:
        raise npuzzle.InvalidOptionError(f"shard: {shard} is not in 0..{total - 1}")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": FORMAT,
        "size": goal_board.size,
        "goal": str(goal_board),
        "count": int(count),
        "seed": int(seed),
        "depth": depth,
        "paths": bool(paths),
        "shard_size": int(shard_size),
        "shards": total,
    }
    _write_atomic(out / "manifest.json", json.dumps(manifest, indent=2).encode() + b"\n")
    written = []
    for i in which:
        n = min(shard_size, count - i * shard_size)
        if depth is None:
            starts = npuzzle.scramble(size, max(n, 0), seed=shard_seed(seed, i), goal=goal_board)
        else:
            starts = _at_depth(size, n, depth, seed, i, goal_board, threads, timeout)
        boards, distances, source = _label(starts, goal_board, paths, threads, timeout)
        source = source + i * shard_size
        path = out / f"shard-{i:05d}-of-{total:05d}.npz"
        _save_npz(path, boards=boards, distances=distances, source=source)
        written.append(path)
    return written


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _save_npz(path: Path, **arrays: np.ndarray) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def shards(directory: str | os.PathLike[str]) -> Iterator[Dataset]:
    """Each shard of a dataset in order, as a ``Dataset`` (for data larger than memory).

    Raises ``FileNotFoundError`` naming the shards missing."""
    out = Path(directory)
    manifest = json.loads((out / "manifest.json").read_text())
    total = int(manifest["shards"])
    files = [out / f"shard-{i:05d}-of-{total:05d}.npz" for i in range(total)]
    missing = [f.name for f in files if not f.exists()]
    if missing:
        raise FileNotFoundError(
            f"{out}: {len(missing)} of {total} shards missing: {', '.join(missing[:5])}"
            + (" ..." if len(missing) > 5 else "")
        )
    for f in files:
        with np.load(f) as z:
            yield Dataset(z["boards"], z["distances"], z["source"])


def load(directory: str | os.PathLike[str]) -> Dataset:
    """The whole dataset in ``directory`` as numpy arrays (every shard, in order)."""
    parts = list(shards(directory))
    if not parts:
        raise FileNotFoundError(f"{directory}: no shards")
    return Dataset(
        np.concatenate([p.boards for p in parts]),
        np.concatenate([p.distances for p in parts]),
        np.concatenate([p.source for p in parts]),
    )
