"""``arena analyze --best-moves``: each graded move beside the exact scores of its position
(moves.csv) on hand-checked and benchmark positions and against BitBully, resumed after an
interruption, refused with the other option; the report's best-move rates and first losing
moves."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from arena.analysis.annotate import (
    analyse_game,
    analyse_run,
    load_analysis,
    load_moves,
    pending_games,
)
from arena.report.best_moves import best_move_rates
from arena.report.blunders import (
    Blunders,
    blunder_rates,
    first_losing_moves,
    first_loss_lines,
    phase_names,
)
from arena.report.llm_section import solver_rows
from arena.rules.errors import ArenaError
from arena.rules.notation import from_moves
from arena.runs.store.files import RunFiles
from arena.search.solver import solve
from tests.helpers.cli import invoke
from tests.helpers.paths import PONS
from tests.integration.test_analyze import MISSED_WIN, SMALL, STANDARD, recorded, write_run

SMALL_GAMES = ["13332244", "32141", "1111", "2345", "55552", "3131313"]


def solved_columns(moves: str) -> dict[int, int]:
    """The column scores ``arena solve --columns`` prints for ``moves`` on 6 x 7 (0-based)."""
    result = invoke("solve", "--columns", moves)
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines() if line}
    return {int(column) - 1: int(score)
            for column, score in zip(lines["column"], lines["score"], strict=True)
            if score != "-"}


def test_only_the_winning_column_is_a_best_move() -> None:
    """In the missed win, at ply 6 only column 1 wins (as ``arena solve --columns`` says):
    column 7 is not a best move; at ply 7 the win in column 2 is. Each move's score and the
    best score are those ``arena solve --columns`` prints."""
    _, blunders, moves = analyse_game(recorded("a", "", "loss"), STANDARD, 6, solve, solve)
    assert [move.ply for move in moves] == [6, 7]
    for move in moves:
        scores = solved_columns(MISSED_WIN[:move.ply])
        assert (move.score, move.best_score) == (scores[move.move - 1], max(scores.values()))
    missed, won = moves
    scores = solved_columns(MISSED_WIN[:6])
    assert [c for c, s in scores.items() if s == max(scores.values())] == [0]
    assert (missed.side, missed.agent, missed.move, missed.best_score, missed.best) == (
        "a", "x", 7, 18, 0)
    assert missed.score < 0
    assert (missed.before, missed.after) == ("win", "loss") == (blunders[0].before,
                                                               blunders[0].after)
    assert (won.side, won.move, won.best, won.score) == ("b", 2, 1, 18)
    assert (won.before, won.after) == ("loss", "loss")


def test_without_scores_no_move_is_graded_against_them() -> None:
    assert analyse_game(recorded("a", "", "loss"), STANDARD, 6, solve)[2] == []


def test_the_best_score_is_that_of_the_pons_benchmark(tmp_path: Path) -> None:
    """Games that reach Pons' end-game positions (Test_L3_R1) and play one more move: the best
    score of that position is the benchmark's, and the result before it its sign."""
    entries = [line.split() for line in (PONS / "Test_L3_R1").read_text().splitlines()[:8]]
    games = []
    for moves, _ in entries:
        position = from_moves(moves)
        games.append(("x", "y", "a", moves + str(position.legal_moves()[0] + 1)))
    run = tmp_path / "run"
    write_run(run, games, STANDARD)
    plies = min(len(moves) for moves, _ in entries)
    analyse_run(run, plies, pending_games(run, plies).games, best_moves=True)
    moves = load_moves(run)
    assert moves is not None
    for index, (position, score) in enumerate(entries):
        row = moves[(moves["game"] == index) & (moves["ply"] == len(position))].iloc[0]
        assert row["best_score"] == int(score), position
        for_mover = {"win": 1, "draw": 0, "loss": -1}[row["before"]] * (1 if row["side"] == "a"
                                                                         else -1)
        assert for_mover == (int(score) > 0) - (int(score) < 0), position
        assert row["best"] == (row["score"] == int(score))


@pytest.mark.bitbully
def test_the_best_flag_is_bitbully_s(tmp_path: Path) -> None:
    """Short 6 x 7 games graded from the first move: every move's scores are BitBully's, and
    it is a best move exactly when BitBully scores no column higher."""
    from bitbully import BitBully, Board

    run = tmp_path / "run"
    played = invoke("match", "negamax:depth=2", "random", "-n", "2", "--out", str(run),
                    "--quiet", "--no-report", "-j", "1")
    assert played.exit_code == 0, played.output
    result = invoke("analyze", str(run), "--best-moves", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    moves = load_moves(run)
    assert moves is not None
    games = pd.read_csv(RunFiles(run).games, dtype={"moves": str}).set_index("game")
    tables = load_analysis(run)
    assert tables is not None and len(moves) == int(
        (tables[0]["moves_a"] + tables[0]["moves_b"]).sum())
    theirs = BitBully()
    for row in moves.to_dict("records"):
        played_before = [int(c) - 1 for c in games.at[row["game"], "moves"][:row["ply"]]]
        expected = theirs.score_all_moves(Board.from_moves(played_before))
        top = max(expected.values())
        assert (row["score"], row["best_score"]) == (expected[row["move"] - 1], top)
        assert row["best"] == int(expected[row["move"] - 1] == top)


def test_an_interrupted_analysis_resumes_to_the_same_files(tmp_path: Path) -> None:
    games = [("x", "y", "a" if i % 2 else "b", moves) for i, moves in enumerate(SMALL_GAMES)]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    write_run(whole, games, SMALL)
    write_run(cut, games, SMALL)
    analyse_run(whole, 0, pending_games(whole, 0, True).games, best_moves=True)
    analyse_run(cut, 0, pending_games(cut, 0, True).games[:3], best_moves=True)
    with RunFiles(cut).moves.open("a") as handle:  # a game cut between the files
        handle.write("3,0,b,y,2,0,0,1,draw,draw\n3,1,a,x,3")
    todo, total, from_ply, best_moves = pending_games(cut)  # as it began
    assert [game.game for game in todo] == [3, 4, 5] and (total, from_ply, best_moves) == (
        6, 0, True)
    analyse_run(cut, from_ply, todo, best_moves=best_moves)
    for name in (RunFiles.ANALYSIS, RunFiles.BLUNDERS, RunFiles.MOVES):
        assert (cut / name).read_text() == (whole / name).read_text()
    plain = tmp_path / "plain"  # weak solves: the same results
    write_run(plain, games, SMALL)
    analyse_run(plain, 0, pending_games(plain, 0).games)
    for name in (RunFiles.ANALYSIS, RunFiles.BLUNDERS):
        assert (plain / name).read_text() == (whole / name).read_text()
    moves = load_moves(cut)
    assert moves is not None and moves["best"].isin([0, 1]).all()
    assert moves.groupby("game").size().tolist() == [len(m) for m in SMALL_GAMES]


def test_the_other_option_is_refused(tmp_path: Path) -> None:
    plain, best = tmp_path / "plain", tmp_path / "best"
    for run, with_scores in ((plain, False), (best, True)):
        write_run(run, [("x", "y", "a", "13332244"), ("x", "y", "b", "32141")], SMALL)
        analyse_run(run, 1, pending_games(run, 1).games[:1], best_moves=with_scores)
    assert not RunFiles(plain).moves.exists()
    with pytest.raises(ArenaError, match=r"was made with --best-moves; keep it, or delete "
                       r"analysis.csv, blunders.csv and moves.csv to start again$"):
        pending_games(best, best_moves=False)
    with pytest.raises(ArenaError, match=r"made with --from-ply 1; use that, or delete "
                       r"analysis.csv, blunders.csv and moves.csv"):
        pending_games(best, 2)
    refused = invoke("analyze", str(plain), "--best-moves", "-q")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and refused.stderr.endswith(
        "analysis.csv was made without --best-moves; leave it out, or delete analysis.csv "
        "and blunders.csv to start again\n"), refused.stderr
    assert not RunFiles(plain).moves.exists()


def test_an_analysis_interrupted_before_its_first_game_takes_new_options(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_run(run, [("x", "y", "a", "13332244")], SMALL)
    RunFiles(run).moves.write_text("game,ply\n")  # written before analysis.csv got its game
    assert pending_games(run, 1).best_moves is False and not RunFiles(run).moves.exists()


def test_the_command_and_the_report(tmp_path: Path) -> None:
    run = tmp_path / "run"
    played = invoke("match", "negamax:depth=2", "random", "-n", "4", "--rows", "4", "--cols",
                    "5", "--out", str(run), "--quiet", "--no-report", "-j", "1")
    assert played.exit_code == 0, played.output
    result = invoke("analyze", str(run), "--from-ply", "2", "--best-moves", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    moves = load_moves(run)
    assert moves is not None
    rates = best_move_rates(moves, 20).set_index(["agent", "phase"])
    for agent, label in (("negamax:depth=2", "negamax d2"), ("random", "random")):
        mine = moves[moves["agent"] == agent]
        line = next(line for line in result.stdout.splitlines() if line.startswith(label))
        assert line.endswith(f"; a best move {mine['best'].sum()} times "
                             f"({mine['best'].mean():.1%} [{rates.at[(agent, 'all'), 'low']:.1%}"
                             f", {rates.at[(agent, 'all'), 'high']:.1%}])")
    assert result.stdout.splitlines()[-1].endswith(
        "adds the blunders and best moves per agent and per phase to report.md")
    again = invoke("analyze", str(run), "-q")  # goes on with the options it began with
    assert again.exit_code == 0 and "a best move" in again.stdout
    report = invoke("report", str(run))
    assert report.exit_code == 0, report.output
    page = (run / "report.md").read_text()
    assert "## Best moves" in page and "![Best moves by phase](best-moves.png)" in page
    assert "### First losing moves" in page
    assert (run / "best-moves.png").stat().st_size > 0


def test_best_move_rates_count_every_move_by_phase() -> None:
    moves = pd.DataFrame({"agent": ["x", "x", "x", "y"], "ply": [0, 13, 30, 14],
                          "best": [1, 0, 1, 0]})
    rates = best_move_rates(moves, 42).set_index(["agent", "phase"])
    opening, middle, end = phase_names(42)
    assert rates.loc[("x", "all"), ["moves", "best"]].tolist() == [3, 2]
    assert rates.loc[("x", opening), ["moves", "best"]].tolist() == [2, 1]
    assert rates.loc[("x", end), "rate"] == 1.0 and ("x", middle) not in rates.index
    assert rates.loc[("y", middle), ["moves", "best", "rate"]].tolist() == [1, 0, 0.0]
    low, high = rates.loc[("x", "all"), ["low", "high"]]
    assert low == pytest.approx(0.2077, abs=1e-4) and high == pytest.approx(0.9385, abs=1e-4)


def test_first_losing_moves_per_agent_and_side() -> None:
    """x loses its result in two of its three games, y in its game against x; in x's game
    against itself, each side's first blunder counts."""
    analysis = pd.DataFrame({"game": [0, 1, 2], "agent_a": ["x", "x", "x"],
                             "agent_b": ["y", "x", "y"], "moves_a": [5, 5, 5],
                             "moves_b": [5, 5, 0]})
    blunders = pd.DataFrame({"game": [0, 0, 0, 1, 1], "side": ["a", "b", "a", "a", "b"],
                             "agent": ["x", "y", "x", "x", "x"], "ply": [4, 7, 20, 30, 9]})
    table = first_losing_moves(analysis, blunders, 42).set_index("agent")
    opening, middle, end = phase_names(42)
    assert table.loc["x", ["games", "losing", "median_ply"]].tolist() == [4, 3, 9]
    assert table.loc["x", [opening, middle, end]].tolist() == [2, 0, 1]
    assert table.loc["y", ["games", "losing", "rate", "median_ply"]].tolist() == [1, 1, 1.0,
                                                                                 7]
    empty = first_losing_moves(analysis, blunders.iloc[:0], 42).set_index("agent")
    assert empty["losing"].eq(0).all() and empty["median_ply"].isna().all()


def test_a_model_s_first_losing_move_is_one_figure_in_both_tables() -> None:
    """The model loses its result at ply 0 in one game and at ply 1 in the other: median ply
    0.5 (0-based, as the glossary counts plies), in the First losing moves section and in
    the Language models table alike."""
    analysis = pd.DataFrame({"game": [0, 1], "agent_a": ["llm:m", "llm:m"],
                             "agent_b": ["random", "random"], "first": ["a", "b"],
                             "graded_from": [0, 0], "plies": [6, 6], "moves_a": [3, 3],
                             "moves_b": [3, 3]})
    blunders = pd.DataFrame({"game": [0, 1], "side": ["a", "a"], "agent": ["llm:m", "llm:m"],
                             "ply": [0, 1]})
    graded = Blunders(analysis, blunder_rates(analysis, blunders, 42), 42,
                      first_losing_moves(analysis, blunders, 42))
    labels = {"llm:m": "m", "random": "random"}
    [model] = solver_rows(graded, None, ["llm:m"], labels)
    assert model[-1] == "0.5"
    section = first_loss_lines(graded, labels)
    assert "median ply" in section[-1].splitlines()[0]
    assert section[-1].splitlines()[2].split(" | ")[3] == "0.5"
