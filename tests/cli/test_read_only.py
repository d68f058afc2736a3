"""Commands on a read-only filesystem (a read-only bind mount, which even root cannot write
through: tests/helpers/read_only.py) or writing where no file can be made (/proc, /sys): one
line that says what cannot be written, exit status 2, before any work, and nothing changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from arena.competitions.ladder.store import open_ladder
from tests.helpers.cli import arena_command, checkout_env, invoke, refused_and_untouched
from tests.helpers.read_only import read_only, read_only_mounts
from tests.helpers.runs import snapshot

needs_read_only_mount = pytest.mark.skipif(
    not read_only_mounts(), reason="needs unshare and mount (a read-only bind mount)")


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


def played_run(folder: Path) -> Path:
    """A finished run of 4 games in ``folder``."""
    run = folder / "run"
    assert invoke("match", "random", "random", "-n", "4", "-j", "1", "-q", "--no-report",
                  "--out", str(run)).exit_code == 0
    return run


@needs_read_only_mount
def test_analyze_says_it_cannot_write_the_analysis(tmp_path: Path) -> None:
    run = played_run(tmp_path)
    line = refused_read_only(tmp_path, "analyze", str(run), "--best-moves", "-q", "-j", "1")
    assert line == f"arena: error: cannot write the analysis in {run}: Read-only file system\n"


@needs_read_only_mount
def test_a_dataset_on_a_read_only_filesystem_is_refused_before_the_games(tmp_path: Path
                                                                        ) -> None:
    run = played_run(tmp_path)
    out = tmp_path / "positions.npz"
    line = f"arena: error: cannot write the dataset positions.npz in {tmp_path}: Read-only file " \
           "system\n"
    assert refused_read_only(tmp_path, "export", "dataset", str(run), "--out", str(out),
                             "-q") == line
    assert refused_read_only(tmp_path, "dataset", "-n", "4", "--out", str(out), "-q") == line


@pytest.mark.skipif(not Path("/proc/self").is_dir() or not Path("/sys/kernel").is_dir(),
                    reason="needs /proc and /sys")
@pytest.mark.parametrize("out", ["/proc/x.npz", "/sys/x.npz"])
def test_a_dataset_where_no_file_can_be_made_is_refused_before_the_games(tmp_path: Path,
                                                                        out: str) -> None:
    run = played_run(tmp_path)
    said = f"arena: error: cannot write the dataset x.npz in {Path(out).parent}: "  # and why
    assert refused_and_untouched(tmp_path, "export", "dataset", str(run), "--out", out,
                                 "-q").startswith(said)
    assert refused_and_untouched(tmp_path, "dataset", "-n", "4", "--out", out,
                                 "-q").startswith(said)


@needs_read_only_mount
@pytest.mark.parametrize("command", [("ladder", "show"), ("ladder", "add", "RUN")])
def test_a_ladder_on_a_read_only_filesystem_is_said_to_be_unwritable(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    run = played_run(tmp_path)
    ladder = tmp_path / "ladder.sqlite"
    open_ladder(ladder).close()
    args = [str(run) if part == "RUN" else part for part in command]
    line = refused_read_only(tmp_path, *args, "--db", str(ladder))
    assert line == (f"arena: error: {ladder}: cannot be written ({tmp_path}: Read-only file "
                    "system); a ladder, even one only read, keeps its journal beside it\n")
