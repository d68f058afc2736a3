"""``arena solve``: one position with every column, and the bulk mode on a benchmark set."""

from __future__ import annotations

from arena.analysis.scored_positions import set_text
from tests.helpers.cli import invoke


def test_one_position_with_the_score_of_every_column() -> None:
    # Test_L3_R1's first position scores -1: player 1 fills the last cell with a line.
    result = invoke("solve", "2252576253462244111563365343671351441")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ("position  2252576253462244111563365343671351441 on 6x7 connect 4, "
                        "player 2 to move")
    assert lines[1] == "score     -1: player 1 (not to move) wins with its 21st disc"
    assert lines[2].split() == ["column", "1", "2", "3", "4", "5", "6", "7"]
    assert lines[3].split() == ["score", "-", "-", "-", "-", "-", "-1", "-2"]
    assert lines[4].split() == ["best", "6"]


def test_the_empty_board_of_a_small_board() -> None:
    result = invoke("solve", "", "--rows", "4", "--cols", "5")
    assert result.exit_code == 0
    assert "score     0: a draw with perfect play" in result.stdout
    assert result.stdout.splitlines()[3].split() == ["score", "-1", "0", "0", "0", "-1"]


def test_bulk_mode_gives_a_benchmark_set_back_as_it_went_in() -> None:
    lines = set_text("Test_L2_R1")[0].splitlines()[:100]
    result = invoke("solve", input="".join(line.split()[0] + "\n" for line in lines))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == lines


def test_bulk_mode_with_columns_ignores_scores_and_marks_full_columns() -> None:
    result = invoke("solve", "--columns", input="1233722555341451114725221333 -1\n")
    assert result.exit_code == 0
    assert result.stdout == "1233722555341451114725221333 -1 - - - -1 -1 -1 -1\n"


def test_bad_positions_are_one_line_errors() -> None:
    result = invoke("solve", input="4455\n12x\n")
    assert result.exit_code == 2
    assert result.stdout == "4455 18\n"
    assert result.stderr == ("arena: error: stdin line 2: move string '12x': character 3 ('x') "
                             "is not a column 1 to 7\n")
    result = invoke("solve", "1212121")
    assert result.exit_code == 2
    assert result.stderr == ("arena: error: MOVES: the game is already over after '1212121': "
                             "nothing to solve\n")
    result = invoke("solve", "4444444")
    assert result.exit_code == 2
    assert result.stderr.startswith("arena: error: MOVES: move string '4444444', move 7: column 4 "
                                    "(index 3) is full in position [6x7 connect 4")
    result = invoke("solve", "4455", "--table-mb", "1")
    assert result.exit_code == 2 and "--table-mb" in result.stderr
