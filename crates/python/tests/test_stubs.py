"""The type stubs name everything the extension module exports, and the package's
public names are documented."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import npuzzle
from npuzzle import _native

STUB = Path(npuzzle.__file__).with_name("_native.pyi")


def stub_names() -> dict[str, set[str]]:
    tree = ast.parse(STUB.read_text())
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return names


def test_every_export_has_a_stub():
    stubs = stub_names()
    exported = {n for n in dir(_native) if not n.startswith("_")}
    assert exported <= set(stubs), exported - set(stubs)
    for name in exported:
        obj = getattr(_native, name)
        if inspect.isclass(obj):
            public = {n for n in vars(obj) if not n.startswith("_")}
            assert public <= stubs[name], (name, public - stubs[name])


def test_public_names_are_documented():
    for name in npuzzle.__all__:
        obj = getattr(npuzzle, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__) > 20, name
    assert Path(npuzzle.__file__).with_name("py.typed").exists()
