"""Numbers no run can use, refused on every surface (the commands, the API, experiment files)
in one line before anything is written; and meta.json always strict JSON."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

import arena
from arena.rules.board import Rules
from arena.runs.planning.plan import MatchSetupError
from arena.runs.planning.request import RunRequest
from arena.runs.planning.seeds import MAX_SEED
from arena.runs.store.meta import load_meta, write_meta
from arena.runs.store.reading import load_games
from arena.runs.store.rows import read_rows
from arena.search import solver, table_size
from tests.helpers.cli import invoke


def refused(*args: str, out: Path) -> str:
    """The one line of stderr of ``arena ARGS...``, refused with status 2 and nothing written
    in ``out``."""
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: ")
    assert not out.exists()
    return result.stderr


def strict_json(path: Path) -> object:
    """The JSON of ``path``, read by a parser that refuses Infinity and NaN."""
    def constant(name: str) -> object:
        raise AssertionError(f"{path} holds {name}: not JSON")

    return json.loads(path.read_text(), parse_constant=constant)


# --------------------------------------------------------------------------- limits


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--time-per-move", "inf", "time per move must be a finite number of seconds > 0, got inf"),
    ("--time-per-move", "1e400", "time per move must be a finite number"),
    ("--time-bank", "inf", "time bank must be a finite number of seconds >= 0, got inf"),
    ("--time-bank", "Infinity", "time bank must be a finite number"),
])
def test_a_limit_that_is_not_finite_is_refused_by_the_commands(tmp_path: Path, option: str,
                                                              value: str, message: str) -> None:
    out = tmp_path / "run"
    for command in (["match", "random", "random", "-n", "2"],
                    ["tournament", "random", "immediate-win", "-n", "2"],
                    ["sprt", "random", "immediate-win", "--elo0", "0", "--elo1", "10"]):
        assert message in refused(*command, option, value, "--out", str(out), out=out)


@pytest.mark.parametrize("key", ["time_per_move", "time_bank"])
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_a_limit_that_is_not_finite_is_refused_by_the_api(tmp_path: Path, key: str,
                                                         value: float) -> None:
    with pytest.raises(MatchSetupError, match="must be a finite number"):
        arena.match("random", "random", 2, **{key: value}, out=tmp_path / "run")
    with pytest.raises(MatchSetupError, match="must be a finite number"):
        RunRequest(**{key: value})  # type: ignore[arg-type]
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("where", "value", "message"), [
    ("[defaults]", "inf", "must be a finite number"),
    ("entry", "nan", "must be a finite number"),
    ("entry", "-inf", "time_per_move must be a number > 0, got -inf"),  # as --time-per-move
])
def test_a_limit_that_is_not_finite_is_refused_in_experiment_files(
        tmp_path: Path, where: str, value: str, message: str) -> None:
    entry = '[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n'
    text = (f"[defaults]\ntime_bank = {value}\n{entry}" if where == "[defaults]" else
            f"{entry}time_per_move = {value}\n")
    path = tmp_path / "limits.toml"
    path.write_text(text)
    out = tmp_path / "results"
    line = refused("run", str(path), "--out", str(out), out=out)
    assert line.startswith(f'arena: error: {path}: match #1 "m": time')
    assert message in line


def test_meta_json_is_strict_json(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("match", "random", "random", "-n", "2", "-j", "1", "--time-per-move", "5",
                  "--time-bank", "1", "--out", str(out), "--no-report").exit_code == 0
    data = strict_json(out / "meta.json")
    assert isinstance(data, dict) and data["run"]["time_per_move"] == 5.0
    meta = load_meta(out)
    before = (out / "meta.json").read_bytes()
    meta.run = replace(meta.run, time_per_move=math.inf)  # a bug: never written
    with pytest.raises(ValueError, match="not JSON compliant"):
        write_meta(out, meta)
    assert (out / "meta.json").read_bytes() == before


# --------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("seed", ["12345678901234567890123456789", str(MAX_SEED + 1)])
def test_a_seed_past_the_game_seed_scheme_is_refused(tmp_path: Path, seed: str) -> None:
    out = tmp_path / "run"
    line = refused("match", "random", "random", "-n", "2", "--seed", seed, "--out", str(out),
                   out=out)
    assert f"seed must be a whole number >= 0 and at most {MAX_SEED}" in line
    assert line.rstrip().endswith(f"got {seed}")
    with pytest.raises(MatchSetupError, match="at most 4294967295"):
        arena.match("random", "random", 2, seed=int(seed), out=out)


def test_a_seed_past_the_scheme_is_refused_in_experiment_files(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"  # TOML's integers stop at 2**63 - 1: this one fits
    path.write_text(f'[defaults]\nseed = {MAX_SEED + 1}\n[[match]]\nname = "m"\n'
                    'a = "random"\nb = "random"\ngames = 2\n')
    out = tmp_path / "results"
    assert refused("run", str(path), "--out", str(out), out=out).startswith(
        f'arena: error: {path}: match #1 "m": seed must be a whole number >= 0 and at most')


def test_the_largest_seed_round_trips_through_games_csv_and_meta_json(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("match", "random", "random", "-n", "3", "-j", "1", "--seed",
                    str(MAX_SEED), "--out", str(out), "--no-report")
    assert result.exit_code == 0, result.output
    expected = [(MAX_SEED << 32) + game for game in range(3)]
    assert expected[0] >= 2**63  # past a signed 64-bit integer: unsigned, and exact
    assert [row.seed for row in read_rows(out / "games.csv")] == expected
    assert load_games(out / "games.csv")["seed"].tolist() == expected
    assert load_meta(out).seed == MAX_SEED and strict_json(out / "meta.json")
    assert invoke("report", str(out)).exit_code == 0  # every row checked against the plan


# --------------------------------------------------------------------------- adjudication


@pytest.mark.parametrize(("board", "ply", "cells"), [((), "43", 42), ((), "42", 42),
                                                    (("--rows", "4", "--cols", "4"), "16", 16)])
def test_an_adjudication_ply_no_game_reaches_is_refused(tmp_path: Path, board: tuple[str, ...],
                                                       ply: str, cells: int) -> None:
    out = tmp_path / "run"
    line = refused("match", "random", "random", "-n", "2", *board, "--adjudicate", ply,
                   "--out", str(out), out=out)
    assert f"adjudication ply {ply}: no game on " in line
    assert f"give a ply below {cells}" in line
    with pytest.raises(MatchSetupError, match=f"give a ply below {cells}"):
        RunRequest(adjudicate=int(ply), rules=Rules(*(int(x) for x in board[1::2])))
    assert RunRequest(adjudicate=cells - 1, rules=Rules(*(int(x) for x in board[1::2])))


# --------------------------------------------------------------------------- the solver's table


@pytest.mark.parametrize("command", [["solve", "4444"], ["accuracy", "random"], ["analyze", "."],
                                     ["book"]], ids=lambda command: command[0])
@pytest.mark.parametrize("size", ["100000000", "inf"])
def test_a_table_larger_than_the_machine_is_one_line(tmp_path: Path, command: list[str],
                                                     size: str) -> None:
    cache = tmp_path / "cache"
    args = [arg if arg != "." else str(tmp_path) for arg in command]
    line = refused(*args, "--table-mb", size, "--cache", str(cache), out=cache)
    most = table_size.max_table_mb()
    assert most is not None
    assert line == (f"arena: error: a solver table of {float(size):.0f} MB (--table-mb) is "
                    f"more than this machine holds: at most {most:.0f} MB, half of its "
                    f"{2 * most:.0f} MB of memory\n")
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_table_the_memory_cannot_hold_now_is_one_error(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    def no_memory(bits: int) -> None:
        raise MemoryError

    monkeypatch.setattr(solver.kernels, "new_table", no_memory)
    with pytest.raises(solver.TableSizeError, match=r"cannot allocate a solver table of 64 MB "
                                                    r"\(--table-mb\): not enough free memory"):
        solver.Solver(64)
    monkeypatch.setattr(table_size, "physical_memory", lambda: None)  # the system does not say
    assert table_size.max_table_mb() is None
    assert table_size.table_bits(1 << 20) == 37  # no cap to check: 1 TB, 2**37 rows of 8 bytes
