"""The MCTS agent: playouts against exact random-play odds, the tree, tactics, budgets."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from arena.protocol.agent import GameStart, Limit
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError, IllegalMoveError
from arena.rules.notation import from_moves
from arena.rules.results import Termination
from arena.runs.playing.game import play_game
from arena.search.kernels import mcts as kernels
from arena.search.kernels.bitboard import board_array
from connect_four_agents import mcts as mcts_module
from connect_four_agents.budget import PLANNED_SHARE
from connect_four_agents.mcts import MCTSAgent
from tests.helpers.positions import (
    EXTREME_RULES,
    blocking_positions,
    random_positions,
    winning_positions,
)

STANDARD = Rules()
SMALL = Rules(rows=3, cols=4, connect=3)


def exact_odds(position: Position, take_wins: bool) -> tuple[Fraction, Fraction, Fraction]:
    """Exact win, draw and loss chances of the side to move when both sides play uniformly
    random legal columns (with ``take_wins``, a side that can win at once does)."""

    @cache
    def odds(node: Position) -> tuple[Fraction, Fraction, Fraction]:
        moves = node.legal_moves()
        if take_wins and node.winning_moves():
            return Fraction(1), Fraction(0), Fraction(0)
        total = [Fraction(0)] * 3
        for column in moves:
            child = node.play(column)
            if child.won:
                result = (Fraction(1), Fraction(0), Fraction(0))
            elif child.is_terminal:
                result = (Fraction(0), Fraction(1), Fraction(0))
            else:
                loss, draw, win = odds(child)  # the child's side to move is the other player
                result = (win, draw, loss)
            total = [t + r / len(moves) for t, r in zip(total, result, strict=True)]
        return total[0], total[1], total[2]

    return odds(position)


def playouts(position: Position, games: int, take_wins: bool, seed: int) -> np.ndarray:
    state = np.array([seed], dtype=np.uint64)
    return kernels.playout_results(np.uint64(position.current), np.uint64(position.mask), games,
                                   take_wins, state, board_array(position.rules))


@pytest.mark.parametrize("take_wins", [False, True])
@pytest.mark.parametrize("moves", ["", "2", "2312"])
def test_playouts_follow_the_exact_odds_of_random_play(moves: str, take_wins: bool) -> None:
    position = from_moves(moves, SMALL)
    expected = np.array([float(p) for p in exact_odds(position, take_wins)])
    games = 40_000
    counts = playouts(position, games, take_wins, seed=len(moves) + take_wins)
    spread = np.sqrt(expected * (1 - expected) / games)
    assert np.all(np.abs(counts / games - expected) <= 4.5 * spread + 1e-12), (counts, expected)


def test_exact_odds_tell_the_rollouts_apart() -> None:
    position = Position.empty(SMALL)
    assert exact_odds(position, False) != exact_odds(position, True)


def test_a_playout_takes_a_win_when_told_to() -> None:
    position = from_moves("445566")  # x can win in columns 3 and 7
    assert playouts(position, 500, True, seed=1).tolist() == [500, 0, 0]
    assert playouts(position, 500, False, seed=1)[2] > 0  # random play lets o win sometimes


# --- the tree --------------------------------------------------------------------------


def grow_tree(position: Position, sizes: list[int], capacity: int = 5000, seed: int = 3,
              ) -> tuple[tuple[np.ndarray, ...], int]:
    tree = kernels.new_tree(capacity, position.rules.cols)
    packed = board_array(position.rules)
    kernels.set_root(*tree, np.uint64(position.current), np.uint64(position.mask), packed)
    state, count = np.array([seed], dtype=np.uint64), 1
    for size in sizes:
        count, done = kernels.search(*tree, count, size, 1.4, False, state, packed)
        assert done == size
    return tree, count


def test_visits_add_up_through_the_tree() -> None:
    position = from_moves("4453")
    (positions, links, tallies), count = grow_tree(position, [3000])
    visits, reward = tallies[:count, kernels.VISITS], tallies[:count, kernels.REWARD]
    assert visits[0] == 3000
    assert np.all((reward >= 0) & (reward <= visits))
    terminal = 0
    for node in range(count):
        children = [c for c in links[node, kernels.CHILDREN:] if c >= 0]
        if links[node, kernels.STATUS] != kernels.ONGOING:  # visited again and again
            assert not children and positions[node, kernels.UNTRIED] == 0
            terminal += 1
            continue
        expanded = 0 if node == 0 else 1  # the iteration that added the node
        assert visits[node] == expanded + sum(visits[c] for c in children)
        legal = Position(position.rules, int(positions[node, kernels.CUR]),
                         int(positions[node, kernels.MASK])).legal_moves()
        untried = bin(int(positions[node, kernels.UNTRIED])).count("1")
        assert untried + len(children) == len(legal)
    assert terminal > 0


def test_a_search_in_batches_is_the_search_in_one_go() -> None:
    position = from_moves("43")
    whole, count = grow_tree(position, [2000])
    parts, count_parts = grow_tree(position, [1, 499, 700, 800])
    assert count == count_parts
    for a, b in zip(whole, parts, strict=True):
        assert np.array_equal(a, b)


def test_a_full_tree_stops_the_kernel_and_grows() -> None:
    tree = kernels.new_tree(10, 7)
    packed = board_array(STANDARD)
    kernels.set_root(*tree, np.uint64(0), np.uint64(0), packed)
    count, done = kernels.search(*tree, 1, 100, 1.4, False, np.array([1], np.uint64), packed)
    assert (count, done) == (10, 9)
    bigger = kernels.grown(tree, 200)
    assert all(np.array_equal(a[:10], b[:10]) for a, b in zip(tree, bigger, strict=True))
    assert bigger[1][10:].min() == -1 and not bigger[2][10:].any()


def test_a_small_first_tree_gives_the_same_move(monkeypatch: pytest.MonkeyPatch) -> None:
    position = from_moves("4453")
    first = MCTSAgent(iterations=3000).choose(position, np.random.default_rng(5))
    monkeypatch.setattr(mcts_module, "INITIAL_CAPACITY", 8)
    assert MCTSAgent(iterations=3000).choose(position, np.random.default_rng(5)) == first


# --- the agent -------------------------------------------------------------------------


@pytest.mark.parametrize("rollout", ["random", "immediate-win"])
def test_takes_an_immediate_win_and_blocks_a_single_threat(rollout: str) -> None:
    agent = MCTSAgent(iterations=2000, rollout=rollout)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    for position in winning_positions(10):
        choice = agent.choose(position, rng)
        assert choice.column in position.winning_moves()
        assert choice.score == 1.0
    for position, block in blocking_positions(10):
        assert agent.choose(position, rng).column == block, position.describe()


def test_choice_reports_playouts_visit_share_and_value() -> None:
    choice = MCTSAgent(iterations=500).choose(from_moves("4453"), np.random.default_rng(0))
    assert choice.playouts == 500
    assert choice.nodes is not None and 1 < choice.nodes <= 501
    assert choice.visit_share is not None and 1 / 7 <= choice.visit_share <= 1
    assert choice.score is not None and 0 <= choice.score <= 1


def test_same_seed_same_search_other_seed_other_search() -> None:
    position = from_moves("4453")
    agent = MCTSAgent(iterations=800)
    a, b = (agent.choose(position, np.random.default_rng(7)) for _ in range(2))
    assert a == b
    others = {agent.choose(position, np.random.default_rng(s)).score for s in range(4)}
    assert len(others) > 1


def test_enough_iterations_find_the_centre_opening() -> None:
    choice = MCTSAgent(iterations=20_000).choose(Position.empty(STANDARD),
                                                np.random.default_rng(1))
    assert choice.column == 3
    assert choice.visit_share is not None and choice.visit_share > 0.5


def test_limit_nodes_caps_the_iterations() -> None:
    agent = MCTSAgent(iterations=1000)
    agent.new_game(GameStart(STANDARD, 1, Limit(nodes=300)))
    assert agent.choose(Position.empty(STANDARD), np.random.default_rng(0)).playouts == 300


class SearchClock:
    """A clock for the mcts agent's ``perf_counter`` that every iteration advances by 10 µs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 50.0
        search = kernels.search

        def timed(*arguments: object) -> tuple[int, int]:
            count, done = search(*arguments)  # type: ignore[arg-type]
            self.now += done * 1e-5
            return count, done

        monkeypatch.setattr(mcts_module, "perf_counter", lambda: self.now)
        monkeypatch.setattr(kernels, "search", timed)


@pytest.mark.parametrize(("own", "limit", "budget"), [(0.05, None, 0.05), (None, 0.02, 0.02),
                                                      (0.5, 0.03, 0.03)])
def test_timed_moves_stay_within_their_share(monkeypatch: pytest.MonkeyPatch, own: float | None,
                                             limit: float | None, budget: float) -> None:
    clock = SearchClock(monkeypatch)
    agent = MCTSAgent(iterations=1_000_000, time=own)
    agent.new_game(GameStart(STANDARD, 1, Limit(time=limit)))
    start = clock.now
    choice = agent.choose(from_moves("4453"), np.random.default_rng(0))
    assert clock.now - start <= PLANNED_SHARE * budget + 1e-9
    assert choice.playouts is not None
    assert choice.playouts >= 0.5 * PLANNED_SHARE * budget / 1e-5  # it used the time
    assert agent.reproducible == (own is None)


def test_a_game_time_limit_only_cuts_a_long_search_short(monkeypatch: pytest.MonkeyPatch) -> None:
    SearchClock(monkeypatch)
    agent = MCTSAgent(iterations=500)
    agent.new_game(GameStart(STANDARD, 1, Limit(time=1.0)))
    assert agent.choose(from_moves("4453"), np.random.default_rng(0)).playouts == 500


@pytest.mark.parametrize("rules", EXTREME_RULES, ids=str)
def test_plays_whole_games_on_every_board(rules: Rules) -> None:
    players = [make_agent("mcts:iterations=200"), make_agent("random")]
    outcome = play_game(players, [np.random.default_rng(0), np.random.default_rng(1)],
                        Position.empty(rules))
    assert outcome.termination in (Termination.FOUR_IN_A_ROW, Termination.BOARD_FULL), \
        outcome.error


def test_beats_random_play() -> None:
    players = [make_agent("mcts:iterations=300"), make_agent("random")]
    wins = 0
    for seed in range(10):
        order = players if seed % 2 == 0 else players[::-1]
        outcome = play_game(order, [np.random.default_rng(seed)] * 2, Position.empty(STANDARD))
        wins += outcome.winner == (1 if seed % 2 == 0 else 2)
    assert wins >= 9


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:iterations=0", "iterations must be a whole number >= 1"),
    ("mcts:c=-1", "c must be a number >= 0"),
    ("mcts:c=nan", "c must be a number >= 0"),
    ("mcts:time=0", "positive number of seconds"),
    ("mcts:rollout=smart", "must be one of random, immediate-win"),
])
def test_bad_parameters_are_reported(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="already over"):
        MCTSAgent().choose(from_moves("1212121"), np.random.default_rng(0))


def test_random_positions_are_searched_legally() -> None:
    agent = MCTSAgent(iterations=100)
    for position in random_positions(Rules(rows=5, cols=6, connect=4), 20, seed=3):
        assert position.can_play(agent.choose(position, np.random.default_rng(0)).column)
