"""games.csv -> summary rows: counts, paired statistics, forfeits, distinct games, speed."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import pytest

from arena.runs.store.rows import COLUMNS, GameRow
from arena.runs.store.summary import (
    SUMMARY_COLUMNS,
    Unanimous,
    summarize,
    unanimous_forfeits,
    write_summary,
)
from arena.stats.elo import Z95, elo_from_score, pentanomial, trinomial


def game(index: int, result: str, **changes: Any) -> GameRow:
    """A finished game of A = x against B = y."""
    row = GameRow(index, None, index, "x", "y", "a" if index % 2 == 0 else "b", "",
                  f"{index % 7 + 1}4455", result, "four_in_a_row", 5, 0.003, 0.001, None, None,
                  3, 2, "")
    return row._replace(**changes)


def write(tmp_path: Path, rows: list[GameRow]) -> Path:
    path = tmp_path / "games.csv"
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    return path


def test_unpaired_games_use_trinomial_statistics(tmp_path: Path) -> None:
    results = ["win"] * 5 + ["draw"] * 2 + ["loss"] * 3
    path = write(tmp_path, [game(i, r) for i, r in enumerate(results)])
    [summary] = summarize(path)
    row = summary.row()
    expected = trinomial(5, 2, 3)
    assert (row["games"], row["wins"], row["draws"], row["losses"]) == (10, 5, 2, 3)
    assert row["score"] == pytest.approx(0.6)
    # var = (5 * 0.4^2 + 2 * 0.1^2 + 3 * 0.6^2) / 10 = 0.19; 0.6 +- 1.96 sqrt(0.019) is inside
    # (0, 1), so the normal interval with the trinomial variance
    half = Z95 * math.sqrt(0.019)
    assert (row["score_low"], row["score_high"]) == pytest.approx((0.6 - half, 0.6 + half))
    assert row["interval"] == "normal"
    assert (row["elo_low"], row["elo_high"]) == pytest.approx(
        (elo_from_score(0.6 - half), elo_from_score(0.6 + half)))
    assert row["elo_model"] == "trinomial" and row["pairs"] == ""
    assert row["elo"] == pytest.approx(expected.elo)
    assert row["nelo"] == pytest.approx(expected.nelo)
    assert row["los"] == pytest.approx(expected.los)


def test_complete_pairs_use_pentanomial_statistics(tmp_path: Path) -> None:
    # pairs (in completion order, shuffled): WW, WL, DD, LD, WD
    pairs = [("win", "win"), ("win", "loss"), ("draw", "draw"), ("loss", "draw"),
             ("win", "draw")]
    rows = [game(2 * k + g, result, pair=k, opening="4")
            for k, pair in enumerate(pairs) for g, result in enumerate(pair)]
    path = write(tmp_path, rows[1::2] + rows[::2])
    [summary] = summarize(path)
    row = summary.row()
    expected = pentanomial((0, 1, 1, 1, 1, 1))  # LL, LD, WL, DD, WD, WW
    assert row["elo_model"] == "pentanomial" and row["pairs"] == 5
    assert row["elo"] == pytest.approx(expected.elo)
    assert (row["wins"], row["draws"], row["losses"]) == (4, 4, 2)
    # Pair scores 1, 1/2, 1/2, 1/4, 3/4: s = 0.6, var = (0.16 + 0.01 + 0.01 + 0.1225 + 0.0225) / 5
    # = 0.065 per pair, and 0.6 +- 1.96 sqrt(0.065 / 5) stays inside (0, 1): the score interval
    # is the pairs' normal one (not the games' Wilson interval), and Elo's is its image.
    half = Z95 * math.sqrt(0.065 / 5)
    assert row["interval"] == "normal"
    assert (row["score_low"], row["score_high"]) == pytest.approx((0.6 - half, 0.6 + half))
    assert (row["elo_low"], row["elo_high"]) == pytest.approx(
        (elo_from_score(0.6 - half), elo_from_score(0.6 + half)))
    assert row["nelo_error"] == pytest.approx(expected.nelo_error)


def test_an_unfinished_pair_falls_back_to_trinomial(tmp_path: Path) -> None:
    rows = [game(0, "win", pair=0), game(1, "loss", pair=0), game(2, "win", pair=1)]
    [summary] = summarize(write(tmp_path, rows))
    assert summary.row()["elo_model"] == "trinomial"
    assert summary.estimate.counts == (2, 0, 1)


def test_forfeits_are_counted_by_kind_and_by_the_agent_that_lost(tmp_path: Path) -> None:
    rows = [
        game(0, "loss", termination="illegal_move", error="column 9"),
        game(1, "win", termination="agent_error", error="boom"),
        game(2, "win", termination="agent_error", error="boom"),
        game(3, "loss", termination="time_forfeit", error="slow"),
        game(4, "draw", termination="board_full"),
    ]
    row = summarize(write(tmp_path, rows))[0].row()
    assert row["illegal_move_a"] == 1 and row["illegal_move_b"] == 0
    assert row["agent_error_a"] == 0 and row["agent_error_b"] == 2
    assert row["time_forfeit_a"] == 1 and row["time_forfeit_b"] == 0


def finished_run(directory: Path, rows: list[GameRow]) -> Path:
    """A run directory holding ``rows`` as games.csv and their summary.csv."""
    directory.mkdir()
    write_summary(summarize(write(directory, rows)), directory / "summary.csv")
    return directory


def test_an_agent_that_forfeits_every_game_one_way_is_found_with_its_first_error(
        tmp_path: Path) -> None:
    # y crashes in every game it plays, as B against x here and as A against z in a second
    # run (a tournament's other round); x and z each win one game by the board, not forfeits.
    crashes = [game(i, "win", termination="agent_crash", error=f"crash {i}") for i in range(3)]
    second = [game(0, "loss", agent_a="y", agent_b="z", termination="agent_crash",
                   error="crash z")]
    runs = finished_run(tmp_path / "one", crashes), finished_run(tmp_path / "two", second)
    assert unanimous_forfeits(*runs) == [Unanimous("y", "agent_crash", "crash 0")]


@pytest.mark.parametrize("spoiler", [
    game(3, "win", termination="time_forfeit", error="slow"),  # a second kind of forfeit
    game(3, "loss"),  # a game y won over the board
    game(3, "draw", termination="board_full"),
])
def test_an_agent_with_any_other_game_is_not_unanimous(tmp_path: Path, spoiler: GameRow) -> None:
    crashes = [game(i, "win", termination="agent_crash", error="boom") for i in range(3)]
    assert unanimous_forfeits(finished_run(tmp_path / "run", [*crashes, spoiler])) == []


def test_self_play_is_never_unanimous(tmp_path: Path) -> None:
    crashes = [game(i, "win", agent_b="x", termination="agent_crash") for i in range(3)]
    assert unanimous_forfeits(finished_run(tmp_path / "run", crashes)) == []


def test_distinct_games_count_repeated_games_once(tmp_path: Path) -> None:
    rows = [game(i, "win", moves="4455667", first="a") for i in range(4)]
    rows += [game(4, "win", moves="4455667", first="b"), game(5, "win", moves="1")]
    assert summarize(write(tmp_path, rows))[0].distinct_games == 3


def test_speed_per_move_and_nodes_only_where_reported(tmp_path: Path) -> None:
    rows = [
        game(0, "win", time_a=0.006, turns_a=3, nodes_b=None),
        game(1, "win", time_a=0.002, turns_a=1, nodes_b=100, turns_b=4),
        game(2, "win", time_a=0.000, turns_a=4, nodes_b=300, turns_b=1, plies=11),
    ]
    row = summarize(write(tmp_path, rows))[0].row()
    assert row["ms_per_move_a"] == pytest.approx(1.0)  # 8 ms over 8 moves
    assert row["nodes_per_move_a"] == ""
    assert row["nodes_per_move_b"] == pytest.approx(80.0)  # 400 nodes over 5 moves
    assert row["mean_plies"] == pytest.approx(7.0)


def test_time_a_move_is_the_median_game_s_with_its_interval_and_90th_percentile(
        tmp_path: Path) -> None:
    """Ten games of ten moves by A: eight at 2 µs a move, one at 3 µs, one with a 12 ms
    stall. Per game, in ms a move: 0.002 (8 times), 0.003, 1.2. The median is 0.002; its 95%
    interval of 10 games ranks 2 and 9 (P(B <= 1) = 11/1024 <= 2.5% < P(B <= 2) = 56/1024):
    [0.002, 0.003]; the 90th percentile stands at rank 9.1: 0.003 + 0.1 x 1.197; the mean,
    12.19 ms over 100 moves, is 61 times the median."""
    seconds = [0.00002] * 8 + [0.00003, 0.012]
    rows = [game(i, "win", time_a=t, turns_a=10) for i, t in enumerate(seconds)]
    summary = summarize(write(tmp_path, rows))[0]
    row = summary.row()
    assert row["ms_per_move_median_a"] == pytest.approx(0.002)
    assert (row["ms_per_move_low_a"], row["ms_per_move_high_a"]) == pytest.approx((0.002, 0.003))
    assert row["ms_per_move_p90_a"] == pytest.approx(0.003 + 0.1 * 1.197)
    assert row["ms_per_move_a"] == pytest.approx(0.1219)  # the mean
    few = summarize(write(tmp_path, rows[:5]))[0].side_a.times  # no interval below 6 games
    assert few.median == pytest.approx(0.002) and math.isnan(few.low) and math.isnan(few.high)


def test_pairings_come_in_the_order_of_their_first_game(tmp_path: Path) -> None:
    rows = [game(7, "win", agent_a="p", agent_b="q"), game(3, "loss"),
            game(1, "draw", agent_a="p", agent_b="q")]
    summaries = summarize(write(tmp_path, rows))
    assert [(s.agent_a, s.agent_b, s.games) for s in summaries] == [("p", "q", 2), ("x", "y", 1)]


def test_all_draws_give_a_zero_elo_and_undefined_normalized_elo(tmp_path: Path) -> None:
    row = summarize(write(tmp_path, [game(i, "draw") for i in range(4)]))[0].row()
    assert row["elo"] == 0.0 and row["los"] == 0.5
    assert math.isnan(row["nelo"]) and math.isnan(row["nelo_error"])  # undefined
    # no variance: the Wilson interval of 2 points in 4 games, 1/2 +- z / (1 + z^2/4)
    # sqrt(1/16 + z^2/64), mapped to Elo
    half = Z95 / (1 + Z95**2 / 4) * math.sqrt(1 / 16 + Z95**2 / 64)
    assert row["interval"] == "wilson"
    assert (row["score_low"], row["score_high"]) == pytest.approx((0.5 - half, 0.5 + half))
    assert row["elo_high"] == pytest.approx(-row["elo_low"]) == pytest.approx(
        elo_from_score(0.5 + half))


def test_a_one_sided_pairing_has_finite_bounds_below_a_perfect_score(tmp_path: Path) -> None:
    # 10 wins, 1 loss: the normal interval passes 100%, the Wilson one is [0.6226, 0.9838]
    rows = [game(i, "win") for i in range(10)] + [game(10, "loss")]
    row = summarize(write(tmp_path, rows))[0].row()
    assert row["interval"] == "wilson"
    assert (row["score_low"], row["score_high"]) == pytest.approx((0.622642, 0.983768),
                                                                  abs=1e-6)
    assert (row["elo_low"], row["elo_high"]) == pytest.approx((86.99, 713.01), abs=0.01)
    assert math.isnan(row["nelo_error"]) and row["nelo"] == pytest.approx(494.41, abs=0.01)


def test_undefined_statistics_are_blank_in_summary_csv(tmp_path: Path) -> None:
    summaries = summarize(write(tmp_path, [game(i, "draw") for i in range(4)]))
    write_summary(summaries, tmp_path / "summary.csv")
    with (tmp_path / "summary.csv").open() as file:
        [row] = list(csv.DictReader(file))
    assert row["nelo"] == "" and row["nelo_error"] == "" and row["interval"] == "wilson"
    assert "nan" not in (tmp_path / "summary.csv").read_text()


def test_summary_csv_has_one_row_per_pairing(tmp_path: Path) -> None:
    rows = [game(0, "win"), game(1, "loss", agent_a="p")]
    summaries = summarize(write(tmp_path, rows))
    write_summary(summaries, tmp_path / "summary.csv")
    with (tmp_path / "summary.csv").open() as file:
        table = list(csv.DictReader(file))
    assert tuple(table[0]) == SUMMARY_COLUMNS
    assert [(r["agent_a"], r["games"], r["wins"]) for r in table] == [("x", "1", "1"),
                                                                      ("p", "1", "0")]
