"""Every registered agent passes the conformance check, and the check catches broken agents."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from arena.protocol.agent import LIMITS, BaseAgent, Choice
from arena.protocol.conformance import ConformanceError, check_agent, is_interactive
from arena.protocol.registry import registry
from arena.rules.board import Position, Rules
from arena.rules.errors import UnsupportedBoardError
from arena.rules.notation import from_moves
from tests.helpers.extras import missing

HERE = __name__  # this module, importable by name in specs: f"{HERE}:IllegalColumn"

# Search agents are checked at shallow depth on every position, and with their default
# parameters on a few positions per board (the solver's defaults in test_solver_agent.py:
# without a node budget it would solve a 7 x 8 position of 5 discs exactly).
QUICK_SPECS = {"minimax": "minimax:depth=2", "negamax": "negamax:depth=3",
               "negamax-id": "negamax-id:time=0.005", "solver": "solver:max_nodes=20000",
               "net": "net:sims=4"}
DEFAULT_SPECS = ("minimax", "negamax", "negamax-id")
DEFAULT_SPEC_POSITIONS = 3
NEEDS_ONNX = ("net",)  # agents of the onnx extra


def checkable(name: str) -> str:
    """The name, after skipping agents that cannot be checked."""
    if name in NEEDS_ONNX and missing("onnx"):
        pytest.skip(f"{name} {missing('onnx')}")
    if is_interactive(registry()[name].load()):
        pytest.skip(f"{name} is interactive (it reads the terminal)")
    return name


@pytest.mark.parametrize("name", list(registry()))
def test_registered_agent_conforms(name: str) -> None:
    check_agent(QUICK_SPECS.get(checkable(name), name))


@pytest.mark.parametrize("name", DEFAULT_SPECS)
def test_search_agent_defaults_conform(name: str) -> None:
    check_agent(checkable(name), positions_per_board=DEFAULT_SPEC_POSITIONS)


# --- broken agents the check must catch -------------------------------------------------


class IllegalColumn(BaseAgent):
    """Plays the first column even when it is full."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Column 0."""
        return 0


class OutOfRange(BaseAgent):
    """Plays one column right of the board."""

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """The column past the last."""
        return Choice(position.rules.cols)


class Unseeded(BaseAgent):
    """Plays at random, ignoring the Generator it is given."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """A random legal column from an unseeded source."""
        return random.SystemRandom().choice(position.legal_moves())


class DeclaredUnseeded(Unseeded):
    """Plays at random from an unseeded source, and says so."""

    reproducible = False


class DeclaredUnseededIllegal(IllegalColumn):
    """Says it is not reproducible, and plays column 0 even when it is full."""

    reproducible = False


class Stateful(BaseAgent):
    """Plays a different legal column every time it is asked, across games."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """The next legal column in turn."""
        self.calls += 1
        moves = position.legal_moves()
        return moves[self.calls % len(moves)]


class Crashes(BaseAgent):
    """Fails on the first move."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Raise."""
        raise RuntimeError("out of cheese")


class ReturnsText(BaseAgent):
    """Answers with a string."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """The first legal column as text."""
        return str(position.legal_moves()[0])  # type: ignore[return-value]


class RefusesEverything(BaseAgent):
    """Refuses every board, the standard one included."""

    def check_rules(self, rules: Rules) -> None:
        """Refuse."""
        raise UnsupportedBoardError(f"cannot play {rules}")


class StandardOnly(BaseAgent):
    """Plays only the standard board: the leftmost legal column."""

    def check_rules(self, rules: Rules) -> None:
        """Refuse anything but 6 x 7 connect 4."""
        if rules != Rules():
            raise UnsupportedBoardError(f"only 6x7 connect 4, not {rules}")

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """The leftmost legal column."""
        return position.legal_moves()[0]


class Interactive(StandardOnly):
    """Would ask a person."""

    interactive = True


class OnlyChoose:
    """Nothing but choose (no new_game, no base class): the rightmost legal column."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """The rightmost legal column."""
        return position.legal_moves()[-1]


def leftmost(position: Position, rng: np.random.Generator) -> int:
    """A plain function agent: the leftmost legal column."""
    return position.legal_moves()[0]


@pytest.mark.parametrize(("agent", "message"), [
    ("IllegalColumn", r"played column 1 \(it returned 0, counting from 0\), which is not "
                      r"legal; legal columns: 2 "),
    ("OutOfRange", r"played column 8 \(it returned 7, counting from 0\)"),
    ("Unseeded", "not reproducible"),
    ("Stateful", "not reproducible"),
    ("Crashes", "crashed: RuntimeError: out of cheese"),
    ("ReturnsText", "agent returned '0', expected a column number or a Choice"),
    ("RefusesEverything", "refuses the board 6x7 connect 4"),
    ("Interactive", "is interactive"),
])
def test_broken_agents_are_caught(agent: str, message: str) -> None:
    spec = f"{HERE}:{agent}"
    with pytest.raises(ConformanceError, match=message) as caught:
        check_agent(spec)
    assert repr(spec) in str(caught.value)


def test_failure_names_the_position() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_agent(f"{HERE}:IllegalColumn", boards=[Rules()])
    found = re.search(r"on 6x7 connect 4, position (\d+): played column 1 \(it returned 0,",
                      str(caught.value))
    assert found is not None
    assert not from_moves(found.group(1)).can_play(0)


def test_an_agent_that_declares_it_is_not_reproducible_is_checked_for_the_rest() -> None:
    check_agent(f"{HERE}:DeclaredUnseeded")
    with pytest.raises(ConformanceError, match=r"played column 1 \(it returned 0,"):
        check_agent(f"{HERE}:DeclaredUnseededIllegal")


def test_refused_boards_are_skipped_and_functions_are_agents() -> None:
    check_agent(f"{HERE}:StandardOnly")
    check_agent(f"{HERE}:leftmost", positions_per_board=5)
    check_agent(f"{HERE}:OnlyChoose", positions_per_board=5)


def test_conformance_error_is_an_assertion() -> None:
    assert issubclass(ConformanceError, AssertionError)


def test_registered_agents_declare_only_the_measures_of_a_limit() -> None:
    declared = {name: getattr(entry.load(), "supported_limits", frozenset())
                for name, entry in registry().items()}
    assert all(limits <= LIMITS for limits in declared.values()), declared
    assert declared["negamax-id"] == LIMITS and declared["mcts"] == {"time", "nodes"}
