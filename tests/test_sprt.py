"""`arena sprt`: batches of game pairs until the LLR crosses a bound, resumable, reproducible."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click
import pandas as pd
import pytest

from arena.cli import ArenaGroup
from arena.cli.sprt import SprtProgressBar, sprt_command
from arena.competitions.sprt import (
    DEFAULT_SPRT_DIR,
    NO_DECISION,
    SPRT_COLUMNS,
    SprtSetupError,
    SprtTest,
    check_sprt_plan,
    default_sprt_dir,
    run_sprt,
    sprt_plan,
)
from arena.runs.directory import RunDirectoryError
from arena.runs.openings import load_openings
from arena.runs.plan import GameSettings, MatchPlan, Pairing
from arena.runs.rows import load_games
from arena.runs.runner import run_games
from arena.stats.elo import NELO_SCALE, pentanomial, pentanomial_counts, sprt_bounds, sprt_llr
from tests.helpers.cli import invoke
from tests.helpers.runs import LEFTMOST_AGENT, games_without_timing

STRONG, WEAK = "immediate-win", "random"
# immediate-win scores about 75% against random: H1 of [0, 50] nElo is accepted after some
# 30 pairs, H0 (random is 50 nElo stronger) after about as many.
H0_H1 = SprtTest(0.0, 50.0, batch_pairs=5)


TWINS = ("negamax:depth=1", "negamax:depth=1,tt=false")
"""Two agents that play alike (an SPRT refuses one agent against itself)."""


def plan(a: str = STRONG, b: str = WEAK, max_games: int = 400, seed: int = 7) -> MatchPlan:
    return sprt_plan(a, b, max_games=max_games, openings="random:8",
                     settings=GameSettings(seed=seed))


def sprt_rows(directory: Path) -> pd.DataFrame:
    return pd.read_csv(directory / "sprt.csv")


# --- the library ------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "verdict"), [(STRONG, WEAK, "accept H1"),
                                                 (WEAK, STRONG, "accept H0")])
def test_the_test_stops_at_the_first_batch_past_a_bound(tmp_path: Path, a: str, b: str,
                                                        verdict: str) -> None:
    run = run_sprt(plan(a, b), H0_H1, tmp_path)
    rows = sprt_rows(tmp_path)
    assert tuple(rows.columns) == SPRT_COLUMNS
    assert len(rows) >= 3  # the test does not stop on the first look
    inside, last = rows.iloc[:-1], rows.iloc[-1]
    assert ((inside["lower"] < inside["llr"]) & (inside["llr"] < inside["upper"])).all()
    assert (inside["verdict"] == "continue").all()
    assert last["verdict"] == verdict == run.last.verdict
    assert (last["llr"] >= last["upper"]) if verdict == "accept H1" else \
        (last["llr"] <= last["lower"])
    assert list(rows["batch"]) == list(range(1, len(rows) + 1))
    assert list(rows["games"]) == [10 * batch for batch in rows["batch"]]
    assert list(rows["pairs"]) == [5 * batch for batch in rows["batch"]]
    games = load_games(tmp_path / "games.csv")  # not one game past the deciding batch
    assert sorted(games["game"]) == list(range(last["games"]))
    assert run.match.played == last["games"] == run.summary.games


def test_each_row_holds_the_statistics_of_the_games_before_it(tmp_path: Path) -> None:
    test = SprtTest(-10.0, 40.0, alpha=0.1, beta=0.02, model="logistic", batch_pairs=4)
    run_sprt(plan(), test, tmp_path)
    games = load_games(tmp_path / "games.csv")
    bounds = sprt_bounds(0.1, 0.02)
    for row in sprt_rows(tmp_path).itertuples():
        first = games[games["game"] < row.games]
        pairs = first.groupby("pair")["result"].apply(tuple)
        assert len(pairs) == row.pairs and all(len(pair) == 2 for pair in pairs)
        estimate = pentanomial(pentanomial_counts(pairs))
        assert row.llr == pytest.approx(sprt_llr(estimate, -10.0, 40.0, "logistic"), abs=1e-12)
        assert (row.lower, row.upper) == pytest.approx((bounds.lower, bounds.upper))
        assert (row.ll, row.ld, row.wl, row.dd, row.wd, row.ww) == estimate.counts
        assert (row.elo, row.nelo) == pytest.approx((estimate.elo, estimate.nelo))
        assert (row.elo_low, row.elo_high) == pytest.approx(
            (estimate.elo_interval.low, estimate.elo_interval.high))
        assert row.interval == estimate.interval_method
        assert row.llr_method == "exact"


def test_the_maximum_ends_the_test_without_a_decision(tmp_path: Path) -> None:
    run = run_sprt(plan(*TWINS, max_games=36), SprtTest(0.0, 50.0, batch_pairs=5), tmp_path)
    rows = sprt_rows(tmp_path)
    assert list(rows["games"]) == [10, 20, 30, 36]  # the last batch is what is left
    assert list(rows["verdict"]) == ["continue"] * 3 + [NO_DECISION]
    assert ((rows["lower"] < rows["llr"]) & (rows["llr"] < rows["upper"])).all()
    assert run.last.verdict == NO_DECISION and not run.last.decided
    llr = rows["llr"].iloc[-1]
    assert run.conclusion() == (f"No decision after 36 games, the maximum: the LLR {llr:.2f} "
                                "stayed between -2.94 and 2.94")


def test_pairs_that_all_score_the_same_lean_to_h0(tmp_path: Path) -> None:
    specs = []
    for name in ("leftmost.py", "twin.py"):  # one agent twice: each pair is a win and a loss,
        (tmp_path / name).write_text(LEFTMOST_AGENT)  # or two draws
        specs.append(f"{tmp_path / name}:Leftmost")
    run = run_sprt(plan(*specs, max_games=20), H0_H1, tmp_path / "run")
    rows = sprt_rows(tmp_path / "run")
    assert (rows["wl"] + rows["dd"] == rows["pairs"]).all()
    assert (rows["llr_method"] == "exact").all()
    assert (rows["llr"] < 0).all()
    for row in rows.itertuples():
        estimate = pentanomial((0, 0, row.wl, row.dd, 0, 0))
        assert row.llr == pytest.approx(sprt_llr(estimate, 0, 50), abs=1e-12)
    assert list(rows["verdict"]) == ["continue", NO_DECISION]
    assert run.conclusion().startswith("No decision after 20 games, the maximum")
    # The approximation: empty classes count 1e-3 (as in fishtest, WL and DD being one class),
    # so the score stays 1/2, t = 0, and the LLR is (games/2) ln(1 / (1 + t1^2)) with
    # games = 2 (pairs + 4e-3) and t1 = 50 nElo / (800 / ln 10).
    approximate = SprtTest(0.0, 50.0, batch_pairs=5, llr="approximate")
    run_sprt(plan(*specs, max_games=20), approximate, tmp_path / "approximate")
    rows = sprt_rows(tmp_path / "approximate")
    assert (rows["llr_method"] == "approximate").all()
    t1 = 50 / NELO_SCALE
    assert list(rows["llr"]) == pytest.approx([(pairs + 4e-3) * math.log(1 / (1 + t1**2))
                                               for pairs in (5, 10)], rel=1e-12)


@pytest.mark.parametrize(("a", "b", "test", "conclusion"), [
    (STRONG, WEAK, SprtTest(0, 50, batch_pairs=5),
     "H1 accepted: immediate-win is stronger than random"),
    (STRONG, WEAK, SprtTest(10, 60, batch_pairs=5),
     "H1 accepted: immediate-win is more than 10 nElo stronger than random"),
    (STRONG, WEAK, SprtTest(-20, 0, model="logistic", batch_pairs=5),
     "H1 accepted: immediate-win is less than 20 Elo weaker than random"),
    (WEAK, STRONG, SprtTest(0, 50, batch_pairs=5),
     "H0 accepted: random is not 50 nElo stronger than immediate-win"),
    (WEAK, STRONG, SprtTest(-50, 0, batch_pairs=5),
     "H0 accepted: random is not stronger than immediate-win"),
    (WEAK, STRONG, SprtTest(-100, -50, model="logistic", batch_pairs=5),
     "H0 accepted: random is more than 50 Elo weaker than immediate-win"),
])
def test_the_conclusion_says_which_agent_is_stronger(tmp_path: Path, a: str, b: str,
                                                     test: SprtTest, conclusion: str) -> None:
    assert run_sprt(plan(a, b), test, tmp_path).conclusion() == conclusion


def test_the_workers_do_not_change_where_the_test_stops(tmp_path: Path) -> None:
    test = SprtTest(0.0, 30.0, batch_pairs=3)
    one = run_sprt(plan(), test, tmp_path / "one", jobs=1)
    two = run_sprt(plan(), test, tmp_path / "two", jobs=2)
    one_csv, two_csv = (tmp_path / name / "sprt.csv" for name in ("one", "two"))
    assert one_csv.read_text() == two_csv.read_text()
    assert games_without_timing(tmp_path / "one") == games_without_timing(tmp_path / "two")
    assert one.last.batch == two.last.batch > 1


def test_an_interrupted_test_resumes_and_ends_as_one_run(tmp_path: Path) -> None:
    reference = run_sprt(plan(), H0_H1, tmp_path / "whole")
    assert reference.last.batch >= 3

    def interrupt(step: Any) -> None:
        if step.batch == 2:
            raise KeyboardInterrupt

    broken = tmp_path / "broken"
    with pytest.raises(KeyboardInterrupt):
        run_sprt(plan(), H0_H1, broken, on_step=interrupt)
    games_csv = broken / "games.csv"
    lines = games_csv.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 20
    games_csv.write_text("".join(lines[:14]) + lines[14][:9])  # batch 2 half played
    again = run_sprt(plan(), H0_H1, broken, jobs=2)
    assert again.match.played == reference.last.estimate.games - 13
    whole_csv = (tmp_path / "whole" / "sprt.csv").read_text()
    assert (broken / "sprt.csv").read_text() == whole_csv
    assert games_without_timing(broken) == games_without_timing(tmp_path / "whole")
    replay = run_sprt(plan(), H0_H1, broken)  # a decided test plays nothing
    assert replay.match.played == 0 and replay.conclusion() == reference.conclusion()
    assert (broken / "sprt.csv").read_text() == whole_csv
    meta = json.loads((broken / "meta.json").read_text())
    assert meta["run"]["sprt_elo1"] == 50.0 and meta["run"]["games"] == 400
    assert [s.get("games_played") for s in meta["sessions"]] == [None, again.match.played, 0]


def test_another_test_or_a_match_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    run_sprt(plan(), H0_H1, tmp_path)
    before = (tmp_path / "games.csv").read_text()
    for other in (SprtTest(0.0, 40.0, batch_pairs=5), SprtTest(0.0, 50.0, batch_pairs=6),
                  SprtTest(0.0, 50.0, model="logistic", batch_pairs=5)):
        with pytest.raises(RunDirectoryError, match=r"holds a different run .*sprt_"):
            run_sprt(plan(), other, tmp_path)
    # nor is the same test with the other LLR: one run never mixes the two
    with pytest.raises(RunDirectoryError, match=r'sprt_llr "exact" there, "approximate" here'):
        run_sprt(plan(), SprtTest(0.0, 50.0, batch_pairs=5, llr="approximate"), tmp_path)
    with pytest.raises(RunDirectoryError, match=r"sprt_alpha 0\.05 there, none here"):
        run_games(plan(), tmp_path)
    assert (tmp_path / "games.csv").read_text() == before


def test_the_default_directory_names_the_games_and_the_test() -> None:
    directory = default_sprt_dir(plan(), H0_H1)
    assert directory.parent == DEFAULT_SPRT_DIR
    assert directory.name.startswith("immediate-win-vs-random_seed7_")
    assert default_sprt_dir(plan(), SprtTest(0, 40, batch_pairs=5)) != directory
    assert default_sprt_dir(plan(), SprtTest(0, 50, batch_pairs=5, llr="approximate")) \
        != directory
    assert default_sprt_dir(plan(), H0_H1) == directory
    assert H0_H1.describe()["sprt_llr"] == "exact"


@pytest.mark.parametrize(("arguments", "message"), [
    ({"elo0": 5, "elo1": 5}, "expected finite elo0 < elo1, got elo0 5, elo1 5"),
    ({"elo0": 0, "elo1": math.inf}, "expected finite elo0 < elo1"),
    ({"alpha": 0}, "alpha must lie strictly between 0 and 1, got 0"),
    ({"beta": 1.5}, "beta must lie strictly between 0 and 1, got 1.5"),
    ({"alpha": 0.6, "beta": 0.5}, "alpha + beta must be below 1"),
    ({"model": "bayes"}, "model 'bayes': expected one of normalized, logistic"),
    ({"llr": "guess"}, "LLR method 'guess': expected one of exact, approximate"),
    ({"model": "logistic", "elo1": 7000}, "elo1 7000 Elo is out of the logistic model's range"),
    ({"batch_pairs": 0}, "pairs per batch must be a whole number >= 1, got 0"),
])
def test_bad_tests_are_refused(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(SprtSetupError, match=message.replace("+", r"\+")):
        SprtTest(**{"elo0": 0, "elo1": 5, **arguments})


@pytest.mark.parametrize(("max_games", "openings", "message"), [
    (401, "random:8", "must be even and at least 2 .* got 401"),
    (0, "random:8", "must be even and at least 2 .* got 0"),
    (400, "none", "openings 'none': an SPRT plays game pairs"),
])
def test_bad_plans_are_refused(max_games: int, openings: str, message: str) -> None:
    with pytest.raises(SprtSetupError, match=message):
        sprt_plan(STRONG, WEAK, max_games=max_games, openings=openings)


def test_plans_made_elsewhere_must_be_whole_pairs_of_one_pairing(tmp_path: Path) -> None:
    settings = GameSettings()
    book = load_openings("random:2", settings.rules, settings.seed)
    for pairings in ((Pairing(STRONG, WEAK, 10, "a"),),
                     (Pairing(STRONG, WEAK, 10), Pairing(WEAK, STRONG, 10))):
        with pytest.raises(SprtSetupError, match="an SPRT plays"):
            check_sprt_plan(MatchPlan(pairings, settings, book))
    with pytest.raises(SprtSetupError, match="whole game pairs"):
        run_sprt(MatchPlan((Pairing(STRONG, WEAK, 10),), settings), H0_H1, tmp_path)
    assert not tmp_path.joinpath("games.csv").exists()


class StopAfter:
    """A stopping rule that stops after ``stages`` stages of 7 games, noting what it is asked."""

    stage = 7

    def __init__(self, stages: int, name: str = "stop after"):
        self.stages, self.name, self.asked = stages, name, list[int]()

    def describe(self) -> dict[str, Any]:
        return {"rule": self.name}

    def stop(self, games: int) -> bool:
        self.asked.append(games)
        return len(self.asked) == self.stages


def test_run_games_plays_stage_by_stage_and_replays_finished_stages(tmp_path: Path) -> None:
    rule = StopAfter(stages=3)
    run = run_games(plan(*TWINS, max_games=40), tmp_path, stopping=rule, jobs=2)
    assert rule.asked == [7, 14, 21] and run.played == 21
    assert sorted(load_games(tmp_path / "games.csv")["game"]) == list(range(21))
    assert json.loads((tmp_path / "meta.json").read_text())["run"]["rule"] == "stop after"
    rule = StopAfter(stages=9)  # asked about the finished stages again, then to the end
    run = run_games(plan(*TWINS, max_games=40), tmp_path, stopping=rule)
    assert rule.asked == [7, 14, 21, 28, 35, 40] and run.played == 19
    with pytest.raises(RunDirectoryError, match="rule \"stop after\" there, \"other\" here"):
        run_games(plan(*TWINS, max_games=40), tmp_path, stopping=StopAfter(1, "other"))


# --- the command ------------------------------------------------------------------------


@pytest.fixture
def arena() -> click.Group:
    """An `arena` group holding `sprt`, with the group's one-line errors and exit status 2."""
    return ArenaGroup("arena", commands=[sprt_command])


def test_the_command_prints_the_verdict_and_writes_the_chart(arena: click.Group,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [STRONG, WEAK, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5", "-j", "1",
            "--max-games", "400", "--out", str(out)]
    result = invoke("sprt", *args, command=arena)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    last = sprt_rows(out).iloc[-1]
    games = int(last["games"])
    assert lines[0].startswith(f"{STRONG} [") and lines[0].endswith(f"] {WEAK} ({games})")
    assert lines[1] == f"H1 accepted: {STRONG} is stronger than {WEAK}"
    table = dict(line.split(maxsplit=1) for line in lines[2:])
    assert list(table) == ["Games", "Score", "Elo", "nElo", "LOS", "Intervals", "SPRT", "LLR",
                           "Bounds", "Verdict", "Batches", "Output", "Report"]
    assert table["Games"].startswith(f"{games}  ({games // 2} pairs: LL ")
    assert table["Intervals"].endswith(f"pentanomial variance of {games // 2} game pairs")
    assert table["SPRT"] == "H0 nElo 0.00, H1 nElo 50.00 (normalized model)"
    assert table["LLR"] == f"{last['llr']:.2f} (exact)" and table["Bounds"] == "-2.94, 2.94"
    assert table["Verdict"] == "accept H1"
    assert table["Batches"] == f"{last['batch']} (5 pairs each); at most 400 games"
    assert table["Output"] == str(out) and table["Report"] == str(out / "report.md")
    assert (out / "sprt.png").stat().st_size > 0
    assert "## SPRT" in (out / "report.md").read_text()
    again = invoke("sprt", *args, "--no-report", "-j", "2",
                   command=arena)  # resumes: nothing left to play
    assert again.exit_code == 0
    assert again.stdout.splitlines() == lines[:-1]


def test_the_approximate_llr_is_asked_for_and_recorded(arena: click.Group,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [STRONG, WEAK, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5", "-j", "1",
            "--max-games", "40", "--no-report", "--out", str(out)]
    result = invoke("sprt", *args, "--llr", "approximate", command=arena)
    assert result.exit_code == 0, result.output
    rows = sprt_rows(out)
    assert (rows["llr_method"] == "approximate").all()
    assert f"LLR         {rows['llr'].iloc[-1]:.2f} (approximate)\n" in result.stdout
    assert json.loads((out / "meta.json").read_text())["run"]["sprt_llr"] == "approximate"
    resumed = invoke("sprt", *args, command=arena)  # the default, exact: another test
    assert resumed.exit_code == 2
    assert 'sprt_llr "approximate" there, "exact" here' in resumed.output


def test_without_a_decision_the_command_says_so(arena: click.Group, tmp_path: Path) -> None:
    result = invoke("sprt", *TWINS, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5",
                    "--max-games", "20", "--no-report", "--out", str(tmp_path / "run"),
                    command=arena)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("No decision after 20 games, the maximum")
    assert "Verdict     no decision\n" in result.stdout
    assert not (tmp_path / "run" / "report.md").exists()


BAD_INPUT = [
    (["--elo0", "5", "--elo1", "5"], "expected finite elo0 < elo1"),
    (["--elo0", "0", "--elo1", "5", "--alpha", "1.5"], "1.5 is not in the range 0.0<x<1.0"),
    (["--elo0", "0", "--elo1", "5", "--alpha", "0.5", "--beta", "0.5"], "alpha + beta"),
    (["--elo1", "5"], "Missing option '--elo0'"),
    (["--elo0", "0", "--elo1", "5", "--model", "bayes"], "'bayes' is not one of"),
    (["--elo0", "0", "--elo1", "5", "--llr", "guess"], "'guess' is not one of"),
    (["--elo0", "0", "--elo1", "7000", "--model", "logistic"], "out of the logistic model"),
    (["--elo0", "0", "--elo1", "5", "--max-games", "101"], "must be even and at least 2"),
    (["--elo0", "0", "--elo1", "5", "--max-games", "0"], "0 is not in the range x>=2"),
    (["--elo0", "0", "--elo1", "5", "--batch-pairs", "0"], "0 is not in the range x>=1"),
    (["--elo0", "0", "--elo1", "5", "--openings", "none"], "an SPRT plays game pairs"),
    (["--elo0", "0", "--elo1", "5", "--scheduler", "tcp://x:1"], "only with --backend dask"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_status_2(arena: click.Group, tmp_path: Path,
                                                 args: list[str], message: str) -> None:
    out = tmp_path / "run"
    result = invoke("sprt", STRONG, WEAK, *args, "--out", str(out), command=arena)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: ")
    assert message in result.stderr
    assert not out.exists()


def test_an_interrupted_command_says_how_to_resume(arena: click.Group, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.cli.sprt.run_sprt", interrupted)
    result = invoke("sprt", STRONG, WEAK, "--elo0", "0", "--elo1", "5", "--max-games", "100",
                    "--out", str(tmp_path / "run"), command=arena)
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == (f"arena: interrupted with 0 of 100 games in "
                             f"{tmp_path / 'run'}; run the same command to finish\n")


def test_an_unknown_agent_is_refused_before_any_game(arena: click.Group, tmp_path: Path) -> None:
    result = invoke("sprt", "nosuch", WEAK, "--elo0", "0", "--elo1", "5", "--out",
                    str(tmp_path / "run"), command=arena)
    assert result.exit_code == 2 and "unknown agent 'nosuch'" in result.stderr
    assert not (tmp_path / "run").exists()


def test_the_progress_bar_shows_the_llr(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    with SprtProgressBar(enabled=True) as bar:
        run_sprt(plan(), H0_H1, tmp_path, progress=bar, on_step=bar.step)
    shown = capsys.readouterr().err
    last = sprt_rows(tmp_path).iloc[-1]
    assert f"LLR {last['llr']:.2f} [-2.94, 2.94]" in shown
    assert f"{int(last['games'])}/400" in shown
