"""The agent thinks in a child process, so that a long search never freezes the window.

A thread would not do: the numba search kernels and pure-Python agents hold the GIL for the
whole search. The child (a new Python running ``serve``) builds the agent from its spec
string and answers one position at a time over its standard input and output (pickled
messages; whatever the agent prints goes to standard error). A question the window no
longer wants (the person took moves back, started a new game or closed the window) is
abandoned by ending the child; a fresh one is started for the next question.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from arena.board import Position
from arena.hosting.base import describe
from arena.outcome import Termination
from arena.session import AgentReply, ask_agent, tell_new_game

STOP_SECONDS = 2.0  # how long a child asked to stop may take before it is killed
EXITED = "exited"  # put on the reply queue when the child's output ends
CHILD_PROGRAM = "from arena.gui.thinker import serve; serve()"


@dataclass(frozen=True)
class Question:
    """What the child is asked: the position, the agent's player and the session's epoch
    (a new epoch tells the agent that a new game began)."""

    position: Position
    player: int
    epoch: int


class AgentProcess:
    """An agent, built from ``spec`` in a child process, asked one position at a time.

    ``ask`` returns at once; ``poll`` gives the reply once it has come. The child starts on
    the first question; ``seed`` seeds the agent's generator (a replacement child, after an
    abandoned question, gets a seed spawned from it).
    """

    def __init__(self, spec: str, seed: np.random.SeedSequence):
        self.spec = spec
        self.seed = seed
        self._starts = 0  # children started so far
        self._process: subprocess.Popen[bytes] | None = None
        self._replies: queue.Queue[Any] = queue.Queue()
        self._waiting = False

    @property
    def thinking(self) -> bool:
        """True while a question is unanswered."""
        return self._waiting

    def ask(self, question: Question) -> None:
        """Send ``question`` to the child (started if needed); the reply comes by ``poll``."""
        self.cancel()
        self._waiting = True
        try:
            if self._process is None:
                self._start()
            self._send(question)
        except OSError:  # the child is gone: poll reports it
            self._replies.put(EXITED)

    def poll(self) -> AgentReply | None:
        """The reply to the question asked, once it has come; else None."""
        if not self._waiting:
            return None
        try:
            reply = self._replies.get_nowait()
        except queue.Empty:
            return None
        self._waiting = False
        if isinstance(reply, AgentReply):
            return reply
        code = self._discard()
        return AgentReply(None, Termination.AGENT_ERROR,
                          f"the agent's process ended without answering (exit code {code})")

    def cancel(self) -> None:
        """Abandon the question being thought about: the child that thinks is ended."""
        if self._waiting:
            self._discard()

    def close(self) -> None:
        """End the child: asked to stop when idle, ended at once when it thinks."""
        process = self._process
        if process is None:
            return
        if not self._waiting and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()  # end of input: the child returns
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(STOP_SECONDS)
        self._discard()

    def _start(self) -> None:
        seed = self.seed if not self._starts else self.seed.spawn(1)[0]
        self._starts += 1
        self._process = subprocess.Popen(
            [sys.executable, "-c", CHILD_PROGRAM], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, start_new_session=True)
        self._replies = queue.Queue()
        threading.Thread(target=_read_replies, args=(self._process.stdout, self._replies),
                         daemon=True, name="arena agent replies").start()
        self._send((self.spec, seed, list(sys.path)))

    def _send(self, message: object) -> None:
        assert self._process is not None and self._process.stdin is not None
        pickle.dump(message, self._process.stdin)
        self._process.stdin.flush()

    def _discard(self) -> int | None:
        """End the child whatever it is doing and forget it; its exit code."""
        process, self._process = self._process, None
        self._waiting = False
        if process is None:
            return None
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return process.returncode


def _read_replies(stream: IO[bytes], replies: queue.Queue[Any]) -> None:
    """The parent's reader thread: every reply of one child, then EXITED."""
    while True:
        try:
            replies.put(pickle.load(stream))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):
            replies.put(EXITED)
            return


def serve() -> None:
    """The child: build the agent, then answer questions until its input ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the window's to handle
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what the agent prints goes to standard error, never into the replies
    questions = sys.stdin.buffer

    def send(reply: AgentReply) -> None:
        pickle.dump(reply, replies)
        replies.flush()

    spec, seed, path = pickle.load(questions)
    sys.path[:] = path
    from arena.registry import make_agent

    try:
        agent = make_agent(spec)
    except Exception as error:  # noqa: BLE001 - reported as the agent's forfeit
        send(AgentReply(None, Termination.AGENT_ERROR, f"building {spec}: {describe(error)}"))
        return
    rng = np.random.default_rng(seed)
    told_epoch = None
    while True:
        try:
            question = pickle.load(questions)
        except EOFError:
            return
        reply = None
        if question.epoch != told_epoch:
            told_epoch = question.epoch
            reply = tell_new_game(agent, question.position.rules, question.player)
        send(reply or ask_agent(agent, question.position, rng))
