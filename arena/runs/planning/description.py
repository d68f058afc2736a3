"""What decides a run's games, as a value: the ``RunDescription`` kept in meta.json.

Two runs with equal descriptions play the same games; a run whose description differs from
a directory's only in its game counts (every pairing alike, and more) extends it. The JSON
object it reads from and writes to is meta.json's ``run``, key for key and in the same order
as every earlier version wrote it, so that files written before load and files written now
are the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from arena.rules.board import DEFAULT_RULES, Rules
from arena.rules.errors import ArenaError

First = Literal["alternate", "a", "b"]


FIRST_CHOICES: tuple[First, ...] = ("alternate", "a", "b")


class MatchSetupError(ArenaError):
    """Options that cannot work together, found before any game is played."""


@dataclass(frozen=True)
class Pairing:
    """Agent A against agent B (canonical spec strings) for a number of games."""

    agent_a: str
    agent_b: str
    games: int
    first: First = "alternate"

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise MatchSetupError(
                f"number of games must be a whole number, at least 1, got {self.games!r}")
        if self.first not in FIRST_CHOICES:
            raise MatchSetupError(
                f"first mover {self.first!r}: expected one of {', '.join(FIRST_CHOICES)}"
            )


class JsonRecord(Mapping[str, Any]):
    """A record that also reads as the JSON object it is written as (``record["seed"]``,
    ``record.get(...)``, ``dict(record)``), for code written when it was that object."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the record."""
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


@dataclass(frozen=True, eq=True)
class RunDescription(JsonRecord):
    """What decides a run's games: its pairings, their number, the run seed, the board, the
    limits and adjudication, the openings, and the stopping rule's settings (an SPRT's)."""

    pairings: tuple[Pairing, ...]
    games: int
    """Every pairing's games added up."""
    seed: int
    rules: Rules
    time_per_move: float | None = None
    time_bank: float | None = None
    adjudicate: int | None = None
    """The ply at which the solver decides a game (None: never)."""
    openings: str = "none"
    """The openings spec (``none``, ``random:K``, ``uniform:K``) or ``file``."""
    openings_count: int | None = None
    """How many openings a file held (``count`` in meta.json)."""
    openings_sha256: str | None = None
    """The digest of a file's openings (``sha256`` in meta.json)."""
    stopping: tuple[tuple[str, Any], ...] = ()
    """The stopping rule's settings (an SPRT's ``sprt_*`` keys), and any key this version
    does not know, in the order of the file."""

    def to_json(self) -> dict[str, Any]:
        """meta.json's ``run`` object."""
        rules = self.rules
        data: dict[str, Any] = {
            "pairings": [[p.agent_a, p.agent_b, p.games, p.first] for p in self.pairings],
            "games": self.games,
            "seed": self.seed,
            "board": {"rows": rules.rows, "cols": rules.cols, "connect": rules.connect},
            "time_per_move": self.time_per_move,
        }
        if self.time_bank is not None:
            data["time_bank"] = self.time_bank
        if self.adjudicate is not None:
            data["adjudicate"] = self.adjudicate
        data["openings"] = self.openings
        if self.openings_count is not None:
            data["count"] = self.openings_count
        if self.openings_sha256 is not None:
            data["sha256"] = self.openings_sha256
        data.update(self.stopping)
        return data

    @classmethod
    def from_json(cls, run: Mapping[str, Any]) -> RunDescription:
        """The description meta.json's ``run`` object holds; KeyError, TypeError or
        ValueError (an ArenaError among them) if it holds none."""
        if isinstance(run, RunDescription):
            return run
        if not isinstance(run, Mapping):
            raise TypeError(f"a run's description is a JSON object, got {run!r}")
        board = run["board"]
        pairings = tuple(Pairing(str(a), str(b), games, first)
                         for a, b, games, first in run["pairings"])
        stopping = tuple((key, value) for key, value in run.items() if key not in _KNOWN)
        return cls(pairings, run["games"], run["seed"],
                   Rules(board["rows"], board["cols"], board["connect"]),
                   time_per_move=run.get("time_per_move"), time_bank=run.get("time_bank"),
                   adjudicate=run.get("adjudicate"), openings=run.get("openings", "none"),
                   openings_count=run.get("count"), openings_sha256=run.get("sha256"),
                   stopping=stopping)

    def conditions(self) -> str:
        """The conditions the games are played under, on one short line, as every output
        that shows a result names them (the commands' tables, report.md, the API's summary):
        the openings, the board, the time limits (``no time limit``, the run's per move and
        bank, or the agents' own ``SPEC@LIMIT``) and adjudication, e.g. ``openings random:4
        · 6 x 7 · no time limit``."""
        if self.openings == "file":
            count = "" if self.openings_count is None else f" of {self.openings_count:,}"
            openings = f"openings from a file{count}"
        else:
            openings = f"openings {self.openings}"
        rules = self.rules
        board = f"{rules.rows} x {rules.cols}" + (
            f", connect {rules.connect}" if rules.connect != DEFAULT_RULES.connect else "")
        own = any("@" in agent for pairing in self.pairings
                  for agent in (pairing.agent_a, pairing.agent_b))
        limits = [f"{self.time_per_move:g} s a move"] if self.time_per_move is not None else \
            ["the agents' own limits"] if own else []
        if self.time_bank is not None:
            limits.append(f"{self.time_bank:g} s bank")
        parts = [openings, board, " + ".join(limits) or "no time limit"]
        if self.adjudicate is not None:
            parts.append(f"adjudicated at ply {self.adjudicate}")
        return CONDITIONS_SEPARATOR.join(parts)

    def stopped_by(self, settings: Mapping[str, Any]) -> RunDescription:
        """This description with a stopping rule's settings (``StoppingRule.describe``)."""
        return replace(self, stopping=tuple(settings.items()))

    def differences(self, other: RunDescription) -> list[str]:
        """What differs from ``other`` (this run there, ``other`` here), a key each in the
        order of their names, as ``key THIS there, OTHER here``."""
        there, here = self.to_json(), other.to_json()
        return [f"{key} {_shown(there.get(key))} there, {_shown(here.get(key))} here"
                for key in sorted(there.keys() | here.keys())
                if there.get(key) != here.get(key)]

    def same_but_counts(self, other: RunDescription) -> bool:
        """Whether ``other`` differs from this description in its game counts alone."""
        return _uncounted(self) == _uncounted(other)

    def extended_by(self, other: RunDescription) -> bool:
        """True if ``other`` is this run with more games for every pairing alike, so that
        every game of this run keeps its index (see MatchPlan's numbering)."""
        before = {pairing.games for pairing in self.pairings}
        after = {pairing.games for pairing in other.pairings}
        return self.same_but_counts(other) and len(before) == 1 and len(after) == 1 \
            and after.pop() > before.pop()

    def digest_text(self) -> str:
        """The description as canonical JSON text (sorted keys, strict numbers)."""
        return json.dumps(self.to_json(), sort_keys=True, allow_nan=False)


CONDITIONS_SEPARATOR = " · "
"""Between the parts of ``RunDescription.conditions``."""

_KNOWN = frozenset(("pairings", "games", "seed", "board", "time_per_move", "time_bank",
                    "adjudicate", "openings", "count", "sha256"))
"""The keys of the description's own fields (the rest are the stopping rule's)."""


def _uncounted(description: RunDescription) -> dict[str, Any]:
    """The description's JSON object without its game counts."""
    data = description.to_json()
    del data["games"]
    data["pairings"] = [pairing[:2] + pairing[3:] for pairing in data["pairings"]]
    return data


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value, sort_keys=True)
