"""What the commands that can take a while draw on a terminal: a progress bar, and a note
after an interruption on a line of its own."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from tests.helpers.paths import DATA
from tests.helpers.terminal import arena_on_terminal


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
