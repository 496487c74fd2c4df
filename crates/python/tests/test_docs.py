"""The examples in the docstrings run and give what they say."""

from __future__ import annotations

import doctest

import pytest

import npuzzle
import npuzzle.datasets
import npuzzle.errors
import npuzzle.gym
from npuzzle import _native


def examples() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    found = []
    for module in [npuzzle, npuzzle.errors, npuzzle.gym, npuzzle.datasets]:
        found += finder.find(module, globs={"npuzzle": npuzzle})
    for name in dir(_native):
        obj = getattr(_native, name)
        if ">>>" in (getattr(obj, "__doc__", None) or ""):
            found += finder.find(obj, name, globs={"npuzzle": npuzzle})
    return [t for t in found if t.examples]


@pytest.mark.parametrize("test", examples(), ids=lambda t: t.name)
def test_docstring_examples(test, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the datasets example writes ./data
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, test.name


def test_there_are_examples():
    assert len(examples()) >= 15
