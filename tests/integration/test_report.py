"""The report: charts from synthetic runs of real games, report.md, and bad input."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from arena.cli.report import report_command
from arena.protocol.agent import Agent
from arena.protocol.labels import short_name
from arena.report import chart_kinds, loading
from arena.report.chart_kinds import CHART_KINDS, run_charts
from arena.report.run_page import (
    NoRunError,
    cost_per_move,
    first_player,
    load_run,
    pairings,
    sweep_series,
    write_report,
)
from arena.report.run_tables import RunTables
from arena.rules.board import Position
from arena.rules.notation import from_moves, parse_moves
from arena.runs.planning.openings import FileOpenings, NoOpenings
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.planning.seeds import game_seed
from arena.runs.playing.game import play_game
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta, write_meta
from arena.runs.store.rows import COLUMNS, GamesTableError
from arena.runs.store.summary import summarize, summary_fingerprint, write_summary
from arena.stats.elo import sprt, trinomial
from arena.stats.ratings import rate
from connect_four_agents.immediate_win import ImmediateWinAgent
from connect_four_agents.random_agent import RandomAgent
from tests.helpers.cli import invoke

RESULTS = {0: "draw", 1: "win", 2: "loss"}  # winner (1 = first player) -> result if a moved first
FLIP = {"win": "loss", "draw": "draw", "loss": "win"}
DRAWN = "446323116125713546635334125521577677446722"  # a real drawn game, full board
NODES = {"negamax:depth=2": 50, "negamax:depth=4": 900}  # made-up nodes per move

# What plays under each spec in the synthetic runs (stronger specs get stronger stand-ins).
STAND_INS: dict[str, Agent] = {
    "random": RandomAgent(),
    "immediate-win": ImmediateWinAgent(),
    "negamax:depth=2": ImmediateWinAgent(),
    "negamax:depth=4": ImmediateWinAgent(block=True),
    "negamax:depth=6,heuristic=threats+positional": ImmediateWinAgent(block=True),
}


SEED = 11
"""The run seed of the synthetic runs."""


def _row(game: int, pair: str, a: str, b: str, first: str, opening: str, moves: str,
         result: str, nodes: Mapping[str, int | None]) -> dict[str, object]:
    """A row of games.csv; agents think 1 ms (a) and 0.1 ms (b) per ply of the game."""
    plies = len(moves)
    turns_first = (plies + 1) // 2 - (len(opening) + 1) // 2  # the first player plays odd plies
    turns_second = plies // 2 - len(opening) // 2
    return {
        "game": game, "pair": pair, "seed": 1000 + game, "agent_a": a, "agent_b": b,
        "first": first, "opening": opening, "moves": moves, "result": result,
        "termination": "board_full" if result == "draw" else "four_in_a_row", "plies": plies,
        "time_a": 0.001 * plies, "time_b": 0.0001 * plies,
        "nodes_a": nodes.get(a, ""), "nodes_b": nodes.get(b, ""), "error": "",
        "turns_a": turns_first if first == "a" else turns_second,
        "turns_b": turns_second if first == "a" else turns_first,
    }


def play_rows(a: str, b: str, pairs: int, seed: int, start: int = 0,
              openings: bool = True) -> list[dict[str, object]]:
    """Rows of real games between the stand-ins of ``a`` and ``b``, in colour-swapped pairs
    from the same two-ply openings whatever the agents."""
    rng = np.random.default_rng(seed)
    drawn = np.random.default_rng(0).integers(1, 8, size=(pairs, 2))
    rows: list[dict[str, object]] = []
    for p in range(pairs):
        opening = "".join(str(c) for c in drawn[p]) if openings else ""
        for first in ("a", "b"):
            specs = (a, b) if first == "a" else (b, a)
            outcome = play_game([STAND_INS[s] for s in specs], [rng, rng],
                                from_moves(opening), parse_moves(opening))
            result = RESULTS[outcome.winner] if first == "a" else FLIP[RESULTS[outcome.winner]]
            nodes = {s: NODES[s] * len(outcome.moves) // 2 for s in specs if s in NODES}
            rows.append(_row(start + len(rows), f"{p}" if openings else "", a, b, first,
                             opening, outcome.move_string, result, nodes))
    return rows


def write_run(directory: Path, rows: Sequence[Mapping[str, object]], **extra: object) -> Path:
    """A run directory: games.csv from ``rows``, meta.json, and any extra CSV tables.

    The run is the plan whose pairings are the rows' (in order of appearance, as many games
    each as rows), seed SEED, and the openings of the first pairing's rows; each row gets the
    index, seed and pair of its pairing's game in that plan (rows stay in order per pairing).
    """
    by_pairing: dict[tuple[str, str], list[Mapping[str, object]]] = {}
    for row in rows:
        by_pairing.setdefault((str(row["agent_a"]), str(row["agent_b"])), []).append(row)
    first_rows = next(iter(by_pairing.values()))
    openings = tuple(str(row["opening"]) for row in first_rows[::2]) if first_rows[0]["pair"] \
        != "" else ()
    plan = MatchPlan(tuple(Pairing(a, b, len(games)) for (a, b), games in by_pairing.items()),
                     GameSettings(seed=SEED),
                     FileOpenings(Path(), openings) if openings else NoOpenings())
    played = dict.fromkeys(by_pairing, 0)
    numbered = []
    for game in range(plan.total):
        task = plan.task(game)
        key = (task.agent_a, task.agent_b)
        row = by_pairing[key][played[key]]
        played[key] += 1
        assert (row["first"], row["opening"]) == (task.first, task.opening)
        numbered.append({**row, "game": game, "seed": game_seed(SEED, game),
                         "pair": "" if task.pair is None else task.pair})
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "games.csv", "w", newline="") as out:
        writer = csv.DictWriter(out, COLUMNS)
        writer.writeheader()
        writer.writerows(numbered)
    record = {"target": "tests:Agent", "params": {}, "limit": {}, "hosting": "inline",
              "reproducible": True, "fingerprint": "test"}
    meta = {"run": plan.describe(), "agents": dict.fromkeys(plan.specs, record),
            "started": "2025-01-02T03:04:05", "ended": None,
            "sessions": [{"command": "arena match random random"}]}
    if openings:
        meta["openings"] = list(openings)
    (directory / "meta.json").write_text(json.dumps(meta))
    for name, table in extra.items():
        assert isinstance(table, pd.DataFrame)
        table.to_csv(directory / f"{name}.csv", index=False)
    return directory


def match_run(directory: Path) -> Path:
    """A two-agent match with paired openings."""
    return write_run(directory, play_rows(
        "negamax:depth=6,heuristic=threats+positional", "random", pairs=10, seed=1))


def tournament_run(directory: Path) -> Path:
    """A four-agent round robin with ratings, including two depths of one family."""
    agents = ["random", "immediate-win", "negamax:depth=2", "negamax:depth=4"]
    rows: list[dict[str, object]] = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            rows += play_rows(a, b, pairs=6, seed=len(rows), start=len(rows))
    ratings = rate(pd.DataFrame(rows), rng=np.random.default_rng(0), bootstrap=30)
    return write_run(directory, rows, ratings=ratings)


def sprt_run(directory: Path) -> Path:
    """A match of batches with the SPRT's log-likelihood ratio after each."""
    rows = play_rows("negamax:depth=4", "immediate-win", pairs=24, seed=5, openings=False)
    batches = []
    for batch, end in enumerate(range(8, len(rows) + 1, 8), start=1):
        results = pd.Series([r["result"] for r in rows[:end]]).value_counts()
        test = sprt(trinomial(*(int(results.get(k, 0)) for k in ("win", "draw", "loss"))),
                    0.0, 10.0)
        batches.append({"batch": batch, "games": end, "llr": test.llr,
                        "lower": test.bounds.lower, "upper": test.bounds.upper})
    return write_run(directory, rows, sprt=pd.DataFrame(batches))


def shown_kinds(run: Path) -> list[str]:
    """The kinds of the charts the registry shows for the run (``run_charts``), in the order
    of the page."""
    return [chart.kind for chart in run_charts(RunTables(load_run(run)))]


def assert_charts_of_the_registry(run: Path, page: str) -> list[str]:
    """The page shows, and the report wrote, the charts the registry has for the run and no
    other (no kind of ``CHART_KINDS`` it has not); their kinds."""
    shown = shown_kinds(run)
    assert shown and sorted(path.stem for path in run.glob("*.png")) == sorted(shown)
    for chart in shown:
        assert f"]({chart}.png)" in page
        assert_chart(run / f"{chart}.png")
    missing = [entry.kind.removesuffix("PARAMETER") for entry in CHART_KINDS
               if not entry.charts(RunTables(load_run(run)))]
    assert not [kind for kind in missing if f"]({kind}" in page]
    return shown


def assert_chart(path: Path) -> None:
    """The PNG exists, reads back as a reasonably sized image and is not blank."""
    image = imread(path)
    assert image.shape[0] >= 200 and image.shape[1] >= 400  # one column: 3.4 in and more
    assert image[..., :3].std() > 0.05
    assert (image[..., :3] < 0.5).mean() > 0.002  # some dark ink: text, markers


# --------------------------------------------------------------------------- the data


def hand_rows() -> list[dict[str, object]]:
    """Six real games between x and y: x wins 3, draws 1, loses 2."""
    won_by_first = "1212121"  # vertical four in column 1 at ply 7
    assert from_moves(won_by_first).winner == 1 and from_moves(DRAWN).is_draw
    games = [("a", won_by_first, "win"), ("b", won_by_first, "loss"), ("a", DRAWN, "draw"),
             ("b", "4" + won_by_first, "win"), ("a", "43" + won_by_first, "win"),
             ("b", won_by_first, "loss")]
    return [_row(i, "", "x", "y", first, "", moves, result, {"x": 100 * len(moves)})
            for i, (first, moves, result) in enumerate(games)]


def test_hand_checked_pairing_counts_and_moves(tmp_path: Path) -> None:
    run = load_run(write_run(tmp_path, hand_rows()))
    games, table = run.games, pairings(run)
    assert table[["wins", "draws", "losses", "games"]].values.tolist() == [[3, 1, 2, 6]]
    assert table["score"].item() == pytest.approx(3.5 / 6)
    assert table["elo_model"].item() == "trinomial"
    # x made 4 + 3 + 21 + 4 + 5 + 3 = 40 moves; 100 nodes per ply of each game's length
    cost = cost_per_move(games, ["x", "y"]).set_index("agent")
    assert cost.at["x", "nodes_per_move"] == pytest.approx(100 * (7 + 7 + 42 + 8 + 9 + 7) / 40)
    assert cost["nodes_per_move"].isna().tolist() == [False, True]
    assert cost.at["x", "ms_mean"] == pytest.approx(1000 * 0.001 * 80 / 40)
    # x thinks 1 ms a ply of each game: 7/4, 7/3, 42/21, 8/4, 9/5, 7/3 ms a move, in order
    # 1.75, 1.8, 2, 2, 2.33, 2.33: the median between ranks 3 and 4, the 95% interval of 6
    # games ranks 1 and 6 (P(B = 0) = 1/64 <= 2.5%), the 90th percentile at rank 5.5
    assert cost.at["x", "ms_median"] == pytest.approx(2.0)
    assert (cost.at["x", "ms_low"], cost.at["x", "ms_high"]) == pytest.approx((7 / 4, 7 / 3))
    assert cost.at["x", "ms_p90"] == pytest.approx(7 / 3)
    assert cost.at["x", "games"] == 6


def test_first_player_scores(tmp_path: Path) -> None:
    games = load_run(write_run(tmp_path, hand_rows())).games
    sides = first_player(games, ["x", "y"]).set_index(["agent", "side"])
    # the first player won all but the draw and game 3 (the second player's vertical four)
    assert sides.at[("", "first"), "score"] == pytest.approx(4.5 / 6)
    assert sides.at[("x", "first"), "games"] == 3 and sides.at[("x", "first"), "score"] == 2.5 / 3
    assert sides.at[("y", "second"), "score"] == pytest.approx(0.5 / 3)


# --------------------------------------------------------------------------- the page


def test_hand_checked_report_from_the_command(tmp_path: Path) -> None:
    run = write_run(tmp_path / "hand", hand_rows())
    result = invoke(str(run), command=report_command)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(run / "report.md")
    page = (run / "report.md").read_text()
    assert "x [3, 1, 2] y (6)" in page
    assert "| x | y | 6 | 3 | 1 | 2 | 58.3% [" in page
    # 3.5/6 +- 1.96 sqrt(var / 6), var = (3 (5/12)^2 + (1/12)^2 + 2 (7/12)^2) / 6: inside (0, 1)
    assert "| trinomial | normal approximation |" in page
    assert "`arena match random random`" in page


def test_match_report(tmp_path: Path) -> None:
    run = match_run(tmp_path / "match")
    page = write_report(run).read_text()
    assert_charts_of_the_registry(run, page)
    spec = "negamax:depth=6,heuristic=threats+positional"
    assert f"| {short_name(spec)} | random | 20 |" in page
    assert "| pentanomial |" in page  # every game has its colour-swapped partner


@pytest.mark.slow
def test_tournament_report(tmp_path: Path) -> None:
    run = tournament_run(tmp_path / "rr")
    page = write_report(run).read_text()
    assert_charts_of_the_registry(run, page)
    assert "## Crosstable" in page and "## Ratings" in page
    [sweep] = sweep_series(load_run(run))
    ratings = pd.read_csv(run / "ratings.csv").set_index("agent")["rating"]
    assert (sweep.parameter, sweep.kind, sweep.percent, sweep.log) == ("depth", "depth", False,
                                                                       False)
    series = sweep.table
    assert series["family"].tolist() == ["negamax", "negamax"]
    assert series["value"].tolist() == [ratings["negamax:depth=2"], ratings["negamax:depth=4"]]


def test_depth_from_scores_without_ratings(tmp_path: Path) -> None:
    specs = {"x": "nosuch:depth=2,h=a", "y": "nosuch:depth=5,h=a"}  # text-only specs
    rows = [{**row, "agent_a": specs["x"], "agent_b": specs["y"]} for row in hand_rows()]
    [sweep] = sweep_series(load_run(write_run(tmp_path, rows)))
    assert sweep.percent and sweep.ylabel.startswith("score")
    series = sweep.table
    assert series[["family", "value_of"]].values.tolist() == [["nosuch a", 2], ["nosuch a", 5]]
    assert series["value"].tolist() == pytest.approx([3.5 / 6, 2.5 / 6])


@pytest.mark.slow
def test_sprt_report(tmp_path: Path) -> None:
    run = sprt_run(tmp_path / "sprt")
    page = write_report(run).read_text()
    assert "](sprt.png)" in page
    assert_chart(run / "sprt.png")
    last = pd.read_csv(run / "sprt.csv").iloc[-1]
    assert f"| {int(last['games'])} | {last['llr']:.2f} |" in page


# --------------------------------------------------------------------------- bad input


def test_no_run_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NoRunError, match=r"no games\.csv"):
        write_report(tmp_path)
    with pytest.raises(NoRunError, match="does not exist"):
        write_report(tmp_path / "missing")
    (tmp_path / "games.csv").write_text(",".join(COLUMNS) + "\n")
    with pytest.raises(NoRunError, match=r"no meta\.json"):
        write_report(tmp_path)
    write_run(tmp_path / "empty", hand_rows())
    (tmp_path / "empty" / "games.csv").write_text(",".join(COLUMNS) + "\n")
    with pytest.raises(NoRunError, match="no games"):
        write_report(tmp_path / "empty")


def test_malformed_games_are_refused(tmp_path: Path) -> None:
    rows = hand_rows()
    rows[2]["result"] = "victory"
    with pytest.raises(GamesTableError, match=r"games\.csv, line 4: result 'victory'"):
        write_report(write_run(tmp_path / "bad", rows))
    directory = write_run(tmp_path / "cols", hand_rows())
    (directory / "games.csv").write_text("agent_a,agent_b\nx,y\n")
    with pytest.raises(GamesTableError, match="unexpected columns"):
        write_report(directory)


def test_command_refuses_an_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(NoRunError):
        report_command.main([str(tmp_path)], standalone_mode=False)


def test_cli_exits_2_with_one_line(tmp_path: Path) -> None:
    result = invoke("report", str(tmp_path))
    assert result.exit_code == 2
    message = result.output.strip()
    assert message.count("\n") == 0 and message.startswith("arena: error:")
    assert "no games.csv" in message


def test_positions_of_synthetic_games_are_real() -> None:
    for row in play_rows("random", "immediate-win", pairs=2, seed=3):
        position: Position = from_moves(str(row["moves"]))
        assert position.is_terminal and position.plies == row["plies"]
        assert str(row["moves"]).startswith(str(row["opening"]))


@pytest.mark.slow
def test_many_pairings_leave_out_the_bars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_kinds, "MAX_BAR_PAIRINGS", 5)  # the round robin has 6 pairings
    run = tournament_run(tmp_path / "rr")
    page = write_report(run).read_text()
    assert "(6 pairings: too many for readable bars" in page
    assert "](wtl.png)" not in page and not (run / "wtl.png").exists()
    assert "](crosstable.png)" in page


def test_a_current_summary_is_read_and_an_edited_one_recomputed_without_writing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = write_run(tmp_path, hand_rows())
    files = RunFiles(directory)
    before = {path.name: path.read_bytes() for path in directory.iterdir()}
    fresh = pairings(load_run(directory))  # no summary.csv: computed from games.csv
    assert fresh[["wins", "draws", "losses"]].values.tolist() == [[3, 1, 2]]
    assert {path.name: path.read_bytes() for path in directory.iterdir()} == before
    write_summary(summarize(files.games), files.summary)  # as a run leaves it
    meta = load_meta(directory)
    meta.summary = summary_fingerprint(files, meta)
    write_meta(directory, meta)
    with monkeypatch.context() as patched:  # current: read as it is, nothing recomputed
        patched.setattr(loading, "summarize", None)
        assert pairings(load_run(directory))["wins"].tolist() == [3]
    fresh.assign(wins=99).to_csv(files.summary, index=False)  # edited since
    assert pairings(load_run(directory))["wins"].tolist() == [3]
    assert pd.read_csv(files.summary)["wins"].tolist() == [99]  # readers never write


INTERVAL = re.compile(r"(\d+\.\d%) \[(-?\d+\.\d%), (\d+\.\d%)\]")


def test_the_verdict_comes_first_and_a_score_has_one_interval_throughout(tmp_path: Path
                                                                         ) -> None:
    run = match_run(tmp_path / "match")
    page = write_report(run).read_text()
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## Verdict", "## Results"]
    assert "## Agents" not in page and "## Strength against depth" not in page  # two agents
    intervals: dict[str, set[tuple[str, str]]] = {}
    for score, low, high in INTERVAL.findall(page):
        intervals.setdefault(score, set()).add((low, high))
    summary = load_run(run).summary.iloc[0]
    score = f"{summary['score']:.1%}"
    assert intervals[score] == {(f"{summary['score_low']:.1%}", f"{summary['score_high']:.1%}")}
    assert all(len(found) == 1 for found in intervals.values()), intervals
    verdict = page.split("## Results")[0]
    assert "Wilson score interval, pentanomial model" in verdict  # one-sided: 20-0
    for words in ("[W, T, L]", "W-T-L", "ties"):  # the seeds' format only where it says so
        assert page.count(words) <= page.count("seeds' table format")
