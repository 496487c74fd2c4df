"""Datasets: shards written, read back, labels exact and falling by one a move."""

from __future__ import annotations

import numpy as np
import pytest

import npuzzle
from npuzzle import Board, datasets


def check_labels(data: datasets.Dataset, goal: str = "blank-last") -> None:
    assert (npuzzle.distances(data.boards, goal) == data.distances).all()
    for k in range(len(data.boards) - 1):
        if data.source[k] == data.source[k + 1]:
            assert data.distances[k + 1] == data.distances[k] - 1
            nxt = Board(data.boards[k + 1])
            assert nxt in [n for _, n in Board(data.boards[k]).neighbours()]
        else:
            assert data.distances[k] == 0


def test_generate_and_load_3x3(tmp_path):
    files = datasets.generate("3x3", count=250, seed=1, directory=tmp_path, shard_size=100)
    assert [f.name for f in files] == [f"shard-0000{i}-of-00003.npz" for i in range(3)]
    data = datasets.load(tmp_path)
    assert data.boards.shape[1:] == (3, 3) and data.boards.dtype == np.uint8
    assert len(np.unique(data.source)) == 250 and data.source.max() == 249
    check_labels(data)
    starts = data.boards[np.r_[0, np.flatnonzero(np.diff(data.source)) + 1]]
    assert (starts == np.concatenate([
        npuzzle.scramble("3x3", 100, seed=datasets.shard_seed(1, 0)),
        npuzzle.scramble("3x3", 100, seed=datasets.shard_seed(1, 1)),
        npuzzle.scramble("3x3", 50, seed=datasets.shard_seed(1, 2)),
    ])).all()


def test_shards_made_one_by_one_equal_the_whole(tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    datasets.generate("2x3", count=30, seed=5, directory=whole, shard_size=10)
    for i in [2, 0, 1]:  # any order, as an array job's tasks finish
        datasets.generate("2x3", count=30, seed=5, directory=parts, shard_size=10, shard=i)
    a, b = datasets.load(whole), datasets.load(parts)
    assert all((x == y).all() for x, y in zip(a, b))


def test_missing_shards_are_named(tmp_path):
    datasets.generate("2x2", count=20, seed=1, directory=tmp_path, shard_size=10, shard=1)
    with pytest.raises(FileNotFoundError, match="1 of 2 shards missing: shard-00000-of-00002.npz"):
        datasets.load(tmp_path)


def test_exact_depth(tmp_path):
    datasets.generate("3x3", count=40, seed=3, directory=tmp_path, depth=12, paths=False, goal="snail")
    data = datasets.load(tmp_path)
    assert len(data.boards) == 40 and (data.distances == 12).all()
    assert (npuzzle.distances(data.boards, "snail") == 12).all()
    with pytest.raises(npuzzle.InvalidOptionError):
        datasets.generate("2x2", count=5, seed=3, directory=tmp_path / "x", depth=40)


def test_4x4_labels(tmp_path):
    datasets.generate("4x4", count=3, seed=2, directory=tmp_path, depth=20)
    data = datasets.load(tmp_path)
    assert len(data.boards) == 3 * 21
    check_labels(data)


def test_larger_boards_are_refused(tmp_path):
    with pytest.raises(npuzzle.NotExactError):
        datasets.generate("5x5", count=1, seed=1, directory=tmp_path)
