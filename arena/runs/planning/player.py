"""The players of a run: each agent's text parsed once, when the plan is made, into a
``Player`` that the plan's pairings carry to every process that plays.

A player is written ``SPEC@LIMIT`` (``arena.protocol.players``). Its ``name`` in the run is the
canonical spec, then the limit it sets; its ``limit`` is the one it plays each move under: its
own, with the run's time per move where it sets no time, decided here alone. Its parsed spec
travels with it to the workers when its agent is one of the arena's (plain values); a user's
agent travels as its text, parsed again only where a host builds it, since its parameters may
hold values of the user's code that another process cannot unpickle. The built-in agent
built to check the board is kept for the first host of this process that needs one, so a
process builds each agent once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arena.protocol.agent import Agent, Limit
from arena.protocol.players import board_checked, effective_limit, parse_player
from arena.protocol.registry import AgentSpec, is_builtin, parse_spec
from arena.rules.board import Rules


@dataclass(frozen=True)
class Player:
    """An agent of a run as it plays: its name in the run, the text of its spec and its limit
    per move (``spec``: the parsed spec; ``build``: its agent)."""

    name: str
    """The canonical spec, then ``@LIMIT`` if the player sets one: how the run names it."""
    text: str
    """The canonical spec alone: what its hosts are made from."""
    limit: Limit
    """Its limit per move: its own, with the run's time per move where it sets no time."""
    _spec: AgentSpec | None = field(default=None, compare=False, repr=False)
    _engines: object = field(default=None, compare=False, repr=False)
    _built: list[Agent] = field(default_factory=list, compare=False, repr=False)

    @property
    def spec(self) -> AgentSpec:
        """The parsed spec (parsed in this process only if it came without one)."""
        if self._spec is None:
            object.__setattr__(self, "_spec", parse_spec(self.text, self._engines))
        assert self._spec is not None
        return self._spec

    def build(self) -> Agent:
        """A new agent of this player's: the one built to check the board, once, then others."""
        return self._built.pop() if self._built else self.spec.build()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its parsed spec if its agent is the arena's own, else by its text;
        never with an agent built in this process."""
        spec = self._spec if self._spec is not None and is_builtin(self._spec.name) else None
        return Player, (self.name, self.text, self.limit, spec, self._engines)


def make_players(texts: Sequence[str], rules: Rules | None, engines: object = None,
                 time_per_move: float | None = None) -> list[Player]:
    """The players ``SPEC[@LIMIT]`` of a run with ``time_per_move``, one per text, each text
    parsed once (and imported; ``engines``: the engines file in effect); texts that name the
    same player give the same ``Player``. With ``rules``, each built-in agent is built once
    and checked on the board (AgentSpecError, UnsupportedBoardError); the user's agents are
    built by their hosts when the run starts."""
    made: dict[str, Player] = {}
    players = []
    for text in texts:
        parsed = parse_player(text, engines)
        if parsed.name not in made:
            built = board_checked(parsed.spec, rules) if rules is not None else None
            made[parsed.name] = Player(
                parsed.name, parsed.canonical, effective_limit(parsed.own, time_per_move),
                replace(parsed.spec, text=parsed.canonical), engines,
                [] if built is None else [built])
        players.append(made[parsed.name])
    return players


def make_player(text: str, rules: Rules | None, engines: object = None,
                time_per_move: float | None = None) -> Player:
    """The player ``SPEC[@LIMIT]`` of a run (see ``make_players``)."""
    return make_players([text], rules, engines, time_per_move)[0]
