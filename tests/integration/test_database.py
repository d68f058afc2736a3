"""The published 6 x 7 database as the solver's book: its entries against the project's own
search, what it holds and leaves out, its codes, and damaged files refused by name."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from arena.analysis.scored_positions import load_set
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.search.database import (
    DATABASE_ENV,
    ENTRIES,
    PLIES,
    RECORD,
    RULES,
    Database,
    DatabaseError,
    bucket_index,
    database_for,
    open_database,
    packaged_path,
    position_code,
)
from arena.search.solver import Solver
from arena.search.table_size import MIN_TABLE_MB
from tests.helpers.cli import invoke


@pytest.fixture(scope="module")
def database() -> Database:
    found = database_for(RULES)
    assert found is not None
    return found


def sampled_entries(database: Database, count: int, seed: int) -> list[tuple[Position, int]]:
    indices = np.random.default_rng(seed).choice(len(database), count, replace=False)
    return [database.entry(int(i)) for i in indices]


def random_position(rng: np.random.Generator, plies: int) -> Position | None:
    """A random game of ``plies`` discs on 6 x 7, or None if it ended before."""
    position = Position.empty(RULES)
    for _ in range(plies):
        legal = position.legal_moves()
        position = position.play(legal[int(rng.integers(len(legal)))])
        if position.is_terminal:
            return None
    return position


def searched_scores(entries: list[tuple[Position, int]], monkeypatch: pytest.MonkeyPatch
                    ) -> list[tuple[str, int, int]]:
    """Each entry's position solved by the search alone, where it differs from the entry."""
    monkeypatch.setenv(DATABASE_ENV, "off")
    solver = Solver(MIN_TABLE_MB)
    return [(position.describe(), score, found) for position, score in entries
            if (found := solver.solve(position)) != score]


def test_the_buckets_begin_where_a_binary_search_finds_them(database: Database) -> None:
    codes = database.table["code"].astype(np.int64)
    top = (codes >> 16) + (1 << 15)  # the top 16 bits, in the order of the signed codes
    assert np.array_equal(database.index, np.searchsorted(top, np.arange((1 << 16) + 1)))
    assert database.index.dtype == np.int32


def test_the_buckets_of_a_few_records() -> None:
    codes = [-(1 << 31), -(1 << 31) + 1, -65536, -1, 0, 65535, 65536, 3 << 16, (1 << 31) - 1]
    records = np.zeros(len(codes) * RECORD, dtype=np.uint8)
    for at, code in enumerate(codes):
        records[at * RECORD:at * RECORD + 4] = list(code.to_bytes(4, "big", signed=True))
    index = bucket_index(records)
    # top 16 bits (signed) -32768 twice, -1 twice, 0 twice, 1, 3, 32767: offsets by bucket
    starts = {0: 0, 1: 2, (1 << 15) - 1: 2, 1 << 15: 4, (1 << 15) + 1: 6, (1 << 15) + 2: 7,
              (1 << 15) + 3: 7, (1 << 15) + 4: 8, (1 << 16) - 1: 8, 1 << 16: 9}
    assert {bucket: int(index[bucket]) for bucket in starts} == starts


def test_the_file_is_the_published_one(database: Database) -> None:
    assert len(database) == ENTRIES
    assert database.path == packaged_path()
    codes = database.table["code"].astype(np.int64)
    assert bool(np.all(codes[1:] > codes[:-1]))  # sorted: binary searches find every entry


def test_a_sample_of_entries_gets_the_same_score_from_the_search(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    assert searched_scores(sampled_entries(database, 30, seed=1), monkeypatch) == []


@pytest.mark.slow
def test_a_larger_sample_of_entries_gets_the_same_score_from_the_search(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    assert searched_scores(sampled_entries(database, 300, seed=2), monkeypatch) == []


def test_known_entries(database: Database) -> None:
    # The examples of bitbully-databases' documentation: values 71 (the first player wins
    # with the 29th disc from now) and -88 (it loses to the 12th).
    rows = ["......./...x.../.x.o.../.o.x.o./.x.o.x./.o.x.o.",
            "......./......./..xx.../..oo.../.xox.../.xxo.oo"]
    expected = [1, -10]  # Pons' convention: (44 - 12 - d) // 2 for the winner
    for text, score in zip(rows, expected, strict=True):
        position = position_from_rows(text)
        assert position.plies == PLIES
        assert database.score(position) == score
        assert database.score(position.mirror()) == score


def position_from_rows(text: str) -> Position:
    """A 6 x 7 position from its rows, top first, x the first player (who is to move)."""
    current = mask = 0
    for depth, row in enumerate(text.split("/")):
        for column, cell in enumerate(row):
            if cell != ".":
                bit = RULES.cell_bit(column, RULES.rows - 1 - depth)
                mask |= bit
                current |= bit if cell == "x" else 0
    return Position(RULES, current, mask)


def test_it_holds_every_position_of_12_discs_but_those_won_at_once(database: Database) -> None:
    rng = np.random.default_rng(3)
    held = won_at_once = 0
    while held + won_at_once < 300:
        position = random_position(rng, PLIES)
        if position is None:
            continue
        score = database.score(position)
        if position.winning_moves():
            assert score is None, position.describe()
            won_at_once += 1
        else:
            assert score is not None, position.describe()
            held += 1
    assert held > 100 and won_at_once > 10


def test_other_positions_are_not_in_it(database: Database) -> None:
    assert database.score(from_moves("4444", RULES)) is None  # 4 discs
    assert database.score(Position.empty(Rules(5, 6, 4))) is None  # another board
    assert database_for(Rules(5, 6, 4)) is None


def test_codes_are_the_files(database: Database) -> None:
    for index in (0, 1, len(database) // 2, len(database) - 1):
        position, _ = database.entry(index)
        assert position_code(position) == int(database.table["code"][index])


def test_the_solver_looks_12_disc_positions_up(database: Database) -> None:
    solver = Solver(MIN_TABLE_MB)
    for position, score in sampled_entries(database, 20, seed=4):
        assert solver.solve(position) == score
        assert solver.nodes <= 3  # the root's windows, each answered by the database


def test_the_empty_board_through_the_database() -> None:
    solver = Solver(MIN_TABLE_MB)
    empty = Position.empty(RULES)
    assert solver.column_scores(empty) == {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}
    assert solver.nodes < 1_000_000  # stopped at the database (the search alone: ~10**9)


def test_turned_off_the_solver_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_ENV, "off")
    assert database_for(RULES) is None
    solver = Solver(MIN_TABLE_MB)
    entry = load_set("Test_L1_R3")[1]
    assert solver.solve(entry.position) == entry.score
    assert solver.database is None and solver.nodes > 1000


def damaged_copy(tmp_path: Path, change: str) -> Path:
    path = tmp_path / "book_12ply_distances.dat"
    shutil.copyfile(packaged_path(), path)
    data = bytearray(path.read_bytes())
    if change == "truncated":
        del data[-7:]
    else:  # one score byte changed: a wrong score if it were used
        data[4] ^= 0x02
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(("change", "message"), [("truncated", "is damaged: 21,004,488 bytes"),
                                                 ("flipped", "its checksum is not")])
def test_a_damaged_file_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           change: str, message: str) -> None:
    path = damaged_copy(tmp_path, change)
    with pytest.raises(DatabaseError, match=message):
        open_database(path)
    monkeypatch.setenv(DATABASE_ENV, str(path))
    result = invoke("solve", "4")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"arena: error: database {path} is damaged")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_a_missing_file_is_refused_by_name(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_ENV, str(tmp_path / "nowhere.dat"))
    result = invoke("solve", "4")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"arena: error: database {tmp_path / 'nowhere.dat'} "
                                    "cannot be read")
