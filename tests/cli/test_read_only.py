"""Commands on a read-only filesystem (a read-only bind mount, which even root cannot write
through: tests/helpers/read_only.py): one line that says what cannot be written, exit status
2, before any work, and nothing changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import arena_command, checkout_env, invoke
from tests.helpers.read_only import read_only, read_only_mounts
from tests.helpers.runs import snapshot

pytestmark = pytest.mark.skipif(not read_only_mounts(),
                                reason="needs unshare and mount (a read-only bind mount)")


def refused_read_only(folder: Path, *args: str) -> str:
    """The one line of ``arena ARGS...`` run with ``folder`` read-only, which must refuse with
    status 2 and find ``folder`` as it was."""
    before = snapshot(folder)
    done = subprocess.run(read_only(folder, arena_command(*args)), env=checkout_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stdout + done.stderr
    assert snapshot(folder) == before
    return done.stderr


def test_analyze_says_it_cannot_write_the_analysis(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert invoke("match", "random", "random", "-n", "4", "-j", "1", "-q", "--no-report",
                  "--out", str(run)).exit_code == 0
    line = refused_read_only(tmp_path, "analyze", str(run), "--best-moves", "-q", "-j", "1")
    assert line == f"arena: error: cannot write the analysis in {run}: Read-only file system\n"
