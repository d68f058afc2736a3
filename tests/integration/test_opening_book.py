"""The opening book: built in a temporary cache, exact, used by the solver, resumable."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.analysis import books
from arena.analysis.books import build_book, plan_book
from arena.rules.board import Position, Rules
from arena.search.book import Book, BookError, book_key, book_path, load_book, positions_by_ply
from arena.search.solver import Solver, configured
from arena.search.table_size import MIN_TABLE_MB
from tests.helpers.cli import invoke

SMALL = Rules(4, 5, 4)
DEPTH = 5


def every_position_up_to(rules: Rules, depth: int) -> list[Position]:
    level, found = [Position.empty(rules)], []
    for _ in range(depth + 1):
        found += level
        level = list({after.key(): after for p in level for c in p.legal_moves()
                      if not (after := p.play(c)).is_terminal}.values())
    return found


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Book]:
    directory = tmp_path_factory.mktemp("cache")
    with configured(MIN_TABLE_MB):
        return directory, build_book(plan_book(SMALL, DEPTH, directory))


def test_the_book_holds_every_position_once_with_its_exact_score(book: tuple[Path, Book]) -> None:
    directory, built = book
    loaded = load_book(directory, SMALL)
    assert loaded is not None and loaded.depth == DEPTH
    assert (loaded.keys == built.keys).all() and (loaded.scores == built.scores).all()
    plain = Solver(MIN_TABLE_MB)
    positions = every_position_up_to(SMALL, DEPTH)
    wanted = {book_key(p) for p in positions if not p.winning_moves()}
    assert set(built.keys.tolist()) == wanted
    for position in positions:
        if not position.winning_moves():
            assert built.score(position) == plain.solve(position)
            assert built.score(position.mirror()) == built.score(position)


def test_the_solver_uses_the_book_it_finds_in_its_cache(book: tuple[Path, Book]) -> None:
    directory, _ = book
    with_book, plain = Solver(MIN_TABLE_MB, directory), Solver(MIN_TABLE_MB)
    empty = Position.empty(SMALL)
    assert with_book.solve(empty) == plain.solve(empty) == 0
    assert with_book.nodes <= 3 < plain.nodes
    deeper = [p for p in every_position_up_to(SMALL, DEPTH + 3) if p.plies > DEPTH][:200]
    for position in deeper:
        assert with_book.solve(position) == plain.solve(position)
    assert Solver(MIN_TABLE_MB, directory / "elsewhere").solve(empty) == 0


def test_an_interrupted_build_resumes(tmp_path: Path, book: tuple[Path, Book],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, whole = book
    solve_chunk = books._solve_chunk
    calls: list[int] = []

    def interrupted(*arguments: object) -> list[int]:
        if len(calls) == 10:
            raise KeyboardInterrupt
        calls.append(1)
        return solve_chunk(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(books, "_solve_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_book(plan_book(SMALL, DEPTH, tmp_path))
    monkeypatch.undo()
    build = plan_book(SMALL, DEPTH, tmp_path)
    assert len(build.known) == 10 * books.CHUNK and build.partial.exists()
    done: list[int] = []
    resumed = build_book(build, jobs=2, progress=done.append)
    assert done[0] == 10 * books.CHUNK and sum(done) == build.total == len(whole)
    assert (resumed.keys == whole.keys).all() and (resumed.scores == whole.scores).all()
    assert not build.partial.exists()


def test_positions_by_ply_gives_one_of_each_mirror_pair() -> None:
    # The standard board has 1, 7, 49, 238 and 1120 positions after 0 to 4 plies (OEIS
    # A212693); none of them has a win in one for the side to move yet.
    everything = every_position_up_to(Rules(), 4)
    by_ply = [[p for p in everything if p.plies == ply] for ply in range(5)]
    assert [len(level) for level in by_ply] == [1, 7, 49, 238, 1120]
    for level, found in zip(by_ply, positions_by_ply(Rules(), 4), strict=True):
        assert len(found) == len({book_key(p) for p in level})
        assert {book_key(p) for p in found} == {book_key(p) for p in level}


def test_the_command_builds_the_book_and_solve_uses_it(tmp_path: Path) -> None:
    result = invoke("book", "--rows", "4", "--cols", "5", "--depth", "3",
                    "--cache", str(tmp_path), "--table-mb", "16")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Book        ")
    assert book_path(tmp_path, SMALL).exists()
    solved = invoke("solve", "", "--rows", "4", "--cols", "5", "--cache", str(tmp_path))
    assert "score     0: a draw with perfect play" in solved.stdout


def test_a_broken_book_is_a_one_line_error(tmp_path: Path) -> None:
    path = book_path(tmp_path, SMALL)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a book")
    with pytest.raises(BookError, match="cannot be read"):
        load_book(tmp_path, SMALL)
    result = invoke("solve", "1", "--rows", "4", "--cols", "5", "--cache", str(tmp_path))
    assert result.exit_code == 2 and result.stderr.startswith("arena: error: opening book")
