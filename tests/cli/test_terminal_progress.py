"""What the commands that can take a while draw on a terminal: a progress bar (or, for one
search, the time it has taken), and a note after an interruption on a line of its own."""

from __future__ import annotations

import io
import re
import signal
import time
from pathlib import Path

import pytest

import arena
from arena.runs.playing.elapsed import elapsed_line
from tests.helpers.paths import DATA
from tests.helpers.terminal import arena_on_terminal


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_perft_counts_its_first_moves(tmp_path: Path) -> None:
    code, drawn = arena_on_terminal("perft", "5", cwd=tmp_path)
    assert code == 0, drawn
    assert re.search(r"perft 5: 100%\|[^\r]*\| 7/7 ", drawn), drawn
    assert "perft 5: 16807" in drawn


def test_a_dataset_shows_its_games_and_labels(tmp_path: Path) -> None:
    code, drawn = arena_on_terminal("dataset", "-n", "3", "--rows", "4", "--cols", "5",
                                    "-j", "1", "--out", "d.npz", cwd=tmp_path)
    assert code == 0, drawn
    assert re.search(r"playing: 100%\|[^\r]*\| 3/3 ", drawn), drawn
    labelled = re.search(r"labelling: 100%\|[^\r]*\| (\d+)/\1 ", drawn)
    assert labelled and int(labelled.group(1)) > 0, drawn
    code, drawn = arena_on_terminal("dataset", "-n", "3", "--rows", "4", "--cols", "5",
                                    "-j", "1", "--quiet", "--out", "e.npz", cwd=tmp_path)
    assert code == 0 and "%|" not in drawn, drawn


def test_a_replay_page_shows_its_games(tmp_path: Path) -> None:
    arena.match("random", "random", 6, seed=1, jobs=1, progress=False, out=tmp_path / "run")
    code, drawn = arena_on_terminal("export", "html", "run", cwd=tmp_path)
    assert code == 0, drawn
    assert re.search(r"replay page: 100%\|[^\r]*\| 6/6 ", drawn), drawn


def test_one_long_search_shows_the_time_it_has_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with elapsed_line("solving"):
        pass  # done within its first second: nothing drawn
    assert terminal.getvalue() == ""
    with elapsed_line("solving"):
        time.sleep(3)  # the line is drawn from the first second on, twice a second
    drawn = terminal.getvalue()
    assert re.search(r"\rsolving 00:0[1-3]", drawn), drawn
    assert drawn.endswith("\r")  # erased at the end: the result starts at the line's start


@pytest.mark.slow
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_the_interrupted_note_starts_a_line_below_the_bar(tmp_path: Path,
                                                          sent: signal.Signals) -> None:
    """The bar is closed (its last state left on its line) before the note is written."""
    sleeps = f"{DATA / 'hosting_agents.py'}:Sleeps:seconds=0.05"
    code, drawn = arena_on_terminal(
        "match", sleeps, "random", "-n", "40", "-j", "1", "--no-report", "--out", "run",
        cwd=tmp_path, steps=[(lambda drawn: re.search(r"\| [1-9]\d*/40 ", drawn) is not None,
                              sent)])
    assert code == 130, drawn
    before, note, _ = drawn.rpartition("arena: interrupted with ")
    assert note and before.endswith("\r\n"), drawn[-300:]
    assert re.search(r"W/D/L \d+/\d+/\d+\]\r\n$", before), drawn[-300:]
