"""The classic minimax agent: the seeds' window heuristic, the search and the agent."""

from __future__ import annotations

import numpy as np
import pytest

from arena.protocol.agent import Choice
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError, IllegalMoveError, MalformedInputError
from arena.rules.notation import from_array, from_moves, to_array
from arena.runs.playing.game import play_game
from arena.search.heuristics import WIN_SCORE
from connect_four_agents.minimax import MinimaxAgent, best_moves, minimax_scores, window_score
from connect_four_agents.random_agent import RandomAgent

STANDARD = Rules()


def board_of(rules: Rules, cells: dict[tuple[int, int], int]) -> np.ndarray:
    """A board with the given (row, col) -> player cells, row 0 at the bottom."""
    board = np.zeros((rules.rows, rules.cols), dtype=np.int8)
    for (row, col), player in cells.items():
        board[row, col] = player
    return board


def seed_window_score(board: np.ndarray, connect: int, player: int) -> int:
    """The seeds' score_position, written out cell by cell, as an independent reference."""
    rows, cols = board.shape
    score = 3 * int(np.count_nonzero(board[:, cols // 2] == player))
    for row in range(rows):
        for col in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, col + i * dc) for i in range(connect)]
                if not all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                    continue
                window = [int(board[r, c]) for r, c in cells]
                own, empty = window.count(player), window.count(0)
                if own == connect:
                    score += 100
                elif own == connect - 1 and empty == 1:
                    score += 5
                elif own == connect - 2 and empty == 2:
                    score += 2
                if window.count(3 - player) == connect - 1 and empty == 1:
                    score -= 4
    return score


def reference_minimax(position: Position, root: int, depth: int, ply: int = 0) -> int:
    """Plain minimax over Position objects, without pruning, as an independent reference."""
    if position.won:
        return WIN_SCORE - ply if position.winner == root else ply - WIN_SCORE
    if position.is_full:
        return 0
    if depth == 0:
        return seed_window_score(to_array(position), position.rules.connect, root)
    values = [reference_minimax(position.play(c), root, depth - 1, ply + 1)
              for c in position.legal_moves()]
    return max(values) if position.side_to_move == root else min(values)


def random_positions(rules: Rules, count: int, seed: int, max_plies: int = 16) -> list[Position]:
    """Non-terminal positions reached by random play from a seeded generator."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.empty(rules)
        for _ in range(int(rng.integers(max_plies))):
            moves = position.legal_moves()
            position = position.play(moves[int(rng.integers(len(moves)))])
            if position.is_terminal:
                break
        if not position.is_terminal:
            positions.append(position)
    return positions


def search(position: Position, depth: int, pruning: bool = True) -> dict[int, int]:
    """The root move scores of ``position`` for the side to move."""
    scores, _ = minimax_scores(
        to_array(position), position.rules, position.side_to_move, depth, pruning
    )
    return scores


# --- the window heuristic, counted by hand -------------------------------------------


def test_empty_board_scores_zero() -> None:
    assert window_score(board_of(STANDARD, {}), STANDARD, 1) == 0
    assert window_score(board_of(STANDARD, {}), STANDARD, 2) == 0


def test_one_centre_disc_scores_only_the_centre() -> None:
    board = board_of(STANDARD, {(0, 3): 1})
    assert window_score(board, STANDARD, 1) == 3  # no window has two own discs
    assert window_score(board, STANDARD, 2) == 0


def test_two_in_a_row_on_the_bottom() -> None:
    # Discs in columns 2 and 3: three bottom windows (starting at 0, 1, 2) hold both, +2 each.
    board = board_of(STANDARD, {(0, 2): 1, (0, 3): 1})
    assert window_score(board, STANDARD, 1) == 3 + 3 * 2
    assert window_score(board, STANDARD, 2) == 0


def test_three_in_a_row_scores_for_and_against() -> None:
    # Columns 1-3: windows 0-3 and 1-4 hold three (+5 each), window 2-5 holds two (+2).
    board = board_of(STANDARD, {(0, 1): 1, (0, 2): 1, (0, 3): 1})
    assert window_score(board, STANDARD, 1) == 3 + 5 + 5 + 2
    assert window_score(board, STANDARD, 2) == -4 - 4


def test_a_full_window_scores_100() -> None:
    # Four in column 0: one full vertical window (+100), the one above it has three (+5).
    board = board_of(STANDARD, {(row, 0): 1 for row in range(4)})
    assert window_score(board, STANDARD, 1) == 100 + 5 + 2
    assert window_score(board, STANDARD, 2) == -4


def test_connect_three_counts_one_disc_and_two_empty() -> None:
    # 5 x 4 connect 3, one disc in the centre column 2 of the bottom row: it lies in two
    # horizontal windows, one vertical and one diagonal (towards column 0), +2 each.
    rules = Rules(5, 4, 3)
    assert window_score(board_of(rules, {(0, 2): 1}), rules, 1) == 3 + 4 * 2


@pytest.mark.parametrize("rules", [STANDARD, Rules(5, 4, 3), Rules(6, 9, 5), Rules(7, 8, 5)])
def test_window_score_matches_the_seed_loops(rules: Rules) -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        board = rng.integers(0, 3, size=(rules.rows, rules.cols)).astype(np.int8)
        for player in (1, 2):
            assert window_score(board, rules, player) == seed_window_score(
                board, rules.connect, player
            )


def test_window_score_rejects_a_board_of_the_wrong_shape() -> None:
    with pytest.raises(MalformedInputError, match="shape"):
        window_score(np.zeros((7, 6), dtype=np.int8), STANDARD, 1)


# --- the search ------------------------------------------------------------------------


def test_takes_an_immediate_win() -> None:
    position = from_moves("121212")  # both have three in a column; the first player moves
    for depth in (1, 2, 3, 4):
        scores = search(position, depth)
        assert best_moves(scores) == [0]
        assert scores[0] == WIN_SCORE - 1


def test_blocks_a_single_threat_from_depth_two() -> None:
    position = from_moves("17171")  # three in column 0 for the first player
    for depth in (2, 3, 4):
        scores = search(position, depth)
        assert best_moves(scores) == [0]
        # Every other move lets the opponent win on the next ply.
        assert all(score == 2 - WIN_SCORE for col, score in search(position, depth, False).items()
                   if col != 0)


def test_finds_a_double_threat_within_depth() -> None:
    # Both sides have two discs stacked in columns 2 and 3: playing column 1 or 4 makes an open
    # three on the bottom row, a win on the third ply.
    position = from_moves("3344")
    assert max(search(position, 2).values()) < WIN_SCORE // 2
    for depth in (3, 4, 5):
        scores = search(position, depth)
        assert best_moves(scores) == [1, 4]
        assert scores[1] == WIN_SCORE - 3


# The first player has columns 2 and 3 of the bottom row and three discs in column 6; the
# second player sits on top of columns 2 and 3.
TWO_WAYS_TO_WIN = {(0, 2): 1, (0, 3): 1, (0, 6): 1, (1, 6): 1, (2, 6): 1,
                   (1, 2): 2, (2, 2): 2, (1, 3): 2, (2, 3): 2}


def test_a_faster_win_scores_higher() -> None:
    # Column 6 wins at once; column 4 makes the open three 2-4 (columns 1 and 5 free), a win
    # on the third ply.
    position = from_array(board_of(STANDARD, {**TWO_WAYS_TO_WIN, (0, 0): 2}))
    scores = search(position, 3, pruning=False)
    assert scores[6] == WIN_SCORE - 1
    assert scores[4] == WIN_SCORE - 3
    assert best_moves(search(position, 3)) == [6]


def test_a_slower_loss_scores_higher() -> None:
    # The second player to move loses on the second ply unless it blocks column 6, and then
    # on the fourth (an open three on the bottom row follows).
    position = from_array(board_of(STANDARD, TWO_WAYS_TO_WIN))
    scores = search(position, 4, pruning=False)
    assert scores == {col: 4 - WIN_SCORE if col == 6 else 2 - WIN_SCORE for col in range(7)}
    assert best_moves(search(position, 4)) == [6]


@pytest.mark.parametrize("rules", [STANDARD, Rules(5, 4, 3), Rules(6, 9, 5)])
def test_matches_plain_minimax(rules: Rules) -> None:
    for position in random_positions(rules, 4, seed=11):
        expected = {c: reference_minimax(position.play(c), position.side_to_move, 1, 1)
                    for c in position.legal_moves()}
        assert search(position, 2, pruning=False) == expected


@pytest.mark.parametrize(("rules", "depth"), [(STANDARD, 3), (STANDARD, 4), (Rules(5, 4, 3), 5)])
def test_pruning_keeps_the_root_score_and_the_best_moves(rules: Rules, depth: int) -> None:
    for position in random_positions(rules, 8, seed=depth):
        exact = search(position, depth, pruning=False)
        pruned = search(position, depth, pruning=True)
        assert max(pruned.values()) == max(exact.values())
        assert best_moves(pruned) == best_moves(exact)
        # The other moves' scores are upper bounds below the best.
        assert all(exact[c] <= pruned[c] for c in exact)


def test_pruning_searches_fewer_nodes() -> None:
    board = to_array(Position.empty(STANDARD))
    _, pruned = minimax_scores(board, STANDARD, 1, 4, pruning=True)
    _, full = minimax_scores(board, STANDARD, 1, 4, pruning=False)
    assert full == 1 + 7 + 7**2 + 7**3 + 7**4
    assert pruned < full


def test_rejects_bad_depth_and_finished_games() -> None:
    board = to_array(Position.empty(STANDARD))
    with pytest.raises(ValueError, match="depth"):
        minimax_scores(board, STANDARD, 1, 0)
    with pytest.raises(IllegalMoveError, match="already over"):
        minimax_scores(to_array(from_moves("1212121")), STANDARD, 2, 2)


# --- the agent -------------------------------------------------------------------------


def test_choice_reports_the_search() -> None:
    choice = MinimaxAgent(depth=3).choose(from_moves("121212"), np.random.default_rng(0))
    assert isinstance(choice, Choice)
    assert (choice.column, choice.depth, choice.score) == (0, 3, WIN_SCORE - 1)
    assert choice.nodes is not None and choice.nodes > 1


def test_ties_are_broken_by_the_generator() -> None:
    position = from_moves("3344")  # columns 1 and 4 both win on the third ply
    agent = MinimaxAgent(depth=3)

    def column(seed: int) -> int:
        choice = agent.choose(position, np.random.default_rng(seed))
        assert isinstance(choice, Choice)
        return choice.column

    assert [column(5) for _ in range(3)] == [column(5)] * 3
    assert {column(seed) for seed in range(20)} == {1, 4}


def test_depth_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="depth must be a whole number >= 1"):
        MinimaxAgent(depth=0)
    with pytest.raises(AgentSpecError, match="depth"):
        make_agent("minimax:depth=0")


def test_spec_parameters() -> None:
    agent = make_agent("minimax:depth=2,pruning=false")
    assert isinstance(agent, MinimaxAgent)
    assert (agent.depth, agent.pruning) == (2, False)


@pytest.mark.parametrize(
    ("rules", "depth"),
    [(STANDARD, 4), (Rules(5, 4, 3), 4), (Rules(6, 9, 5), 2), (Rules(7, 8, 5), 2)],
)
def test_beats_random_on_every_board(rules: Rules, depth: int) -> None:
    for first in (0, 1):
        players = [MinimaxAgent(depth), RandomAgent()]
        if first:
            players.reverse()
        rngs = [np.random.default_rng([first, side]) for side in (0, 1)]
        outcome = play_game(players, rngs, Position.empty(rules))
        assert outcome.termination == "four_in_a_row"
        assert outcome.winner == first + 1
