"""The llm: agent through the real openai client and real HTTP, against the local fake server
(tests/helpers/llm_server.py) with scripted faults: invalid answers and retries counted as
injected, forfeits recorded, bad input refused before any game, the key in no run file; a
model answering as an anchor placed on the ladder at that anchor's rating, and a placement
killed midway resumed without asking anything twice."""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena import load_games, load_model_moves
from arena.competitions.ladder.anchors import shipped_anchors
from arena.competitions.ladder.store import open_ladder
from arena.competitions.ladder.tables import standings
from arena.protocol.agent import Choice
from arena.protocol.players import canonical_player
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError
from arena.runs.store.reading import NoRunError
from arena.runs.store.transcripts import read_transcript
from connect_four_agents.llm_records import read_answers
from tests.helpers.browser import Browser
from tests.helpers.cli import arena, arena_command, checkout_env
from tests.helpers.extras import chromium
from tests.helpers.llm_server import (
    INVALID,
    RETRIED,
    FakeModel,
    Server,
    main,
    register_llm_kind,
    serving,
    web_server,
)
from tests.helpers.paths import ROOT

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
    """Neither the key nor its end in any file of ``folder`` (compressed ones read
    uncompressed)."""
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if path.suffix == ".gz":
                data = b"".join(gzip.decompress(data).splitlines())
            assert KEY.encode() not in data, path
            assert KEY[-12:].encode() not in data, path


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
@pytest.mark.parametrize("hosting", ["inline", "process"])
def test_answers_that_stay_invalid_disqualify_the_model(server: Server, tmp_path: Path,
                                                        hosting: str) -> None:
    faults = ["illegal", "unparseable", "illegal"] * 2  # every answer to two moves (retries=2)
    server.model.faults.extend(faults)
    out = tmp_path / "run"
    status, output = arena("match", spec(server), "random", "-n", "4", "--first", "a", "-j",
                           "1", "--hosting", hosting, "--no-report", "--out", str(out))
    assert status == 0, output
    games = load_games(out / "games.csv")
    lost = games[games["termination"] == "disqualified"]
    assert len(lost) == len(faults) // 3 == 2
    assert set(games["termination"]) - {"disqualified"} <= {"four_in_a_row", "board_full"}
    message = "InvalidAnswers: no legal column in 3 answers to move 1 (the last: "
    assert set(lost["result"]) == {"loss"} and set(lost["plies"]) == {0}
    assert all(error.startswith(message) for error in lost["error"]), lost["error"].tolist()
    assert (out / "agents.log").read_text().count(message) == 2
    summary = pd.read_csv(out / "summary.csv").iloc[0]
    assert (summary["disqualified_a"], summary["disqualified_b"]) == (2, 0)
    assert summary["agent_error_a"] == 0
    assert "A 2 disqualified" in output
    no_key_in(out)


@pytest.mark.slow
def test_answers_that_stay_invalid_play_at_random_if_asked(server: Server,
                                                           tmp_path: Path) -> None:
    server.model.faults.extend(["illegal", "unparseable", "illegal"])
    out = tmp_path / "run"
    status, output = arena("match", spec(server, ",on_invalid=random"), "random", "-n", "2",
                           "--first", "a", "-j", "1", "--no-report", "--out", str(out))
    assert status == 0, output
    game = load_games(out / "games.csv").iloc[0]
    moves = move_logs((out / "agents.log").read_text())
    assert len(moves[0]["invalid"]) == 3  # type: ignore[arg-type]
    assert moves[0]["fallback"] == "random"
    assert game["termination"] in ("four_in_a_row", "board_full")
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
        spec(server, ",rpm=-5"): "rpm must be a number of requests a minute >= 0",
        spec(server, ",price=cheap"): "price must be IN/OUT, dollars per million prompt",
        spec(server, ",price=1/2/3"): "price must be IN/OUT",
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


def test_a_plain_web_server_is_refused_before_any_game(tmp_path: Path) -> None:
    """A base_url naming a web server that is no API (an HTML page where the list of models
    should be, or its HTML error page) is one line, exit status 2, and leaves nothing, not
    even the folders above the run directory."""
    site = tmp_path / "site"
    (site / "pages" / "models").mkdir(parents=True)
    (site / "pages" / "models" / "index.html").write_text("<html>models</html>")
    out = tmp_path / "results" / "run"
    with web_server(site) as address:
        for path, status in (("/v1", "HTTP 404 (text/html)"), ("/pages", "HTTP 200 (text/html)")):
            given = f"llm:fake-model,base_url={address}{path},key_env=none,http_retries=0"
            code, output = arena("match", given, "random", "-n", "4", "-j", "1",
                                 "--out", str(out))
            assert code == 2, output
            assert output.count("\n") == 1, output
            assert "answers as no OpenAI-compatible API" in output and status in output, output
            assert not (tmp_path / "results").exists()


def test_a_key_refused_during_a_game_is_not_quoted(server: Server) -> None:
    agent = make_agent(spec(server))
    server.model.key = "sk-another-key-9999"  # the server stops taking ours mid-run
    with pytest.raises(Exception, match=r"refused the API key \(HTTP 401\)") as caught:
        agent.choose(Position.empty(), np.random.default_rng(0))
    assert KEY[-4:] not in str(caught.value)


def test_a_forked_process_asks_over_connections_of_its_own(server: Server) -> None:
    """An agent made in one process (its server checked over a connection it keeps) and
    used in a process forked from it asks over a new connection there, never the parent's."""
    agent = make_agent(spec(server))
    context = multiprocessing.get_context("fork")
    child = context.Process(target=agent.choose, args=(Position.empty(),
                                                       np.random.default_rng(0)))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    agent.choose(Position.empty(), np.random.default_rng(0))  # the parent, after
    agent.close()  # type: ignore[attr-defined]
    (_, checked), (_, forked), (_, parents) = server.model.ports
    assert forked not in (checked, parents)


def played(out: Path) -> list[tuple[int, str, str]]:
    """Each game of a run: its number, its moves and its termination."""
    games = load_games(out / "games.csv")
    return sorted(zip(games["game"], games["moves"].astype(str), games["termination"],
                      strict=True))


def keep_first_rows(out: Path, rows: int) -> None:
    """games.csv cut after its first ``rows`` games, as if the run had stopped there."""
    lines = (out / "games.csv").read_text().splitlines(keepends=True)
    (out / "games.csv").write_text("".join(lines[:1 + rows]))


@pytest.mark.slow
def test_a_resumed_run_replays_answers_and_asks_nothing_twice(server: Server,
                                                              tmp_path: Path) -> None:
    server.model.faults.extend(["illegal", "429", "prose"])
    out = tmp_path / "run"
    command = ("match", spec(server), "random", "-n", "4", "-j", "1", "--no-report",
               "--out", str(out))
    status, output = arena(*command)
    assert status == 0, output
    first, asked = played(out), server.model.counts["chat"]
    transcripts = sorted((out / "llm").glob("game-*.jsonl.gz"))
    assert [path.name for path in transcripts] == [f"game-{n:06d}.jsonl.gz" for n in range(4)]
    records = [record for path in transcripts for record in read_transcript(path)
               if record["kind"] == "request"]
    moves = move_logs((out / "agents.log").read_text())
    assert len(records) == sum(len(move["invalid"]) + 1 for move in moves)  # type: ignore[arg-type]
    kept = [record for path in transcripts for record in read_transcript(path)
            if record["kind"] == "move"]
    assert [{k: v for k, v in move.items() if k not in ("kind", "player")} for move in kept] \
        == moves
    assert all(record["model"] == "fake-model" and record["messages"][0]["role"] == "system"
               and record["answer"] and not record["cached"] for record in records)
    keep_first_rows(out, 1)
    status, output = arena(*command)
    assert status == 0, output
    assert played(out) == first
    assert server.model.counts["chat"] == asked  # every answer replayed, none asked again
    again = [move for move in move_logs((out / "agents.log").read_text())[len(moves):]]
    assert again and all(move["requests"] == 0 and move["cached"] for move in again)
    assert all(record["cached"] for path in transcripts[1:] for record in read_transcript(path)
               if record["kind"] == "request")
    keep_first_rows(out, 1)
    status, output = arena(*command, "--no-cache")
    assert status == 0, output
    assert server.model.counts["chat"] > asked
    assert played(out) == first  # the fake model answers as before
    no_key_in(out)


@pytest.mark.slow
def test_a_run_killed_midway_resumes_without_asking_twice(server: Server,
                                                          tmp_path: Path) -> None:
    """At -j 2 (a worker forked from the process that checked the server): every answer kept
    and played is the one the server gave to that request, none asked again, and the killed
    and resumed run plays the games of the uninterrupted one."""
    def command(out: Path) -> list[str]:
        return arena_command("match", spec(server), "random", "-n", "8", "-j", "2",
                             "--no-report", "-q", "--out", str(out))

    server.model.tagged = True  # no two answers alike: one read for another's would show
    whole, out = tmp_path / "whole", tmp_path / "killed"
    reference, killed, resumed = killed_and_resumed(server, command(whole), command(out))
    assert played(out) == played(whole)
    assert reference <= killed + resumed <= reference + 1  # at most the one in flight
    for run in (whole, out):
        answers_are_the_servers(server, run)
    assert not any(move["retried"] for move in move_logs((whole / "agents.log").read_text()))
    no_key_in(out)


def answers_are_the_servers(server: Server, out: Path) -> None:
    """Every answer in the transcripts and the response cache of ``out`` is one the server
    gave to that very request, and every move played is the column of its last answer."""
    given: dict[str, set[str]] = {}
    for request, answer in server.model.served:
        given.setdefault(json.dumps(request, sort_keys=True), set()).add(answer)
    asked = ("model", "messages", "temperature", "max_tokens")
    for path in sorted((out / "llm").glob("game-*.jsonl.gz")):
        last = None
        for record in read_transcript(path):
            if record["kind"] == "request":
                request = json.dumps({key: record[key] for key in asked}, sort_keys=True)
                assert record["answer"] in given.get(request, set()), (path, record["answer"])
                last = record["answer"]
            elif record["kind"] == "move" and last is not None:
                assert f"Move: {record['column'] + 1} (reply" in last, (path, record)
    cached = [entry for path in (out / "llm" / "cache").glob("game-*.jsonl")
              for entry in read_answers(path).values()]
    assert cached
    for entry in cached:
        request = json.dumps(entry["request"], sort_keys=True)
        assert entry["answer"] in given.get(request, set()), entry["answer"]


def killed_and_resumed(server: Server, whole: list[str], killed: list[str]
                       ) -> tuple[int, int, int]:
    """The requests of the command ``whole``, of ``killed`` killed with SIGKILL half way
    through (as many requests again), and of ``killed`` run again to the end."""
    server.model.delay = 0.02
    env = {**checkout_env(), "PYTHONPATH": os.pathsep.join(
        filter(None, [checkout_env()["PYTHONPATH"], os.environ.get("PYTHONPATH")]))}
    subprocess.run(whole, env=env, check=True, capture_output=True)
    reference = server.model.counts["chat"]
    child = subprocess.Popen(killed, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    while server.model.counts["chat"] < reference + reference // 2 and child.poll() is None:
        time.sleep(0.005)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    asked = server.model.counts["chat"] - reference
    assert 0 < asked < reference
    subprocess.run(killed, env=env, check=True, capture_output=True)
    return reference, asked, server.model.counts["chat"] - reference - asked


@pytest.mark.slow
def test_games_played_at_once_are_the_games_played_one_by_one(server: Server,
                                                              tmp_path: Path) -> None:
    server.model.delay = 0.01
    runs = {}
    for level in (1, 6):
        out = tmp_path / f"c{level}"
        status, output = arena("match", spec(server, ",rpm=6000"), "random", "-n", "12", "-j",
                               "1", "--hosting", "inline", "--concurrency", str(level),
                               "--no-report", "--out", str(out))
        assert status == 0, output
        runs[level] = played(out)
        games = load_games(out / "games.csv")
        lines: Counter[int] = Counter()
        for line in (out / "agents.log").read_text().splitlines():
            if "llm-move " in line:
                lines[int(line.split()[1])] += 1  # each game's moves under its own number
        assert lines == dict(zip(games["game"], games["turns_a"], strict=True))
        assert len(list((out / "llm").glob("game-*.jsonl.gz"))) == 12
    assert runs[1] == runs[6]


def test_summary_and_report_count_what_the_server_served(server: Server,
                                                          tmp_path: Path) -> None:
    faults = ["illegal", "429", "unparseable", "500", "prose"]
    server.model.faults.extend(faults)
    out = tmp_path / "run"
    command = ("match", "random", spec(server, ",price=2/10"), "-n", "4", "-j", "1",
               "--out", str(out))
    status, output = arena(*command)
    assert status == 0, output
    summary = pd.read_csv(out / "summary.csv").iloc[0]
    served = server.model.counts
    assert summary["llm_requests_b"] == served["chat"]
    assert summary["llm_invalid_b"] == sum(fault in INVALID for fault in faults) == 2
    assert summary["llm_retried_b"] == sum(fault in RETRIED for fault in faults) == 2
    assert summary["llm_cached_b"] == 0
    assert summary["llm_prompt_tokens_b"] == served["prompt_tokens"] > 0
    assert summary["llm_completion_tokens_b"] == served["completion_tokens"] > 0
    assert summary["llm_cost_b"] == pytest.approx(
        (2 * served["prompt_tokens"] + 10 * served["completion_tokens"]) / 1e6)
    assert all(pd.isna(summary[f"llm_{name}_a"]) for name in ("requests", "cost"))
    assert f"Model B     {served['chat']} requests (2 asked again" in output
    meta = json.loads((out / "meta.json").read_text())
    assert {record["hosting"] for record in meta["agents"].values()} == {"inline"}  # by default
    moves = load_model_moves(out)
    assert moves["requests"].sum() == served["chat"] and moves["invalid"].sum() == 2
    assert sorted(moves["game"].unique()) == [0, 1, 2, 3] and set(moves["side"]) == {"b"}
    assert moves["prompt_tokens"].sum() == served["prompt_tokens"]
    games = load_games(out / "games.csv")
    assert len(moves) == games["turns_b"].sum()  # no forfeit: three answers per move at most
    played = games.set_index("game")["moves"]  # each move at its ply, the first ply 0
    assert all(played[move.game][move.ply] == str(move.column + 1)
               for move in moves.itertuples())
    with pytest.raises(NoRunError, match=r"no games\.csv"):
        load_model_moves(tmp_path)
    report = (out / "report.md").read_text()
    label = "fake-model"  # the server, key variable, backoff and price are not its name
    models = report.split("## Language models")[1]  # its table, not Cost per move's
    [row] = [line for line in models.splitlines() if line.startswith(f"| {label} | 4 |")]
    assert "(2) |" in row and f"${summary['llm_cost_b']:.4g}" in row
    assert "Run `arena analyze --best-moves`" in report

    status, output = arena("analyze", str(out), "--best-moves")
    assert status == 0, output
    status, output = arena("report", str(out))
    assert status == 0, output
    report = (out / "report.md").read_text()
    graded = pd.read_csv(out / "moves.csv")
    graded = graded[graded["agent"].str.startswith("llm:")]
    best, blunders = int(graded["best"].sum()), int((graded["before"] != graded["after"]).sum())
    solver = report.partition("Against perfect play")[2]
    [row] = [line for line in solver.splitlines() if line.startswith(f"| {label} |")]
    assert f"({best}) | " in row and f"({blunders}) | " in row
    assert f"{best / len(graded):.1%}" in row

    keep_first_rows(out, 0)  # every game played again, from the cache
    asked = served["chat"]
    status, output = arena(*command)
    assert status == 0, output
    again = pd.read_csv(out / "summary.csv").iloc[0]
    assert served["chat"] == asked
    assert again["llm_requests_b"] == again["llm_retried_b"] == 0
    assert again["llm_cached_b"] == summary["llm_requests_b"] - summary["llm_retried_b"]
    for name in ("invalid", "prompt_tokens", "completion_tokens", "cost"):
        assert again[f"llm_{name}_b"] == pytest.approx(summary[f"llm_{name}_b"])


def test_a_tournament_prints_each_models_totals(server: Server, tmp_path: Path) -> None:
    status, output = arena("tournament", spec(server, ",price=1/4"), "random", "immediate-win",
                           "-n", "2", "-j", "1", "--no-report", "--out", str(tmp_path / "t"))
    assert status == 0, output
    served = server.model.counts
    cost = (served["prompt_tokens"] + 4 * served["completion_tokens"]) / 1e6
    assert (f"Model       fake-model: {served['chat']} requests (0 asked again, 0 from the "
            f"cache), 0 invalid answers, {served['prompt_tokens']:,} + "
            f"{served['completion_tokens']:,} tokens, ${cost:.4g}") in output


def test_an_ollama_style_model_name_reads_whole_everywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``llama3.1:8b`` (a ``:`` and a tag in the name) is named as it is in the seeds' line,
    the report and the run directory's name."""
    monkeypatch.chdir(tmp_path)
    with serving(FakeModel(model="llama3.1:8b")) as running:
        model = f"llm:llama3.1:8b,base_url={running.url},key_env=none,prompt=moves"
        status, output = arena("match", model, "random", "-n", "2", "-j", "1")
    assert status == 0, output
    assert output.startswith("llama3.1:8b moves [")
    [run] = Path("results/matches").iterdir()
    assert run.name.startswith("llama3.1-8b-moves-vs-random_seed42_")
    report = (run / "report.md").read_text()
    assert "**llama3.1:8b moves** scores" in report
    assert "| llama3.1:8b moves | random | 2 |" in report


def test_accuracy_asks_a_model_several_positions_at_once_and_says_what_it_spent(
        server: Server, tmp_path: Path) -> None:
    """--concurrency 4: four clients of their own, the same moves as one by one, one request
    a position (no warm-up answer paid for), and the tokens and dollars the server gave."""
    server.model.agent, server.model.delay = "negamax:depth=2", 0.3  # each thread gets one
    moves = {}
    for concurrency in ("1", "4"):
        served = server.model.counts["chat"], len(server.model.ports)
        out = tmp_path / f"at-{concurrency}"
        status, output = arena("accuracy", spec(server, ",price=2/10"), "--set",
                               "random:12-16", "-n", "8", "--rows", "5", "--cols", "6", "--out",
                               str(out), "--concurrency", concurrency, "-j", "1", "-q")
        assert status == 0, output
        assert server.model.counts["chat"] - served[0] == 8
        ports = {port for kind, port in server.model.ports[served[1]:] if kind == "chat"}
        assert len(ports) == int(concurrency)
        moves[concurrency] = pd.read_csv(out / "choices.csv")["move"].tolist()
        assert output.splitlines()[1].startswith("llm:fake-model  random:12-16  ")
    assert moves["1"] == moves["4"]
    counts = server.model.counts
    tokens = (counts["prompt_tokens"] // 2, counts["completion_tokens"] // 2)  # each run's
    cost = (2 * tokens[0] + 10 * tokens[1]) / 1e6
    assert (f"Model       llm:fake-model: 8 requests (0 asked again, 0 from the cache), 0 "
            f"invalid answers, {tokens[0]:,} + {tokens[1]:,} tokens, ${cost:.4g}") in output


def test_the_fake_server_runs_from_the_command_line(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    child = subprocess.Popen([sys.executable, "-m", "tests.helpers.llm_server", "--port", "0",
                              "--plays", "immediate-win", "--model", "m"],
                             cwd=ROOT, env=checkout_env(), stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        url = child.stdout.readline().strip()
        agent = make_agent(f"llm:m,base_url={url},key_env=none")
        three = Position.empty().play(0).play(1).play(0).play(1).play(0).play(1)
        assert agent.choose(three, np.random.default_rng(0)) == Choice(0)  # the win
        agent.close()  # type: ignore[attr-defined]
    finally:
        child.terminate()
        child.wait()
    with pytest.raises(SystemExit):
        main(["--faults", "429,late"])
    assert "unknown faults late; expected some of slow, 429," in capsys.readouterr().err


def placement(server: Server, db: Path, out: Path, *options: str) -> list[str]:
    """``arena ladder place`` of the fake model on 5 x 6, as its arguments."""
    return ["ladder", "place", spec(server), "--rows", "5", "--cols", "6", "--db", str(db),
            "--out", str(out), "-j", "1", *options]


@pytest.mark.slow
def test_a_model_answering_as_an_anchor_is_placed_at_its_rating(server: Server,
                                                                tmp_path: Path) -> None:
    server.model.agent = "negamax:depth=2"
    db, out = tmp_path / "ladder.sqlite", tmp_path / "placed"
    command = placement(server, db, out, "--batch", "30", "--max-games", "40",
                        "--concurrency", "4")
    status, output = arena(*command)
    assert status == 0, output
    steps = sorted(out.iterdir())
    assert [len(load_games(step / "games.csv")) for step in steps] == [30, 10]  # the cap
    assert all(len(list((step / "llm").glob("game-*.jsonl.gz"))) == len(
        load_games(step / "games.csv")) for step in steps)
    with open_ladder(db) as ladder:
        placed = standings(ladder.connection, "5x6c4").set_index("agent").loc[
            canonical_player(spec(server), Rules(rows=5, cols=6))]
    anchors = shipped_anchors().set_index(["board", "agent"])
    assert placed["games"] == 40
    assert placed["low"] < anchors.loc[("5x6c4", "negamax:depth=2"), "rating"] < placed["high"]
    assert placed["low"] > anchors.loc[("5x6c4", "immediate-win"), "rating"]
    served = server.model.counts
    asked = served["chat"]
    assert (f"\nModel       llm:fake-model over the 2 steps of this command: {asked:,} requests "
            f"(0 asked again, 0 from the cache), 0 invalid answers, "
            f"{served['prompt_tokens']:,} + {served['completion_tokens']:,} tokens\n") in output
    status, again = arena(*command)  # the steps hold --max-games games: nothing more is played
    assert status == 0, again
    assert "40 games against the anchors, 0 of them played now" in again
    assert server.model.counts["chat"] == asked
    assert "\nModel " not in again  # no step played: nothing spent


@pytest.mark.slow
def test_a_placement_killed_midway_resumes_without_asking_twice(server: Server,
                                                                tmp_path: Path) -> None:
    def command(name: str) -> list[str]:
        return arena_command(*placement(server, tmp_path / f"{name}.sqlite", tmp_path / name,
                                        "--batch", "4", "--max-games", "12", "-q"))

    reference, killed, resumed = killed_and_resumed(server, command("whole"), command("killed"))
    steps = sorted(path.name for path in (tmp_path / "whole").iterdir())
    assert sorted(path.name for path in (tmp_path / "killed").iterdir()) == steps
    for step in steps:
        assert played(tmp_path / "killed" / step) == played(tmp_path / "whole" / step)
    assert reference <= killed + resumed <= reference + 1  # at most the one in flight
    no_key_in(tmp_path / "killed")


def test_rpm_holds_across_the_playing_processes(server: Server, tmp_path: Path) -> None:
    status, output = arena("match", spec(server, ",rpm=600"), "random", "-n", "6", "-j", "2",
                           "--no-report", "--out", str(tmp_path / "run"))
    assert status == 0, output
    gaps = np.diff(server.model.times)  # 600 a minute: 0.1 s apart as sent, give or take
    assert len(gaps) >= 10 and gaps.min() >= 0.05 and gaps.sum() >= 0.095 * len(gaps)  # jitter


def answered_game(server: Server, out: Path) -> str:
    """One game of the model (X) against random into ``out``, its first answer illegal and
    its second prose; what ``arena show --answers`` prints of it."""
    server.model.faults.extend(["illegal", "prose"])
    status, output = arena("match", spec(server), "random", "-n", "1", "-j", "1", "--no-report",
                           "--first", "a", "--out", str(out))
    assert status == 0, output
    status, shown = arena("show", str(out), "0", "--answers")
    assert status == 0, shown
    return shown


def test_show_tells_what_the_model_answered_at_each_move(server: Server, tmp_path: Path) -> None:
    out = tmp_path / "run"
    lines = answered_game(server, out).splitlines()
    moves = [line for line in lines if line[3:5] == ". "]
    answers = [line.strip() for line in lines if line.strip().startswith("answer: ")]
    assert len(answers) == load_games(out / "games.csv")["turns_a"].iloc[0]
    invalid = [i for i, line in enumerate(lines) if "invalid:" in line]
    assert invalid == [lines.index(moves[0]) + 1]  # under the first move, once
    assert "2 requests, 0 from the cache" in answers[0] and "Move:" in answers[0]  # the prose
    assert all("1 request, 0 from the cache" in answer for answer in answers[1:])
    plain = tmp_path / "plain"
    status, output = arena("match", "random", "random", "-n", "1", "--no-report", "--out",
                           str(plain))
    assert status == 0, output
    status, output = arena("show", str(plain), "0", "--answers")
    assert status == 2 and output.count("\n") == 1 and "has no transcript" in output, output


@pytest.mark.chromium
def test_the_replay_page_shows_what_the_model_answered(server: Server, tmp_path: Path) -> None:
    out = tmp_path / "run"
    shown = answered_game(server, out)
    status, output = arena("export", "html", str(out))
    assert status == 0, output
    said: dict[str, list[str]] = {}  # the page's data against show's lines, move by move
    for line in shown.splitlines():
        if line[3:5] == ". ":
            number = line[:3].strip()
        elif line.startswith("       ") and line.strip().startswith(("invalid:", "answer:")):
            said.setdefault(number, []).append(line.strip())
    page = (out / "replay.html").read_text()
    data = re.search(r'<script id="games" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None and json.loads(data.group(1))[0]["said"] == said
    assert sorted(map(int, said)) == list(range(1, 2 * len(said), 2))  # the model is X
    server.model.faults.extend(["illegal", "unparseable", "illegal"])  # no move at all
    lost = tmp_path / "lost"
    status, output = arena("match", spec(server), "random", "-n", "2", "-j", "1", "--no-report",
                           "--first", "a", "--out", str(lost))  # one game alone would be an error
    assert status == 0 and load_games(lost / "games.csv")["plies"].iloc[0] == 0, output
    status, output = arena("export", "html", str(lost))
    assert status == 0, output
    with Browser(chromium() or "chromium", tmp_path / "profile") as browser:
        shown_at = {}
        for run, ply in ((out, 1), (out, 2), (out, 3), (lost, 0)):
            opened = browser.open(f"{(run / 'replay.html').as_uri()}#game=0&ply={ply}", 1000, 800)
            shown_at[ply] = opened.evaluate("document.getElementById('said').innerText")
    first = shown_at[1].splitlines()
    assert first[0] == "Move 1, fake-model answered:" and first[1:] == said["1"]
    assert first[1].startswith("invalid:") and first[2].startswith("answer:")
    assert shown_at[2] == ""  # random's move: nothing said
    assert shown_at[3].splitlines()[1:] == said["3"]
    never = shown_at[0].splitlines()
    assert never[0] == "Move 1, fake-model played no move:" and len(never) == 5
    assert all(line.startswith("invalid: ") for line in never[1:4])
    assert never[4].startswith("answer: 'Move: 8' (3 requests")  # the last one


def test_an_experiment_with_a_model_tells_what_it_spent_over_its_entries(server: Server,
                                                                         tmp_path: Path) -> None:
    model = spec(server, ",price=2/10")
    experiment = tmp_path / "models.toml"
    experiment.write_text(f"""
[defaults]
concurrency = 2

[[match]]
name = "model-vs-random"
a = "{model}"
b = "random"
games = 4

[[tournament]]
name = "three"
agents = ["{model}", "random", "immediate-win"]
games = 2
format = "swiss"
rounds = 2
""")
    root = tmp_path / "results"
    status, output = arena("run", str(experiment), "-j", "1", "-q", "--out", str(root))
    assert status == 0, output
    served = server.model.counts
    moves = [load_model_moves(run) for run in (root / "model-vs-random",
                                               *sorted((root / "three").glob("round-*")))]
    assert sum(int(table["requests"].sum()) for table in moves) == served["chat"] > 0
    assert len(moves) == 3 and all(len(table) for table in moves)  # the match and two rounds
    games = sum(table["game"].nunique() for table in moves)
    page = (root / "report.md").read_text()
    section = page.partition("## Language models")[2].partition("## Entries")[0]
    [row] = [line for line in section.splitlines() if line.startswith("| fake-model |")]
    cost = (2 * served["prompt_tokens"] + 10 * served["completion_tokens"]) / 1e6
    assert row.startswith(f"| fake-model | {games} | {sum(map(len, moves))} | 0.0% ")
    assert f"${cost:.4g} " in row
    assert "Language models" in (root / "report.html").read_text()
