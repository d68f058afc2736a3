"""One-line errors that say what is wrong with the input, not some other fault: a directory
where a file is wanted, a file where a directory is, an empty setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.search.database import DATABASE_ENV
from tests.helpers.cli import refused_and_untouched


def test_a_database_setting_naming_a_directory_says_so(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "databases"
    folder.mkdir()
    monkeypatch.setenv(DATABASE_ENV, str(folder))
    line = refused_and_untouched(tmp_path, "solve", "4453")
    assert line == (f"arena: error: database {folder} is a directory, not the database file; "
                    f"set {DATABASE_ENV} to the file (book_12ply_distances.dat) or to off\n")


@pytest.mark.parametrize("command", [("report", "FILE"), ("show", "FILE", "1"),
                                     ("export", "html", "FILE")])
def test_a_run_directory_that_is_a_file_says_so(tmp_path: Path,
                                                command: tuple[str, ...]) -> None:
    file = tmp_path / "FILE"
    file.write_text("a note\n")
    line = refused_and_untouched(tmp_path, *(str(file) if part == "FILE" else part
                                             for part in command))
    assert line == f"arena: error: {file} is not a run directory: it is a file, not a directory\n"


def test_openings_naming_a_directory_say_so(tmp_path: Path) -> None:
    out = tmp_path / "run"
    line = refused_and_untouched(tmp_path, "match", "random", "random", "-n", "2",
                                 "--openings", str(tmp_path), "--out", str(out))
    assert line.startswith(f"arena: error: openings {str(tmp_path)!r}: a directory, not a "
                           "file; expected none, random:K")


@pytest.mark.llm
def test_an_empty_key_env_asks_for_a_name(tmp_path: Path) -> None:
    out = tmp_path / "run"
    line = refused_and_untouched(tmp_path, "match", "llm:some-model,key_env=", "random", "-n",
                                 "2", "--out", str(out))
    assert "key_env is empty: give key_env=NAME, the environment variable that holds the API " \
           "key, or key_env=none" in line
