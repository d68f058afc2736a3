"""meta.json, typed: what a run is (its description), who plays in it (each agent with the
fingerprint of its code) and the sessions that worked on it.

``load_meta`` is the one loader: it checks the file and returns a ``RunMeta``, or raises
``MetaError`` naming the file and what is wrong. The run description stays the JSON object
the plan wrote (``MatchPlan.describe`` and the stopping rule's keys), so that two runs are
compared key by key; its board, seed and game count are read from it once, here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena.protocol.labels import table_labels
from arena.rules.board import Rules
from arena.rules.errors import ArenaError
from arena.runs.planning.plan import MatchPlan, plan_from_description
from arena.runs.store.files import RunFiles
from arena.system.files import write_atomically


class MetaError(ArenaError):
    """A meta.json that cannot be read or does not describe a run."""


@dataclass(frozen=True)
class AgentRecord:
    """An agent of a run as meta.json records it."""

    target: str  # the module:attr (or program) it is built from
    params: dict[str, Any]  # every parameter of its constructor, defaults filled in
    limit: dict[str, Any]  # its effective limit per move (time, depth, nodes)
    hosting: str  # inline, process or engine
    reproducible: bool
    fingerprint: str  # what identifies its code (a version, or a file's SHA-256)


@dataclass
class RunMeta:
    """A run directory's meta.json."""

    run: dict[str, Any]
    """The run's description: what decides its games (equal descriptions, equal games)."""
    agents: dict[str, AgentRecord]
    sessions: list[dict[str, Any]]
    """One record per command that worked on the run: when, how, on what machine."""
    started: str | None = None
    ended: str | None = None
    openings: list[str] | None = None
    """The move strings of an openings file, kept so the run can be resumed without it."""
    labels: dict[str, str] | None = None
    """The names the user gave agents (spec -> name), the latest session's over earlier."""
    summary: dict[str, str] | None = field(default=None)
    """The digests of games.csv, summary.csv and the run's description when the run last
    wrote them."""

    @property
    def rules(self) -> Rules:
        """The run's board."""
        board = self.run["board"]
        return Rules(board["rows"], board["cols"], board["connect"])

    @property
    def seed(self) -> int:
        """The run seed."""
        seed: int = self.run["seed"]
        return seed

    @property
    def games(self) -> int:
        """The games the run plans."""
        games: int = self.run["games"]
        return games

    def names(self, specs: Iterable[str] | None = None) -> dict[str, str]:
        """The name of every agent (of ``specs``, default the run's), the same in every
        table, chart and page and in the terminal: the name the user gave it (``labels``),
        else a short label of its spec that shows its depth (``table_labels``)."""
        return table_labels(self.agents if specs is None else specs, self.labels)

    def description_digest(self) -> str:
        """A digest of the run's description (kept in ``summary`` when the run ends, so that
        a reader knows the description is the one the games were played under)."""
        text = json.dumps(self.run, sort_keys=True, allow_nan=False)
        return hashlib.sha256(text.encode()).hexdigest()

    def plan(self) -> MatchPlan:
        """The plan the description stands for."""
        return plan_from_description(self.run, self.openings)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of meta.json."""
        data: dict[str, Any] = {
            "run": self.run, "agents": {name: asdict(agent) for name, agent in
                                        self.agents.items()},
            "started": self.started, "ended": self.ended, "sessions": self.sessions}
        if self.openings is not None:
            data["openings"] = self.openings
        if self.labels:
            data["labels"] = self.labels
        if self.summary is not None:
            data["summary"] = self.summary
        return data


def load_meta(directory: Path) -> RunMeta:
    """The meta.json of the run in ``directory``, checked; MetaError if it cannot be read or
    does not describe a run."""
    path = RunFiles(directory).meta
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        raise MetaError(f"{path}: cannot read it: {error}") from None
    try:
        meta = _parse(data)
        plan = meta.plan()
        missing = [name for name in plan.specs if name not in meta.agents]
        if missing:
            raise ValueError(f"agent {missing[0]!r} of the run is not recorded")
        drifted = [(key, value) for key, value in plan.describe().items()
                   if meta.run.get(key) != value]
        if drifted:
            key, value = drifted[0]
            raise ValueError(f"the run's {key} is {json.dumps(meta.run.get(key))}, but its "
                             f"description makes it {json.dumps(value)}")
    except (KeyError, IndexError, TypeError, ValueError) as error:  # ArenaErrors: ValueErrors
        raise MetaError(f"{path}: damaged: {_problem(error)}; remove the directory or give "
                        "another --out") from None
    return meta


def _parse(data: Any) -> RunMeta:
    if not isinstance(data, dict):
        raise TypeError("expected a JSON object")
    for key, kind in (("run", dict), ("agents", dict), ("sessions", list)):
        if not isinstance(data.get(key), kind):
            raise TypeError(f"no {key!r} {kind.__name__} in it")
    agents = {}
    for name, record in data["agents"].items():
        if not isinstance(record, dict):
            raise TypeError(f"agent {name!r} is not an object")
        agents[name] = AgentRecord(
            target=str(record["target"]), params=dict(record.get("params", {})),
            limit=dict(record.get("limit", {})), hosting=str(record.get("hosting", "")),
            reproducible=bool(record.get("reproducible", True)),
            fingerprint=str(record["fingerprint"]))
    openings = data.get("openings")
    summary = data.get("summary")
    labels = data.get("labels")
    if labels is not None and not (isinstance(labels, dict) and all(
            isinstance(v, str) for v in labels.values())):
        raise TypeError("'labels' is not an object of names")
    return RunMeta(run=data["run"], agents=agents, sessions=list(data["sessions"]),
                   started=data.get("started"), ended=data.get("ended"),
                   openings=list(openings) if isinstance(openings, list) else None,
                   labels=dict(labels) if labels else None,
                   summary=dict(summary) if isinstance(summary, dict) else None)


def _problem(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return f"no {error.args[0]!r} in it"
    return str(error)


def write_meta(directory: Path, meta: RunMeta) -> None:
    """Write meta.json atomically, strict JSON (a number that is not finite is a bug: a
    ValueError, never ``Infinity`` or ``NaN`` in the file)."""
    text = json.dumps(meta.to_json(), indent=2, default=str, allow_nan=False) + "\n"
    write_atomically(RunFiles(directory).meta, text)
