"""``arena agents``: the listing and the description of one agent, kind of spec or class."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint, EntryPoints

import pytest

import arena.protocol.registry
from arena.protocol.registry import (
    ENTRY_POINT_GROUP,
    KINDS_GROUP,
    Param,
    registry,
    signature_params,
    spec_kind,
    spec_kinds,
)
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA


def blocks(output: str) -> dict[str, list[str]]:
    """The listing's blocks by their first line: the lines of each, its heading lines (forms)
    first, then its indented description and parameters."""
    found: dict[str, list[str]] = {}
    for block in output.split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines:
            found[lines[0]] = lines
    return found


def shown(param: Param) -> str:
    default = "required" if param.required else f"default {param.default}"
    return f"    {param.name}={param.type_name()}  ({default})"


def test_listing_names_every_agent_with_its_parameters() -> None:
    result = invoke("agents")
    assert result.exit_code == 0, result.output
    agents = result.output.split("Other spec strings")[0]
    names = [line for line in agents.splitlines() if line and not line.startswith(" ")]
    assert names == list(registry())
    assert "    block=bool  (default False)" in result.output
    assert "    tiebreak=random|first|left|right  (default random)" in result.output


def test_listing_gives_every_kind_of_spec_with_its_declared_parameters() -> None:
    """Each registered kind (onnx:, kaggle:, engine:, pons:, local:) and your own code's
    forms, their parameters those of the class the kind declares."""
    from connect_four_agents.onnx_agent import OnnxAgent

    result = invoke("agents")
    assert result.exit_code == 0, result.output
    listed = blocks(result.output.split("describes one):\n")[1])
    assert next(iter(listed)) == "MODULE:ATTR[:key=value,...]"
    assert "FILE.py:ATTR[:key=value,...]" in listed["MODULE:ATTR[:key=value,...]"]
    for name in spec_kinds():
        kind = spec_kind(name)
        (block,) = (lines for first, lines in listed.items() if first == kind.forms[0])
        assert block[:len(kind.forms)] == list(kind.forms)
        assert [line for line in block if "=" in line and "(" in line] == \
            [shown(param) for param in kind.params()]
    assert {"engine:PATH", "kaggle:FILE.py", "onnx:PATH[,key=value,...]", "pons:PATH"} <= {
        form for lines in listed.values() for form in lines}
    sims = [shown(p) for p in signature_params(OnnxAgent) if not p.required]
    assert sims == ["    sims=int  (default 0)", "    c_puct=float  (default 1.5)"]
    assert result.output.endswith("Any spec takes limits after '@': time=SECONDS, "
                                  "depth=PLIES and nodes=N (e.g. mcts@time=0.5).\n")


def test_a_kind_of_spec_and_a_class_of_your_own_are_described() -> None:
    result = invoke("agents", "onnx")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("onnx:PATH[,key=value,...]\n    A policy-value network")
    assert "    sims=int  (default 0)\n" in result.output
    result = invoke("agents", f"{DATA / 'hosting_agents.py'}:Sleeps")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:-1] == [
        "    Sleeps ``seconds`` on every move (only on its first move with ``first_only``).",
        "    seconds=float  (default 3.0)", "    first_only=bool  (default False)"]


def parse_thing(text: str, engines: object = None) -> None:
    """Plays things of another project."""


@pytest.fixture
def plugin_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed package that registers a kind with a bare parser function."""
    installed = arena.protocol.registry.installed_entry_points()
    both = [*installed.select(group=ENTRY_POINT_GROUP), *installed.select(group=KINDS_GROUP)]
    point = EntryPoint("thing", f"{__name__}:parse_thing", KINDS_GROUP)
    monkeypatch.setattr(arena.protocol.registry, "installed_entry_points",
                        lambda: EntryPoints([*both, point]))
    spec_kinds.cache_clear()
    yield
    spec_kinds.cache_clear()


@pytest.mark.usefixtures("plugin_kind")
def test_a_plugins_kind_is_listed_by_its_parsers_docstring() -> None:
    result = invoke("agents")
    assert "\nthing:...\n    Plays things of another project.\n" in result.output


def test_one_agent_is_described_in_full() -> None:
    result = invoke("agents", "negamax")
    assert result.exit_code == 0, result.output
    assert "live-threats, stacked-threats" in result.output
    assert result.output.splitlines()[0] == "negamax"


def test_an_unknown_agent_is_one_line_and_exit_2() -> None:
    result = invoke("agents", "alphazero")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert (f"unknown agent 'alphazero'; known: {', '.join(registry())}; kinds of spec: "
            f"{', '.join(spec_kinds())}\n") in result.output
