"""AgentProcess: the agent thinks in a child process that can be abandoned at any moment."""

from __future__ import annotations

import subprocess
import time

import numpy as np

from arena.play.human_game import AgentReply
from arena.play.thinker import AgentProcess, Question
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.rules.results import Termination
from tests.helpers.paths import DATA

AGENTS = DATA / "play_agents.py"


def wait_for_reply(thinker: AgentProcess) -> AgentReply:
    deadline = time.monotonic() + 60
    while (reply := thinker.poll()) is None:
        assert time.monotonic() < deadline, "no reply"
        time.sleep(0.01)
    return reply


def test_the_child_answers_with_a_legal_column_and_stops_when_closed() -> None:
    thinker = AgentProcess("random", np.random.SeedSequence(1))
    position = from_moves("444444")
    thinker.ask(Question(position, 1, epoch=1))
    assert thinker.thinking
    reply = wait_for_reply(thinker)
    assert reply.column is not None and reply.column != 3 and not thinker.thinking
    process = thinker.host._child.process
    thinker.close()
    assert process is not None and process.returncode == 0  # asked to stop, it returned


def test_same_seed_same_answers_as_in_this_process() -> None:
    answers = []
    for _ in range(2):
        thinker = AgentProcess("random", np.random.SeedSequence(11))
        for moves in ("", "1", "12"):
            thinker.ask(Question(from_moves(moves), 1 + len(moves) % 2, epoch=1))
            answers.append(wait_for_reply(thinker).column)
        thinker.close()
    rng = np.random.default_rng(np.random.SeedSequence(11))
    local = [int(rng.random() * 7) for _ in range(3)]  # what RandomAgent draws
    assert answers == local * 2


def test_a_crash_is_the_agents_forfeit() -> None:
    thinker = AgentProcess(f"{AGENTS}:Crasher", np.random.SeedSequence(1))
    thinker.ask(Question(from_moves(""), 1, epoch=1))
    assert wait_for_reply(thinker) == AgentReply(None, Termination.AGENT_ERROR,
                                                 "RuntimeError: boom")
    thinker.close()


def test_an_agent_that_cannot_be_built_forfeits() -> None:
    thinker = AgentProcess(f"{AGENTS}:Missing", np.random.SeedSequence(1))
    thinker.ask(Question(from_moves(""), 1, epoch=1))
    reply = wait_for_reply(thinker)
    assert reply.column is None and reply.termination == Termination.AGENT_ERROR
    assert "has no 'Missing'" in reply.error
    thinker.close()


def test_what_the_agent_prints_does_not_garble_its_answers() -> None:
    thinker = AgentProcess(f"{AGENTS}:Chatty", np.random.SeedSequence(1))
    for moves in ("", "7"):
        thinker.ask(Question(from_moves(moves), 1 + len(moves) % 2, epoch=1))
        assert wait_for_reply(thinker) == AgentReply(6)
    thinker.close()


def test_cancel_ends_a_long_thought_and_the_next_question_gets_a_new_child() -> None:
    thinker = AgentProcess(f"{AGENTS}:Sleeper:seconds=60", np.random.SeedSequence(1))
    thinker.ask(Question(from_moves("", Rules()), 1, epoch=1))
    first = started(thinker)
    thinker.cancel()
    assert first.poll() is not None and not thinker.thinking
    assert thinker.poll() is None
    thinker.ask(Question(from_moves(""), 1, epoch=2))
    assert started(thinker) is not first
    thinker.close()


def started(thinker: AgentProcess) -> subprocess.Popen[bytes]:
    """The agent's process, once the thinking thread has started it."""
    deadline = time.monotonic() + 60
    while (process := thinker.host._child.process) is None:
        assert time.monotonic() < deadline, "no process"
        time.sleep(0.01)
    return process
