"""The Gymnasium environments: check_env, the vector environment, and the moves' meaning."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import npuzzle
import npuzzle.gym
from npuzzle.gym import SlidingPuzzleEnv, SlidingPuzzleVectorEnv


@pytest.mark.parametrize("size", ["2x2", "3x3", "4x4", "5x3"])
@pytest.mark.parametrize("goal", ["blank-last", "snail"])
def test_check_env_passes_without_a_warning(size, goal):
    env = gymnasium.make("SlidingPuzzle-v0", size=size, goal=goal, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_made_by_id_with_a_time_limit():
    env = gymnasium.make("npuzzle.gym:SlidingPuzzle-v0", size="3x3", walk=3, max_episode_steps=7)
    obs, info = env.reset(seed=3)
    assert obs.shape == (3, 3) and obs.dtype == np.uint8
    assert 0 < info["distance"] <= 3
    for _ in range(7):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    assert terminated or truncated


def test_actions_are_tile_directions_and_an_optimal_policy_solves():
    env = SlidingPuzzleEnv(size="3x3")
    obs, info = env.reset(seed=5, options={"board": "8 6 7/2 5 4/3 0 1"})
    assert info["distance"] == 31
    assert info["action_mask"].tolist() == [False, True, True, True]
    solution = npuzzle.solve("8 6 7/2 5 4/3 0 1")
    total = 0.0
    for k, letter in enumerate(solution.moves):
        obs, reward, terminated, truncated, info = env.step(npuzzle.MOVES.index(letter))
        total += reward
        assert npuzzle.Board(obs) == solution.states()[k + 1]
        assert info["distance"] == 30 - k
        assert terminated == (k == 30)
    assert total == -31


def test_illegal_actions_leave_the_board():
    env = SlidingPuzzleEnv(size="3x3")
    env.reset(options={"board": "1 2 3/4 5 6/7 0 8"})
    before = env.board
    _, reward, terminated, _, info = env.step(0)  # U: no tile below the blank
    assert env.board == before and reward == -1 and not terminated
    assert not info["action_mask"][0]
    with pytest.raises(npuzzle.InvalidOptionError):
        env.step(4)


def test_reset_is_reproducible():
    env = SlidingPuzzleEnv(size="4x4")
    a, _ = env.reset(seed=42)
    b, _ = env.reset(seed=42)
    c, _ = env.reset()
    assert (a == b).all() and not (a == c).all()
    assert "distance" not in env.reset(seed=1)[1]
    exact = SlidingPuzzleEnv(size="4x4", walk=20, exact_distance=True)
    _, info = exact.reset(seed=1)
    assert info["distance"] == npuzzle.distances([exact.board])[0]


def test_vector_env_steps_many_boards_like_boards_do():
    envs = gymnasium.make_vec("SlidingPuzzle-v0", num_envs=64, size="3x3")
    assert isinstance(envs.unwrapped, SlidingPuzzleVectorEnv)
    obs, infos = envs.reset(seed=7)
    assert obs.shape == (64, 3, 3) and infos["action_mask"].shape == (64, 4)
    assert (infos["distance"] == npuzzle.distances(obs)).all()
    rng = np.random.default_rng(1)
    for _ in range(50):
        actions = rng.integers(0, 4, size=64)
        before = obs.copy()
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i in range(64):
            if rewards[i] == 0:  # reset after an episode's end
                continue
            board = npuzzle.Board(before[i])
            letter = npuzzle.MOVES[actions[i]]
            expected = board.apply(letter) if letter in board.moves() else board
            assert npuzzle.Board(obs[i]) == expected
            assert terminated[i] == (expected == npuzzle.goal("3x3"))
        assert (infos["distance"] == npuzzle.distances(obs)).all()
    envs.close()


def test_vector_env_autoresets_on_the_next_step():
    env = SlidingPuzzleVectorEnv(num_envs=2, size="2x2", max_episode_steps=3)
    env.reset(seed=0)
    env.boards.set_boards(["1 2/0 3", "1 2/0 3"])
    obs, rewards, terminated, truncated, _ = env.step([2, 0])  # L solves; U is illegal
    assert terminated.tolist() == [True, False] and rewards.tolist() == [-1, -1]
    obs, rewards, terminated, truncated, _ = env.step([0, 0])
    assert rewards.tolist() == [0, -1]  # the first board was dealt anew
    obs, rewards, terminated, truncated, _ = env.step([0, 0])
    assert truncated.tolist() == [False, True]
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
