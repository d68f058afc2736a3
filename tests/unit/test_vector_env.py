"""The vectorized environment against the rules engine (arena.rules.board) over random games:
the same legal moves, observations, rewards and terminations, move by move; its opponents
against the agents they stand for."""

from __future__ import annotations

import numpy as np
import pytest

from arena.envs.vector import VectorEnv, parse_opponent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError
from connect_four_agents.negamax import NegamaxAgent

BOARDS = 64


def planes_of(position: Position) -> np.ndarray:
    """The documented encoding, from the rules engine: side to move's discs, then the other's,
    row 0 at the top."""
    rules = position.rules
    planes = np.zeros((2, rules.rows, rules.cols), dtype=np.int8)
    mover = position.side_to_move
    for col in range(rules.cols):
        for row in range(rules.rows):
            owner = position.cell(col, row)
            if owner:
                planes[0 if owner == mover else 1, rules.rows - 1 - row, col] = 1
    return planes


def check_board(env: VectorEnv, i: int, position: Position) -> None:
    assert env.positions()[i] == position
    assert np.array_equal(env.observations[i], planes_of(position))
    legal = [c for c in range(position.rules.cols) if env.action_masks[i, c]]
    assert legal == position.legal_moves()


def replay_step(env: VectorEnv, i: int, position: Position, action: int,
                self_play: bool) -> Position:
    """Follow board ``i``'s step with the rules engine; the position after it."""
    reward, done = 0.0, False
    if not position.can_play(action):
        assert env.illegal[i]
        reward, done = -1.0, True
    else:
        assert not env.illegal[i]
        position = position.play(action)
        if position.won:
            reward, done = 1.0, True
        elif position.is_full:
            done = True
        elif not self_play:
            reply = int(env.replies[i])
            assert position.can_play(reply)
            position = position.play(reply)
            if position.won:
                reward, done = -1.0, True
            done = done or position.is_full
    if self_play:
        assert env.replies[i] == -1
    assert env.rewards[i] == reward
    assert env.terminated[i] == done
    if done:
        position = Position.empty(position.rules)
        if env.openings[i] != -1:
            position = position.play(int(env.openings[i]))
    else:
        assert env.openings[i] == -1
    return position


def follow_random_games(rules: Rules, opponent: str, boards: int, steps: int) -> None:
    """Step ``boards`` boards ``steps`` times with random columns (now and then an illegal
    one), each step checked against the rules engine."""
    env = VectorEnv(boards, opponent=opponent, rules=rules, seed=7)
    env.reset()
    positions = [Position.empty(rules) if env.openings[i] == -1
                 else Position.empty(rules).play(int(env.openings[i])) for i in range(boards)]
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(steps):
        for i in range(boards):
            check_board(env, i, positions[i])
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in env.action_masks])
        wrong = rng.random(boards) < 0.02  # now and then a full or missing column
        actions[wrong] = rng.integers(-1, rules.cols + 1, wrong.sum())
        env.step(actions)
        for i in range(boards):
            positions[i] = replay_step(env, i, positions[i], int(actions[i]),
                                       opponent == "self")
        ends += int(env.terminated.sum())
    assert ends > boards  # many games ended and started again


def test_steps_follow_the_rules_engine() -> None:
    follow_random_games(Rules(), "random", boards=12, steps=60)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "opponent"), [
    (Rules(), "random"), (Rules(), "self"), (Rules(), "immediate-win"),
    (Rules(5, 4, 3), "random"), (Rules(7, 8, 5), "self"), (Rules(4, 9, 4), "negamax:depth=2"),
])
def test_many_games_follow_the_rules_engine(rules: Rules, opponent: str) -> None:
    follow_random_games(rules, opponent, boards=BOARDS, steps=200)


def test_wins_draws_losses_and_illegal_columns_all_occur() -> None:
    env = VectorEnv(256, seed=1)
    env.reset()
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(100):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks])
        actions[:2] = 7  # out of range: illegal
        env.step(actions)
        seen |= {(float(r), bool(t)) for r, t in zip(env.rewards, env.terminated, strict=True)}
        assert env.illegal[:2].all() and not env.illegal[2:].any()
    assert seen >= {(1.0, True), (-1.0, True), (0.0, False)}


def test_immediate_win_opponent_takes_every_win() -> None:
    env = VectorEnv(BOARDS, opponent="immediate-win", first="learner", seed=2)
    env.reset()
    rng = np.random.default_rng(5)
    took = 0
    for _ in range(100):
        before = env.positions()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks])
        env.step(actions)
        for i, position in enumerate(before):
            after_learner = position.play(int(actions[i]))
            if env.replies[i] != -1 and after_learner.winning_moves():
                assert int(env.replies[i]) in after_learner.winning_moves()
                took += 1
    assert took > 10


def test_negamax_opponent_plays_a_best_move_of_the_negamax_agent() -> None:
    env = VectorEnv(32, opponent="negamax:depth=3", first="learner", seed=4)
    env.reset()
    agent = NegamaxAgent(depth=3)
    rng = np.random.default_rng(8)
    for _ in range(12):
        before = env.positions()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks])
        env.step(actions)
        for i, position in enumerate(before):
            if env.replies[i] != -1:
                scores = agent.root_scores(position.play(int(actions[i])))
                best = max(scores.values())
                assert scores[int(env.replies[i])] == best


def test_opponent_moves_first_as_asked() -> None:
    env = VectorEnv(200, first="opponent", seed=3)
    env.reset()
    assert (env.openings >= 0).all()
    assert all(p.plies == 1 for p in env.positions())
    env = VectorEnv(200, first="either", seed=3)
    env.reset()
    assert 60 < int((env.openings >= 0).sum()) < 140


def test_a_seed_repeats_the_games() -> None:
    runs = []
    for _ in range(2):
        env = VectorEnv(16, opponent="immediate-win", seed=11)
        env.reset()
        for _ in range(30):
            env.step(np.full(16, 3))
        runs.append((env.current.copy(), env.mask.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


@pytest.mark.parametrize("text", ["negamax", "negamax:depth=0", "mcts", "random:x=1", "self:1"])
def test_unknown_opponents_are_refused(text: str) -> None:
    with pytest.raises(AgentSpecError, match="expected one of random, immediate-win"):
        parse_opponent(text)


def test_actions_of_the_wrong_shape_are_refused() -> None:
    env = VectorEnv(4, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(np.zeros(3, dtype=np.int64))
