"""The Ray example labels boards exactly as solve_many and distances do."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import npuzzle

ray = pytest.importorskip("ray")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ray_labels.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("ray_labels", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield module
    ray.shutdown()


def test_ray_matches_solve_many(example):
    boards = npuzzle.scramble("3x3", count=300, seed=17)
    on_ray = example.solve(boards, chunks=4)
    local = npuzzle.solve_many(boards)

    def strip(s: npuzzle.Solution) -> dict:
        d = s.to_dict()
        d.pop("seconds")
        return d

    assert [strip(s) for s in on_ray] == [strip(s) for s in local]


def test_ray_matches_distances(example):
    boards = npuzzle.scramble("3x3", count=5000, seed=18)
    assert (example.distances(boards) == npuzzle.distances(boards)).all()
