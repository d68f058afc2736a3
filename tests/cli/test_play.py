"""``arena play``: a person at the terminal against an agent (here stdin is scripted)."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.play.terminal import QUIET_SECONDS, ThinkingLine
from arena.system.install import install_command
from tests.helpers.cli import arena, arena_command, checkout_env
from tests.helpers.paths import DATA
from tests.helpers.terminal import arena_on_terminal


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


def test_a_fresh_seed_is_short_and_replays_the_game() -> None:
    code, out = arena("play", "random", "--first", "random", input="4\n")
    assert code == 0, out
    seed = re.match(r"Seed (\d+)\. ", out)
    assert seed and len(seed.group(1)) <= 10, out
    again = arena("play", "random", "--first", "random", "--seed", seed.group(1), input="4\n")
    assert again == (code, out)


@pytest.mark.slow
def test_keys_typed_while_the_agent_thinks_are_not_taken_for_a_move(tmp_path: Path) -> None:
    sleeper = f"{DATA / 'play_agents.py'}:Sleeper:seconds=2"  # then the leftmost column
    code, drawn = arena_on_terminal(
        "play", sleeper, "--first", "agent", "--seed", "1", cwd=tmp_path,
        steps=[(lambda drawn: "is thinking" in drawn, "4\n"),  # typed ahead: discarded
               (lambda drawn: "Your move" in drawn, "q\n")])
    assert code == 0, drawn
    assert "You played" not in drawn
    assert drawn.rstrip().splitlines()[-1] == "Game abandoned (you quit). Moves so far: 1"


def test_the_board_options_and_an_unknown_agent() -> None:
    code, out = arena("play", "random", "--rows", "4", "--cols", "5", "--connect", "3",
                      "--first", "human", input="")
    assert code == 0 and "on 4x5 connect 3" in out and "(1-5, q to quit)" in out
    code, out = arena("play", "alphazero", input="")
    assert code == 2 and out.count("\n") == 1 and "unknown agent 'alphazero'" in out


def test_the_board_draws_x_and_o_as_well_as_colours() -> None:
    # Player 1 (you) plays 4, immediate-win answers 5; the plain board (not a terminal) shows
    # X at the bottom of column 4 and the agent's O beside it, marked as the last move.
    code, out = arena("play", "immediate-win", "--first", "human", "--seed", "3", input="4\nq\n")
    assert code == 0, out
    boards = [line for line in out.splitlines() if line and set(line) <= set(" .XO[]")]
    assert boards[-1] == " . . . X[O]. ."


def test_moves_starts_from_a_position() -> None:
    code, out = arena("play", "immediate-win", "--first", "human", "--moves", "445566",
                      "--seed", "1", input="7\n")
    assert code == 0, out
    assert "Starting from 445566." in out
    assert out.rstrip().splitlines()[-1] == "You win! Game: 4455667"
    assert " . . . X X X[X]" in out  # the final board's bottom row: 4567 are X, 7 the last


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
    assert out.strip() == ("arena: error: the window needs pygame, which is not installed "
                           f"(the gui extra): {install_command('gui')}")


def test_hints_need_the_window() -> None:
    code, out = arena("play", "random", "--hints", input="")
    assert (code, out) == (2, "arena: error: --hints shows scores in the window: add --gui\n")


@pytest.mark.parametrize("limit", [
    ["@time=0.3"], pytest.param(["--time-per-move", "0.3"], marks=pytest.mark.slow)])
def test_an_agent_plays_under_its_own_limit_or_the_time_per_move(limit: list[str]) -> None:
    """SPEC@LIMIT and --time-per-move, enforced as in a match: stopped at its limit + grace."""
    sleeper = f"{DATA / 'play_agents.py'}:Sleeper:seconds=5"
    args = [sleeper + limit[0]] if limit[0].startswith("@") else [sleeper, *limit]
    code, out = arena("play", *args, "--first", "human", "--seed", "1", input="4\n")
    assert code == 0, out
    assert out.rstrip().splitlines()[-1] == (
        "You win! (time_forfeit: no answer within 0.4 s to a move; the agent's process was "
        "stopped) Game: 4")


@pytest.mark.slow
def test_an_agent_within_its_limit_plays_on() -> None:
    code, out = arena("play", "solver@time=0.05", "--first", "agent", "--seed", "1",
                      input="q\n")
    assert code == 0 and "against solver@time=0.05 on 6x7" in out
    assert "The agent played column 4." in out  # the empty board: the centre, in time


def test_a_limit_the_agent_does_not_support_is_one_line() -> None:
    code, out = arena("play", "random@depth=3", input="")
    assert (code, out) == (2, "arena: error: agent spec 'random@depth=3': the agent does not "
                              "support a depth limit (it supports: time)\n")


def children_of(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads (Linux's /proc), but the
    watchdogs (``/bin/sh``) that lead its agents' process groups."""
    children = [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
                for child in (task / "children").read_text().split()]
    return [child for child in children
            if Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")[0] != b"/bin/sh"]


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_thinking_line_is_drawn_in_place_on_a_terminal_and_erased() -> None:
    stream = FakeTerminal()
    line = ThinkingLine("solver", stream)
    line.show(QUIET_SECONDS / 2)
    assert stream.getvalue() == ""  # a quick answer shows nothing
    line.show(1.0)
    line.show(12.34)
    line.clear()
    assert stream.getvalue() == ("\rsolver is thinking.   1.0 s"
                                 "\rsolver is thinking..  12.3 s"
                                 "\r                            \r")
    plain = io.StringIO()  # not a terminal: nothing
    ThinkingLine("solver", plain).show(5.0)
    assert plain.getvalue() == ""


@pytest.mark.slow
def test_ctrl_c_while_the_agent_thinks_stops_at_once_with_the_summary() -> None:
    sleeper = f"{DATA / 'play_agents.py'}:Sleeper:seconds=60"
    with subprocess.Popen(arena_command("play", sleeper, "--first", "agent", "--seed", "1"),
                          env={**checkout_env(), "PYTHONUNBUFFERED": "1"},
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("Seed 1. You are player 2")
        deadline = time.monotonic() + 30
        while not (started := children_of(process.pid)):  # the agent's process, thinking
            assert time.monotonic() < deadline, "the agent's process never started"
            time.sleep(0.05)
        (agent_process,) = started
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        pressed = time.monotonic()
        out, _ = process.communicate(timeout=30)
    assert time.monotonic() - pressed < 10  # not the 60 s the agent would think
    assert out.rstrip().splitlines()[-1] == "Game abandoned (interrupted). Moves so far: (none)"
    assert process.returncode == 130
    assert not Path(f"/proc/{agent_process}").exists() or "zombie" in Path(
        f"/proc/{agent_process}/status").read_text()
