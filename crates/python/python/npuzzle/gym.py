"""Gymnasium environments: ``SlidingPuzzle-v0`` and a native vector environment.

Importing this module registers ``SlidingPuzzle-v0`` (or name the module in the id:
``gymnasium.make("npuzzle.gym:SlidingPuzzle-v0")``). It needs ``gymnasium``
(``pip install gymnasium``).

The environment, for any size (``size="3x3"``, ``"4x4"``, ``"5x3"``, ...) and goal:

- **observation**: the board, an integer array ``(height, width)`` with ``0`` the blank
  (``uint8`` up to 256 cells, ``uint16`` above), as everywhere in npuzzle;
- **actions**: ``Discrete(4)``, the direction the **tile** moves, as on the command line:
  ``0 U, 1 D, 2 L, 3 R`` (``npuzzle.MOVES[a]``). An illegal action leaves the board as it
  was. ``info["action_mask"]`` (and ``env.action_masks()``) says which are legal;
- **reward**: ``-1`` a step, so the return is minus the number of moves;
- **termination**: the board is the goal; **truncation**: ``max_episode_steps`` (200
  unless given to ``gymnasium.make``);
- **start**: a uniformly random board that can reach the goal, or ``walk=k`` random moves
  from it (a curriculum);
- ``info["distance"]``: the optimal distance to the goal, where it is exact and cheap:
  always on boards of at most 9 cells (a table lookup); with ``exact_distance=True``
  on boards of up to 16 cells (an optimal solve a step, milliseconds with the pattern
  databases).

``SlidingPuzzleVectorEnv`` steps ``num_envs`` boards in one call of the native library
(``gymnasium.make_vec("SlidingPuzzle-v0", num_envs=1024)`` makes it), with Gymnasium's
default next-step autoreset: the step after an episode ends resets that board (reward 0,
neither flag set) and ignores its action.

>>> import gymnasium, npuzzle.gym
>>> env = gymnasium.make("SlidingPuzzle-v0", size="3x3")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].tolist(), info["distance"] > 0
((3, 3), [...], True)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
>>> reward
-1.0
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import npuzzle

from ._native import Boards

__all__ = ["SlidingPuzzleEnv", "SlidingPuzzleVectorEnv", "ENV_ID"]

ENV_ID = "SlidingPuzzle-v0"
"""The id this module registers."""

_DEFAULT_MAX_STEPS = 200


def _dtype(cells: int) -> type:
    return np.uint8 if cells <= 256 else np.uint16


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))


class SlidingPuzzleEnv(gymnasium.Env):
    """One sliding-tile board as a Gymnasium environment (see the module docs).

    Args:
        size: ``"WxH"`` (``"3x3"``, ``"4x4"``), a side, or ``(width, height)``.
        goal: ``"blank-last"`` (default), ``"blank-first"``, ``"snail"`` or a board.
        walk: start ``walk`` random moves from the goal instead of uniformly at random.
        exact_distance: put the optimal distance in ``info`` on boards of 10 to 16 cells
            too (an optimal solve each step); boards of at most 9 cells always have it.
        render_mode: ``"ansi"`` (``render()`` returns the grid) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        size: Any = "3x3",
        goal: Any = None,
        walk: int | None = None,
        exact_distance: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise npuzzle.InvalidOptionError(
                f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self._goal = npuzzle.goal(size, goal)
        self._boards = Boards(1, size, self._goal, seed=0, walk=walk)
        h, w = self._goal.shape
        cells = h * w
        self._exact = cells <= 9 or (exact_distance and cells <= 16)
        self.observation_space = spaces.Box(0, cells - 1, shape=(h, w), dtype=_dtype(cells))
        self.action_space = spaces.Discrete(4)

    @property
    def goal(self) -> npuzzle.Board:
        """The goal board."""
        return self._goal

    @property
    def board(self) -> npuzzle.Board:
        """The current board."""
        return npuzzle.Board(self._boards.observations()[0])

    def action_masks(self) -> np.ndarray:
        """Which actions (``U D L R``) are legal now: a ``bool`` array of 4."""
        return self._boards.action_masks()[0]

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self._exact:
            d = self._boards.distances()
            if d is None:
                d = npuzzle.distances(self._boards.observations(), self._goal, threads=1)
            info["distance"] = int(d[0])
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new board; ``options={"board": ...}`` starts from a given one."""
        super().reset(seed=seed)
        self._boards.reset(_seed(self.np_random))
        if options and options.get("board") is not None:
            self._boards.set_boards([npuzzle.Board(options["board"])])
        return self._boards.observations()[0], self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Slides a tile: ``action`` is 0 U, 1 D, 2 L or 3 R (the tile's direction)."""
        if not self.action_space.contains(action) and not (
            isinstance(action, (int, np.integer)) and 0 <= int(action) < 4
        ):
            raise npuzzle.InvalidOptionError(
                f"action {action!r}: actions are 0 to 3 (U, D, L, R: the tile's direction)"
            )
        obs, reward, terminated, _ = self._boards.step(np.array([int(action)], dtype=np.int64))
        if self.render_mode == "human":
            print(self.render_text())
        return obs[0], float(reward[0]), bool(terminated[0]), False, self._info()

    def render_text(self) -> str:
        """The board as a grid, the blank shown as ``.``."""
        return self.board.grid()

    def render(self) -> str | None:  # type: ignore[override]
        """``"ansi"``: the grid as a string; ``"human"``: printed."""
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "human":
            print(self.render_text())
        return None


class SlidingPuzzleVectorEnv(VectorEnv):
    """``num_envs`` boards stepped together by the native library (see the module docs).

    Observations are ``(num_envs, height, width)``; actions an integer array of
    ``num_envs`` (``0 U, 1 D, 2 L, 3 R``); ``infos["action_mask"]`` is ``(num_envs, 4)`` and,
    on boards of at most 9 cells, ``infos["distance"]`` the optimal distances.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        num_envs: int = 1,
        size: Any = "3x3",
        goal: Any = None,
        walk: int | None = None,
        max_episode_steps: int | None = _DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
    ) -> None:
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self._goal = npuzzle.goal(size, goal)
        self._boards = Boards(
            self.num_envs, size, self._goal, seed=0, walk=walk, max_steps=max_episode_steps
        )
        h, w = self._goal.shape
        cells = h * w
        self.single_observation_space = spaces.Box(
            0, cells - 1, shape=(h, w), dtype=_dtype(cells)
        )
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    @property
    def boards(self) -> Boards:
        """The native boards (``set_boards`` puts given boards in place)."""
        return self._boards

    def action_masks(self) -> np.ndarray:
        """Which actions are legal on each board: ``bool`` ``(num_envs, 4)``."""
        return self._boards.action_masks()

    def _infos(self) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": self._boards.action_masks()}
        d = self._boards.distances()
        if d is not None:
            infos["distance"] = d
        return infos

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals new boards (from ``seed``, when given)."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0] if seed else None
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        obs = self._boards.reset(_seed(self.np_random))
        return obs, self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Makes one move on every board."""
        obs, rewards, terminated, truncated = self._boards.step(
            np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        )
        return obs, rewards, terminated, truncated, self._infos()

    def render(self) -> tuple[str, ...] | None:
        """``"ansi"``: each board's grid."""
        if self.render_mode != "ansi":
            return None
        return tuple(npuzzle.Board(b).grid() for b in self._boards.observations())


gymnasium.register(
    id=ENV_ID,
    entry_point=SlidingPuzzleEnv,
    vector_entry_point=SlidingPuzzleVectorEnv,
    max_episode_steps=_DEFAULT_MAX_STEPS,
)
