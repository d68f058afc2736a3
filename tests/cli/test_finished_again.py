"""The same finished command again answers from the run directory: no kernels, no agent built,
the same result printed, and a note that the run was complete; a changed games.csv or
changed agent code is still refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers.cli import arena, arena_loading, invoke

MATCH = ("match", "negamax:depth=2", "random", "-n", "8", "-q", "--no-report")
COMPLETE = "arena: note: the run in {} was complete, nothing was played: for a new run give " \
    "another --seed or --out"
"""The note of a command whose run was complete (then how to ask for more games, if any)."""


def _arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS...`` in a child Python that says which costly modules it loaded."""
    return arena_loading(("numba", "arena.search.kernels", "pandas", "matplotlib"), *args)


def test_the_same_finished_command_again_loads_no_kernels_and_prints_the_same_result(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    first = _arena(*MATCH, "--out", str(run))
    assert "Games       8  " in first.stdout
    games = (run / "games.csv").read_bytes()
    again = _arena(*MATCH, "--out", str(run))
    assert "loaded: []" in again.stderr
    assert again.stdout == first.stdout
    assert COMPLETE.format(run) not in first.stderr
    assert again.stderr.splitlines()[0] == COMPLETE.format(run) + ", for more games a larger -n"
    assert (run / "games.csv").read_bytes() == games
    sessions = json.loads((run / "meta.json").read_text())["sessions"]
    assert [s["games_played"] for s in sessions] == [8, 0]


def test_a_finished_run_whose_games_csv_was_changed_is_checked_and_refused(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert arena(*MATCH, "--out", str(run))[0] == 0
    path = run / "games.csv"
    header, first, *rest = path.read_text().splitlines(keepends=True)
    cells = first.split(",")
    cells[8] = "loss" if cells[8] == "win" else "win"  # a result its moves do not give
    path.write_text("".join([header, ",".join(cells), *rest]))
    status, output = arena(*MATCH, "--out", str(run))
    assert status == 2
    assert output.startswith(f"arena: error: {path}, line 2: ")
    assert output.count("\n") == 1


def test_a_finished_run_whose_agent_code_changed_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert arena(*MATCH, "--out", str(run))[0] == 0
    meta_path = run / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["agents"]["random"]["fingerprint"] = "arena 0.0.1"  # as an older arena recorded it
    meta_path.write_text(json.dumps(meta))
    status, output = arena(*MATCH, "--out", str(run))
    assert status == 2
    assert "the code of agent 'random' changed since the run began" in output
    assert output.count("\n") == 1


def test_a_finished_sprt_or_tournament_again_says_it_was_complete(tmp_path: Path) -> None:
    """An SPRT that decided can play no more games; a round robin, a larger -n; a Swiss, a
    larger --swiss."""
    commands = [
        (("sprt", "immediate-win", "random", "--elo0", "0", "--elo1", "50", "--batch-pairs",
          "5"), ""),
        (("tournament", "random", "immediate-win", "-n", "2"), ", for more games a larger -n"),
        (("tournament", "random", "immediate-win", "negamax:depth=1", "-n", "2", "--swiss",
          "2"), ", for more games a larger --swiss")]
    for number, (command, more) in enumerate(commands):
        out = tmp_path / str(number)
        args = (*command, "-q", "--no-report", "-j", "1", "--out", str(out))
        first = invoke(*args)
        assert first.exit_code == 0 and "arena: note:" not in first.output, first.output
        again = invoke(*args)
        assert again.exit_code == 0
        notes = [line for line in again.output.splitlines() if line.startswith("arena: note:")]
        assert notes == [COMPLETE.format(out) + more]
