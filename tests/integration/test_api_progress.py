"""The Python API's progress bar is drawn where it is seen, as the commands' is: on a
terminal's stderr, or as tqdm's widget in Jupyter; stderr written to a file or a pipe (a
script's log) gets no bar."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import arena as api
from arena.runs.playing import progress
from tests.helpers.terminal import on_terminal

MATCH = "import arena; arena.match('random', 'random', games=20, jobs=1); print('played')"


def test_a_run_writes_no_bar_into_a_stderr_that_is_not_a_terminal(
        capfd: pytest.CaptureFixture[str]) -> None:
    result = api.match("random", "random", games=20, jobs=1)
    assert len(result.games) == 20
    assert capfd.readouterr().err == ""


def test_a_run_on_a_terminal_draws_its_bar(tmp_path: Path) -> None:
    code, drawn = on_terminal([sys.executable, "-c", MATCH], cwd=tmp_path)
    assert code == 0 and "20/20" in drawn and "W/D/L" in drawn and "played" in drawn


def test_a_jupyter_kernel_gets_the_notebook_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = SimpleNamespace(config={"IPKernelApp": {}})
    console = SimpleNamespace(config={"TerminalInteractiveShell": {}})
    for shell, seen in ((kernel, True), (console, False), (None, False)):
        monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(
            get_ipython=lambda shell=shell: shell))
        assert progress.in_notebook() is seen
    monkeypatch.delitem(sys.modules, "IPython")
    assert not progress.in_notebook()
