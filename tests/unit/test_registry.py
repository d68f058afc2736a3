"""Agent spec strings, typed parameters, third-party agents and entry points."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path
from typing import Literal

import numpy as np
import pytest

import arena.protocol.registry
from arena.protocol.agent import BaseAgent
from arena.protocol.functions import FunctionAgent
from arena.protocol.registry import (
    ENTRY_POINT_GROUP,
    KINDS_GROUP,
    Param,
    make_agent,
    parse_spec,
    registry,
)
from arena.rules.board import Position
from arena.rules.errors import AgentSpecError, ArenaError
from arena.rules.notation import from_moves

HERE = __name__  # this module, importable by name in specs: f"{HERE}:Tunable"


class Tunable(BaseAgent):
    """A test agent with one parameter of every supported kind."""

    def __init__(self, depth: int = 3, noise: float = 0.5, greedy: bool = False,
                 style: Literal["calm", "wild"] = "calm", label: str = "none") -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.depth, self.noise, self.greedy, self.style, self.label = (
            depth, noise, greedy, style, label)

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """The leftmost legal column."""
        return position.legal_moves()[0]


class NeedsDepth(BaseAgent):
    """A test agent whose parameter has no default."""

    def __init__(self, depth: int) -> None:
        self.depth = depth


class EvenOnly(BaseAgent):
    """A test agent with a Literal of whole numbers."""

    def __init__(self, width: Literal[2, 4] = 2) -> None:
        self.width = width


def test_name_only() -> None:
    spec = parse_spec("random")
    assert (spec.name, spec.target, spec.values) == (
        "random", "connect_four_agents.random_agent:RandomAgent", {})
    assert spec.resolved() == {}
    assert type(make_agent(" random ")).__name__ == "RandomAgent"


def test_name_with_parameters() -> None:
    spec = parse_spec("immediate-win:block=true")
    assert spec.values == {"block": True}
    assert make_agent("immediate-win:block=on").block is True  # type: ignore[attr-defined]
    assert parse_spec("immediate-win").resolved() == {"block": False}
    assert parse_spec("immediate-win:").values == {}


def test_builtin_parameters_and_description() -> None:
    entry = registry()["immediate-win"]
    assert entry.params() == (Param("block", bool, False),)
    assert entry.description().startswith("Plays a winning column when it has one")
    assert registry()["random"].params() == ()


def test_every_builtin_description_is_a_whole_sentence() -> None:
    """``arena agents`` shows the docstring's first line: a sentence cut at the line's end
    ('... (the only board it plays): its') read as a defect there."""
    for name, entry in registry().items():
        description = entry.description()
        assert description and description.endswith("."), (name, description)


@pytest.mark.parametrize("text", ["true", "TRUE", "yes", "on", "1"])
def test_true_values(text: str) -> None:
    assert parse_spec(f"{HERE}:Tunable:greedy={text}").values == {"greedy": True}


@pytest.mark.parametrize("text", ["false", "No", "off", "0"])
def test_false_values(text: str) -> None:
    assert parse_spec(f"{HERE}:Tunable:greedy={text}").values == {"greedy": False}


def test_typed_values_and_resolved_defaults() -> None:
    spec = parse_spec(f"{HERE}:Tunable:depth=5, noise=1,style=wild,label=a b")
    assert spec.name == spec.target == f"{HERE}:Tunable"
    assert spec.values == {"depth": 5, "noise": 1.0, "style": "wild", "label": "a b"}
    assert type(spec.values["noise"]) is float
    assert spec.resolved() == {"depth": 5, "noise": 1.0, "greedy": False, "style": "wild",
                               "label": "a b"}
    agent = spec.build()
    assert isinstance(agent, Tunable) and (agent.depth, agent.style) == (5, "wild")


@pytest.mark.parametrize(("assignment", "message"), [
    ("depth=2.5", "parameter depth expects a whole number, got '2.5'"),
    ("depth=", "parameter depth expects a whole number, got ''"),
    ("noise=lots", "parameter noise expects a number, got 'lots'"),
    ("greedy=maybe", "parameter greedy expects true or false, got 'maybe'"),
    ("style=mad", "parameter style must be one of calm, wild, got 'mad'"),
    ("depth=1,depth=2", "parameter 'depth' given twice"),
    ("depth", "expected key=value, got 'depth'"),
    ("=3", "expected key=value, got '=3'"),
    ("colour=red", "unknown parameter 'colour'; parameters: depth, noise, greedy, style, label"),
])
def test_bad_values(assignment: str, message: str) -> None:
    spec = f"{HERE}:Tunable:{assignment}"
    with pytest.raises(AgentSpecError) as caught:
        parse_spec(spec)
    assert message in str(caught.value) and repr(spec) in str(caught.value)


def test_unknown_parameter_of_a_builtin() -> None:
    with pytest.raises(AgentSpecError, match="unknown parameter 'blok'; parameters: block"):
        parse_spec("immediate-win:blok=true")
    with pytest.raises(AgentSpecError, match="unknown parameter 'depth'; parameters: none"):
        parse_spec("random:depth=3")


@pytest.mark.parametrize("text", ["nosuch", "nosuch:depth=3", "Random"])
def test_unknown_agent_lists_known_agents(text: str) -> None:
    with pytest.raises(AgentSpecError) as caught:
        parse_spec(text)
    message = str(caught.value)
    assert repr(text.split(":")[0]) in message
    assert all(name in message for name in registry())
    assert "MODULE:ATTR, FILE.py:ATTR, engine:PATH" in message and "onnx:PATH" in message


@pytest.mark.parametrize(("text", "guess"), [
    ("negamx:depth=3", "unknown agent 'negamx' in spec 'negamx:depth=3': did you mean "
                       "'negamax:depth=3' or 'negamax-id:depth=3'? known agents: random, "
                       "immediate-win, human, "),
    ("solvr", "unknown agent 'solvr' in spec 'solvr': did you mean 'solver'? known agents: "),
    ("kagle:random", "agent spec 'kagle:random': cannot import kagle: No module named 'kagle' "
                     "(did you mean 'kaggle:random'?)"),
])
def test_an_unknown_agent_close_to_a_known_one_gets_a_guess(text: str, guess: str) -> None:
    with pytest.raises(AgentSpecError) as caught:
        parse_spec(text)
    assert str(caught.value).startswith(guess)


def test_a_file_without_the_attribute_to_play_is_told_to_name_it(tmp_path: Path) -> None:
    """The names it defines are read from its syntax tree: the file is not run."""
    marker = tmp_path / "ran"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(marker)!r}, 'w').close()\n\nclass Bot:\n    pass\n\n\n"
                   "def play(position, rng):\n    return 0\n\n\ndef _helper():\n    pass\n")
    hint = (f"agent spec '{bot}': name the class or function to play after a colon, as "
            f"{bot}:NAME (or kaggle:{bot} for a Kaggle submission, whose last function plays)")
    for text in (str(bot), f"{bot}:depth=3"):
        with pytest.raises(AgentSpecError) as caught:
            parse_spec(text)
        assert str(caught.value) == (hint.replace(f"'{bot}'", repr(text))
                                     + f"; {bot} defines Bot, play")
    assert not marker.exists()
    with pytest.raises(AgentSpecError, match=f"; there is no file {tmp_path / 'nobot.py'}$"):
        parse_spec(str(tmp_path / "nobot.py"))
    with pytest.raises(AgentSpecError, match=r"bot.py has no 'Bto': did you mean 'Bot'\?$"):
        parse_spec(f"{bot}:Bto")


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_spec(text: str) -> None:
    known = "known agents: random, immediate-win, human, "
    with pytest.raises(AgentSpecError, match=f"agent spec is empty: {known}"):
        parse_spec(text)


def test_constructor_value_error_becomes_spec_error() -> None:
    spec = f"{HERE}:Tunable:depth=0"
    with pytest.raises(AgentSpecError, match="depth must be at least 1, got 0") as caught:
        make_agent(spec)
    assert repr(spec) in str(caught.value)


def test_missing_required_parameter() -> None:
    with pytest.raises(AgentSpecError, match=r"missing parameter\(s\) depth"):
        parse_spec(f"{HERE}:NeedsDepth")
    assert parse_spec(f"{HERE}:NeedsDepth:depth=2").resolved() == {"depth": 2}


def test_spec_errors_are_arena_errors() -> None:
    assert issubclass(AgentSpecError, ArenaError) and issubclass(AgentSpecError, ValueError)


def test_literal_of_whole_numbers() -> None:
    assert parse_spec(f"{HERE}:EvenOnly:width=4").values == {"width": 4}


# --- third-party agents -----------------------------------------------------------------

USER_MODULE = "arena_test_user_agents"
USER_SOURCE = '''
"""Agents written by a user of the arena."""

from typing import Literal

from arena.protocol.agent import BaseAgent


class Leftmost(BaseAgent):
    """Plays the leftmost (or rightmost) legal column."""

    def __init__(self, side: Literal["left", "right"] = "left", depth: int = 1):
        self.side, self.depth = side, depth

    def choose(self, position, rng):
        moves = position.legal_moves()
        return moves[0] if self.side == "left" else moves[-1]


def last_column(position, rng):
    return position.legal_moves()[-1]


NOT_AN_AGENT = 3


class NoChoose:
    """Not an agent at all."""

    def new_game(self, game):
        pass


class OnlyChoose:
    """An agent with nothing but choose."""

    def choose(self, position, rng):
        return position.legal_moves()[0]
'''


@pytest.fixture
def user_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user's agent module on sys.path; its path is returned."""
    path = tmp_path / f"{USER_MODULE}.py"
    path.write_text(USER_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield path
    sys.modules.pop(USER_MODULE, None)


@pytest.mark.parametrize("via", ["module", "file"])
def test_user_class_and_function(user_file: Path, via: str) -> None:
    prefix = USER_MODULE if via == "module" else str(user_file)
    position = from_moves("1111")
    rng = np.random.default_rng(0)
    spec = parse_spec(f"{prefix}:Leftmost:side=right,depth=3")
    assert spec.name == f"{prefix}:Leftmost"
    assert spec.resolved() == {"side": "right", "depth": 3}
    assert spec.build().choose(position, rng) == 6
    assert make_agent(f"{prefix}:Leftmost").choose(position, rng) == 0
    function_agent = make_agent(f"{prefix}:last_column")
    assert isinstance(function_agent, FunctionAgent)
    assert function_agent.choose(position, rng) == 6
    with pytest.raises(AgentSpecError, match="unknown parameter 'depth'; parameters: none"):
        parse_spec(f"{prefix}:last_column:depth=2")
    with pytest.raises(AgentSpecError, match="parameter side must be one of left, right"):
        parse_spec(f"{prefix}:Leftmost:side=up")


@pytest.mark.parametrize(("attr", "message"), [
    ("Missing", "has no 'Missing'"),
    ("NOT_AN_AGENT", "is not a class or function"),
    ("NoChoose", f"agent spec '{USER_MODULE}:NoChoose': {USER_MODULE}:NoChoose has no "
                 "choose(position, rng) method"),
])
def test_user_attribute_that_is_no_agent(user_file: Path, attr: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as caught:
        make_agent(f"{USER_MODULE}:{attr}")
    assert message in str(caught.value)


def test_a_class_with_only_choose_is_an_agent(user_file: Path) -> None:
    agent = make_agent(f"{user_file}:OnlyChoose")
    assert agent.choose(from_moves("1111"), np.random.default_rng(0)) == 0


@pytest.mark.parametrize(("spec", "message"), [
    ("arena_no_such_module:Agent", "cannot import arena_no_such_module"),
    ("no/such/file.py:Agent", "cannot import no/such/file.py: no such file"),
])
def test_user_module_that_does_not_exist(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        parse_spec(spec)


# --- entry points -----------------------------------------------------------------------


@pytest.fixture
def plugin_points(user_file: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed package that registers two agents, one of them named like a built-in."""
    points = [
        EntryPoint("leftmost-plugin", f"{USER_MODULE}:Leftmost", ENTRY_POINT_GROUP),
        EntryPoint("random", f"{USER_MODULE}:Leftmost", ENTRY_POINT_GROUP),
        EntryPoint("unrelated", f"{USER_MODULE}:Leftmost", "some.other.group"),
    ]

    installed = arena.protocol.registry.installed_entry_points()
    both = [*installed.select(group=ENTRY_POINT_GROUP), *installed.select(group=KINDS_GROUP)]
    monkeypatch.setattr(arena.protocol.registry, "installed_entry_points",
                        lambda: EntryPoints([*both, *points]))
    registry.cache_clear()
    yield
    registry.cache_clear()


@pytest.mark.usefixtures("plugin_points")
def test_entry_point_agents() -> None:
    entries = registry()
    builtins = [name for name, entry in entries.items() if entry.builtin]
    assert list(entries)[:len(builtins)] == builtins and "negamax" in builtins
    assert "unrelated" not in entries
    plugin = entries["leftmost-plugin"]
    assert plugin.origin == "entry point" and plugin.description().startswith("Plays the leftmost")
    assert make_agent("leftmost-plugin:depth=4").depth == 4  # type: ignore[attr-defined]
    assert entries["random"].target == "connect_four_agents.random_agent:RandomAgent"  # kept
    with pytest.raises(AgentSpecError, match=r"known agents: .*leftmost-plugin"):
        parse_spec("nosuch")
