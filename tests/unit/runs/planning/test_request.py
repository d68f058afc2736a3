"""The run request: one dataclass for every option of a run, one default each; the commands,
the Python API and experiment files accept the same options and build the same request."""

from __future__ import annotations

import inspect
from dataclasses import fields
from pathlib import Path
from typing import Any

import click
import click.testing
import pytest

import arena
from arena.cli.match import match_command
from arena.cli.options import run_options
from arena.cli.sprt import sprt_command
from arena.cli.tournament import tournament_command
from arena.competitions.experiments import RUN_OPTIONS, load_experiment
from arena.rules.board import Rules
from arena.runs.planning.plan import MatchSetupError
from arena.runs.planning.request import API_KEYWORDS, REQUEST_OPTIONS, RunRequest
from arena.runs.planning.seeds import DEFAULT_SEED

FIELDS = [field.name for field in fields(RunRequest)]

# Where a surface spells a field otherwise than by its name (the exceptions RunRequest's
# docstrings document).
COMMAND_SPELLING = {"rules": ("--rows", "--cols", "--connect"), "progress": ("--quiet",),
                    "formats": ("--format",), "labels": ("--label",)}
MATCH_ONLY = {"first"}  # tournaments and SPRTs alternate colours within every pairing
FILE_SPELLING = {"rules": ("rows", "cols", "connect")}
NOT_IN_FILES = {"out": "each entry's directory is its name",
                "progress": "arena run --quiet shows none",
                "engines": "the top-level key engines, for every entry"}


def option_names(command: click.Command) -> set[str]:
    return {name for param in command.params for name in param.opts}


@pytest.mark.parametrize("command", [match_command, tournament_command, sprt_command],
                         ids=["match", "tournament", "sprt"])
def test_every_field_is_an_option_of_the_commands(command: click.Command) -> None:
    names = option_names(command)
    for field in FIELDS:
        spellings = COMMAND_SPELLING.get(field, ("--" + field.replace("_", "-"),))
        wanted = command is match_command or field not in MATCH_ONLY
        assert all((spelling in names) == wanted for spelling in spellings), field


def test_every_field_is_a_keyword_of_the_api() -> None:
    for function in (arena.match, arena.tournament, arena.sprt):
        parameters = inspect.signature(function).parameters
        assert parameters["request"].default is None
        assert any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        assert not set(FIELDS) & set(parameters)  # every option goes through RunRequest
    defaults = RunRequest()
    for field in FIELDS:
        assert defaults.with_options(**{field: getattr(defaults, field)}) == defaults
    with pytest.raises(MatchSetupError, match=r"unknown option 'threads'; the options of a run "
                                              r"are rules, seed, openings, first, "):
        arena.match("random", "random", 2, threads=4)


def test_every_field_is_a_key_of_experiment_files() -> None:
    keys = set(RUN_OPTIONS)
    for field in FIELDS:
        if field in NOT_IN_FILES:
            assert field not in keys
        else:
            assert set(FILE_SPELLING.get(field, (field,))) <= keys, field
    assert keys == {spelling for field in FIELDS if field not in NOT_IN_FILES
                    for spelling in FILE_SPELLING.get(field, (field,))}


def test_one_default_per_field() -> None:
    request = RunRequest()
    assert (request.seed, request.openings, request.first, request.jobs, request.backend) == (
        DEFAULT_SEED, None, "alternate", None, "local")
    assert [request.openings_for(kind) for kind in ("match", "tournament", "sprt")] == [
        "none", "none", "random:8"]
    assert RunRequest(openings="random:4").openings_for("sprt") == "random:4"
    assert request.workers(interactive=True) == 1 and request.workers() >= 1
    assert RunRequest(jobs=3).workers(interactive=True) == 3


@pytest.mark.parametrize(("options", "message"), [
    ({"jobs": 0}, "--jobs must be at least 1, got 0"),
    ({"first": "c"}, "first mover 'c': expected one of alternate, a, b"),
    ({"scheduler": "tcp://x:1"}, "--scheduler applies only with --backend dask"),
    ({"backend": "cloud"}, "backend 'cloud': expected one of local, dask"),
    ({"seed": -1}, "seed must be a whole number >= 0"),
    ({"hosting": "remote"}, "hosting 'remote': expected one of auto, inline, process"),
])
def test_bad_options_are_refused_when_the_request_is_made(options: dict[str, object],
                                                          message: str) -> None:
    with pytest.raises(MatchSetupError, match=message):
        RunRequest(**options)  # type: ignore[arg-type]


def test_every_field_is_declared_once() -> None:
    """Every field is filled by a declared option (the board's by three), every option has
    its own name and flags, and the API's keywords are the fields."""
    names = [option.name for option in REQUEST_OPTIONS]
    flags = [flag for option in REQUEST_OPTIONS for flag in option.flags]
    assert len(set(names)) == len(names) and len(set(flags)) == len(flags)
    targets = [option.target for option in REQUEST_OPTIONS]
    assert set(targets) == set(FIELDS) and tuple(FIELDS) == API_KEYWORDS
    assert [field for field in FIELDS if targets.count(field) > 1] == ["rules"]
    defaults = {option.name: option.default for option in REQUEST_OPTIONS}
    assert RunRequest().with_values(defaults) == RunRequest()  # one default each
    assert RunRequest().with_values({"rows": 5}).rules == Rules(5, 7, 4)


@pytest.mark.parametrize("command", [match_command, tournament_command, sprt_command],
                         ids=["match", "tournament", "sprt"])
def test_the_commands_options_are_the_declarations(command: click.Command) -> None:
    params = {param.name: param for param in command.params}
    for option in REQUEST_OPTIONS:
        if option.name == "first" and command is not match_command:
            continue
        param = params[option.name]
        assert isinstance(param, click.Option)
        assert tuple(param.opts) == option.flags, option.name
        assert param.help is not None and option.help.partition("{")[0] in param.help
        if option.value.kind not in ("flag", "texts"):
            assert param.default == option.default, option.name


SAMPLES: dict[str, tuple[list[str], Any, tuple[str, Any]]] = {
    "jobs": (["-j", "3"], 3, ("jobs", 3)),
    "seed": (["--seed", "7"], 7, ("seed", 7)),
    "openings": (["--openings", "random:2"], "random:2", ("openings", "random:2")),
    "first": (["--first", "b"], "b", ("first", "b")),
    "time_per_move": (["--time-per-move", "0.5"], 0.5, ("time_per_move", 0.5)),
    "time_bank": (["--time-bank", "2"], 2.0, ("time_bank", 2.0)),
    "hosting": (["--hosting", "process"], "process", ("hosting", "process")),
    "adjudicate": (["--adjudicate", "20"], 20, ("adjudicate", 20)),
    "engines": (["--engines", "{engines}"], None, ("engines", "{engines}")),
    "rows": (["--rows", "5"], 5, ("rules", Rules(5, 6, 3))),
    "cols": (["--cols", "6"], 6, ("rules", Rules(5, 6, 3))),
    "connect": (["--connect", "3"], 3, ("rules", Rules(5, 6, 3))),
    "out": (["--out", "somewhere"], None, ("out", "somewhere")),
    "quiet": (["--quiet"], None, ("progress", False)),
    "formats": (["--format", "svg,pdf"], ["svg", "pdf"], ("formats", "svg,pdf")),
    "dpi": (["--dpi", "300"], 300, ("dpi", 300)),
    "labels": ([], None, ("labels", ())),  # names by agent: tests/unit/test_run_labels.py
    "allow_changed_agents": (["--allow-changed-agents"], True, ("allow_changed_agents", True)),
    "no_cache": (["--no-cache"], True, ("no_cache", True)),
    "concurrency": (["--concurrency", "8"], 8, ("concurrency", 8)),
    "backend": (["--backend", "dask"], "dask", ("backend", "dask")),
    "scheduler": (["--scheduler", "tcp://localhost:1"], "tcp://localhost:1",
                  ("scheduler", "tcp://localhost:1")),
}
"""A value other than the default for every declared option: as typed on the command line,
as an experiment file writes it (None: files have no such key) and as the API's keyword."""


def test_the_three_surfaces_make_the_same_request(tmp_path: Path) -> None:
    """Every option set otherwise than by default on the command line, in an experiment
    file's [defaults] and as the API's keywords: the same request from the three."""
    pytest.importorskip("distributed")
    assert set(SAMPLES) == {option.name for option in REQUEST_OPTIONS}
    engines = tmp_path / "engines.toml"
    engines.write_text('[[engine]]\nname = "e"\ncommand = "python"\n')
    made: list[RunRequest] = []

    @click.command()
    @run_options(tmp_path, first=True)
    def probe(request: RunRequest, labels: tuple[str, ...], no_report: bool) -> None:
        made.append(request)

    args = [arg.format(engines=engines) for typed, _, _ in SAMPLES.values() for arg in typed]
    result = click.testing.CliRunner().invoke(probe, args)
    assert result.exit_code == 0, result.output
    [command] = made
    api = RunRequest().with_options(**{field: value.format(engines=engines)
                                       if isinstance(value, str) and "{" in value else value
                                       for _, _, (field, value) in SAMPLES.values()})
    assert command == api and command != RunRequest()
    assert command.out == Path("somewhere") and command.engines is not None
    keys = {name: value for name, (_, value, _) in SAMPLES.items() if value is not None}
    assert set(keys) == set(RUN_OPTIONS) - {"labels"}
    experiment = tmp_path / "all.toml"
    experiment.write_text("[defaults]\n" + "".join(
        f"{key} = {_toml(value)}\n" for key, value in keys.items() if key != "first")
        + '[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nfirst = "b"\n')
    [entry] = load_experiment(experiment).entries
    not_in_files = {"out": None, "engines": None, "progress": True}
    assert entry.request == RunRequest(**{**vars(api), **not_in_files})


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)
