"""``arena perft``: the count on the standard board and others, and one-line errors (perft
itself: tests/unit/test_perft.py)."""

from __future__ import annotations

import pytest

from arena.cli.perft import perft_command
from tests.helpers.cli import invoke


@pytest.mark.parametrize(("args", "count"), [
    (["4"], 2401),
    (["0"], 1),
    (["1", "--moves", "4455"], 7),
    (["2", "--moves", "1212121"], 0),
    (["5", "--rows", "3", "--cols", "2", "--connect", "3"], 20),
])
def test_perft_command(args: list[str], count: int) -> None:
    result = invoke(*args, command=perft_command)
    assert result.exit_code == 0, result.output
    depth = args[0]
    assert result.stdout == f"perft {depth}: {count}\n"
    assert "leaves/s" in result.stderr


@pytest.mark.parametrize(("args", "shown"), [
    (["3", "--moves", "48a"], "'48a'"),
    (["3", "--moves", "1111111"], "'1111111', move 7"),
    (["3", "--moves", "4444444"], "move 7: column 4 (index 3) is full"),
    (["3", "--cols", "10"], "6 x 10"),
    (["-1"], "-1"),
    (["many"], "many"),
])
def test_perft_command_bad_input(args: list[str], shown: str) -> None:
    result = invoke("perft", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("arena: error: ") and result.stderr.count("\n") == 1
    assert shown in result.stderr
