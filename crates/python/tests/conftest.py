"""Shared fixtures: the command-line binary (for comparisons) and a pattern-database cache
of the test run's own (never the user's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Before npuzzle looks for a database: the CLI and the package share this cache.
os.environ.setdefault("NPUZZLE_CACHE", str(Path(tempfile.gettempdir()) / "npuzzle-pytest-cache"))


def _find_cli() -> str | None:
    given = os.environ.get("NPUZZLE_BIN")
    if given:
        return given
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "npuzzle"
        if candidate.exists():
            return str(candidate)
    return shutil.which("npuzzle")


@pytest.fixture(scope="session")
def cli() -> str:
    """The path of the `npuzzle` binary; scripts/test sets NPUZZLE_BIN."""
    path = _find_cli()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no npuzzle binary: set NPUZZLE_BIN")
        pytest.skip("no npuzzle binary (build it with cargo build, or set NPUZZLE_BIN)")
    if not Path(path).exists():
        pytest.fail(f"NPUZZLE_BIN={path} does not exist")
    return path


def run_cli(cli: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the binary with the test run's cache."""
    return subprocess.run(
        [cli, *args], input=stdin, capture_output=True, text=True, timeout=600, env=os.environ.copy()
    )
