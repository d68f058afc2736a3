"""Openings: none, random:K (legal, no win on the board or in one move, distinct), uniform:K
(unpaired, one per game) and files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.rules.board import Position, Rules
from arena.rules.notation import format_moves, from_moves
from arena.runs.planning.openings import (
    FileOpenings,
    NoOpenings,
    OpeningsError,
    RandomOpenings,
    UniformOpenings,
    load_openings,
    random_walk,
)
from tests.helpers.paths import PONS

TEST_L1_R1 = PONS / "Test_L1_R1"


def test_none_starts_every_game_from_the_empty_board() -> None:
    book = load_openings("none", Rules(), seed=1)
    assert isinstance(book, NoOpenings)
    assert not book.paired
    assert book.opening(5) == ""
    assert book.describe() == {"openings": "none"}


@pytest.mark.parametrize("rules", [Rules(), Rules(rows=3, cols=3, connect=3),
                                   Rules(rows=4, cols=5, connect=3)])
def test_random_openings_have_k_plies_no_line_and_no_immediate_win(rules: Rules) -> None:
    book = load_openings("random:4", rules, seed=7)
    assert book.paired
    for pair in range(30):
        moves = book.opening(pair)
        assert len(moves) == 4
        position = from_moves(moves, rules)  # legal, and never past a won position
        assert not position.is_terminal
        assert position.winning_moves() == []


def _walk_by_playing(rules: Rules, plies: int,
                     rng: np.random.Generator) -> tuple[str, int] | None:
    """``random_walk`` as its docstring says, by playing every column to see if it wins."""
    position, columns = Position.empty(rules), []
    for _ in range(plies):
        safe = [c for c in position.legal_moves() if not position.play(c).won]
        if not safe:
            return None
        columns.append(safe[int(rng.integers(len(safe)))])
        position = position.play(columns[-1])
    if any(position.play(c).won for c in position.legal_moves()):
        return None
    return format_moves(columns), position.key()


@pytest.mark.parametrize(("rules", "plies"), [
    (Rules(), 4), (Rules(), 9), (Rules(), 14), (Rules(rows=3, cols=3, connect=3), 5),
    (Rules(rows=4, cols=5, connect=3), 6), (Rules(rows=5, cols=4, connect=4), 10)])
def test_random_walks_are_those_that_play_every_column_to_avoid_lines(rules: Rules,
                                                                      plies: int) -> None:
    for seed in range(200):
        expected = _walk_by_playing(rules, plies, np.random.default_rng(seed))
        assert random_walk(rules, plies, np.random.default_rng(seed)) == expected


def test_random_openings_depend_only_on_the_seed() -> None:
    first = [load_openings("random:6", Rules(), seed=3).opening(k) for k in range(20)]
    again = load_openings("random:6", Rules(), seed=3)
    assert [again.opening(k) for k in reversed(range(20))][::-1] == first
    other = load_openings("random:6", Rules(), seed=4)
    assert [other.opening(k) for k in range(20)] != first


def test_random_openings_are_distinct_until_the_pool_is_used_up() -> None:
    book = load_openings("random:1", Rules(), seed=11)
    assert sorted(book.opening(k) for k in range(7)) == list("1234567")
    # the pool holds 7 positions: opening 8 starts a new cycle through all of them again
    assert sorted(book.opening(k) for k in range(7, 14)) == list("1234567")


def test_random_openings_stay_distinct_positions_in_a_large_pool() -> None:
    book = load_openings("random:8", Rules(), seed=5)
    positions = {from_moves(book.opening(k), Rules()).key() for k in range(300)}
    assert len(positions) == 300


@pytest.mark.parametrize("spec", ["random:0", "random:42", "random:x", "random:"])
def test_random_openings_need_a_ply_count_that_fits_the_board(spec: str) -> None:
    with pytest.raises(OpeningsError, match="random"):
        load_openings(spec, Rules(), seed=1)


def test_no_legal_random_opening_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RandomOpenings, "_walk", lambda self: None)
    with pytest.raises(OpeningsError, match="found no 3-ply opening"):
        load_openings("random:3", Rules(), seed=1)


def test_benchmark_file_openings_ignore_the_score_column() -> None:
    book = load_openings(str(TEST_L1_R1), Rules(), seed=1)
    assert isinstance(book, FileOpenings)
    lines = TEST_L1_R1.read_text().splitlines()
    assert book.opening(0) == lines[0].split()[0]
    assert book.opening(len(lines) + 2) == lines[2].split()[0]  # reused from the top
    assert book.describe()["count"] == len(lines)


def test_file_openings_skip_blank_and_comment_lines(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# my openings\n\n44 12\n4455\n  3  \n")
    book = load_openings(str(path), Rules(), seed=1)
    assert [book.opening(k) for k in range(4)] == ["44", "4455", "3", "44"]


def test_file_openings_are_compared_by_content_not_path(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("44\n45 3\n")
    (tmp_path / "b.txt").write_text("# same openings\n44 0\n45\n")
    (tmp_path / "c.txt").write_text("45\n44\n")
    a, b, c = (load_openings(str(tmp_path / name), Rules(), 1).describe()
               for name in ("a.txt", "b.txt", "c.txt"))
    assert a == b != c


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("44\n4x\n", "line 2.*character 2"),
        ("1111111\n", "line 1.*full"),
        ("4455\n1212121\n", "line 2.*already"),  # the first player wins on move 7
        ("# nothing\n\n", "no move strings"),
        ("48\n", "line 1.*not a column 1 to 7"),
    ],
)
def test_malformed_openings_files_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(OpeningsError, match=message):
        load_openings(str(path), Rules(), seed=1)


def test_an_opening_that_ends_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "won.txt"
    path.write_text("1212121\n")
    with pytest.raises(OpeningsError, match=r"line 1.*1212121.*already ends the game"):
        load_openings(str(path), Rules(), seed=1)


def test_a_missing_openings_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(OpeningsError, match="no such file"):
        load_openings(str(tmp_path / "missing.txt"), Rules(), seed=1)


# --- uniform:K ------------------------------------------------------------------------


def test_uniform_openings_are_unpaired_k_legal_plies_per_game() -> None:
    book = load_openings("uniform:4", Rules(), seed=7)
    assert isinstance(book, UniformOpenings)
    assert not book.paired
    assert book.describe() == {"openings": "uniform:4"}
    openings = [book.opening(game) for game in range(50)]
    assert all(len(moves) == 4 for moves in openings)
    assert all(not from_moves(moves, Rules()).is_terminal for moves in openings)
    assert len(set(openings)) > 40  # 7**4 = 2401 equally likely openings


def test_uniform_openings_depend_only_on_the_seed_and_the_game() -> None:
    book = load_openings("uniform:6", Rules(), seed=3)
    first = [book.opening(game) for game in range(20)]
    again = load_openings("uniform:6", Rules(), seed=3)
    assert [again.opening(game) for game in reversed(range(20))][::-1] == first
    assert again.opening(1000) == book.opening(1000)  # no need to draw the games before it
    other = load_openings("uniform:6", Rules(), seed=4)
    assert [other.opening(game) for game in range(20)] != first


def test_uniform_plies_are_uniform_over_the_legal_columns() -> None:
    book = load_openings("uniform:2", Rules(), seed=1)
    counts = {column: 0 for column in "1234567"}
    for game in range(3500):
        moves = book.opening(game)
        counts[moves[0]] += 1
        counts[moves[1]] += 1
    # 7,000 plies, 1,000 expected per column; the standard deviation is about 29
    assert all(850 < count < 1150 for count in counts.values()), counts


def test_uniform_openings_are_not_filtered_for_immediate_wins() -> None:
    rules = Rules(rows=4, cols=4, connect=3)
    uniform = load_openings("uniform:4", rules, seed=2)
    random = load_openings("random:4", rules, seed=2)
    assert any(from_moves(uniform.opening(g), rules).winning_moves() for g in range(100))
    assert not any(from_moves(random.opening(p), rules).winning_moves() for p in range(100))


def test_uniform_openings_never_end_the_game() -> None:
    rules = Rules(rows=3, cols=3, connect=3)  # a line is possible from the fifth ply on
    book = load_openings("uniform:7", rules, seed=9)
    assert all(not from_moves(book.opening(g), rules).is_terminal for g in range(200))


@pytest.mark.parametrize("spec", ["uniform:0", "uniform:42", "uniform:x", "uniform:", "uniform"])
def test_bad_uniform_specs_are_refused(spec: str) -> None:
    with pytest.raises(OpeningsError, match="uniform:"):
        load_openings(spec, Rules(), seed=1)
