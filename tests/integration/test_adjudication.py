"""Adjudication: games end at a ply with the result the exact solver proves, checked against
the published scores of Pons' test set and an exhaustive search on a small board."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from arena.analysis.scored_positions import load_set
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.notation import from_moves, parse_moves
from arena.runs.planning.plan import GameSettings
from arena.runs.playing.adjudication import Adjudicator
from arena.runs.playing.game import play_game
from arena.search.solver import solve
from tests.helpers.brute_force_oracle import BruteForceOracle
from tests.helpers.cli import arena

SMALL = Rules(rows=4, cols=4, connect=3)
SMALL_OPTIONS = ("--rows", "4", "--cols", "4", "--connect", "3")


def proven_winner(position: Position) -> int:
    """The winner with perfect play, by exhaustive search (0 for a draw)."""
    best = max(BruteForceOracle().column_scores(position).values())
    mover = position.side_to_move
    return mover if best > 0 else 3 - mover if best < 0 else 0


def rows(directory: Path) -> list[dict[str, str]]:
    with (directory / "games.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_winner_of_published_positions() -> None:
    for entry in load_set("Test_L3_R1", limit=60):
        mover = entry.position.side_to_move
        expected = mover if entry.score > 0 else 3 - mover if entry.score < 0 else 0
        assert Adjudicator(0).winner(entry.position) == expected, entry.moves


def test_the_winner_of_published_early_positions_of_6x7() -> None:
    """Positions of 1 to 11 discs of the begin-hard set: the solver reaches the 12-ply
    database from each."""
    early = [e for e in load_set("Test_L1_R3", limit=200) if e.position.plies <= 11]
    assert len(early) >= 100
    for entry in early:
        mover = entry.position.side_to_move
        expected = mover if entry.score > 0 else 3 - mover if entry.score < 0 else 0
        assert Adjudicator(0).winner(entry.position) == expected, entry.moves


def test_6x7_games_are_adjudicated_at_an_early_ply(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = arena("match", "random", "random", "-n", "6", "-j", "1", "--adjudicate",
                         "6", "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    for row in rows(out):
        assert (row["termination"], len(row["moves"])) == ("adjudicated", 6)
        at_ply = from_moves(row["moves"], Rules())
        score = solve(at_ply)
        winner = at_ply.side_to_move if score > 0 else 3 - at_ply.side_to_move if score < 0 \
            else 0
        first = 1 if row["first"] == "a" else 2  # agent A's player
        assert row["result"] == ("draw" if winner == 0 else "win" if winner == first
                                 else "loss")


def test_a_game_ends_at_the_ply_with_the_proven_result() -> None:
    players = [make_agent("random"), make_agent("random")]
    for seed in range(20):
        rngs = [np.random.default_rng(seed)] * 2
        record = play_game(players, rngs, Position.empty(SMALL), adjudicator=Adjudicator(5))
        if record.termination != "adjudicated":  # over before ply 5
            assert len(record.moves) <= 5 and record.termination == "four_in_a_row"
            continue
        assert len(record.moves) == 5
        at_ply = from_moves(record.move_string, SMALL)
        assert record.winner == proven_winner(at_ply)


def test_an_opening_past_the_ply_is_adjudicated_at_once() -> None:
    opening = parse_moves("1122", SMALL)  # X to move wins at once in column 3
    start = from_moves("1122", SMALL)
    record = play_game([make_agent("random")] * 2, [np.random.default_rng(0)] * 2, start,
                       opening, adjudicator=Adjudicator(2))
    assert (record.move_string, record.termination, record.winner) == ("1122",
                                                                      "adjudicated", 1)


@pytest.mark.slow
def test_match_adjudicates_resumes_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = arena("match", "random", "immediate-win", "-n", "30", "-j", "2",
                         "--adjudicate", "6", *SMALL_OPTIONS, "--out", str(out), "--quiet")
    assert code == 0, output
    games = rows(out)
    adjudicated = [row for row in games if row["termination"] == "adjudicated"]
    assert adjudicated and f"({len(adjudicated)} adjudicated: the solver's result)" in output
    for row in adjudicated:
        assert row["plies"] == "6"
        winner = proven_winner(from_moves(row["moves"], SMALL))
        a_player = 1 if row["first"] == "a" else 2
        expected = "draw" if winner == 0 else "win" if winner == a_player else "loss"
        assert row["result"] == expected
    assert all(int(row["plies"]) <= 6 and row["termination"] == "four_in_a_row"
               for row in games if row not in adjudicated)
    code, output = arena("report", str(out))  # every row checked against the plan
    assert code == 0, output
    code, output = arena("match", "random", "immediate-win", "-n", "30", *SMALL_OPTIONS,
                         "--out", str(out), "--quiet")
    assert code == 2 and "adjudicate 6 there, none here" in output


def test_rows_that_do_not_fit_the_adjudication_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = arena("match", "random", "random", "-n", "10", "-j", "1", "--adjudicate",
                         "4", *SMALL_OPTIONS, "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    text = (out / "games.csv").read_text()
    row = next(r for r in rows(out) if r["termination"] == "adjudicated")
    line = next(i for i, raw in enumerate(text.splitlines(), 1)
                if raw.startswith(row["game"] + ","))
    moved, result = row["moves"], row["result"]
    (out / "games.csv").write_text(text.replace(f",{moved},{result},adjudicated,4,",
                                                f",{moved[:3]},{result},adjudicated,3,"))
    code, output = arena("report", str(out))
    assert code == 2
    assert output.strip().endswith(f"games.csv, line {line}: the game was adjudicated after 3 "
                                   "plies, not at ply 4; this row is not a game of this run")


def test_bad_adjudication_plies_are_refused() -> None:
    with pytest.raises(ArenaError, match="adjudication ply must be a whole number >= 0"):
        GameSettings(adjudicate=-1)
    code, output = arena("match", "random", "random", "-n", "2", "--adjudicate", "x")
    assert code == 2 and output.count("\n") == 1 and "--adjudicate" in output
