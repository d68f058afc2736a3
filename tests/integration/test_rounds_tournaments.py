"""Swiss and knockout tournaments from the command line: every round's pairings checked by
hand, the tables at the top of the folder against the rounds' own games, the report, the
progress of the whole tournament."""

from __future__ import annotations

import csv
from pathlib import Path

import click
import pandas as pd
import pytest

from arena.cli import ArenaGroup
from arena.cli.tournament import tournament_command
from arena.competitions.rounds import planned_games, run_rounds
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest
from arena.stats.tally import Tally
from tests.helpers.cli import arena as run_arena
from tests.helpers.cli import invoke

AGENTS = ["negamax:depth=2", "immediate-win", "random", "negamax:depth=1", "solver"]
"""Five agents, so that every round has a bye; on 4x5 the solver never loses."""
SMALL = ["-n", "2", "--rows", "4", "--cols", "5", "-j", "1", "-q"]


@pytest.fixture
def arena() -> click.Group:
    """An `arena` group holding the tournament command, with one-line errors."""
    return ArenaGroup("arena", commands=[tournament_command])


def rounds_csv(directory: Path) -> list[list[str]]:
    """rounds.csv's rows (the header left out), as text."""
    with (directory / "rounds.csv").open(newline="") as file:
        return list(csv.reader(file))[1:]


def check_tables_against_rounds(directory: Path, rounds: int) -> None:
    """rounds.csv's W/D/L are those of the round folders' games; games.csv and summary.csv
    at the top are the rounds' own, a round column first."""
    folders = [directory / f"round-{n:02d}" for n in range(1, rounds + 1)]
    assert sorted(p.name for p in directory.glob("round-*")) == [p.name for p in folders]
    for row in rounds_csv(directory):
        number, a, b, games, wins, draws, losses = row[:7]
        if not b:  # a bye: no games
            assert (games, wins, draws, losses) == ("0", "0", "0", "0")
            continue
        played = pd.read_csv(folders[int(number) - 1] / "games.csv")
        mine = played[(played["agent_a"] == a) & (played["agent_b"] == b)]
        counts = mine["result"].value_counts()
        assert [len(mine), counts.get("win", 0), counts.get("draw", 0),
                counts.get("loss", 0)] == [int(games), int(wins), int(draws), int(losses)]
    for name in ("games.csv", "summary.csv"):
        top = pd.read_csv(directory / name)
        parts = [pd.read_csv(folder / name) for folder in folders]
        assert top["round"].tolist() == [n for n, part in enumerate(parts, 1)
                                         for _ in range(len(part))]
        assert top.drop(columns="round").equals(pd.concat(parts, ignore_index=True))


@pytest.mark.slow
def test_a_swiss_pairs_by_points_without_a_rematch_and_its_folder_reads_as_a_whole(
        tmp_path: Path) -> None:
    out = tmp_path / "swiss"
    code, text = run_arena("tournament", *AGENTS, *SMALL, "--swiss", "3", "--out", str(out))
    assert code == 0, text
    # Round 1: no points yet, so the order given; of five, the last (solver) sits out and
    # scores its 2 games as won. Then: negamax d2 2, random 2, solver 2, the others 0.
    # Round 2: ranked d2, random, solver, immediate-win, d1 (ties in the order given): d1,
    # the lowest without a bye, sits out; d2-random and solver-immediate-win have not met.
    # Then: solver 4, d2 3.5, random 2.5, d1 2, immediate-win 0.
    # Round 3: immediate-win sits out; solver-d2 would leave random-d1, who met in round 1,
    # so solver meets random, and d2 meets d1.
    assert rounds_csv(out) == [
        ["1", "negamax:depth=2", "immediate-win", "2", "2", "0", "0", "2", "0", ""],
        ["1", "random", "negamax:depth=1", "2", "2", "0", "0", "2", "0", ""],
        ["1", "solver", "", "0", "0", "0", "0", "2", "0", ""],
        ["2", "negamax:depth=2", "random", "2", "1", "1", "0", "1.5", "0.5", ""],
        ["2", "solver", "immediate-win", "2", "2", "0", "0", "2", "0", ""],
        ["2", "negamax:depth=1", "", "0", "0", "0", "0", "2", "0", ""],
        ["3", "solver", "random", "2", "2", "0", "0", "2", "0", ""],
        ["3", "negamax:depth=2", "negamax:depth=1", "2", "1", "0", "1", "1", "1", ""],
        ["3", "immediate-win", "", "0", "0", "0", "0", "2", "0", ""],
    ]
    check_tables_against_rounds(out, 3)
    assert "Points after each round:\nagent          1    2    3\nsolver         2    4    6\n" \
           "negamax d2     2  3.5  4.5\nnegamax d1     0    2    3\nrandom         2  2.5  2.5\n" \
           "immediate-win  0    0    2\n" in text
    assert set(pd.read_csv(out / "ratings.csv")["agent"]) == set(AGENTS)
    page = (out / "report.md").read_text()
    assert "**solver** leads the Swiss tournament with 6 points after 3 rounds." in page
    assert "| rank | agent | after round 1 | after round 2 | after round 3 |" in page
    assert "| 1 | solver | 2 | 4 | 6 |\n| 2 | negamax d2 | 2 | 3.5 | 4.5 |" in page
    assert "| 5 | immediate-win | 0 | 0 | 2 |" in page
    assert "Byes: round 1: solver; round 2: negamax d1; round 3: immediate-win." in page
    assert "- **format**: swiss\n- **rounds**: 3" in page
    code, again = run_arena("tournament", *AGENTS, *SMALL, "--swiss", "3", "--out", str(out))
    note = (f"arena: note: the run in {out} was complete, nothing was played: for a new run "
            "give another --seed or --out, for more games a larger --swiss\n")
    assert code == 0 and note in again  # the finished rounds are replayed, not played
    assert again.replace(note, "") == text
    code, report = run_arena("report", str(out))
    assert (code, report) == (0, f"{out / 'report.md'}\n")
    for name in ("rounds.csv", "games.csv", "summary.csv"):  # a tournament cut short
        (out / name).unlink()
    code, report = run_arena("report", str(out))
    assert (code, report) == (2, f"arena: error: {out} holds the rounds of a tournament that "
                                 f"has not ended yet (no rounds.csv): run its command again to "
                                 f"finish it, or report a round ({out / 'round-01'})\n")


@pytest.mark.slow
def test_a_knockout_sends_the_one_with_more_points_through_until_one_is_left(
        tmp_path: Path) -> None:
    out = tmp_path / "knockout"
    code, text = run_arena("tournament", *AGENTS, *SMALL, "--knockout", "--out", str(out))
    assert code == 0, text
    # Seeds as given: d2 1, immediate-win 2, random 3, d1 4, solver 5. Round 1: a bracket
    # of eight, so the top three sit out and 4 meets 5. Round 2: four left, in seeding
    # order d2, immediate-win, random, solver: first against last, second against third.
    # Round 3: the final. Each sat out one round at most (before: d2 sat out two, then
    # played only the final).
    assert rounds_csv(out) == [
        ["1", "negamax:depth=1", "solver", "2", "0", "0", "2", "0", "2", "solver"],
        ["1", "negamax:depth=2", "", "0", "0", "0", "0", "0", "0", "negamax:depth=2"],
        ["1", "immediate-win", "", "0", "0", "0", "0", "0", "0", "immediate-win"],
        ["1", "random", "", "0", "0", "0", "0", "0", "0", "random"],
        ["2", "negamax:depth=2", "solver", "2", "0", "0", "2", "0", "2", "solver"],
        ["2", "immediate-win", "random", "2", "1", "1", "0", "1.5", "0.5", "immediate-win"],
        ["3", "immediate-win", "solver", "2", "0", "0", "2", "0", "2", "solver"],
    ]
    assert planned_games(5, 2, None) == 8 == int(pd.read_csv(out / "rounds.csv")["games"].sum())
    check_tables_against_rounds(out, 3)
    assert "Winner: solver\n" in text
    page = (out / "report.md").read_text()
    assert "**solver** wins the knockout of 5 agents (3 rounds)." in page
    assert "| round | A | B | A's W-D-L | points | through |" in page
    assert "| 1 | negamax d1 | solver | 0-0-2 | 0-2 | solver |" in page
    assert "| 1 | random | sits out |  |  | random |" in page
    assert "| 3 | immediate-win | solver | 0-0-2 | 0-2 | solver |" in page
    assert "  immediate-win sits out\n  random sits out\nRound 2:\n" in text


@pytest.mark.slow
def test_the_progress_of_a_tournament_in_rounds_counts_every_rounds_games(
        tmp_path: Path) -> None:
    """One bar over the whole tournament: opened once at the games of every round, and a
    resumed tournament starts it at the games already on disk."""

    class Recorder:
        def __init__(self) -> None:
            self.starts: list[tuple[int, int]] = []
            self.finished = 0

        def start(self, total: int, finished: int) -> None:
            self.starts.append((total, finished))
            self.finished = finished

        def advance(self, games: int, tally: Tally) -> None:
            self.finished += games

        def stopping(self) -> None:
            pass

    agents = AGENTS[:4]
    request = RunRequest(rules=Rules(4, 5), jobs=1, progress=False)
    first = Recorder()
    run_rounds(agents, 2, request, tmp_path / "s", swiss=2, progress=first)
    assert (first.starts, first.finished) == ([(8, 0)], 8)
    again = Recorder()
    run_rounds(agents, 2, request, tmp_path / "s", swiss=3, progress=again)  # one more round
    assert (again.starts, again.finished) == ([(12, 4)], 12)


def test_a_folder_of_another_kind_or_tournament_is_refused_and_kept(arena: click.Group,
                                                      tmp_path: Path) -> None:
    robin, swiss = tmp_path / "robin", tmp_path / "swiss"
    assert invoke("tournament", "random", "immediate-win", *SMALL, "--no-report", "--out",
                  str(robin), command=arena).exit_code == 0
    before = {p.name: p.read_bytes() for p in robin.iterdir() if p.is_file()}
    result = invoke("tournament", "random", "immediate-win", *SMALL, "--swiss", "1",
                    "--out", str(robin), command=arena)
    assert result.exit_code == 2 and result.stderr == (
        f"arena: error: {robin} holds a run of its own (meta.json), not a tournament in "
        "rounds; give another --out\n")
    assert {p.name: p.read_bytes() for p in robin.iterdir() if p.is_file()} == before
    assert invoke("tournament", "random", "immediate-win", *SMALL, "--no-report", "--swiss",
                  "2", "--out", str(swiss), command=arena).exit_code == 0
    kept = {p: p.read_bytes() for p in swiss.rglob("*") if p.is_file()}
    for args, message in [
        (["random", "immediate-win"], "no meta.json"),  # a round robin
        (["random", "immediate-win", "--knockout"],
         f"{swiss} holds a Swiss tournament, not a knockout; give another --out"),
        (["random", "negamax:depth=1", "--swiss", "1"],
         f"{swiss} holds a tournament of immediate-win, random, not of negamax:depth=1, "
         "random; give another --out"),
        (["random", "immediate-win", "--swiss", "1", "-n", "4"],
         f"{swiss} holds a tournament of 2 games a pairing, not 4 (its rounds were paired "
         "from their results); give -n 2 or another --out"),
        (["random", "immediate-win", "--swiss", "1"],  # its second round would be left out
         f"{swiss} holds 2 rounds of a Swiss tournament, more than the 1 asked for: ask for "
         "2 or more, or give another --out"),
    ]:
        result = invoke("tournament", *SMALL, *args, "--out", str(swiss), command=arena)
        assert result.exit_code == 2 and result.stderr.startswith("arena: error: ")
        assert result.stderr.count("\n") == 1 and message in result.stderr
    assert {p: p.read_bytes() for p in swiss.rglob("*") if p.is_file()} == kept
    for command in (["show", str(swiss), "0"], ["export", "html", str(swiss)]):
        result = invoke(*command)  # a command that reads one run, given the top folder
        assert result.exit_code == 2 and result.stderr == (
            f"arena: error: {swiss} holds the rounds of a tournament, each a run: give one of "
            f"them, such as {swiss / 'round-01'}\n")
