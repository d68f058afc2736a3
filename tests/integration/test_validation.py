"""Every row of games.csv checked against the plan: on resume and in `arena report`."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.rules.notation import format_moves
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.rows import COLUMNS, GamesTableError
from arena.search.kernels.endings import BAD_COLUMN, FULL, ONGOING, PAST_END, WON, game_endings
from tests.helpers.cli import invoke


def codes(games: list[str], rules: Rules | None = None) -> list[int]:
    rules = rules or Rules()
    text = "".join(games).encode()
    columns = np.frombuffer(text, dtype=np.uint8).astype(np.int64) - ord("1")
    offsets = np.cumsum([0, *map(len, games)]).astype(np.int64)
    return game_endings(columns, offsets, rules.rows, rules.cols, rules.connect).tolist()


def test_the_endings_kernel_on_hand_checked_games() -> None:
    drawn = "446323116125713546635334125521577677446722"  # a real draw: a full board
    assert codes(["", "4455", "4455667", "121212", drawn]) == [ONGOING, ONGOING, WON,
                                                                ONGOING, FULL]
    assert codes(["1111111", "8", "0", "44556677", "12121212"]) == [BAD_COLUMN] * 3 + [
        PAST_END] * 2
    assert codes(["12121", "123"], Rules(rows=3, cols=3, connect=3)) == [WON, ONGOING]
    assert codes(["123"], Rules(rows=1, cols=3, connect=3)) == [FULL]


@settings(max_examples=60, deadline=None)
@given(st.from_type(Position), st.randoms(use_true_random=False))
def test_the_endings_kernel_agrees_with_the_rules_engine(position: Position, rng: object) -> None:
    """Random games on every kind of board, replayed by the kernel and by Position."""
    rules = position.rules
    if rules.cols > 9:
        return
    moves: list[int] = []
    current = Position.empty(rules)
    while not current.is_terminal and len(moves) < position.plies:
        column = rng.choice(current.legal_moves())  # type: ignore[attr-defined]
        moves.append(column)
        current = current.play(column)
    expected = WON if current.won else FULL if current.is_full else ONGOING
    assert codes([format_moves(moves)], rules) == [expected]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of 12 games with paired openings, finished and sorted."""
    directory = tmp_path_factory.mktemp("run") / "run"
    plan = match_plan("random", "immediate-win", 12, GameSettings(seed=4), "random:2")
    run_games(plan, directory)
    return directory


def rows_of(directory: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO((directory / "games.csv").read_text())))


def with_rows(source: Path, target: Path, rows: list[list[str]]) -> Path:
    """A copy of the run in ``source`` whose games.csv holds ``rows``."""
    target.mkdir()
    (target / "meta.json").write_bytes((source / "meta.json").read_bytes())
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    (target / "games.csv").write_text(text.getvalue())
    return target


def edited(rows: list[list[str]], line: int, column: str, value: str) -> list[list[str]]:
    copy = [list(row) for row in rows]
    copy[line - 1][COLUMNS.index(column)] = value
    return copy


@pytest.mark.parametrize(("line", "column", "value", "problem"), [
    (3, "agent_b", "negamax", "agent_b is 'negamax' where game 1 has 'immediate-win'"),
    (4, "result", "banana", "result 'banana' is not one of win, draw, loss"),
    (5, "termination", "resigned", "termination 'resigned' is not one of"),
    (6, "seed", "17", "seed is '17' where game 4 has"),
    (7, "first", "x", "first is 'x' where game 5 has"),
    (8, "game", "99", "game '99' is not a game index from 0 to 11"),
    (9, "plies", "3", "plies '3' is not the number of moves"),
    (10, "time_a", "-1", "time_a '-1' is not a number of seconds"),
    (11, "turns_b", "many", "turns_b 'many' is not a whole number"),
])
def test_a_field_that_does_not_fit_names_its_line(finished_run: Path, tmp_path: Path, line: int,
                                                   column: str, value: str, problem: str) -> None:
    rows = edited(rows_of(finished_run), line, column, value)
    directory = with_rows(finished_run, tmp_path / "edited", rows)
    result = invoke("report", str(directory))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert f"games.csv, line {line}: {problem}" in result.stderr


@pytest.mark.parametrize(("change", "problem"), [
    (lambda rows, moves: edited(rows, 2, "moves", moves[:-1] + "9"),
     "play a column that is off the board or full"),
    (lambda rows, moves: edited(edited(rows, 2, "moves", moves + "1"), 2, "plies",
                                str(len(moves) + 1)), "go on after a line was completed"),
    (lambda rows, moves: edited(rows, 2, "termination", "board_full"),
     "end in four_in_a_row, not board_full"),
    (lambda rows, moves: edited(rows, 2, "termination", "time_forfeit"),
     "end in four_in_a_row, not time_forfeit"),
    (lambda rows, moves: edited(rows, 2, "result", "draw"), "make the result"),
])
def test_moves_are_replayed_to_the_claimed_ending(finished_run: Path, tmp_path: Path,
                                                  change: object, problem: str) -> None:
    rows = rows_of(finished_run)
    moves = rows[1][COLUMNS.index("moves")]
    directory = with_rows(finished_run, tmp_path / "edited", change(rows, moves))  # type: ignore[operator]
    result = invoke("report", str(directory))
    assert result.exit_code == 2 and "games.csv, line 2: moves" in result.stderr
    assert problem in result.stderr


@pytest.mark.parametrize(("damage", "problem"), [
    (lambda rows: [*rows, rows[3]], "line 14: game 2 appears twice"),
    (lambda rows: [*rows[:5], rows[5][:7], *rows[6:]], "line 6: 7 fields, expected 18"),
    (lambda rows: [*rows[:5], ["\x00garbage"], *rows[6:]], "line 6: 1 fields"),
])
def test_duplicated_torn_and_garbage_rows_are_refused(finished_run: Path, tmp_path: Path,
                                                      damage: object, problem: str) -> None:
    directory = with_rows(finished_run, tmp_path / "damaged",
                          damage(rows_of(finished_run)))  # type: ignore[operator]
    before = (directory / "games.csv").read_bytes()
    plan = match_plan("random", "immediate-win", 12, GameSettings(seed=4), "random:2")
    with pytest.raises(GamesTableError, match=problem):
        run_games(plan, directory)  # a resume checks every row first
    assert (directory / "games.csv").read_bytes() == before  # nothing changed


def test_bytes_that_are_not_utf8_are_refused(finished_run: Path, tmp_path: Path) -> None:
    directory = with_rows(finished_run, tmp_path / "binary", rows_of(finished_run)[:4])
    with (directory / "games.csv").open("ab") as file:
        file.write(b"\xff\xfe\n")
    result = invoke("report", str(directory))
    assert result.exit_code == 2
    assert "games.csv, line 5: not UTF-8 text" in result.stderr


def test_a_resume_cuts_only_a_last_line_without_newline(finished_run: Path,
                                                        tmp_path: Path) -> None:
    rows = rows_of(finished_run)
    directory = with_rows(finished_run, tmp_path / "cut", rows[:6])
    with (directory / "games.csv").open("a") as file:
        file.write(",".join(rows[6])[:20])  # killed while writing
    plan = match_plan("random", "immediate-win", 12, GameSettings(seed=4), "random:2")
    assert run_games(plan, directory).played == 7
    assert [row[:11] for row in rows_of(directory)] == [row[:11] for row in rows]
