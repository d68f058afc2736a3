"""Text boards: X and O in plain text and in colour, the winning line highlighted."""

from __future__ import annotations

import re

import pytest

from arena.rules import render
from arena.rules.notation import from_moves
from arena.rules.render import render_coloured, render_for_stdout, render_plain

ANSI = re.compile(r"\033\[[0-9;]*m")


def test_plain_board_has_x_for_player_1_and_o_for_player_2() -> None:
    assert render_plain(from_moves("4453")).splitlines() == [
        "1 2 3 4 5 6 7", *[". . . . . . ."] * 4, ". . . O . . .", ". . O X X . ."]


def test_coloured_board_reads_the_same_without_its_colours() -> None:
    coloured = render_coloured(from_moves("4453"))
    symbols = [line.split() for line in ANSI.sub("", coloured).splitlines()]
    assert symbols[-1] == ["·", "·", "O", "X", "X", "·", "·"]
    assert symbols[-2] == ["·", "·", "·", "O", "·", "·", "·"]
    assert "\033[1;91;44m X " in coloured and "\033[1;93;44m O " in coloured


def test_the_winning_line_is_on_green() -> None:
    coloured = render_coloured(from_moves("4455667"))  # X wins on the bottom row, 4 to 7
    bottom = coloured.splitlines()[-1]
    assert bottom.count("\033[1;91;42m X ") == 4 and "\033[1;93;44m O " not in bottom


@pytest.mark.parametrize(("tty", "no_color", "term", "coloured"), [
    (True, None, "xterm", True), (False, None, "xterm", False), (True, "1", "xterm", False),
    (True, None, "dumb", False)])
def test_colour_only_on_terminals_that_show_it(monkeypatch: pytest.MonkeyPatch, tty: bool,
                                              no_color: str | None, term: str,
                                              coloured: bool) -> None:
    monkeypatch.setattr(render.sys.stdout, "isatty", lambda: tty)
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.setenv("TERM", term)
    assert ("\033[" in render_for_stdout(from_moves("4"))) is coloured


@pytest.mark.parametrize(("moves", "last", "row"), [
    ("4453", 2, " . .[O]X X . ."), ("1", 0, "[X]. . . . . ."), ("7", 6, " . . . . . .[X]")])
def test_the_last_move_s_disc_is_in_brackets(moves: str, last: int, row: str) -> None:
    plain = render_plain(from_moves(moves), last).splitlines()
    assert plain[0] == " 1 2 3 4 5 6 7" and plain[-1] == row  # every line one space in
    coloured = render_coloured(from_moves(moves), last)
    assert ANSI.sub("", coloured).splitlines()[-1].split()[last].startswith("[")
    assert coloured.count("[") - coloured.count("\033[") == 1  # one disc marked


def test_the_last_move_is_marked_above_the_others_in_its_column() -> None:
    assert render_plain(from_moves("44"), 3).splitlines()[-2:] == [" . . .[O]. . .",
                                                                 " . . . X . . ."]
