"""`arena ladder place` refuses what it cannot place in one line, exit status 2, before a
ladder file or a placement folder is made: a database under a regular file, an agent that
cannot be built (its server unreachable, its constructor failing), an anchor."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import refused_and_untouched

BROKEN = '''
class Bot:
    def __init__(self):
        raise RuntimeError("no weights here")

    def choose(self, position, rng):
        return 0
'''


def test_a_database_under_a_regular_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "FILE").write_text("not a folder\n")
    line = refused_and_untouched(tmp_path, "ladder", "place", "negamax:depth=3",
                                 "--db", str(tmp_path / "FILE" / "l.sqlite"),
                                 "--out", str(tmp_path / "lp"))
    assert line == (f"arena: error: {tmp_path / 'FILE' / 'l.sqlite'}: cannot make its "
                    f"directory: {tmp_path / 'FILE'} is a file, not a directory\n")


def test_an_agent_that_cannot_be_built_makes_no_ladder_and_no_folder(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    line = refused_and_untouched(tmp_path, "ladder", "place", f"{tmp_path / 'broken.py'}:Bot",
                                 "--db", str(tmp_path / "new.sqlite"),
                                 "--out", str(tmp_path / "lp1"))
    assert "no weights here" in line


@pytest.mark.llm
def test_a_model_whose_server_cannot_be_reached_makes_no_ladder_and_no_folder(
        tmp_path: Path) -> None:
    line = refused_and_untouched(tmp_path, "ladder", "place",
                                 "llm:some-model,base_url=http://127.0.0.1:9/v1,key_env=none",
                                 "--db", str(tmp_path / "new.sqlite"),
                                 "--out", str(tmp_path / "lp1"))
    assert "cannot reach http://127.0.0.1:9/v1" in line


def test_an_anchor_is_refused_before_a_new_ladder_is_made(tmp_path: Path) -> None:
    line = refused_and_untouched(tmp_path, "ladder", "place", "random",
                                 "--db", str(tmp_path / "new.sqlite"),
                                 "--out", str(tmp_path / "lp1"))
    assert line == "arena: error: random is an anchor of board 6x7c4: its rating is fixed\n"
