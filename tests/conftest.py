"""Fixtures and hooks for the whole suite: hypothesis strategies for ``st.from_type(Rules)`` and
``st.from_type(Position)``, a private cache directory for the whole session, tests marked
with an optional extra (dask, kaggle, gui, rl, datasets,
onnx, llm, chromium) skipped where it is not installed, and the
``slow`` tests left out unless ``--all`` is given, and ``without_database`` for tests of the
solver's search on 6 x 7.

Rules are drawn from the whole allowed space (cols <= 9, cols x (rows + 1) <= 64,
3 <= connect <= max(rows, cols)), with the extreme boards offered first; positions are
random legal games on such boards, stopped at a random ply or when the game ends. Plain
helpers that tests import (positions, the CLI, paths) are in ``tests/helpers/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import strategies as st

from arena.rules.board import BITBOARD_BITS, MAX_COLUMNS, Position, Rules
from arena.system.cachedir import CACHE_ENV
from tests.helpers.extras import NEEDS, missing
from tests.helpers.positions import EXTREME_RULES


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Any board the rules engine must support."""
    cols = draw(st.integers(1, MAX_COLUMNS))
    max_rows = BITBOARD_BITS // cols - 1
    rows = draw(st.integers(1 if cols >= 3 else 3, max_rows))
    connect = draw(st.integers(3, max(rows, cols)))
    return Rules(rows=rows, cols=cols, connect=connect)


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random legal game on a random board."""
    rules = draw(st.from_type(Rules))
    position = Position.empty(rules)
    for _ in range(draw(st.integers(0, rules.rows * rules.cols))):
        if position.is_terminal:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


st.register_type_strategy(Rules, st.one_of(st.sampled_from(EXTREME_RULES), any_rules()))
st.register_type_strategy(Position, any_positions())


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests neither read nor write the user's cache (opening books, solved positions)."""
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = previous


@pytest.fixture
def without_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver searches every position: the published 6 x 7 database is turned off."""
    from arena.search.database import DATABASE_ENV, OFF

    monkeypatch.setenv(DATABASE_ENV, OFF)


@pytest.fixture
def bars_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs' progress bars are drawn as on a terminal, into the captured stderr."""
    from arena.runs.playing import progress

    monkeypatch.setattr(progress, "seen", lambda: True)


# --- tests of an extra: skipped where it is not installed ------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a test whose extra is not installed, before its fixtures are set up; in CI
    (``CI`` set), which installs every extra (.ci/run), fail it instead."""
    for marker in NEEDS:
        reason = missing(marker) if item.get_closest_marker(marker) else None
        if reason is None:
            continue
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI installs every extra: see .ci/run)", pytrace=False)
        pytest.skip(reason)


# --- the slow tests: deselected unless --all -------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", dest="run_all",
                     help="run the whole suite: the slow tests too (by default they are "
                          "deselected, unless an -m expression speaks of slow)")


def slow_chosen(config: pytest.Config) -> bool:
    """True if the command line chooses about the slow tests itself (--all, or -m ...slow...)."""
    return bool(config.option.run_all) or "slow" in config.option.markexpr


def pytest_report_header(config: pytest.Config) -> str:
    if slow_chosen(config):
        return "tests: the slow ones as the command line chooses"
    return "tests: the slow ones are deselected; --all runs the whole suite"


def named_tests(config: pytest.Config) -> tuple[str, ...]:
    """The tests named on the command line (``FILE::TEST``), as node ids."""
    named = []
    for arg in config.args:
        path, sep, test = arg.partition("::")
        if sep:
            try:
                file = Path(path).resolve().relative_to(config.rootpath.resolve())
            except ValueError:
                continue
            named.append(f"{file.as_posix()}::{test}")
    return tuple(named)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the slow tests, unless the command line chooses about them itself or names the
    test (FILE::TEST)."""
    if slow_chosen(config):
        return
    named = named_tests(config)

    def left_out(item: pytest.Item) -> bool:
        return item.get_closest_marker("slow") is not None and not any(
            item.nodeid == name or item.nodeid.startswith((f"{name}[", f"{name}::"))
            for name in named)

    slow = [item for item in items if left_out(item)]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not left_out(item)]
