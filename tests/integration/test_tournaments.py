"""Tournaments: pairings, reproducible and resumable runs, crosstable, ratings, the command."""

from __future__ import annotations

import math
from pathlib import Path

import click
import pandas as pd
import pytest

from arena.cli import ArenaGroup
from arena.cli.tournament import tournament_command
from arena.competitions.tournaments import (
    CROSSTABLE_COLUMNS,
    TournamentError,
    crosstable,
    resolve_anchor,
    run_tournament,
    tournament_pairings,
    tournament_plan,
)
from arena.runs.planning.plan import MatchPlan, Pairing
from arena.runs.planning.request import RunRequest
from arena.runs.playing.progress import TournamentProgressBar
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from arena.stats.elo import elo_from_score
from arena.stats.tally import Tally
from tests.helpers.cli import invoke
from tests.helpers.runs import games_without_timing

CHEAP = ["random", "immediate-win", "immediate-win:block=true"]
REQUEST = RunRequest(seed=7)


@pytest.fixture
def arena() -> click.Group:
    """An `arena` group holding the tournament command, with one-line errors."""
    return ArenaGroup("arena", commands=[tournament_command])


def test_a_round_robin_pairs_every_two_agents_once_and_a_gauntlet_the_first_with_each() -> None:
    agents = ["w", "x", "y", "z"]
    robin = [(p.agent_a, p.agent_b) for p in tournament_pairings(agents, 4)]
    assert robin == [("w", "x"), ("w", "y"), ("w", "z"), ("x", "y"), ("x", "z"), ("y", "z")]
    gauntlet = tournament_pairings(agents, 4, gauntlet=True)
    assert [(p.agent_a, p.agent_b) for p in gauntlet] == [("w", "x"), ("w", "y"), ("w", "z")]
    assert {(p.games, p.first) for p in gauntlet} == {(4, "alternate")}


@pytest.mark.parametrize(("agents", "games", "message"), [
    (["random"], 2, "at least two agents, got 1"),
    (["random", "immediate-win"], 3, "must be even so that colours are balanced, got 3"),
])
def test_too_few_agents_or_odd_games_are_refused(agents: list[str], games: int,
                                                 message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        tournament_pairings(agents, games)


def test_an_agent_given_twice_under_two_spellings_is_refused() -> None:
    with pytest.raises(TournamentError, match=r"'negamax' is given twice \('negamax' and "
                                              r"'negamax:depth=4'\)"):
        tournament_plan(["negamax", "random", "negamax:depth=4"], 2, REQUEST)


def test_the_anchor_is_random_when_it_plays_else_none_and_must_be_an_agent() -> None:
    assert resolve_anchor(None, ["negamax", "random"]) == "random"
    assert resolve_anchor(None, ["negamax", "immediate-win"]) is None
    assert resolve_anchor("negamax:depth=4", ["negamax", "random"]) == "negamax"
    with pytest.raises(TournamentError, match="anchor 'minimax' is not one of the agents "
                                              r"\(negamax, random\)"):
        resolve_anchor("minimax", ["negamax", "random"])


def test_the_crosstable_counts_each_side_from_its_own_point_of_view() -> None:
    games = pd.DataFrame(
        [("p", "q", "win"), ("q", "p", "win"), ("p", "q", "draw"), ("p", "r", "loss"),
         ("p", "p", "win")],  # self-play is left out
        columns=["agent_a", "agent_b", "result"])
    table = crosstable(games, ["r", "p", "q"])
    assert list(table.columns) == list(CROSSTABLE_COLUMNS)
    rows = {(r["agent"], r["opponent"]): (r["games"], r["wins"], r["draws"], r["losses"],
                                          r["points"], r["score"])
            for r in table.to_dict("records")}
    assert list(rows) == [("r", "p"), ("p", "r"), ("p", "q"), ("q", "p")]
    assert rows[("p", "q")] == (3, 1, 1, 1, 1.5, 0.5)
    assert rows[("q", "p")] == (3, 1, 1, 1, 1.5, 0.5)
    assert rows[("p", "r")] == (1, 0, 0, 1, 0.0, 0.0)
    assert rows[("r", "p")] == (1, 1, 0, 0, 1.0, 1.0)


def test_two_agents_play_the_match_and_rate_as_its_elo(tmp_path: Path) -> None:
    plan = tournament_plan(["immediate-win", "random"], 60, REQUEST)
    alone = MatchPlan((Pairing("immediate-win", "random", 60),), REQUEST.settings())
    assert plan.describe() == alone.describe()
    done = run_tournament(plan, tmp_path / "t")
    match = run_games(plan, tmp_path / "m")
    assert games_without_timing(tmp_path / "t") == games_without_timing(tmp_path / "m")
    [summary] = match.summaries
    rating = dict(zip(done.standings.ratings["agent"], done.standings.ratings["rating"],
                      strict=True))
    difference = float(rating["immediate-win"] - rating["random"])
    # The ratings' prior adds one virtual draw between the two agents.
    points = summary.wins + summary.draws / 2
    assert difference == pytest.approx(elo_from_score((points + 0.5) / (summary.games + 1)))
    assert 0 < difference < summary.estimate.elo < difference + 15
    assert done.anchor == "random" and rating["random"] == 0
    assert list(done.standings.ratings["games"]) == [60, 60]


def test_a_round_robin_gives_the_same_games_and_tables_with_one_or_two_jobs(
        tmp_path: Path) -> None:
    plan = tournament_plan(CHEAP, 8, REQUEST)
    one = run_tournament(plan, tmp_path / "one", RunRequest(jobs=1))
    two = run_tournament(plan, tmp_path / "two", RunRequest(jobs=2))
    assert games_without_timing(tmp_path / "one") == games_without_timing(tmp_path / "two")
    for name in ("ratings.csv", "crosstable.csv"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    assert one.run.played == two.run.played == 24
    ratings = one.standings.ratings
    assert list(ratings.columns) == ["rank", "agent", "rating", "low", "high", "games", "score"]
    assert set(ratings["agent"]) == set(CHEAP) and set(ratings["games"]) == {16}
    assert (ratings["low"] <= ratings["rating"]).all()
    assert (ratings["rating"] <= ratings["high"]).all()
    table = one.standings.crosstable
    assert len(table) == 6 and set(table["games"]) == {8}
    assert table["agent"].tolist()[::2] == ratings["agent"].tolist()  # in rating order


def test_a_partial_tournament_resumes_to_the_same_games(tmp_path: Path) -> None:
    plan = tournament_plan(CHEAP, 6, REQUEST)
    run_tournament(plan, tmp_path / "full")
    part = tmp_path / "part"
    run_tournament(plan, part)
    lines = (part / "games.csv").read_text().splitlines(keepends=True)
    (part / "games.csv").write_text("".join(lines[:8]) + lines[8][:10])  # cut mid-row
    resumed = run_tournament(plan, part)
    assert resumed.run.played == 18 - 7
    assert sorted(games_without_timing(part), key=lambda row: row["game"]) == \
        games_without_timing(tmp_path / "full")
    assert (part / "ratings.csv").read_text() == (tmp_path / "full" / "ratings.csv").read_text()


def test_a_gauntlet_plays_the_first_agent_against_each_other_one_only(tmp_path: Path) -> None:
    plan = tournament_plan(["immediate-win:block=true", *CHEAP[:2]], 4, REQUEST, gauntlet=True)
    done = run_tournament(plan, tmp_path / "g", anchor="immediate-win")
    games = load_games(tmp_path / "g" / "games.csv")
    assert set(games["agent_a"]) == {"immediate-win:block=true"}
    assert games["agent_b"].value_counts().to_dict() == {"immediate-win": 4, "random": 4}
    assert (games["first"] == "a").sum() == 4  # colours alternate within each pairing
    pairs = set(zip(done.standings.crosstable["agent"], done.standings.crosstable["opponent"],
                    strict=True))
    assert ("immediate-win", "random") not in pairs and len(pairs) == 4
    ratings = done.standings.ratings
    anchored = ratings[ratings["agent"] == "immediate-win"]
    assert done.anchor == "immediate-win"
    assert anchored[["rating", "low", "high"]].to_numpy().tolist() == [[0, 0, 0]]


def test_without_random_or_an_anchor_the_ratings_average_zero(tmp_path: Path) -> None:
    plan = tournament_plan(CHEAP[1:], 4, REQUEST)
    done = run_tournament(plan, tmp_path / "t")
    assert done.anchor is None
    assert math.isclose(done.standings.ratings["rating"].sum(), 0, abs_tol=1e-9)


def test_a_bad_anchor_is_refused_before_any_game(tmp_path: Path) -> None:
    plan = tournament_plan(CHEAP, 2, REQUEST)
    with pytest.raises(TournamentError, match="anchor 'negamax'"):
        run_tournament(plan, tmp_path / "t", anchor="negamax")
    assert not (tmp_path / "t").exists()


def test_the_command_prints_results_crosstable_and_ratings(arena: click.Group,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = invoke("tournament", *CHEAP, "-n", "10", "-j", "1",
                    "--seed", "3", "--no-report", "--out", str(out), command=arena)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("random [") and lines[0].endswith("] immediate-win (10)")
    assert lines[4] == "Crosstable (row agent against column agent):"
    assert lines[5].split() == ["W-D-L", "score", "1", "2", "3"]
    ratings = pd.read_csv(out / "ratings.csv")
    labels = {"random": "random", "immediate-win": "immediate-win",
              "immediate-win:block=true": "immediate-win block"}
    for rank, agent in enumerate(ratings["agent"], start=1):
        assert lines[5 + rank].startswith(f"{rank}. {labels[agent]} ")
    assert lines[10] == "Ratings (Elo; random = 0; 95% bootstrap intervals):"
    assert lines[11].split() == ["rank", "agent", "Elo", "95%", "interval", "games", "score"]
    random_row = next(line for line in lines[12:15] if " random " in line)
    assert random_row.split()[2:] == ["+0", "[+0,", "+0]", "20", f"{ratings['score'].iat[-1]:.1%}"]
    assert lines[-1].split() == ["Output", str(out)]
    assert not (out / "report.md").exists()
    again = invoke("tournament", *CHEAP, "-n", "10", "-j", "1", "--seed",
                   "3", "--no-report", "--out", str(out), command=arena)
    assert again.stdout == result.stdout


@pytest.mark.slow
def test_the_command_writes_the_report_with_ratings(arena: click.Group, tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = invoke("tournament", *CHEAP, "-n", "2", "-j", "1", "-q",
                    "--out", str(out), command=arena)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].split() == ["Report", str(out / "report.md")]
    page = (out / "report.md").read_text()
    assert "## Ratings" in page and "ratings.png" in page and "crosstable.png" in page


def test_the_progress_bar_counts_games_without_a_meaningless_w_t_l(
        capsys: pytest.CaptureFixture[str], bars_seen: None) -> None:
    with TournamentProgressBar(enabled=True) as bar:
        bar.start(total=10, finished=3)
        bar.advance(2, Tally(2, 0, 0))
    shown = capsys.readouterr().err
    assert bar.finished == 5 and "5/10" in shown and "W/D/L" not in shown


@pytest.mark.parametrize(("args", "message"), [
    (["random", "-n", "2"], "a tournament needs at least two agents, got 1"),
    (["random", "immediate-win", "-n", "3"], "must be even"),
    (["random", "immediate-win", "-n", "2", "--anchor", "negamax"], "anchor 'negamax'"),
    (["random", "random", "-n", "2"], "'random' is given twice"),
    (["random", "nosuch", "-n", "2"], "unknown agent 'nosuch'"),
    (["random", "immediate-win", "-n", "2", "--swiss", "0"], "'--swiss': 0 is not in the range"),
    (["random", "-n", "2", "--knockout"], "a tournament needs at least two agents, got 1"),
    (["random", "-n", "2", "--swiss", "1"], "a tournament needs at least two agents, got 1"),
    (["random", "immediate-win", "-n", "2", "--swiss", "2", "--knockout"],
     "give one of --gauntlet, --swiss and --knockout"),
    (["random", "immediate-win", "-n", "2", "--knockout", "--anchor", "negamax"],
     "anchor 'negamax'"),
    (["random", "immediate-win", "-n", "2", "--format", "swiss"],
     "a tournament's format is --gauntlet, --swiss ROUNDS or --knockout"),
])
def test_bad_input_is_one_line_and_exit_status_2(arena: click.Group, tmp_path: Path,
                                                 args: list[str], message: str) -> None:
    out = tmp_path / "t"
    result = invoke("tournament", *args, "-j", "1", "--out", str(out), command=arena)
    assert result.exit_code == 2
    assert result.stderr.startswith("arena: error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr
    assert not out.exists()
