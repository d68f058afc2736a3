"""A local server speaking the OpenAI Chat Completions API, for the ``llm:`` agent's tests and
for trying ``llm:`` without a paid model (``python -m tests.helpers.llm_server --help``).

Its "model" reads the position from the prompt (the board's rows or the move list, as
the llm agent's prompts write them, on the board the system prompt names) and answers with a
built-in agent's move in words. Faults are scripted: each chat request takes the next fault
of ``faults`` (none once they run out), one of

- ``slow``: the answer after ``slow_seconds``;
- ``429`` and ``500``: an error status (with ``Retry-After: 0``);
- ``drop``: the connection closed without an answer;
- ``malformed``: a 200 response whose body is not JSON;
- ``illegal``: ``Move: N`` with N a full column (or one off the board);
- ``unparseable``: words without a column;
- ``prose``: the move wrapped in reasoning with other numbers in it.

``counts`` tells what was served, by kind (``chat``, ``models``, each fault) and the tokens
its answers reported (``prompt_tokens``, ``completion_tokens``); ``keys`` the
API keys the requests carried; ``bodies`` each chat request's body, in order, and ``times``
when it came (``time.monotonic``); ``served`` each answer given, with the request it answered
(its body as JSON); ``ports`` the client's port of each request, with its kind (``models``,
``chat``). With ``tagged``, every answer ends with ``(reply N)``, N counting the answers, so
that no two answers are alike.

``web_server`` is what a mistaken ``base_url`` may name instead: a plain web server, whose
answers are HTML pages.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

from arena.protocol.agent import Agent, as_choice
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError
from arena.rules.notation import from_array, play_moves

FAULTS = ("slow", "429", "500", "drop", "malformed", "illegal", "unparseable", "prose")
RETRIED = frozenset({"429", "500", "drop", "malformed"})
"""Faults the agent asks again for, not counted as invalid answers."""
INVALID = frozenset({"illegal", "unparseable"})
"""Faults that are invalid answers."""


@dataclass
class FakeModel:
    """What the server plays and the faults it serves."""

    agent: str = "immediate-win"
    model: str = "fake-model"
    faults: deque[str] = field(default_factory=deque)
    slow_seconds: float = 0.5
    delay: float = 0.0
    key: str | None = None
    counts: Counter[str] = field(default_factory=Counter)
    keys: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    served: list[tuple[Any, str]] = field(default_factory=list)
    ports: list[tuple[str, int]] = field(default_factory=list)
    tagged: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    _player: Agent | None = None

    def next_fault(self) -> str:
        """The fault the next chat request gets ("" for none)."""
        with self.lock:
            self.times.append(time.monotonic())
            self.counts["chat"] += 1
            fault = self.faults.popleft() if self.faults else ""
            if fault:
                self.counts[fault] += 1
            return fault

    def move(self, messages: list[dict[str, Any]]) -> tuple[Position, int]:
        """The position the conversation asks about and the agent's column in it."""
        system = next(m["content"] for m in messages if m["role"] == "system")
        user = next(m["content"] for m in messages if m["role"] == "user")
        position = read_position(system, user)
        rng = np.random.default_rng([position.current, position.mask])
        with self.lock:
            if self._player is None:
                self._player = make_agent(self.agent)
            return position, as_choice(self._player.choose(position, rng)).column


def read_position(system: str, user: str) -> Position:
    """The position a prompt describes, read as a model would."""
    size = re.search(r"(\d+) columns and (\d+) rows", system)
    connect = re.search(r"gets (\d+) of their", system)
    assert size and connect, system
    cols, rows = int(size[1]), int(size[2])
    rules = Rules(rows=rows, cols=cols, connect=int(connect[1]))
    moves = re.search(r"moves so far[^:]*: ([^.]*)\.", user)
    if moves:
        played = [] if moves[1] == "none yet" else [int(c) - 1 for c in moves[1].split(",")]
        return play_moves(Position.empty(rules), played)
    lines = [line.split() for line in user.splitlines()]
    grid = [line for line in lines if line and all(cell in "XO." for cell in line)]
    board = [[{"X": 1, "O": 2, ".": 0}[cell] for cell in line] for line in reversed(grid)]
    return from_array(board, connect=rules.connect)


def answer_text(fault: str, position: Position, column: int) -> str:
    """The model's answer: its column in words, or the fault's."""
    if fault == "unparseable":
        return "I would rather not commit to anything yet."
    if fault == "illegal":
        full = [c for c in range(position.rules.cols) if not position.can_play(c)]
        return f"Move: {(full[0] if full else position.rules.cols) + 1}"
    if fault == "prose":
        return (f"<think>Columns 1 and {position.rules.cols} look weak; maybe 2 or 3.</think>"
                f"\nThere are {len(position.legal_moves())} legal columns. After weighing "
                f"them, I will play column {column + 1}.\nMove: {column + 1}")
    return f"Move: {column + 1}"


class Handler(BaseHTTPRequestHandler):
    """One request of the Chat Completions API (``/v1/chat/completions``, ``/v1/models``)."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def _key(self) -> bool:
        model = self.server.model
        given = self.headers.get("Authorization", "").removeprefix("Bearer ")
        with model.lock:
            model.keys.append(given)
        if model.key is not None and given != model.key:
            self._send(401, {"error": {"message": "Incorrect API key provided: "
                                                  f"{given[:3]}...{given[-4:]}",
                                       "type": "invalid_request_error"}})
            return False
        return True

    def do_GET(self) -> None:
        """The list of models."""
        if not self._key():
            return
        with self.server.model.lock:
            self.server.model.counts["models"] += 1
            self.server.model.ports.append(("models", self.client_address[1]))
        self._send(200, {"object": "list", "data": [
            {"id": self.server.model.model, "object": "model", "created": 0,
             "owned_by": "tests"}]})

    def do_POST(self) -> None:
        """A chat completion, or its fault."""
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not self._key():
            return
        model = self.server.model
        with model.lock:
            model.bodies.append(body.decode())
            model.ports.append(("chat", self.client_address[1]))
        fault = model.next_fault()
        if model.delay:
            time.sleep(model.delay)
        if fault == "slow":
            time.sleep(model.slow_seconds)
        if fault in ("429", "500"):
            self._send(int(fault), {"error": {"message": f"injected {fault}", "type": "fault"}},
                       {"Retry-After": "0"})
            return
        if fault == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if fault == "malformed":
            self._send_bytes(200, b'{"id": "x", "choices": [', "application/json")
            return
        request = json.loads(body)
        position, column = model.move(request["messages"])
        text = answer_text(fault, position, column)
        with model.lock:
            if model.tagged:
                text += f" (reply {len(model.served) + 1})"
            model.served.append((request, text))
            model.counts["prompt_tokens"] += len(body) // 4
            model.counts["completion_tokens"] += len(text) // 4
        self._send(200, {
            "id": f"chatcmpl-{model.counts['chat']}", "object": "chat.completion",
            "created": int(time.time()), "model": request["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": len(text) // 4,
                      "total_tokens": len(body) // 4 + len(text) // 4}})

    def _send(self, status: int, payload: object, headers: dict[str, str] | None = None
              ) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def _send_bytes(self, status: int, data: bytes, kind: str,
                    headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    """The fake server, with its model."""

    daemon_threads = True

    def __init__(self, model: FakeModel, port: int = 0):
        super().__init__(("127.0.0.1", port), Handler)
        self.model = model

    @property
    def url(self) -> str:
        """The API's base URL."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextmanager
def serving(model: FakeModel | None = None, port: int = 0) -> Iterator[Server]:
    """The fake server on 127.0.0.1 and ``port`` (0: a free one), in a thread, until the
    block ends."""
    server = Server(model or FakeModel(), port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class WebPage(SimpleHTTPRequestHandler):
    """A plain web server's answer: the file asked for, or its HTML error page."""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def web_server(folder: Path) -> Iterator[str]:
    """A plain web server (no API: HTML pages) serving the files of ``folder`` on 127.0.0.1,
    in a thread, until the block ends: its address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(WebPage, directory=str(folder)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


ENTRY_POINT = "llm = connect_four_agents.llm:llm_spec"


def register_llm_kind(folder: Path) -> str | None:
    """Make the ``llm`` spec kind known in this process and its children when the installed
    arena predates it (a checkout run with PYTHONPATH): a distribution's metadata declaring
    it, written in ``folder``; the folder to put on PYTHONPATH, or None when not needed."""
    from arena.protocol.registry import installed_entry_points, spec_kinds

    if "llm" in spec_kinds():
        return None
    info = folder / "arena_llm_kind-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-llm-kind\nVersion: 0\n")
    (info / "entry_points.txt").write_text(
        f"[connect_four_arena.spec_kinds]\n{ENTRY_POINT}\n")
    sys.path.append(str(folder))
    installed_entry_points.cache_clear()  # read again, with the folder
    spec_kinds.cache_clear()
    return str(folder)


def main(argv: list[str] | None = None) -> None:
    """``python -m tests.helpers.llm_server [--port N] [--plays SPEC] ...``: serve until
    Ctrl-C, printing the API's base URL first and what was served last."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.helpers.llm_server",
        description="A fake OpenAI-compatible server on 127.0.0.1 whose model answers with a "
                    "built-in agent's move in words (no key needed: key_env=none).")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port (default: "
                        "%(default)s)")
    parser.add_argument("--plays", default=FakeModel.agent, metavar="SPEC",
                        help="the agent whose moves the model answers (default: %(default)s)")
    parser.add_argument("--model", default=FakeModel.model,
                        help="the model's name (default: %(default)s)")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S",
                        help="seconds before each answer, as a real model takes")
    parser.add_argument("--faults", default="", metavar="F,F,...",
                        help=f"faults served to the first requests, in order: "
                             f"{', '.join(FAULTS)}")
    parser.add_argument("--key", default=None, help="the only API key accepted (default: any)")
    args = parser.parse_args(argv)
    faults = [fault for fault in args.faults.split(",") if fault]
    if unknown := sorted(set(faults) - set(FAULTS)):
        parser.error(f"unknown faults {', '.join(unknown)}; expected some of {', '.join(FAULTS)}")
    try:
        make_agent(args.plays)  # a bad spec is refused now, not at the first request
    except AgentSpecError as error:
        parser.error(str(error))
    model = FakeModel(agent=args.plays, model=args.model, faults=deque(faults),
                      delay=args.delay, key=args.key)
    try:
        with serving(model, args.port) as server:
            print(f"{server.url}\nmodel {args.model!r} answering as {args.plays}; Ctrl-C "
                  "stops", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                print(f"served: {dict(model.counts)}")
    except OSError as error:
        parser.error(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}")

if __name__ == "__main__":
    main()
