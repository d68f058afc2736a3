"""The llm: agent through the real openai client and real HTTP, against the local fake server
(tests/helpers/llm_server.py) with scripted faults: invalid answers and retries counted as
injected, forfeits recorded, bad input refused before any game, the key in no run file."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from arena import load_games
from arena.protocol.registry import make_agent
from arena.rules.board import Position
from arena.rules.errors import AgentSpecError
from tests.helpers.cli import arena
from tests.helpers.llm_server import (
    INVALID,
    RETRIED,
    FakeModel,
    Server,
    register_llm_kind,
    serving,
)

pytestmark = pytest.mark.llm

KEY = "sk-test-0123456789abcdefSECRET"
KEY_ENV = "ARENA_TEST_LLM_KEY"


@pytest.fixture(scope="module", autouse=True)
def llm_kind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The ``llm`` spec kind known here and in child processes, whatever is installed."""
    folder = register_llm_kind(tmp_path_factory.mktemp("llm-kind"))
    previous = os.environ.get("PYTHONPATH")
    if folder is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [previous, folder]))
    yield
    if previous is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = previous


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """The fake server, wanting KEY, which the environment variable KEY_ENV holds."""
    monkeypatch.setenv(KEY_ENV, KEY)
    with serving(FakeModel(key=KEY, slow_seconds=0.2)) as running:
        yield running


def spec(server: Server, extra: str = "") -> str:
    return f"llm:fake-model,base_url={server.url},key_env={KEY_ENV},backoff=0.01{extra}"


def move_logs(text: str) -> list[dict[str, object]]:
    """The moves' lines the agent printed (``llm-move {...}``)."""
    return [json.loads(line.partition("llm-move ")[2]) for line in text.splitlines()
            if "llm-move " in line]


def tallies(moves: list[dict[str, object]]) -> Counter[str]:
    total: Counter[str] = Counter()
    for move in moves:
        total["requests"] += int(move["requests"])  # type: ignore[call-overload]
        total["invalid"] += len(move["invalid"])  # type: ignore[arg-type]
        total["retried"] += len(move["retried"])  # type: ignore[arg-type]
    return total


def no_key_in(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
            assert KEY[-12:].encode() not in path.read_bytes(), path


def test_every_fault_is_counted_as_injected(server: Server,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    faults = ["prose", "429", "illegal", "500", "drop", "unparseable", "malformed", "slow"]
    server.model.faults.extend(faults)
    agent = make_agent(spec(server, ",prompt=moves"))
    position, rng = Position.empty(), np.random.default_rng(1)
    for _ in range(6):
        position = position.play(agent.choose(position, rng).column)  # type: ignore[union-attr]
    agent.close()  # type: ignore[attr-defined]
    total = tallies(move_logs(capsys.readouterr().out))
    assert total["invalid"] == sum(fault in INVALID for fault in faults) == 2
    assert total["retried"] == sum(fault in RETRIED for fault in faults) == 4
    assert total["requests"] == server.model.counts["chat"] == 6 + 2 + 4
    assert set(server.model.keys) == {KEY}


@pytest.mark.slow
def test_a_match_against_random_plays_through_the_faults(server: Server, tmp_path: Path) -> None:
    faults = ["429", "illegal", "prose", "drop", "unparseable", "500", "malformed"]
    server.model.faults.extend(faults)
    out = tmp_path / "run"
    status, output = arena("match", spec(server), "random", "-n", "4", "-j", "1", "--no-report",
                           "--out", str(out))
    assert status == 0, output
    games = load_games(out / "games.csv")
    assert len(games) == 4
    assert set(games["termination"]) <= {"four_in_a_row", "board_full"}
    total = tallies(move_logs((out / "agents.log").read_text()))
    assert total["invalid"] == 2 and total["retried"] == 4
    assert total["requests"] == server.model.counts["chat"]
    assert total["requests"] == sum(games["turns_a"]) + 2 + 4
    meta = json.loads((out / "meta.json").read_text())
    fingerprints = [agent["fingerprint"] for agent in meta["agents"].values()]
    assert any("llm-prompt-" in fingerprint for fingerprint in fingerprints)
    no_key_in(out)


@pytest.mark.slow
@pytest.mark.parametrize(("policy", "termination"), [("forfeit", "agent_error"),
                                                     ("random", None)])
def test_answers_that_stay_invalid_forfeit_or_play_at_random(
        server: Server, tmp_path: Path, policy: str, termination: str | None) -> None:
    server.model.faults.extend(["illegal", "unparseable", "illegal"])
    out = tmp_path / "run"
    status, output = arena("match", spec(server, f",on_invalid={policy}"), "random", "-n", "2",
                           "--first", "a", "-j", "1", "--no-report", "--out", str(out))
    assert status == 0, output
    game = load_games(out / "games.csv").iloc[0]
    moves = move_logs((out / "agents.log").read_text())
    assert len(moves[0]["invalid"]) == 3  # type: ignore[arg-type]
    if termination is None:
        assert moves[0]["fallback"] == "random"
        assert game["termination"] in ("four_in_a_row", "board_full")
    else:
        assert (game["termination"], game["result"], game["plies"]) == (termination, "loss", 0)
        assert ("InvalidAnswers: invalid answers: no legal column in 3 answers to move 1"
                in game["error"])
    no_key_in(out)


@pytest.mark.slow
def test_a_server_that_keeps_failing_costs_the_game(server: Server, tmp_path: Path) -> None:
    server.model.faults.extend(["500"] * 3)
    out = tmp_path / "run"
    status, output = arena("match", spec(server, ",http_retries=2"), "random", "-n", "2",
                           "--first", "a", "-j", "1", "--no-report", "--out", str(out))
    assert status == 0, output
    game = load_games(out / "games.csv").iloc[0]
    assert game["termination"] == "agent_error"
    assert "failed 3 times; the last: HTTP 500" in game["error"]
    no_key_in(out)


@pytest.mark.slow
def test_bad_input_is_one_line_before_any_game(server: Server, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    cases = {
        spec(server, ",retries=-1"): "retries must be a whole number >= 0, got -1",
        spec(server, ",prompt=image"): "parameter prompt must be one of board, moves",
        spec(server).replace(KEY_ENV, "ARENA_TEST_NO_SUCH_KEY"):
            "the environment variable ARENA_TEST_NO_SUCH_KEY holds no API key",
        spec(server).replace("fake-model", "other-model"): "has no model 'other-model'",
        f"llm:fake-model,base_url=http://127.0.0.1:9/v1,key_env={KEY_ENV}": "cannot reach",
        "llm:": "give llm:MODEL",
    }
    for text, message in cases.items():
        status, output = arena("match", text, "random", "-n", "1", "--no-report", "--out", str(out))
        assert status == 2, output
        assert output.count("\n") == 1 and message in output, output
        assert not out.exists()
    monkeypatch.setenv(KEY_ENV, "sk-wrong-key-0000")
    with pytest.raises(AgentSpecError, match=r"refused the API key \(HTTP 401\)") as caught:
        make_agent(spec(server))
    assert "0000" not in str(caught.value)


def test_a_key_refused_during_a_game_is_not_quoted(server: Server) -> None:
    agent = make_agent(spec(server))
    server.model.key = "sk-another-key-9999"  # the server stops taking ours mid-run
    with pytest.raises(Exception, match=r"refused the API key \(HTTP 401\)") as caught:
        agent.choose(Position.empty(), np.random.default_rng(0))
    assert KEY[-4:] not in str(caught.value)
