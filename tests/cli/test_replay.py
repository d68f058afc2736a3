"""Replays of recorded games: ``arena show`` in the terminal, ``arena export html`` pages."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from arena.cli.export import parse_game_indices
from arena.report.game_text import TERMINATION_WORDS, MoveScore, move_lines, score_moves
from arena.report.replay_page import replay_page
from arena.rules.board import Rules
from arena.rules.errors import MalformedInputError
from arena.rules.notation import from_moves
from arena.rules.render import render_plain
from arena.rules.results import Termination
from arena.runs.store.recorded import load_recorded_games
from tests.helpers.brute_force_oracle import BruteForceOracle
from tests.helpers.cli import arena
from tests.helpers.extras import chromium


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four games of random against immediate-win."""
    out = tmp_path_factory.mktemp("run") / "run"
    code, output = arena("match", "random", "immediate-win", "-n", "4", "-j", "1", "--out",
                         str(out), "--quiet", "--no-report")
    assert code == 0, output
    return out


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games on a 4 x 4 board, connect 3, with a two-ply opening."""
    out = tmp_path_factory.mktemp("small") / "run"
    openings = out.parent / "openings.txt"
    openings.write_text("12\n")
    code, output = arena("match", "random", "random", "-n", "2", "-j", "1", "--rows", "4",
                         "--cols", "4", "--connect", "3", "--openings", str(openings),
                         "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    return out


def test_recorded_games_replay_to_their_recorded_results(run_dir: Path) -> None:
    games = load_recorded_games(run_dir)
    assert [game.game for game in games] == [0, 1, 2, 3]
    for game in games:
        final = game.positions[-1]
        assert len(game.positions) == len(game.row.moves) + 1 and final.is_terminal
        assert (final.winner or 0) == game.winner
        assert game.players == ((game.row.agent_a, game.row.agent_b) if game.row.first == "a"
                                else (game.row.agent_b, game.row.agent_a))


def test_show_prints_players_result_and_final_board(run_dir: Path) -> None:
    (game,) = load_recorded_games(run_dir, [2])
    code, out = arena("show", str(run_dir), "2")
    assert code == 0, out
    x, o = game.players
    assert f"X (player 1, moved first): {x}" in out and f"O (player 2): {o}" in out
    assert f"Moves: {game.row.moves}" in out
    winner = game.players[game.winner - 1]
    assert f"{winner} ({'XO'[game.winner - 1]}) wins by four in a row after " \
           f"{len(game.row.moves)} plies." in out
    assert out.rstrip().endswith(render_plain(from_moves(game.row.moves), game.columns[-1]))


def test_show_and_the_replay_page_name_the_agents_by_the_runs_labels(tmp_path: Path) -> None:
    """The name given with --label, and the spec with its depth beside it in `show`; in the
    result line and on the replay page, the name alone."""
    run = tmp_path / "run"
    code, output = arena("match", "negamax:depth=4,heuristic=positional", "negamax:depth=3",
                         "-n", "2", "-j", "1", "--label", "A=Positional", "--out", str(run),
                         "--quiet", "--no-report")
    assert code == 0, output
    names = {"negamax:heuristic=positional": "Positional", "negamax:depth=3": "negamax d3"}
    for game in load_recorded_games(run):
        code, out = arena("show", str(run), str(game.game))
        assert code == 0, out
        x, o = game.players
        assert f"X (player 1, moved first): {names[x]} (negamax:depth=" in out
        specs = {"Positional": "negamax:depth=4,heuristic=positional",
                 "negamax d3": "negamax:depth=3"}
        assert f"O (player 2): {names[o]} ({specs[names[o]]})" in out
        winner = names[game.players[game.winner - 1]] if game.winner else None
        assert (f"{winner} ({'XO'[game.winner - 1]}) wins by" in out) if winner else \
            "Draw by" in out
    code, out = arena("export", "html", str(run))
    assert code == 0, out
    page = (run / "replay.html").read_text()
    assert "<title>Replays: Positional vs negamax d3</title>" in page
    for record in page_data(page):
        assert {record["x"], record["o"]} == {"Positional", "negamax d3"}
        assert "negamax:" not in str(record["result"])


def test_show_step_and_ply(run_dir: Path) -> None:
    (game,) = load_recorded_games(run_dir, [1])
    code, out = arena("show", str(run_dir), "1", "--step")
    assert code == 0, out
    plies = len(game.row.moves)
    assert len(re.findall(r"^ *\d+\. [XO] column \d$", out, re.M)) == plies
    for ply in (0, 1, plies):  # the last move's disc marked
        assert render_plain(game.positions[ply], game.columns[ply - 1] if ply else None) in out
    code, out = arena("show", str(run_dir), "1", "--ply", "3")
    assert code == 0 and f"After 3 of {plies} plies:" in out
    assert out.rstrip().endswith(render_plain(game.positions[3], game.columns[2]))
    code, out = arena("show", str(run_dir), "1", "--list")
    assert code == 0 and f"{plies:>3}. " in out


def test_show_refuses_bad_inputs_in_one_line(run_dir: Path, tmp_path: Path) -> None:
    for args, message in (
            ((str(tmp_path / "nowhere"), "0"), "is not a run directory: it does not exist"),
            ((str(tmp_path), "0"), "is not a run directory: it has no games.csv"),
            ((str(run_dir), "9"), "game 9 is not in"),
            ((str(run_dir), "0", "--ply", "99"), "--ply 99: game 0 has only")):
        code, out = arena("show", *args)
        assert code == 2 and out.count("\n") == 1 and message in out, out
    (tmp_path / "games.csv").write_text("not,a,games,table\n1,2,3,4\n")
    code, out = arena("show", str(tmp_path), "0")
    assert code == 2 and out.count("\n") == 1 and "it has no meta.json" in out
    shutil.copy(run_dir / "meta.json", tmp_path / "meta.json")
    code, out = arena("show", str(tmp_path), "0")
    assert code == 2 and "cannot be read as a games table" in out


def test_the_board_size_comes_from_the_run(small_run: Path) -> None:
    games = load_recorded_games(small_run)
    assert {game.rules for game in games} == {Rules(rows=4, cols=4, connect=3)}
    assert all(game.row.opening == "12" for game in games)
    lines = move_lines(games[0])
    assert lines[0] == "  1. X column 1  (opening)" and "(opening)" not in lines[2]


def test_an_oracle_scores_every_move_against_the_best(small_run: Path) -> None:
    oracle = BruteForceOracle()
    for game in load_recorded_games(small_run):
        scores = [score for score in score_moves(game, oracle) if score is not None]
        assert [s.column for s in scores] == [int(c) - 1 for c in game.row.moves]
        for score, position in zip(scores, game.positions, strict=False):
            column_scores = oracle.column_scores(position)
            assert score.played == column_scores[score.column]
            assert score.best == max(column_scores.values())
        lines = move_lines(game, oracle)
        assert all("score" in line and "best" in line for line in lines)
    assert MoveScore(1, 0, 3, 3).verdict == ""
    assert MoveScore(1, 0, 1, 3).verdict == "inaccuracy"
    assert MoveScore(1, 0, 0, 3).verdict == "mistake"
    assert MoveScore(1, 0, -2, 0).verdict == "mistake"
    assert MoveScore(1, 0, -2, 3).verdict == "blunder"


def test_show_scores_grades_moves_with_the_solver_from_a_ply(small_run: Path) -> None:
    (game,) = load_recorded_games(small_run, [1])
    expected = move_lines(game, BruteForceOracle(), from_ply=3)
    code, output = arena("show", str(small_run), "1", "--scores", "--from-ply", "3")
    assert code == 0, output
    listed = [line for line in output.splitlines() if re.match(r" *\d+\. [XO] column", line)]
    assert listed == expected
    assert all("score" not in line for line in listed[:3])
    assert all("score" in line for line in listed[3:])


def test_show_scores_grades_every_move_of_a_6x7_game_by_default(run_dir: Path) -> None:
    """On the standard board the solver has the 12-ply database: the first move is graded
    too, against the empty board's published score (the first player wins with its 21st
    disc: +1)."""
    from arena.search.solver import SolverOracle

    (game,) = load_recorded_games(run_dir, [2])
    code, output = arena("show", str(run_dir), "2", "--scores")
    assert code == 0, output
    listed = [line for line in output.splitlines() if re.match(r" *\d+\. [XO] column", line)]
    assert listed == move_lines(game, SolverOracle(), from_ply=0)
    assert len(listed) == len(game.columns) and all("score" in line for line in listed)
    assert "(best +1)" in listed[0]


def test_show_scores_says_when_the_game_ends_before_the_first_graded_ply(small_run: Path) -> None:
    (game,) = load_recorded_games(small_run, [1])
    plies = len(game.columns)
    code, output = arena("show", str(small_run), "1", "--scores", "--from-ply", str(plies))
    assert code == 0, output
    assert (f"No move graded: the game has {plies} plies and moves are graded from ply {plies} "
            "on; --from-ply 2 grades the agents' moves.") in output.splitlines()
    assert " score " not in output
    code, output = arena("show", str(small_run), "1", "--scores", "--from-ply", "3")
    assert "No move graded" not in output


def test_every_termination_is_told_in_words() -> None:
    assert set(TERMINATION_WORDS) == set(Termination)


def test_the_brute_force_oracle_knows_a_win_in_one() -> None:
    # 4 x 4, connect 3: after 1122, X completes the bottom row 1-2-3 with its 3rd disc.
    scores = BruteForceOracle().column_scores(from_moves("1122", Rules(4, 4, 3)))
    assert scores[2] == (16 + 1 - 4) // 2 == max(scores.values())


def page_data(page: str) -> list[dict[str, object]]:
    match = re.search(r'<script id="games" type="application/json">(.*?)</script>', page,
                      re.S)
    assert match is not None
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def test_the_replay_page_is_self_contained_and_holds_the_games(run_dir: Path) -> None:
    code, out = arena("export", "html", str(run_dir), "1", "3")
    assert code == 0 and out.strip() == f"Wrote 2 games to {run_dir / 'replay.html'}"
    page = (run_dir / "replay.html").read_text()
    assert not re.search(r"https?:|//[a-z]|<link|src=|@import|url\(", page, re.I)
    games = load_recorded_games(run_dir, [1, 3])
    data = page_data(page)
    assert [(d["game"], d["moves"], d["x"], d["o"]) for d in data] == \
        [(g.game, g.row.moves, *g.players) for g in games]
    assert data[0]["line"] == [list(c) for c in games[0].positions[-1].winning_cells()]
    assert '<input id="ply" type="range"' in page
    assert 'addEventListener("keydown"' in page
    assert all(key in page for key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"))


def test_game_data_cannot_close_the_script_element(run_dir: Path) -> None:
    (game,) = load_recorded_games(run_dir, [0])
    hostile = dataclasses.replace(game, row=game.row._replace(error="</script><script>alert(1)"))
    page = replay_page([hostile], "t</title>", {player: player for player in game.players})
    assert "</script><script>alert" not in page and "t&lt;/title&gt;" in page
    assert page_data(page)[0]["result"].endswith("Error: </script><script>alert(1)")


def test_export_refuses_a_page_it_cannot_write(run_dir: Path, tmp_path: Path) -> None:
    code, out = arena("export", "html", str(run_dir), "--out", str(tmp_path / "no" / "p.html"))
    assert code == 2 and out.count("\n") == 1
    assert f"cannot write {tmp_path / 'no' / 'p.html'}: No such file or directory" in out


def test_export_takes_indices_and_ranges() -> None:
    assert parse_game_indices(()) is None
    assert parse_game_indices(("3", "10-12", "11")) == [3, 10, 11, 12]
    for bad in ("x", "3-", "5-2"):
        with pytest.raises(MalformedInputError):
            parse_game_indices((bad,))


@pytest.mark.slow
@pytest.mark.chromium
def test_a_real_browser_draws_the_board_at_the_ply_in_the_address(run_dir: Path,
                                                                  tmp_path: Path) -> None:
    browser = chromium()
    assert browser is not None, "CI must install Chromium (see .ci/run)"
    page = tmp_path / "replay.html"
    code, out = arena("export", "html", str(run_dir), "--out", str(page))
    assert code == 0, out
    game = load_recorded_games(run_dir, [2])[0]
    for ply in (5, len(game.row.moves)):
        dom = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
             f"{page.as_uri()}#game=2&ply={ply}"],
            capture_output=True, text=True, timeout=120, check=True).stdout
        cells = re.findall(r'<div class="cell( p[12])?( last| win)?" data-col="(\d)" '
                           r'data-row="(\d)"', dom)
        assert len(cells) == 42
        position = game.positions[ply]
        drawn = {(int(c), int(r)): int(p[-1]) if p else 0 for p, _, c, r in cells}
        assert drawn == {(c, r): position.cell(c, r) for c in range(7) for r in range(6)}
        marked = {(int(c), int(r)) for _, mark, c, r in cells if mark == " win"}
        assert marked == (set(position.winning_cells()) if ply == len(game.row.moves) else set())
        assert f"Ply {ply} of {len(game.row.moves)}" in dom
