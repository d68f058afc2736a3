"""meta.json through its one typed loader: every file written before loads and is written
back as it was; a session and an agent's limit are values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.protocol.agent import Limit
from arena.runs.store.meta import AgentRecord, SessionRecord, load_meta, write_meta
from tests.helpers.paths import ROOT

COMMITTED = sorted((ROOT / "results").rglob("meta.json"))


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: str(p.relative_to(ROOT / "results")))
def test_a_committed_meta_json_is_written_back_byte_for_byte(path: Path, tmp_path: Path) -> None:
    shutil.copy(path, tmp_path / "meta.json")
    meta = load_meta(tmp_path)
    assert all(isinstance(agent.limit, Limit) for agent in meta.agents.values())
    write_meta(tmp_path, meta)
    assert (tmp_path / "meta.json").read_bytes() == path.read_bytes()


def test_a_session_of_an_earlier_version_is_written_back_as_it_was() -> None:
    earlier = {"started": "2026-11-21T10:00:00+00:00", "ended": None, "jobs": 2,
               "backend": "local", "scheduler": None, "cores": 4, "versions": {},
               "command": "arena match random random", "games_played": 3}  # no hosting
    session = SessionRecord.from_json(earlier)
    assert session.hosting is None and session.command == {
        "command": "arena match random random"}
    assert json.dumps(session.to_json()) == json.dumps(earlier)


def test_a_session_of_this_version_writes_its_keys_in_their_order() -> None:
    session = SessionRecord("then", None, 1, "local", "auto", None, 2, {"python": "3"},
                            {"command": "arena match", "options": {"games": 2}})
    assert list(session.to_json()) == ["started", "ended", "jobs", "backend", "hosting",
                                       "scheduler", "cores", "versions", "command", "options"]
    session.extended_from, session.ended, session.games_played = 2, "now", 4
    assert list(session.to_json())[-2:] == ["extended_from", "games_played"]
    assert session["ended"] == "now" and SessionRecord.from_json(session.to_json()) == session


def test_an_agent_limit_is_a_limit_and_written_as_before() -> None:
    record = AgentRecord("m:A", {}, {"time": 1.5}, "inline", True, "v1")  # as once stored
    assert record.limit == Limit(time=1.5)
    assert AgentRecord("m:A", {}, Limit(depth=3), "inline", True, "v1").limit.depth == 3
