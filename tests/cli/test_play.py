"""``arena play``: a person at the terminal against an agent (here stdin is scripted)."""

from __future__ import annotations

import re
import sys

import pytest

from tests.helpers.cli import arena


def test_bad_entries_and_a_full_column_are_explained_and_asked_again() -> None:
    # Two people: column 1 fills after six discs (no line: the colours alternate).
    code, out = arena("play", "human", "--first", "human",
                      input="x\n0\n9\n1\n1\n1\n1\n1\n1\n1\n2\nq\n")
    assert code == 0, out
    assert "'x' is not a column: type a number from 1 to 7." in out
    assert "'0' is not a column" in out and "'9' is not a column" in out
    assert "Column 1 is full: pick another." in out
    assert out.rstrip().endswith("Game abandoned (you quit). Moves so far: 1111112")


def test_end_of_input_ends_the_game_cleanly() -> None:
    code, out = arena("play", "random", "--first", "human", "--seed", "1", input="4\n")
    assert code == 0, out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("Game abandoned (end of input). Moves so far: 4")
    assert "Traceback" not in out


def test_a_won_game_names_the_winner_and_the_moves() -> None:
    # immediate-win does not block on purpose, and with seed 3 it never plays column 4.
    code, out = arena("play", "immediate-win", "--first", "human", "--seed", "3",
                      input="4\n4\n4\n4\n")
    assert code == 0, out
    moves = out.rstrip().rpartition("Game: ")[2]
    assert out.rstrip().splitlines()[-1] == f"You win! Game: {moves}"
    assert moves[::2] == "4444" and len(moves) == 7


def test_the_board_options_and_an_unknown_agent() -> None:
    code, out = arena("play", "random", "--rows", "4", "--cols", "5", "--connect", "3",
                      "--first", "human", input="")
    assert code == 0 and "on 4x5 connect 3" in out and "(1-5, q to quit)" in out
    code, out = arena("play", "alphazero", input="")
    assert code == 2 and out.count("\n") == 1 and "unknown agent 'alphazero'" in out


def test_the_board_draws_x_and_o_as_well_as_colours() -> None:
    # Player 1 (you) plays 4, immediate-win answers; the plain board (not a terminal) shows
    # X at the bottom of column 4 and the agent's O in the bottom row.
    code, out = arena("play", "immediate-win", "--first", "human", "--seed", "3", input="4\nq\n")
    assert code == 0, out
    boards = [line for line in out.splitlines() if line and set(line) <= set(" .XO")]
    bottom = boards[-1].split()
    assert len(bottom) == 7 and bottom[3] == "X" and bottom.count("O") == 1


def test_moves_starts_from_a_position() -> None:
    code, out = arena("play", "immediate-win", "--first", "human", "--moves", "445566",
                      "--seed", "1", input="7\n")
    assert code == 0, out
    assert "Starting from 445566." in out
    assert out.rstrip().splitlines()[-1] == "You win! Game: 4455667"
    assert "X X X X" in out  # the bottom row of the final board: 4567 are X


def test_undo_takes_back_your_move_and_the_agents_reply() -> None:
    code, out = arena("play", "random", "--first", "human", "--seed", "5", input="4\nu\n3\nq\n")
    assert code == 0, out
    assert "(1-7, q to quit)" in out  # nothing to take back before the first move
    taken = out.split("Took back ")[1].split(".")[0]
    assert len(taken) == 2 and taken[0] == "4"
    assert "Moves now: (none)" in out
    last = out.rstrip().splitlines()[-1]
    assert re.fullmatch(r"Game abandoned \(you quit\)\. Moves so far: 3[1-7]", last), last


def test_bad_move_strings_are_refused_in_one_line() -> None:
    for moves, message in (("48", "character 2 ('8') is not a column 1 to 7"),
                           ("4444444", "move 7: column 4 (index 3) is full")):
        code, out = arena("play", "random", "--moves", moves, input="")
        assert code == 2 and out.count("\n") == 1 and message in out, out


def test_gui_without_pygame_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)  # find_spec then reports it missing
    code, out = arena("play", "random", "--gui", input="")
    assert code == 2 and out.count("\n") == 1
    assert out.strip() == ("arena: error: the window needs pygame, which is not installed: "
                           "pip install 'connect-four-arena[gui]'")


def test_hints_need_the_window() -> None:
    code, out = arena("play", "random", "--hints", input="")
    assert (code, out) == (2, "arena: error: --hints shows scores in the window: add --gui\n")
