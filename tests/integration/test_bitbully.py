"""BitBully, an independent perfect player (the ``dev`` extra), against the exact solver on
6 x 7: the score of every column on positions from every phase of the game, and games of the
``solver`` agent against BitBully as an agent, each ending in its opening's theoretical
result."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pytest

from arena.api import match
from arena.protocol.conformance import check_agent
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.notation import format_moves, from_moves, play_moves
from arena.rules.results import Result, Side, Termination
from arena.search.solver import Solver, solve
from arena.search.table_size import MIN_TABLE_MB
from tests.helpers.paths import DATA

if TYPE_CHECKING:
    from bitbully import BitBully

pytestmark = pytest.mark.bitbully  # the dev extra; CI installs it: there, a missing one fails

BITBULLY = f"{DATA / 'bitbully_agent.py'}:BitBullyPlayer"
PHASES = ((0, 12), (13, 20), (21, 30), (31, 41))
"""Discs on the board: the database's plies and before, then three later stretches."""


def random_games(count: int, discs: tuple[int, int], seed: int) -> list[list[int]]:
    """``count`` random games of 6 x 7 stopped, before their end, after a number of discs
    drawn from ``discs`` (inclusive): their columns."""
    rng = np.random.default_rng(seed)
    games: list[list[int]] = []
    while len(games) < count:
        position, columns = from_moves(""), []
        for _ in range(int(rng.integers(discs[0], discs[1] + 1))):
            legal = position.legal_moves()
            columns.append(legal[int(rng.integers(len(legal)))])
            position = position.play(columns[-1])
            if position.is_terminal:
                break
        else:
            games.append(columns)
    return games


@pytest.fixture(scope="module")
def bitbully() -> BitBully:
    """BitBully with its default book (loaded in about a second)."""
    from bitbully import BitBully

    return BitBully()


def differing_scores(games: list[list[int]], theirs: BitBully
                     ) -> list[tuple[str, dict[int, int] | None, dict[int, int]]]:
    """The games whose last position gets other column scores from the solver than from
    BitBully: the move string, ours, BitBully's. BitBully's board is built from the columns
    played, ours from the move string."""
    from bitbully import Board

    ours = Solver(MIN_TABLE_MB)
    found = []
    for columns in games:
        moves = format_moves(columns)
        expected = theirs.score_all_moves(Board.from_moves(columns))
        scores = ours.column_scores(from_moves(moves))
        if scores != expected:
            found.append((moves, scores, expected))
    return found


def test_the_empty_board_and_a_few_positions_of_every_phase_score_as_bitbully_scores(
        bitbully: BitBully) -> None:
    games: list[list[int]] = [[]] + [columns for index, discs in enumerate(PHASES)
                    for columns in random_games(5, discs, seed=index)]
    assert len(games) == 21
    assert differing_scores(games, bitbully) == []


@pytest.mark.slow
@pytest.mark.parametrize("discs", PHASES, ids=[f"{low}-{high}-discs" for low, high in PHASES])
def test_200_positions_of_each_phase_score_as_bitbully_scores(discs: tuple[int, int],
                                                             bitbully: BitBully) -> None:
    games = random_games(200, discs, seed=100 + discs[0])
    assert len(games) == 200 and {len(columns) for columns in games} <= set(
        range(discs[0], discs[1] + 1))
    assert differing_scores(games, bitbully) == []


def test_the_bitbully_player_is_a_conforming_agent_of_the_standard_board_only() -> None:
    check_agent(BITBULLY, boards=(DEFAULT_RULES, Rules(rows=4, cols=5, connect=3)),
                positions_per_board=4)


def test_the_bitbully_player_sees_the_position_it_is_given() -> None:
    from bitbully import Board

    from tests.data.bitbully_agent import bitbully_board

    for columns in random_games(20, (0, 41), seed=7):
        position = play_moves(Position.empty(DEFAULT_RULES), columns)
        assert bitbully_board(position) == Board.from_moves(columns)


def theoretical_ends(games: pd.DataFrame) -> list[tuple[Result, Termination, int]]:
    """Each game's result for agent A, termination and length under perfect play from its
    opening, by the solver's score of the opening: the side it favours wins with its
    ``(cells + 2) // 2 - |score|``-th disc, or a score of 0 fills the board."""
    ends = []
    for moves, first in zip(games["opening"], games["first"], strict=True):
        opening = from_moves(str(moves))
        score = solve(opening)
        cells = opening.rules.rows * opening.rules.cols
        if score == 0:
            ends.append((Result.DRAW, Termination.BOARD_FULL, cells))
            continue
        winner = opening.side_to_move if score > 0 else 3 - opening.side_to_move
        discs = (cells + 2) // 2 - abs(score)
        ends.append((Result.of_winner(winner, Side.A.player(Side(first))),
                     Termination.FOUR_IN_A_ROW, 2 * discs - (winner == 1)))
    return ends


@pytest.mark.parametrize("games, openings, seed", [
    (2, "random:10", 1),
    pytest.param(10, "random:4", 1, marks=pytest.mark.slow),
])
def test_the_solver_agent_and_bitbully_end_every_game_in_its_openings_theoretical_result(
        games: int, openings: str, seed: int) -> None:
    played = match("solver", BITBULLY, games, openings=openings, seed=seed, jobs=1,
                   progress=False).games
    expected = theoretical_ends(played)
    assert len(played) == games and {result for result, _, _ in expected} >= {
        Result.WIN, Result.LOSS}  # both agents win from the side an opening favours
    assert list(zip(played["result"], played["termination"], played["plies"],
                    strict=True)) == expected
