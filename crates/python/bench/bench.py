"""The figures of the Python package (issue 22), measured in one run on one machine.

    python crates/python/bench/bench.py [--quick] [--skip-slidingpuzzle] [--json FILE]

- ``heuristic(boards, "manhattan")`` on 1,000,000 random 4x4 boards (target: at most 0.2 s);
- ``distances`` on 100,000 random 3x3 boards (target: at most 0.2 s);
- optimal 15-puzzle labels a second on every core with the strongest pattern database in
  the cache (target: at least 500 boards a second on 2 cores with the 7-8 one: build it
  first with ``npuzzle pdb build --partition 7-8 --goal blank-first`` or
  ``npuzzle.build_database("4x4")``); also states labelled a second by ``optimal_paths``;
- against ``slidingpuzzle`` (PyPI) on the same 100 random 3x3 boards, A* with Manhattan
  (target: at least 100x faster, the same lengths);
- the vector environment's steps a second on 1,024 4x4 boards.

Each figure is the best of a few repetitions (the first, which builds tables, is not
counted). ``--quick`` shrinks the workloads for a smoke test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Callable

import numpy as np

import npuzzle


def best_of(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    fn()  # warm: tables, pools
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def bench_heuristic(n: int) -> dict[str, Any]:
    boards = npuzzle.scramble("4x4", n, seed=1)
    seconds, _ = best_of(lambda: npuzzle.heuristic(boards, "manhattan"))
    lc, _ = best_of(lambda: npuzzle.heuristic(boards, "linear-conflict"))
    return {"boards": n, "manhattan_s": seconds, "linear_conflict_s": lc, "target_s": 0.2}


def bench_distances(n: int) -> dict[str, Any]:
    boards = npuzzle.scramble("3x3", n, seed=2)
    seconds, d = best_of(lambda: npuzzle.distances(boards))
    assert (d >= 0).all()
    return {"boards": n, "seconds": seconds, "target_s": 0.2}


def bench_15_puzzle(n: int) -> dict[str, Any]:
    from npuzzle import _native  # noqa: F401  (the package's database lookup is internal)

    boards = npuzzle.scramble("4x4", n, seed=3, goal="blank-first")
    # Warm: loads (or builds) the database once, and readies it for batches (a batch of 64
    # boards or more copies the mapped table into memory once per process).
    npuzzle.distances(boards[:64], "blank-first")
    seconds, d = best_of(lambda: npuzzle.distances(boards, "blank-first"))
    t = time.perf_counter()
    states, dist, _ = npuzzle.optimal_paths(boards[: max(1, n // 4)], "blank-first")
    path_seconds = time.perf_counter() - t
    pdbs = sorted(f for f in os.listdir(npuzzle.cache_dir()) if f.startswith("4x4")) if os.path.isdir(npuzzle.cache_dir()) else []
    return {
        "boards": n,
        "seconds": seconds,
        "boards_per_second": n / seconds,
        "mean_distance": float(d.mean()),
        "cores": os.cpu_count(),
        "databases_in_cache": pdbs,
        "path_states": int(len(states)),
        "path_states_per_second": len(states) / path_seconds,
        "target_boards_per_second": 500,
    }


def bench_slidingpuzzle(n: int) -> dict[str, Any]:
    try:
        import slidingpuzzle as sp
    except ImportError:
        return {"skipped": "pip install slidingpuzzle"}
    boards = npuzzle.scramble("3x3", n, seed=4)
    ours_s, ours = best_of(lambda: npuzzle.solve_many(boards, algorithm="astar", heuristic="manhattan", threads=1))
    ours_all_s, _ = best_of(lambda: npuzzle.solve_many(boards, algorithm="astar", heuristic="manhattan"))
    # slidingpuzzle: boards as numpy arrays, blank 0, goal 1..8 then the blank (ours too).
    theirs_lengths = []
    t = time.perf_counter()
    for b in boards:
        result = sp.search(np.array(b, dtype=np.int64), "a*", heuristic=sp.manhattan_distance)
        theirs_lengths.append(len(result.solution))
    theirs_s = time.perf_counter() - t
    ours_lengths = [s.length for s in ours]
    return {
        "boards": n,
        "npuzzle_s_one_core": ours_s,
        "npuzzle_s_all_cores": ours_all_s,
        "slidingpuzzle_s": theirs_s,
        "speedup_one_core": theirs_s / ours_s,
        "same_lengths": ours_lengths == theirs_lengths,
        "slidingpuzzle_version": getattr(sp, "__version__", "?"),
        "target_speedup": 100,
    }


def bench_vector(n: int, steps: int) -> dict[str, Any]:
    from npuzzle.gym import SlidingPuzzleVectorEnv

    env = SlidingPuzzleVectorEnv(num_envs=n, size="4x4")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 4, size=(steps, n))
    env.step(actions[0])
    t = time.perf_counter()
    for a in actions:
        env.step(a)
    seconds = time.perf_counter() - t
    return {
        "boards": n,
        "calls": steps,
        "calls_per_second": steps / seconds,
        "board_steps_per_second": steps * n / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small workloads (a smoke test)")
    parser.add_argument("--skip-slidingpuzzle", action="store_true")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    q = args.quick
    figures: dict[str, Any] = {
        "python": sys.version.split()[0],
        "heuristic_4x4": bench_heuristic(10_000 if q else 1_000_000),
        "distances_3x3": bench_distances(1_000 if q else 100_000),
        "optimal_15_puzzle": bench_15_puzzle(20 if q else 2_000),
    }
    if not args.skip_slidingpuzzle:
        figures["vs_slidingpuzzle"] = bench_slidingpuzzle(10 if q else 100)
    figures["vector_env_4x4"] = bench_vector(1024, 100 if q else 2_000)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
