"""``arena play``: a person at the terminal against an agent (here stdin is scripted)."""

from __future__ import annotations

from click.testing import CliRunner

from arena.cli import main


def play(*args: str, typed: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=typed)
    return result.exit_code, result.output


def test_bad_entries_and_a_full_column_are_explained_and_asked_again() -> None:
    # Two people: column 1 fills after six discs (no line: the colours alternate).
    code, out = play("human", "--first", "human", typed="x\n0\n9\n1\n1\n1\n1\n1\n1\n1\n2\nq\n")
    assert code == 0, out
    assert "'x' is not a column: type a number from 1 to 7." in out
    assert "'0' is not a column" in out and "'9' is not a column" in out
    assert "Column 1 is full: pick another." in out
    assert out.rstrip().endswith("Game abandoned (you quit). Moves so far: 1111112")


def test_end_of_input_ends_the_game_cleanly() -> None:
    code, out = play("random", "--first", "human", "--seed", "1", typed="4\n")
    assert code == 0, out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("Game abandoned (end of input). Moves so far: 4")
    assert "Traceback" not in out


def test_a_won_game_names_the_winner_and_the_moves() -> None:
    # immediate-win does not block on purpose, and with seed 3 it never plays column 4.
    code, out = play("immediate-win", "--first", "human", "--seed", "3", typed="4\n4\n4\n4\n")
    assert code == 0, out
    moves = out.rstrip().rpartition("Game: ")[2]
    assert out.rstrip().splitlines()[-1] == f"You win! Game: {moves}"
    assert moves[::2] == "4444" and len(moves) == 7


def test_the_board_options_and_an_unknown_agent() -> None:
    code, out = play("random", "--rows", "4", "--cols", "5", "--connect", "3", "--first", "human",
                     typed="")
    assert code == 0 and "on 4x5 connect 3" in out and "(1-5, q to quit)" in out
    code, out = play("alphazero", typed="")
    assert code == 2 and out.count("\n") == 1 and "unknown agent 'alphazero'" in out
