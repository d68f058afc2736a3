"""A command that refuses a directory, or only reads it, leaves nothing behind in it: no lock,
no file; a run leaves its own files and no lock, nor a stale one that was there."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.runs.store import directory as run_directory
from arena.runs.store.directory import RunDirectory, RunDirectoryError
from arena.runs.store.files import RunFiles
from tests.helpers.cli import invoke, refused_and_untouched
from tests.helpers.runs import snapshot

MATCH = ("match", "random", "random", "-n", "4", "-j", "1", "--quiet", "--no-report")


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    """A directory of someone's other files."""
    directory = tmp_path / "notes"
    directory.mkdir()
    (directory / "notes.txt").write_text("mine\n")
    (directory / ".hidden").write_text("mine too\n")
    return directory


def test_a_run_refuses_a_directory_of_other_files_and_leaves_it_alone(foreign: Path) -> None:
    line = refused_and_untouched(foreign, *MATCH, "--out", str(foreign))
    assert line == (f"arena: error: {foreign} holds .hidden, notes.txt but no meta.json: not "
                    "a run this command can resume, and a new run needs a new or empty "
                    "directory; give another --out\n")


def test_a_run_refuses_a_run_s_tables_without_meta_json(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    (out / "meta.json").unlink()
    line = refused_and_untouched(out, *MATCH, "--out", str(out))
    assert f"{out} holds games.csv, summary.csv but no meta.json" in line


def test_a_refused_run_leaves_no_lock_in_another_run_s_directory(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    assert not RunFiles(out).lock.exists()  # a run that ended leaves no lock behind
    line = refused_and_untouched(out, *MATCH, "--seed", "7", "--out", str(out))
    assert f"{out} holds a different run" in line


def test_an_experiment_refuses_an_entry_directory_of_other_files(tmp_path: Path,
                                                                 foreign: Path) -> None:
    path = tmp_path / "one.toml"
    path.write_text('[[match]]\nname = "notes"\na = "random"\nb = "random"\ngames = 2\n')
    line = refused_and_untouched(foreign, "run", str(path), "--out", str(foreign.parent), "-q")
    assert line.startswith(f'arena: error: {path}: match #1 "notes": {foreign} holds .hidden')


@pytest.mark.parametrize("kind", ["foreign", "empty", "tables without meta.json"])
def test_a_report_refused_leaves_no_lock(tmp_path: Path, foreign: Path, kind: str) -> None:
    directory = {"foreign": foreign, "empty": tmp_path / "empty",
                 "tables without meta.json": tmp_path / "tables"}[kind]
    directory.mkdir(exist_ok=True)
    if kind == "tables without meta.json":
        assert invoke(*MATCH, "--out", str(directory)).exit_code == 0
        (directory / "meta.json").unlink()
    line = refused_and_untouched(directory, "report", str(directory))
    assert f"{directory} is not a run directory: it has no" in line


def test_a_report_adds_its_pages_and_charts_and_no_lock(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    before = snapshot(out)
    assert invoke("report", str(out)).exit_code == 0
    after = snapshot(out)
    assert {name: after[name] for name in before} == before
    assert sorted(set(after) - set(before)) == [".report.json", "cost.png", "length.png",
                                                "report-games.html", "report.html", "report.md",
                                                "wtl.png"]


@pytest.mark.parametrize("command", ["resume", "report"])
def test_a_stale_lock_goes_with_the_next_command(tmp_path: Path, command: str) -> None:
    """A lock file no process holds (its run was killed) is taken over and removed."""
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    RunFiles(out).lock.write_bytes(b"")  # as a run killed by SIGKILL leaves it
    args = [*MATCH[:4], "8", *MATCH[5:], "--out"] if command == "resume" else ["report"]
    assert invoke(*args, str(out)).exit_code == 0  # the resume extends the run to 8 games
    assert not RunFiles(out).lock.exists()


def test_a_lock_removed_by_its_holder_meanwhile_is_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder of a lock removes the file it made before it lets go; a process that had
    opened that file then gets its lock on a file no longer there, sees it and starts again."""
    lock = RunFiles(tmp_path).lock
    lock.write_bytes(b"")
    real_flock = run_directory.fcntl.flock
    calls: list[int] = []

    def holder_lets_go_first(fd: int, operation: int) -> None:
        if not calls:
            lock.unlink()  # the holder removes it, then lets go
        calls.append(fd)
        real_flock(fd, operation)

    monkeypatch.setattr(run_directory.fcntl, "flock", holder_lets_go_first)
    with RunDirectory(tmp_path):
        assert len(calls) == 2 and lock.exists()  # the second try made a new file
        # ... and holds it: had it kept the removed one, this would lock the new file
        with pytest.raises(RunDirectoryError, match="in use by another run"), \
                RunDirectory(tmp_path):
            pass
    assert not lock.exists()  # this one made it: removed
