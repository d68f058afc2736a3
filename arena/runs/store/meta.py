"""meta.json, typed: what a run is (its description), who plays in it (each agent with the
fingerprint of its code) and the sessions that worked on it.

``load_meta`` is the one loader: it checks the file and returns a ``RunMeta``, or raises
``MetaError`` naming the file and what is wrong. The run description is a
``RunDescription`` (``MatchPlan.description`` and the stopping rule's settings), each session
a ``SessionRecord``, each agent's limit a ``Limit``; what they write is what meta.json always
held, and files written by earlier versions load.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena.protocol.agent import Limit
from arena.protocol.labels import table_labels
from arena.rules.board import Rules
from arena.rules.errors import ArenaError
from arena.runs.planning.description import JsonRecord, RunDescription
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
    limit: Limit  # its effective limit per move
    hosting: str  # inline, process or engine
    reproducible: bool
    fingerprint: str  # what identifies its code (a version, or a file's SHA-256)

    def __post_init__(self) -> None:
        if isinstance(self.limit, Mapping):  # the JSON object earlier versions stored
            object.__setattr__(self, "limit", limit_of(self.limit))


def limit_of(data: Mapping[str, Any]) -> Limit:
    """The ``Limit`` meta.json records as an object of its measures (absent ones unbounded)."""
    unknown = sorted(set(data) - {"time", "depth", "nodes"})
    if unknown:
        raise ValueError(f"limit has no measure {unknown[0]!r}")
    return Limit(data.get("time"), data.get("depth"), data.get("nodes"))


@dataclass(eq=True)
class SessionRecord(JsonRecord):
    """One command that worked on a run, as meta.json records it: when, with how many
    workers of which backend, on what machine, and what it did to the run."""

    started: str | None
    ended: str | None
    jobs: int | None = None
    backend: str | None = None
    hosting: str | None = None
    scheduler: str | None = None
    cores: int | None = None
    versions: dict[str, str] = field(default_factory=dict)
    """Python's, the platform's, the arena's and its libraries' versions."""
    command: dict[str, Any] = field(default_factory=dict)
    """What ran it, as its caller tells it: the command line and its options, or the
    experiment file and entry (kept as given: each caller has its own)."""
    engines: dict[str, Any] | None = None
    """The engines file's description (``--engines``)."""
    extended_from: int | None = None
    """The games the run planned before this command extended it."""
    changed_agents: dict[str, list[str]] | None = None
    """Agents whose code changed (name: [fingerprint then, fingerprint now])."""
    games_played: int | None = None
    file_keys: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    """The keys of the record as meta.json held them (None: made by this version), so that
    a record an earlier version wrote is written back as it was."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the session."""
        data: dict[str, Any] = {
            "started": self.started, "ended": self.ended, "jobs": self.jobs,
            "backend": self.backend, "hosting": self.hosting, "scheduler": self.scheduler,
            "cores": self.cores, "versions": self.versions, **self.command}
        later = {"engines": self.engines, "extended_from": self.extended_from,
                 "changed_agents": self.changed_agents, "games_played": self.games_played}
        if self.file_keys is not None:
            data.update(later)
            return {key: data[key] for key in self.file_keys}
        data.update((key, value) for key, value in later.items() if value is not None)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionRecord:
        """The session a meta.json object records (any of its keys may be absent)."""
        if isinstance(data, SessionRecord):
            return data
        if not isinstance(data, Mapping):
            raise TypeError(f"a session is a JSON object, got {data!r}")
        known = {key: data[key] for key in _SESSION_FIELDS if key in data}
        command = {key: value for key, value in data.items() if key not in _SESSION_FIELDS}
        return cls(**{"started": None, "ended": None, **known}, command=command,
                   file_keys=tuple(data))


_SESSION_FIELDS = ("started", "ended", "jobs", "backend", "hosting", "scheduler", "cores",
                   "versions", "engines", "extended_from", "changed_agents", "games_played")


@dataclass
class RunMeta:
    """A run directory's meta.json."""

    run: RunDescription
    """The run's description: what decides its games (equal descriptions, equal games)."""
    agents: dict[str, AgentRecord]
    sessions: list[SessionRecord]
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

    def __post_init__(self) -> None:  # the JSON objects earlier versions held
        self.run = RunDescription.from_json(self.run)
        self.sessions = [SessionRecord.from_json(session) for session in self.sessions]

    @property
    def rules(self) -> Rules:
        """The run's board."""
        return self.run.rules

    @property
    def seed(self) -> int:
        """The run seed."""
        return self.run.seed

    @property
    def games(self) -> int:
        """The games the run plans."""
        return self.run.games

    def names(self, specs: Iterable[str] | None = None) -> dict[str, str]:
        """The name of every agent (of ``specs``, default the run's), the same in every
        table, chart and page and in the terminal: the name the user gave it (``labels``),
        else a short label of its spec that shows its depth (``table_labels``)."""
        return table_labels(self.agents if specs is None else specs, self.labels)

    def description_digest(self) -> str:
        """A digest of the run's description (kept in ``summary`` when the run ends, so that
        a reader knows the description is the one the games were played under)."""
        return hashlib.sha256(self.run.digest_text().encode()).hexdigest()

    def plan(self) -> MatchPlan:
        """The plan the description stands for."""
        return plan_from_description(self.run, self.openings)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of meta.json."""
        data: dict[str, Any] = {
            "run": self.run.to_json(),
            "agents": {name: asdict(agent) for name, agent in self.agents.items()},
            "started": self.started, "ended": self.ended,
            "sessions": [session.to_json() for session in self.sessions]}
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
        recorded = meta.run.to_json()
        drifted = [(key, value) for key, value in plan.describe().items()
                   if recorded.get(key) != value]
        if drifted:
            key, value = drifted[0]
            raise ValueError(f"the run's {key} is {json.dumps(recorded.get(key))}, but its "
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
            limit=limit_of(record.get("limit", {})), hosting=str(record.get("hosting", "")),
            reproducible=bool(record.get("reproducible", True)),
            fingerprint=str(record["fingerprint"]))
    openings = data.get("openings")
    summary = data.get("summary")
    labels = data.get("labels")
    if labels is not None and not (isinstance(labels, dict) and all(
            isinstance(v, str) for v in labels.values())):
        raise TypeError("'labels' is not an object of names")
    return RunMeta(run=RunDescription.from_json(data["run"]), agents=agents,
                   sessions=[SessionRecord.from_json(session) for session in data["sessions"]],
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
