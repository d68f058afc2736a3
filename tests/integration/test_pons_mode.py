"""Pascal Pons' solver's native mode: ``pons:PATH`` plays a best-scored column, and
``PonsOracle`` answers with its scores.

His solver is not built here: tests/data/fake_pons.py speaks its line format from a table.
The table holds facts: positions of his Test_L3_R1 set (37 plies and more), with the column
scores of every position reachable from them by exhaustive search, checked against the
scores the set lists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.hosting.engines.engine import ProtocolError
from arena.hosting.engines.pons import INVALID_MOVE, OracleError, PonsOracle, parse_scores
from arena.protocol.players import canonical_player
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError, UnsupportedBoardError
from arena.rules.notation import from_moves
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from tests.helpers.brute_force_oracle import BruteForceOracle
from tests.helpers.paths import DATA, PONS

FAKE = DATA / "fake_pons.py"
TEST_SET = PONS / "Test_L3_R1"
SPEC = f"pons:{FAKE}"


def late_positions(plies: int = 37) -> list[tuple[str, int]]:
    """The positions of Test_L3_R1 with at least ``plies`` discs, with their listed scores."""
    entries = [line.split() for line in TEST_SET.read_text().splitlines()]
    return [(moves, int(score)) for moves, score in entries if len(moves) >= plies]


def analysis(position: Position) -> list[int]:
    """What his solver's -a mode prints for ``position``: 7 scores, -1000 for a full column."""
    scores = BruteForceOracle().column_scores(position)
    return [scores.get(column, INVALID_MOVE) for column in range(position.rules.cols)]


def key(position: Position) -> str:
    """The position as the stand-in's table names it: each column's discs, bottom first."""
    rules = position.rules
    return "|".join("".join(str(position.cell(col, row)) for row in range(rules.rows)
                            if position.cell(col, row)) for col in range(rules.cols))


def reachable(start: Position) -> Iterator[Position]:
    """Every position reachable from ``start`` in which the game goes on."""
    seen, todo = set(), [start]
    while todo:
        position = todo.pop()
        if position.is_terminal or position.key() in seen:
            continue
        seen.add(position.key())
        yield position
        todo += [position.play(column) for column in position.legal_moves()]


@pytest.fixture(scope="module")
def table() -> dict[str, list[int]]:
    """The stand-in's table, its facts checked: the best column score of each listed
    position is the score the test set gives it."""
    known: dict[str, list[int]] = {}
    for moves, score in late_positions():
        for position in reachable(from_moves(moves)):
            known.setdefault(key(position), analysis(position))
        assert max(known[key(from_moves(moves))]) == score, moves
    return known


@pytest.fixture
def fake_solver(table: dict[str, list[int]], tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    monkeypatch.setenv("FAKE_PONS_TABLE", str(path))
    return FAKE


def test_the_oracle_knows_the_test_set_s_scores(fake_solver: Path) -> None:
    positions = late_positions()
    assert len(positions) > 100
    with PonsOracle(fake_solver) as oracle:
        for moves, score in positions:
            position = from_moves(moves)
            assert oracle.solve(position) == score, moves
            scores = oracle.column_scores(position)
            assert sorted(scores) == position.legal_moves()
            assert max(scores.values()) == score


def test_the_oracle_refuses_other_boards_and_finished_games(fake_solver: Path) -> None:
    with PonsOracle(fake_solver) as oracle:
        with pytest.raises(UnsupportedBoardError, match="only the 6x7 connect 4 board, not "
                                                        "5x6 connect 4"):
            oracle.column_scores(Position.empty(Rules(5, 6, 4)))
        with pytest.raises(OracleError, match="the game is over in 1212121"):
            oracle.column_scores(from_moves("1212121"))


def test_a_solver_that_dies_is_an_oracle_error_with_its_last_words(fake_solver: Path) -> None:
    with PonsOracle(fake_solver) as oracle, pytest.raises(OracleError) as caught:
        oracle.column_scores(from_moves("4"))  # not in the stand-in's table
    assert str(caught.value) == (f"Pascal Pons' solver {fake_solver}: exited with status 4; it "
                                 "last printed: unknown position '4' (position 4)")


def test_a_missing_solver_is_an_oracle_error(tmp_path: Path) -> None:
    with PonsOracle(tmp_path / "c4solver") as oracle, \
            pytest.raises(OracleError, match="cannot start it: No such file or directory"):
        oracle.solve(from_moves("4"))


@pytest.mark.parametrize(("line", "moves", "scores"), [
    ("4453 -5 -5 -2 -3 -4 -2 -2", "4453", {0: -5, 1: -5, 2: -2, 3: -3, 4: -4, 5: -2, 6: -2}),
    ("-2 -1 0 1 0 -1 -2", "", {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}),
    ("111111 -1000 3 3 3 3 3 3", "111111", {1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3}),
])
def test_answer_lines_are_read_as_his_solver_prints_them(line: str, moves: str,
                                                         scores: dict[int, int]) -> None:
    # The first line is his c4solver's own answer to 4453 with -a (built from his sources).
    assert parse_scores(line, moves) == scores


@pytest.mark.parametrize(("line", "moves"), [
    ("4454 1 2 3 4 5 6 7", "4453"),
    ("4453 1 2 3", "4453"),
    ("4453 1 2 3 4 5 6 x", "4453"),
])
def test_other_answers_are_protocol_errors(line: str, moves: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(repr(line))):
        parse_scores(line, moves)


@pytest.mark.slow
def test_pons_plays_perfectly_from_the_test_set_s_won_positions(fake_solver: Path,
                                                                 tmp_path: Path) -> None:
    """From won positions it wins every game, at the latest when the score says."""
    # Player 1 is to move after an even number of plies: pons is player 1 (first="a").
    won = [(moves, score) for moves, score in late_positions()
           if score > 0 and len(moves) % 2 == 0]
    assert len(won) >= 5
    openings = tmp_path / "openings.txt"
    openings.write_text("".join(f"{moves}\n" for moves, _ in won))
    plan = match_plan(SPEC, "random", 2 * len(won), GameSettings(seed=3), str(openings),
                      first="a")
    run_games(plan, tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    assert (games["result"] == "win").all() and (games["termination"] == "four_in_a_row").all()
    limit = {moves: 44 - 2 * score for moves, score in won}  # a win scores (43 - plies) // 2
    assert all(plies <= limit[opening] for opening, plies in zip(games["opening"], games["plies"],
                                                                  strict=True))


def test_pons_refuses_other_boards_before_the_run(fake_solver: Path, tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="Pascal Pons' solver plays only the 6x7 connect 4 "
                                             "board, not 5x6 connect 4"):
        run_games(match_plan(SPEC, "random", 2, GameSettings(Rules(5, 6, 4))), tmp_path / "run")


def test_pons_specs_are_named_and_fingerprinted_by_the_binary(tmp_path: Path) -> None:
    binary = tmp_path / "c4solver"
    binary.write_text(FAKE.read_text())
    binary.chmod(0o755)
    assert canonical_player(f"pons:{binary}@time=1") == f"pons:{binary}@time=1"
    with pytest.raises(AgentSpecError, match="no such file"):
        canonical_player(f"pons:{tmp_path / 'missing'}")
