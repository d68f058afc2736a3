"""SPRTs: batches of game pairs until the LLR crosses a bound, resumable, reproducible (the
`arena sprt` command: tests/cli/test_sprt_cli.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

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
from arena.runs.planning.openings import load_openings
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games
from arena.runs.store.directory import RunDirectoryError
from arena.runs.store.reading import load_games
from arena.stats.elo import NELO_SCALE, pentanomial, sprt_bounds, sprt_llr
from tests.helpers.runs import LEFTMOST_AGENT, games_without_timing
from tests.helpers.sprt import H0_H1, STRONG, TWINS, WEAK, plan, sprt_rows

PAIR_CLASS = {("loss", "loss"): 0, ("draw", "loss"): 1, ("loss", "win"): 2, ("draw", "draw"): 3,
              ("draw", "win"): 4, ("win", "win"): 5}
"""The pentanomial class (LL, LD, WL, DD, WD, WW) of a pair's two results, sorted."""


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
        estimate = pentanomial(tuple(sum(PAIR_CLASS[tuple(sorted(pair))] == index
                                         for pair in pairs) for index in range(6)))
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


@pytest.mark.slow
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
    one = run_sprt(plan(), test, tmp_path / "one", RunRequest(jobs=1))
    two = run_sprt(plan(), test, tmp_path / "two", RunRequest(jobs=2))
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
    again = run_sprt(plan(), H0_H1, broken, RunRequest(jobs=2))
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
        sprt_plan(STRONG, WEAK, RunRequest(openings=openings), max_games=max_games)


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
    run = run_games(plan(*TWINS, max_games=40), tmp_path, RunRequest(jobs=2), stopping=rule)
    assert rule.asked == [7, 14, 21] and run.played == 21
    assert sorted(load_games(tmp_path / "games.csv")["game"]) == list(range(21))
    assert json.loads((tmp_path / "meta.json").read_text())["run"]["rule"] == "stop after"
    rule = StopAfter(stages=9)  # asked about the finished stages again, then to the end
    run = run_games(plan(*TWINS, max_games=40), tmp_path, stopping=rule)
    assert rule.asked == [7, 14, 21, 28, 35, 40] and run.played == 19
    with pytest.raises(RunDirectoryError, match="rule \"stop after\" there, \"other\" here"):
        run_games(plan(*TWINS, max_games=40), tmp_path, stopping=StopAfter(1, "other"))
