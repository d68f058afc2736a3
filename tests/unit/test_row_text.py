"""The fused loop's games.csv text, written in bulk by the compiled core, against the csv
module writing the same games as ``GameRow``s: the same bytes, think times included (every way
``repr`` writes them: each microsecond up to a second, and big ones up to 2**32 seconds), on
made-up matches and on hypothesis' games of every kind of cell; the move strings' hashes
against the numpy ones; and the arguments the core refuses rather than write past its arrays."""

from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rules.game_hash import move_hashes
from arena.rules.results import Result, Side, Termination
from arena.runs.planning.openings import load_openings
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.playing.fused import MICROS, FusedGames
from arena.runs.store.rows import GameRow
from arena.runs.store.summary import GameColumns
from arena.search.kernels import row_text
from arena.search.kernels.games import new_outcomes

CELLS = 42
ENDINGS = {1: Termination.FOUR_IN_A_ROW, 2: Termination.BOARD_FULL, 3: Termination.ADJUDICATED}
RESULTS = {-1: Result.DRAW, 0: Result.WIN, 1: Result.LOSS}  # by the winning side
MICROS_SHOWN = [0, 1, 5, 9, 10, 12, 50, 99, 100, 101, 120, 999, 1000, 123456, 999999,
                1000000, 1000001, 1500000, 12345678, 10**12 + 7]


def _games(openings: str, agent_a: str, seed: int) -> tuple[FusedGames, list[GameRow]]:
    """Made-up outcomes of 200 games and the rows of the same games."""
    settings = GameSettings(seed=seed)
    plan = MatchPlan((Pairing(agent_a, "random", 200),), settings,
                     load_openings(openings, settings.rules, seed))
    batch = plan.batch(np.random.default_rng(seed).permutation(200))
    rng = np.random.default_rng(seed + 1)
    out = new_outcomes(len(batch), CELLS)
    openings_played = [batch.openings[index] for index in batch.opening_index]
    out.winners[:] = rng.integers(-1, 2, len(batch))
    out.endings[:] = rng.integers(1, 4, len(batch))
    out.plies[:] = [len(opening) + rng.integers(0, CELLS - len(opening) + 1)
                    for opening in openings_played]
    out.moves[:] = rng.integers(0, 7, out.moves.shape)
    out.cycles[:] = rng.choice(MICROS_SHOWN, out.cycles.shape)
    out.nodes[:] = rng.choice([-1, 0, 7, 123456789], out.nodes.shape)
    out.turns[:] = rng.integers(0, 22, out.turns.shape)
    seeds = (np.uint64(seed) << np.uint64(32)) | batch.games.astype(np.uint64)
    games = FusedGames(batch, seeds, out, 1 / MICROS)  # a cycle is a microsecond
    rows = []
    for g, task in enumerate(batch.tasks()):
        played = int(out.plies[g]) - len(task.opening)
        moves = task.opening + "".join(str(column + 1) for column in out.moves[g, :played])
        nodes = [None if n < 0 else n for n in out.nodes[g].tolist()]
        seconds = [round(c / MICROS, 6) for c in out.cycles[g].tolist()]
        rows.append(GameRow(task.game, task.pair, int(seeds[g]), task.agent_a, task.agent_b,
                            task.first, task.opening, moves, RESULTS[int(out.winners[g])],
                            ENDINGS[int(out.endings[g])], int(out.plies[g]), *seconds,
                            *nodes, *out.turns[g].tolist(), ""))
    return games, rows


@pytest.mark.parametrize(("openings", "agent_a", "seed"), [
    ("none", "random", 0),
    ("random:3", "negamax:depth=4,heuristic=threats+positional", 2**32 - 1),
    ("uniform:2", 'immediate-win:block=true', 7),
])
def test_the_rows_are_the_csv_modules(openings: str, agent_a: str, seed: int) -> None:
    games, rows = _games(openings, agent_a, seed)
    written = io.StringIO()
    csv.writer(written, lineterminator="\n").writerows(rows)
    text, hashes = games.text()
    assert text.decode("ascii") == written.getvalue()
    assert games.tally().wtl == (sum(r.result is Result.WIN for r in rows),
                                 sum(r.result is Result.DRAW for r in rows),
                                 sum(r.result is Result.LOSS for r in rows))
    from_rows = GameColumns.of_rows(rows)
    for mine, theirs in zip(games.columns(hashes), from_rows, strict=True):
        assert np.array_equal(mine, theirs)


def test_every_think_time_is_written_as_repr_writes_it() -> None:
    games, _ = _games("none", "random", 1)
    shown = np.array([*MICROS_SHOWN, *range(0, 3000), *range(999_000, 1_001_000)])
    for start in range(0, len(shown), len(games)):
        chunk = shown[start:start + len(games)]
        games.outcomes.cycles[:len(chunk)] = chunk[:, None]
        lines = games.text()[0].decode("ascii").splitlines()
        for micros, line in zip(chunk.tolist(), lines, strict=False):
            assert line.split(",")[11:13] == [repr(round(micros / MICROS, 6))] * 2, micros


def _cell(value: object) -> bytes:
    """``value`` as the csv module writes it as one cell."""
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow([value])
    return line.getvalue().encode()


class Words:
    """The words of a row (``fused_rows``' ``words`` and ``starts``): the agents' cells,
    then every side, result and termination, then the openings."""

    def __init__(self, agents: tuple[str, str], openings: list[str]) -> None:
        line = io.StringIO()
        csv.writer(line, lineterminator="").writerow(agents)
        words = [line.getvalue().encode(), *map(_cell, Side), *map(_cell, Result),
                 *map(_cell, Termination), *(opening.encode() for opening in openings)]
        self.bytes = np.frombuffer(b"".join(words), dtype=np.uint8)
        self.starts = np.cumsum([0, *map(len, words)], dtype=np.int64)

    @staticmethod
    def of(value: Side | Result | Termination) -> int:
        kinds: list[type] = [Side, Result, Termination]
        index = 1
        for kind in kinds:
            if isinstance(value, kind):
                return index + list(kind).index(value)
            index += len(kind)
        raise AssertionError(value)

    @staticmethod
    def opening(index: int) -> int:
        return 1 + len(Side) + len(Result) + len(Termination) + index


def _write(words: Words, rows: list[GameRow], openings: list[str], moves: np.ndarray,
           micros: np.ndarray) -> tuple[bytes, np.ndarray, np.ndarray]:
    """``rows`` (their ``micros`` in whole microseconds) written by the core: the text, where
    each move string begins, the arrays' ``out`` before it was cut to the text."""
    n = len(rows)
    column = np.array
    out = np.full(n * (row_text.ROW_BYTES + len(words.bytes) + 2 * moves.shape[1]), 255,
                  dtype=np.uint8)
    moves_at = np.empty(n, dtype=np.int64)
    length = row_text.fused_rows(
        column([r.game for r in rows], dtype=np.int64),
        column([-1 if r.pair is None else r.pair for r in rows], dtype=np.int64),
        column([r.seed for r in rows], dtype=np.uint64), 0,
        column([words.of(r.first) for r in rows], dtype=np.int64),
        column([words.opening(openings.index(r.opening)) for r in rows], dtype=np.int64),
        column([words.of(r.result) for r in rows], dtype=np.int64),
        column([words.of(r.termination) for r in rows], dtype=np.int64),
        words.bytes, words.starts, moves, column([r.plies for r in rows], dtype=np.int64),
        micros, column([[-1 if n is None else n for n in (r.nodes_a, r.nodes_b)]
                        for r in rows], dtype=np.int64).reshape(n, 2),
        column([[r.turns_a, r.turns_b] for r in rows], dtype=np.int64).reshape(n, 2),
        out, moves_at)
    return out[:length].tobytes(), moves_at, out


BIG = 2**32 * MICROS  # think times below 2**32 seconds are written as repr writes them
WORDS = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
COUNTS = st.integers(0, 2**63 - 1)
THINK_TIMES = st.one_of(st.integers(0, 120), st.integers(0, MICROS), st.integers(0, BIG - 1))


@st.composite
def games(draw: st.DrawFn) -> tuple[tuple[str, str], list[str], list[tuple[GameRow, list[int],
                                                                            list[int]]]]:
    """Two agents, openings, and games of them with any cells: rows, moves after the
    opening, think times in microseconds."""
    agents = (draw(WORDS), draw(WORDS))
    openings = draw(st.lists(st.text("1234567", max_size=6), min_size=1, max_size=4,
                             unique=True))
    played = []
    for _ in range(draw(st.integers(1, 12))):
        opening = draw(st.sampled_from(openings))
        moves = draw(st.lists(st.integers(0, 8), max_size=CELLS - len(opening)))
        micros = [draw(THINK_TIMES), draw(THINK_TIMES)]
        nodes = [draw(st.none() | COUNTS), draw(st.none() | COUNTS)]
        row = GameRow(draw(COUNTS), draw(st.none() | COUNTS), draw(st.integers(0, 2**64 - 1)),
                      *agents, draw(st.sampled_from(Side)), opening,
                      opening + "".join(str(c + 1) for c in moves),
                      draw(st.sampled_from(Result)), draw(st.sampled_from(Termination)),
                      len(opening) + len(moves), *(round(m / MICROS, 6) for m in micros),
                      *nodes, draw(COUNTS), draw(COUNTS), "")
        played.append((row, moves, micros))
    return agents, openings, played


@settings(max_examples=150, deadline=None)
@given(games())
def test_any_games_rows_are_the_csv_modules(
        drawn: tuple[tuple[str, str], list[str], list[tuple[GameRow, list[int], list[int]]]]
) -> None:
    agents, openings, played = drawn
    rows = [row for row, _, _ in played]
    moves = np.zeros((len(rows), CELLS), dtype=np.uint8)
    for g, (_, columns, _) in enumerate(played):
        moves[g, :len(columns)] = columns
    micros = np.array([m for _, _, m in played], dtype=np.int64)
    text, moves_at, out = _write(Words(agents, openings), rows, openings, moves, micros)
    written = io.StringIO()
    csv.writer(written, lineterminator="\n").writerows(rows)
    assert text == written.getvalue().encode()
    assert (out[len(text):] == 255).all()  # nothing written past the rows
    for g, row in enumerate(rows):
        assert text[moves_at[g]:moves_at[g] + row.plies] == row.moves.encode()
    firsts = np.array([1 if row.first is Side.A else 2 for row in rows], dtype=np.int64)
    plies = np.array([row.plies for row in rows], dtype=np.int64)
    hashes = row_text.move_hashes(out, moves_at, plies, firsts)
    assert hashes.dtype == np.int64
    assert hashes.tolist() == move_hashes(out, moves_at, plies, firsts).tolist()


def _think_time_lines(micros: np.ndarray) -> list[str]:
    """Rows of one game each with think times ``micros`` (games, 2), as the core writes
    them, and as the csv module writes the same rows (a draw of no moves, no opening)."""
    words, n = Words(("a", "b"), [""]), len(micros)
    zeros, no = np.zeros(n, dtype=np.int64), np.full((n, 2), -1, dtype=np.int64)
    out = np.empty(n * (row_text.ROW_BYTES + len(words.bytes)), dtype=np.uint8)
    length = row_text.fused_rows(
        zeros, zeros - 1, zeros.astype(np.uint64), 0, zeros + words.of(Side.A),
        zeros + words.opening(0), zeros + words.of(Result.DRAW),
        zeros + words.of(Termination.BOARD_FULL), words.bytes, words.starts,
        np.zeros((n, 1), dtype=np.uint8), zeros, micros, no, no + 1, out,
        np.empty(n, dtype=np.int64))
    head, tail = "0,,0,a,b,a,,,draw,board_full,0,", ",,,0,0,\n"
    expected = "".join(f"{head}{round(a / MICROS, 6)!r},{round(b / MICROS, 6)!r}{tail}"
                       for a, b in micros.tolist())
    return [out[:length].tobytes().decode(), expected]


def test_every_microsecond_up_to_a_second_is_written_as_repr_writes_it() -> None:
    every = np.arange(MICROS + 2, dtype=np.int64)  # 0 to 1.000001 seconds
    mine, theirs = _think_time_lines(np.stack([every, every[::-1]], axis=1))
    assert mine == theirs


def test_big_think_times_are_written_as_repr_writes_them() -> None:
    rng = np.random.default_rng(39)
    spread = (10 ** rng.uniform(6, np.log10(BIG), 200_000)).astype(np.int64)  # log-uniform
    edges = np.concatenate([BIG - 1 - np.arange(1000), 10 ** np.arange(6, 16) - 1,
                            10 ** np.arange(6, 16), 10 ** np.arange(6, 16) + 1])
    micros = np.concatenate([spread, edges]).astype(np.int64)
    micros = micros[:len(micros) // 2 * 2].reshape(-1, 2)
    mine, theirs = _think_time_lines(micros)
    assert mine == theirs
    # past 2**32 seconds floats are further apart than a microsecond: the digits stay the
    # microseconds' where repr would write fewer
    beyond = np.array([[8_695_570_233_593_531, BIG]], dtype=np.int64)
    assert _think_time_lines(beyond)[0].split(",")[11:13] == ["8695570233.593531",
                                                              "4294967296.0"]


def _arguments() -> tuple[list[Any], Words]:
    """fused_rows' arguments for two games of the opening "4"."""
    words = Words(("a", "b"), ["4"])
    ints = np.zeros(2, dtype=np.int64)
    pair = np.zeros((2, 2), dtype=np.int64)
    return [ints, ints, np.zeros(2, dtype=np.uint64), 0, ints + 1, ints + words.opening(0),
            ints + 3, ints + 6, words.bytes, words.starts, np.zeros((2, 4), dtype=np.uint8),
            ints + 3, pair, pair, pair, np.zeros(1000, dtype=np.uint8),
            np.zeros(2, dtype=np.int64)], words


@pytest.mark.parametrize(("argument", "value", "message"), [
    (3, -1, "not one of the words"), (4, np.array([1, 99]), "not one of the words"),
    (5, np.array([-1, 1]), "not one of the words"),
    (11, np.array([3, 6]), "plies must hold its opening and fit"),
    (11, np.array([0, 3]), "plies must hold its opening and fit"),
    (12, np.array([[0, -1], [0, 0]]), "must not be negative"),
    (9, np.array([0, 5, 2]), "starts must rise"),
    (1, np.zeros(3, dtype=np.int64), "pairs must have a row per game"),
    (10, np.zeros((3, 4), dtype=np.uint8), "moves must have a row per game"),
])
def test_rows_that_would_be_written_past_the_arrays_are_refused(argument: int, value: object,
                                                                message: str) -> None:
    arguments, _ = _arguments()
    assert row_text.fused_rows(*arguments) > 0
    arguments[argument] = value
    with pytest.raises(ValueError, match=message):
        row_text.fused_rows(*arguments)


def test_rows_fill_an_output_array_of_their_size_exactly() -> None:
    arguments, _ = _arguments()
    length = row_text.fused_rows(*arguments)
    expected = arguments[15][:length].tobytes()
    starts = arguments[16].copy()
    for size in (length, length + 1):  # the rows are written aside, then copied
        arguments[15] = np.full(size, 255, dtype=np.uint8)
        assert row_text.fused_rows(*arguments) == length
        assert arguments[15][:length].tobytes() == expected
        assert arguments[16].tolist() == starts.tolist()
    arguments[15] = np.zeros(length - 1, dtype=np.uint8)
    with pytest.raises(ValueError, match="too small for the rows"):
        row_text.fused_rows(*arguments)


def test_arrays_written_in_place_are_never_converted() -> None:
    for argument in (15, 16):  # out and moves_at: a copy would not be written back
        arguments, _ = _arguments()
        arguments[argument] = arguments[argument].astype(np.int32)
        with pytest.raises(TypeError):
            row_text.fused_rows(*arguments)


def test_hashes_of_move_strings_outside_the_text_are_refused() -> None:
    text = np.frombuffer(b"4453", dtype=np.uint8)
    ones = np.ones(1, dtype=np.int64)
    assert row_text.move_hashes(text, ones, ones * 3, ones).tolist() == \
        move_hashes(text, ones, ones * 3, ones).tolist()
    for starts, lengths in ((ones, ones * 4), (-ones, ones), (ones, -ones)):
        with pytest.raises(ValueError, match="outside the text"):
            row_text.move_hashes(text, starts, lengths, ones)
