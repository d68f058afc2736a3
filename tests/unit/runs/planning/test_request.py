"""The run request: one dataclass for every option of a run, one default each; the commands,
the Python API and experiment files accept the same options and build the same request."""

from __future__ import annotations

import inspect
from dataclasses import fields

import click
import pytest

import arena
from arena.cli.match import match_command
from arena.cli.sprt import sprt_command
from arena.cli.tournament import tournament_command
from arena.competitions.experiments import RUN_OPTIONS
from arena.runs.planning.plan import MatchSetupError
from arena.runs.planning.request import RunRequest
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
    assert request.openings_or("none") == "none" and request.openings_or("random:8") == \
        "random:8"
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
