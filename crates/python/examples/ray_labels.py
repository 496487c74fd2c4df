"""Label boards on a Ray cluster, with exactly the answers of ``npuzzle.solve_many``.

npuzzle's objects pickle (``Board``, ``Solution``), so a Ray task can take boards and return
solutions. Each task solves its chunk with ``solve_many`` on the cores Ray gives it (one
thread a task, Ray running as many tasks as there are CPUs); the chunks are put back in
order. On a cluster, ``ray.init(address="auto")`` instead of a local ``ray.init``.

Run it: ``python crates/python/examples/ray_labels.py`` (``pip install ray`` first).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import ray

import npuzzle


@ray.remote
def solve_chunk(boards: np.ndarray, goal: Any) -> list[npuzzle.Solution]:
    """One task: a chunk of boards, solved on one core."""
    return npuzzle.solve_many(boards, goal, threads=1)


@ray.remote
def distances_chunk(boards: np.ndarray, goal: Any) -> np.ndarray:
    """One task: the exact distances of a chunk of boards, on one core."""
    return npuzzle.distances(boards, goal, threads=1)


def solve(boards: np.ndarray, goal: Any = None, chunks: int = 8) -> list[npuzzle.Solution]:
    """``npuzzle.solve_many(boards, goal)``, on Ray: chunks of boards as remote tasks."""
    parts = np.array_split(boards, max(1, min(chunks, len(boards))))
    refs = [solve_chunk.remote(part, goal) for part in parts]
    return [s for part in ray.get(refs) for s in part]


def distances(boards: np.ndarray, goal: Any = None, chunks: int = 8) -> np.ndarray:
    """``npuzzle.distances(boards, goal)``, on Ray."""
    parts = np.array_split(boards, max(1, min(chunks, len(boards))))
    return np.concatenate(ray.get([distances_chunk.remote(part, goal) for part in parts]))


def main() -> None:
    ray.init(num_cpus=2, include_dashboard=False)
    boards = npuzzle.scramble("3x3", count=10_000, seed=1)
    labels = distances(boards)
    assert (labels == npuzzle.distances(boards)).all()
    solutions = solve(boards[:1000])
    assert [s.moves for s in solutions] == [s.moves for s in npuzzle.solve_many(boards[:1000])]
    print(f"{len(boards)} boards labelled on Ray; mean distance {labels.mean():.2f}")
    ray.shutdown()


if __name__ == "__main__":
    main()
