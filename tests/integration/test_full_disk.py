"""A full disk: one line naming the file and the space left, exit status 2, nothing already
written lost, and the run resumed afterwards as if nothing happened. The fault is injected
where the arena writes (``os.write``), on the file it names."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from arena.runs.store.reading import load_games
from tests.helpers.cli import invoke

MATCH = ("match", "random", "immediate-win", "-n", "120", "--seed", "5", "--no-report")
REAL_WRITE = os.write


def fill_disk_at(monkeypatch: pytest.MonkeyPatch, name: str, after: int) -> None:
    """Writes to files whose name starts with ``name`` succeed ``after`` times; the next one
    writes half its bytes, and it and every later one fail with ENOSPC."""
    calls = {"count": 0}

    def write(fd: int, data: bytes) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").rpartition("/")[2].startswith(name):
            return REAL_WRITE(fd, data)
        calls["count"] += 1
        if calls["count"] <= after:
            return REAL_WRITE(fd, data)
        if calls["count"] == after + 1 and len(data) > 1:
            return REAL_WRITE(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", write)


def played(out: Path) -> list[tuple[int, str, str]]:
    games = load_games(out / "games.csv")
    return list(zip(games["game"], games["moves"], games["result"], strict=True))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
@pytest.mark.parametrize(("name", "after"), [("games.csv", 4), (".meta.json.", 1),
                                             ("games.csv", 0)])
def test_a_full_disk_is_one_line_and_the_run_resumes(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     name: str, after: int) -> None:
    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        fill_disk_at(patch, name, after)
        result = invoke(*MATCH, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    file = out / ("games.csv" if name == "games.csv" else "meta.json")
    assert result.stderr.startswith(f"arena: error: cannot write {file}: No space left on "
                                    "device ("), result.stderr
    assert " free)" in result.stderr
    if file.name == "games.csv":
        kept = max(0, file.read_bytes().count(b"\n") - 1) if file.exists() else 0
        saved = int(result.stderr.split("; at least ")[1].split()[0])
        assert saved <= kept  # the rows of the batch cut short may be whole, some of them
        assert f" of 120 games are saved in {out}; make room and run the same command to " \
               "finish\n" in result.stderr
    assert not list(out.glob(".*.tmp"))  # no temporary file left behind
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    assert invoke(*MATCH, "--out", str(tmp_path / "clean")).exit_code == 0
    assert played(out) == played(tmp_path / "clean")
