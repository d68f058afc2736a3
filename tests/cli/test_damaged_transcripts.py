"""A finished game's transcript (llm/game-NNNNNN.jsonl.gz) that lost records, cut in half or
at a record's end, is named in one warning line by every command whose figures or answers it
shortens (`show --answers`, `report`, a run's closing tables) and in the report's language
model section; an undamaged one is not."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.runs.store.files import RunFiles
from arena.runs.store.transcripts import read_transcript
from tests.helpers.cli import invoke
from tests.helpers.llm_server import register_llm_kind, serving

pytestmark = pytest.mark.llm

GAME = 1


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[str]]]:
    """A finished run of a model against random, and the command that plays it."""
    register_llm_kind(tmp_path_factory.mktemp("llm-kind"))
    out = tmp_path_factory.mktemp("llm") / "run"
    with serving() as server:
        command = ["match", f"llm:fake-model,base_url={server.url},key_env=none,price=1/2",
                   "random", "-n", "4", "-j", "1", "-q", "--out", str(out)]
        result = invoke(*command)
        assert result.exit_code == 0, result.output
        assert "warning" not in result.stderr
        yield out, command


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def last_record_dropped(path: Path) -> None:
    """The transcript without its last record, cut where that record begins."""
    records = read_transcript(path)[:-1]
    path.write_bytes(b"".join(gzip.compress((json.dumps(record) + "\n").encode(), mtime=0)
                              for record in records))


def damaged_copy(played: tuple[Path, list[str]], tmp_path: Path, damage: str) -> Path:
    run = tmp_path / "run"
    shutil.copytree(played[0], run)
    {"half": cut_in_half, "last": last_record_dropped}[damage](
        RunFiles(run).llm_transcript(GAME))
    return run


@pytest.mark.parametrize("damage", ["half", "last"])
def test_show_answers_names_a_damaged_transcript(played: tuple[Path, list[str]],
                                                 tmp_path: Path, damage: str) -> None:
    run = damaged_copy(played, tmp_path, damage)
    result = invoke("show", str(run), str(GAME), "--answers")
    assert result.exit_code == 0, result.output
    path = RunFiles(run).llm_transcript(GAME)
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("arena: warning: the answers shown lack what a damaged "
                                    f"transcript lost: {path} (")
    assert "moves its models made" in result.stderr


@pytest.mark.parametrize("damage", ["half", "last"])
def test_report_names_a_damaged_transcript_in_its_output_and_its_page(
        played: tuple[Path, list[str]], tmp_path: Path, damage: str) -> None:
    run = damaged_copy(played, tmp_path, damage)  # its report was written before the damage
    result = invoke("report", str(run))
    assert result.exit_code == 0, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    path = RunFiles(run).llm_transcript(GAME)
    assert result.stderr.startswith("arena: warning: the language models' figures lack what "
                                    f"a damaged transcript lost: {path}")
    page = RunFiles(run).report.read_text()
    section = page.partition("## Language models")[2].partition("\n## ")[0]
    assert "**Warning:** The figures above lack what a damaged transcript lost: " \
           f"llm/game-{GAME:06d}.jsonl.gz (" in section


def test_the_run_s_own_command_names_a_damaged_transcript(played: tuple[Path, list[str]],
                                                          tmp_path: Path) -> None:
    run = damaged_copy(played, tmp_path, "half")
    command = [*played[1][:-1], str(run)]
    result = invoke(*command)
    assert result.exit_code == 0, result.output
    assert any(line.startswith("arena: warning: the language models' figures lack")
               for line in result.stderr.splitlines())


def test_an_undamaged_transcript_is_not_named(played: tuple[Path, list[str]]) -> None:
    for args in (("show", str(played[0]), str(GAME), "--answers"), ("report", str(played[0]))):
        result = invoke(*args)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
