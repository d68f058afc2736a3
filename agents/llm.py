"""Language models as agents: ``llm:MODEL``, through any server that speaks the OpenAI Chat
Completions API (OpenAI, vLLM, llama.cpp's server, Ollama, LM Studio), with the official
``openai`` client (the ``llm`` extra).

Each move is one conversation: a system prompt with the rules, the side played, the legal
columns and the answer format, then the position as the board's rows or the game's moves
(``llm_prompts``, versioned). An answer that names no legal column is asked again
with the reason, up to ``retries`` times; then ``on_invalid`` decides: ``forfeit`` (the game
is lost, recorded as ``disqualified``: ``InvalidAnswers``) or ``random`` (a random legal
column). Rate limits (HTTP 429), server errors (5xx), dropped
connections and unreadable responses are asked again after a pause that doubles each time,
at most ``http_retries`` times, and are not invalid answers.

The API key is read from the environment variable ``key_env`` (``OPENAI_API_KEY`` by
default; ``none`` for a local server that wants none). It is never part of the spec, and
every message the agent writes or raises has it blanked out.

Each move prints one line of JSON (``llm-move {...}``) that the run keeps in agents.log: the
ply, the column, the requests made, the answers replayed from the cache, the invalid answers
and their reasons, the requests asked again and why, the tokens, the seconds and, with
``price=IN/OUT`` (dollars per million prompt and completion tokens), the cost.

In a run, every answer is kept in the run directory (``llm_records``): a resumed run
replays the answers of its earlier sessions instead of asking again (unless the run's
``--no-cache``), and each game's prompts, answers and moves are written beside games.csv
(``llm/game-NNNNNN.jsonl.gz``, ``arena.runs.store.transcripts``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from arena.protocol.agent import BaseAgent, Choice, Disqualified, GameStart
from arena.protocol.registry import AgentSpec, SpecKind, model_and_values, version_of
from arena.rules.board import Position
from arena.rules.errors import IllegalMoveError
from arena.runs.store.files import RunFiles
from arena.runs.store.model_usage import MOVE_LINE
from arena.runs.store.transcripts import MOVE, REQUEST, Transcript
from arena.system.install import needs_extra

from .llm_pacing import FilePacer, Pacer, pacer, run_pacer
from .llm_prompts import (
    PROMPT_VERSION,
    PromptKind,
    read_answer,
    retry_prompt,
    system_prompt,
    user_prompt,
)
from .llm_records import ResponseCache

PREFIX = "llm"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
NO_KEY = "none"
"""``key_env=none``: the server wants no key (a placeholder is sent)."""
PLACEHOLDER_KEY = "no-key"
MAX_BACKOFF = 30.0
"""The longest pause before asking again, in seconds."""
SHOWN_ANSWER = 300
"""Characters of an invalid answer kept in the move's line."""


class InvalidAnswers(Disqualified):
    """The model named no legal column in all its answers to one move (``on_invalid=forfeit``):
    the game is lost as ``disqualified``."""


class ServerFailure(Exception):
    """The server could not be asked: refused, unreachable, or failing after every retry."""


@dataclass
class MoveLog:
    """What one move cost: requests, invalid answers, requests asked again, tokens, time."""

    ply: int
    column: int | None = None
    requests: int = 0
    cached: int = 0
    invalid: list[str] = field(default_factory=list)
    retried: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    fallback: str = ""
    cost: float | None = None

    def line(self) -> str:
        """The move as one line of JSON after ``MOVE_LINE``."""
        return MOVE_LINE + json.dumps(vars(self), separators=(",", ":"))


class LlmAgent(BaseAgent):
    """A language model behind an OpenAI-compatible API, asked for each move in words
    (``prompt``: the board's rows or the move list); answers that name no legal column are
    asked again ``retries`` times, then forfeit or play at random (``on_invalid``)."""

    reproducible = False
    unlabelled = ("base_url", "key_env", "timeout", "http_retries", "backoff", "rpm", "price")

    def __init__(self, model: str, base_url: str = "", prompt: PromptKind = "board",
                 temperature: float = 0.0, max_tokens: int = 512, retries: int = 2,
                 on_invalid: Literal["forfeit", "random"] = "forfeit",
                 key_env: str = DEFAULT_KEY_ENV, timeout: float = 60.0,
                 http_retries: int = 6, backoff: float = 1.0, rpm: float = 0.0,
                 price: str = ""):
        for name, value, low in (("max_tokens", max_tokens, 1), ("retries", retries, 0),
                                 ("http_retries", http_retries, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
        for name, number in (("timeout", timeout), ("backoff", backoff)):
            if not 0 <= number < float("inf") or (name == "timeout" and number == 0):
                raise ValueError(f"{name} must be a number of seconds > 0, got {number!r}")
        if not 0 <= rpm < float("inf"):
            raise ValueError(f"rpm must be a number of requests a minute >= 0 (0: no limit), "
                             f"got {rpm!r}")
        if not 0 <= temperature <= 2:
            raise ValueError(f"temperature must be from 0 to 2, got {temperature!r}")
        self._price = parse_price(price) if price else None
        self.model = model
        self.base_url = base_url or None
        self.prompt: PromptKind = prompt
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.retries = retries
        self.on_invalid = on_invalid
        self.timeout = timeout
        self.http_retries = http_retries
        self.backoff = backoff
        self._key = api_key(key_env)
        self._client = self._make_client()
        self._client_pid = os.getpid()
        self._timeout = timeout
        self.rpm = rpm
        self._pacer: Pacer | FilePacer | None = pacer(self.where, model, rpm) if rpm else None
        self._moves: list[int] = []
        self._seen = 0  # the mask after this agent's last move (or the opening)
        self._cache: ResponseCache | None = None
        self._transcript: Transcript | None = None
        self.check_server()

    def _make_client(self) -> Any:
        try:
            import openai
        except ImportError:
            raise ValueError(needs_extra("llm agents need the openai client", "llm")
                             ) from None
        return openai.OpenAI(api_key=self._key, base_url=self.base_url, timeout=self.timeout,
                             max_retries=0,
                             http_client=openai.DefaultHttpxClient(verify=ssl_context()))

    @property
    def client(self) -> Any:
        """This process's client: made anew in a process forked after it was made, whose
        copy of the parent's connections is left untouched (two processes reading one
        connection take each other's answers)."""
        if self._client_pid != os.getpid():
            self._client, self._client_pid = self._make_client(), os.getpid()
        return self._client

    @property
    def where(self) -> str:
        """The server's address as told to users."""
        return str(self._client.base_url).rstrip("/")

    def redact(self, text: str) -> str:
        """``text`` with the API key blanked out."""
        return text.replace(self._key, "***") if self._key != PLACEHOLDER_KEY else text

    def check_server(self) -> None:
        """ValueError, before any game, when the server cannot be reached, refuses the key,
        answers as no OpenAI-compatible API would (a plain web server: HTML, not JSON), or
        lists its models and not this one."""
        import httpx
        import openai

        try:
            response = self.client.get("/models", cast_to=httpx.Response)
        except openai.AuthenticationError as error:
            raise ValueError(f"{self.where} refused the API key (HTTP {error.status_code})"
                             ) from None
        except openai.APIConnectionError as error:
            raise ValueError(f"cannot reach {self.where}: {self._cause(error)}") from None
        except openai.APIStatusError as error:
            if json_body(error.response) is None:
                raise ValueError(self._not_an_api(error.response)) from None
            return  # an API without a list of models: the first move will tell
        listed = model_ids(json_body(response))
        if listed is None:
            raise ValueError(self._not_an_api(response))
        if listed and self.model not in listed and f"{self.model}:latest" not in listed:
            shown = ", ".join(listed[:10]) + (", ..." if len(listed) > 10 else "")
            raise ValueError(f"{self.where} has no model {self.model!r}; it has {shown}")

    def _not_an_api(self, response: Any) -> str:
        """Why a server whose list of models came back as ``response`` is no
        OpenAI-compatible API."""
        kind = response.headers.get("content-type", "").partition(";")[0] or "no content type"
        return (f"{self.where} answers as no OpenAI-compatible API: GET {self.where}/models "
                f"gave HTTP {response.status_code} ({kind}), not a list of models in JSON "
                f"(base_url is the API's address, often ending in /v1)")

    def new_game(self, game: GameStart) -> None:
        """Remember the game and its opening, and use its time per move as the requests'
        timeout."""
        super().new_game(game)
        self._moves = list(game.opening)
        start = Position.empty(game.rules)
        for column in game.opening:
            start = start.play(column)
        self._seen = start.mask
        self._timeout = self.timeout if game.limit.time is None else game.limit.time
        self._close_files()
        if game.run_dir is not None and game.game is not None:
            files = RunFiles(Path(game.run_dir))
            self._cache = ResponseCache(files.llm_answers(game.game), game.game, game.no_cache)
            self._transcript = Transcript(files.llm_transcript(game.game))
            self._transcript.start(game.player)
            if self.rpm:
                self._pacer = run_pacer(files, self.where, self.model, self.rpm)

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """Ask the model; re-ask with the reason after an invalid answer."""
        if position.is_terminal:
            raise IllegalMoveError(f"llm: the game is already over in {position.describe()}")
        self._follow(position)
        player = position.side_to_move
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system_prompt(position, player)},
            {"role": "user", "content": user_prompt(self.prompt, position, self._moves)},
        ]
        log = MoveLog(ply=position.plies + 1)
        started = time.perf_counter()
        try:
            for _ in range(self.retries + 1):
                answer = self._ask(messages, log)
                reading = read_answer(answer, position)
                if reading.column is not None:
                    log.column = reading.column
                    break
                log.invalid.append(f"{reading.reason} Answer: {answer[:SHOWN_ANSWER]!r}")
                messages += [{"role": "assistant", "content": answer},
                             {"role": "user", "content": retry_prompt(reading.reason, position)}]
            else:
                if self.on_invalid == "forfeit":
                    raise InvalidAnswers(
                        f"no legal column in {len(log.invalid)} answers to move {log.ply} "
                        f"(the last: {log.invalid[-1]})")
                log.fallback = "random"
                log.column = int(rng.choice(position.legal_moves()))
        finally:
            log.seconds = round(time.perf_counter() - started, 4)
            log.cost = self._cost(log)
            print(self.redact(log.line()), flush=True)
            self._record(MOVE, {**vars(log), "invalid": [self.redact(why) for why in
                                                           log.invalid]})
        self._moves.append(log.column)
        self._seen = position.play(log.column).mask
        return Choice(log.column)

    def _follow(self, position: Position) -> None:
        """Bring the move list up to ``position``: the opponent's move since this agent's
        (or, when the position is not the one expected, one move list that reaches it)."""
        new = position.mask & ~self._seen
        if position.plies == len(self._moves) and not new:
            return
        height = position.rules.rows + 1
        column_bits = (1 << height) - 1
        columns = [c for c in range(position.rules.cols) if new >> (c * height) & column_bits]
        if len(columns) == 1 and position.plies == len(self._moves) + 1:
            self._moves.append(columns[0])
            return
        from arena.rules.notation import parse_moves, to_moves

        self._moves = parse_moves(to_moves(position), position.rules)

    def _ask(self, messages: list[dict[str, str]], log: MoveLog) -> str:
        """One answer of the model, asking again after transient failures (not invalid
        answers: they are the caller's); ServerFailure when it cannot be had."""
        import httpx
        import openai

        request = {"model": self.model, "messages": messages, "temperature": self.temperature,
                   "max_tokens": self.max_tokens}
        kept = self._cache.get(request) if self._cache is not None else None
        if kept is not None:
            log.cached += 1
            log.prompt_tokens += int(kept.get("prompt_tokens", 0))
            log.completion_tokens += int(kept.get("completion_tokens", 0))
            self._keep(request, kept, log, cached=True)
            return str(kept["answer"])
        for attempt in range(self.http_retries + 1):
            log.requests += 1
            if self._pacer is not None:
                self._pacer.wait()
            try:
                response = self.client.post(  # the request as built, the answer as JSON:
                    "/chat/completions", body=request, cast_to=httpx.Response,  # no models
                    options={"timeout": self._timeout}).json()
                text = response["choices"][0]["message"]["content"]
                if not isinstance(text, str):
                    raise ValueError("the response has no message text")
                tokens = answer_tokens(response.get("usage"))
            except (openai.RateLimitError, openai.InternalServerError,
                    openai.APIConnectionError, openai.APIResponseValidationError,
                    ValueError, LookupError, AttributeError, TypeError) as error:
                why = self._transient(error)
                log.retried.append(why)
                if attempt == self.http_retries:
                    raise ServerFailure(f"{self.where} failed {attempt + 1} times; the last: "
                                        f"{why}") from None
                time.sleep(self._pause(attempt, error))
                continue
            except openai.APIStatusError as error:
                if error.status_code in (401, 403):  # its message may quote part of the key
                    raise ServerFailure(f"{self.where} refused the API key (HTTP "
                                        f"{error.status_code})") from None
                raise ServerFailure(f"{self.where} refused the request: HTTP "
                                    f"{error.status_code}: {self._message(error)}") from None
            log.prompt_tokens += tokens["prompt_tokens"]
            log.completion_tokens += tokens["completion_tokens"]
            entry = {"answer": text, **tokens}
            if self._cache is not None:
                self._cache.put(request, entry)
            self._keep(request, entry, log, cached=False)
            return text
        raise AssertionError("unreachable")

    def _keep(self, request: dict[str, Any], entry: dict[str, Any], log: MoveLog,
              cached: bool) -> None:
        """Add a prompt and its answer to the game's transcript."""
        self._record(REQUEST, {"ply": log.ply, "cached": cached, **request,
                               "answer": self.redact(entry["answer"]),
                               "prompt_tokens": entry.get("prompt_tokens", 0),
                               "completion_tokens": entry.get("completion_tokens", 0)})

    def _record(self, kind: str, fields: dict[str, Any]) -> None:
        """Add a record of ``kind`` to the game's transcript, if there is one."""
        if self._transcript is None:
            return
        player = self.game.player if self.game is not None else None
        self._transcript.add({"kind": kind, "player": player, **fields})

    def _cost(self, log: MoveLog) -> float | None:
        """What the move's tokens cost at ``price`` (None without a price)."""
        if self._price is None:
            return None
        per_prompt, per_completion = self._price
        return round((log.prompt_tokens * per_prompt
                      + log.completion_tokens * per_completion) / 1e6, 9)

    def _transient(self, error: BaseException) -> str:
        """A failure worth asking again for, in a few words."""
        import openai

        if isinstance(error, openai.APIStatusError):
            return f"HTTP {error.status_code}"
        if isinstance(error, openai.APITimeoutError):
            return "timeout"
        if isinstance(error, openai.APIConnectionError):
            return "connection: " + self._cause(error)
        return "unreadable response: " + self.redact(f"{type(error).__name__}: {error}")[:200]

    def _cause(self, error: BaseException) -> str:
        """What lies under a connection error, on one line, the key blanked out."""
        cause = error.__cause__ or error
        while cause.__cause__ is not None and not str(cause):
            cause = cause.__cause__
        return " ".join(self.redact(str(cause) or type(cause).__name__).split())[:200]

    def _pause(self, attempt: int, error: BaseException) -> float:
        """Seconds to wait before asking again: what the server's Retry-After says, else
        ``backoff`` doubled each time, at most MAX_BACKOFF."""
        response = getattr(error, "response", None)
        header = response.headers.get("retry-after") if response is not None else None
        try:
            asked = float(header) if header is not None else None
        except ValueError:
            asked = None
        pause = asked if asked is not None else self.backoff * 2 ** attempt
        return float(min(max(pause, 0.0), MAX_BACKOFF))

    def _message(self, error: Any) -> str:
        """The server's message of a refused request, on one line, the key blanked out."""
        body = getattr(error, "body", None)
        text = body.get("message") if isinstance(body, dict) else None
        return " ".join(self.redact(str(text or error)).split())[:300]

    def _close_files(self) -> None:
        """Close the last game's cache and transcript."""
        for kept in (self._cache, self._transcript):
            if kept is not None:
                kept.close()
        self._cache = self._transcript = None

    def close(self) -> None:
        """Close the client's connections and the last game's files."""
        self._close_files()
        if self._client_pid == os.getpid():  # a forked copy's connections are its parent's
            self._client.close()


@cache
def ssl_context() -> Any:
    """The certificates every client of this process trusts, loaded once (~40 ms each)."""
    import httpx

    return httpx.create_ssl_context()


def json_body(response: Any) -> Any:
    """The JSON an HTTP response holds, None when it holds none (a web page, garbage)."""
    try:
        return response.json()
    except ValueError:
        return None


def model_ids(body: Any) -> list[str] | None:
    """The models a ``GET /models`` body lists (``{"data": [{"id": ...}, ...]}``), None when
    it is no such list."""
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str)
                                             for m in data):
        return None
    return [model["id"] for model in data]


def answer_tokens(usage: object) -> dict[str, int]:
    """The prompt and completion tokens a response's ``usage`` reports (0 where it is
    silent)."""
    counts = usage if isinstance(usage, dict) else {}
    return {name: int(counts.get(name) or 0) for name in ("prompt_tokens", "completion_tokens")}


def parse_price(text: str) -> tuple[float, float]:
    """``IN/OUT``: dollars per million prompt and completion tokens (one number: both)."""
    parts = text.split("/")
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        numbers = []
    if len(numbers) not in (1, 2) or not all(0 <= n < float("inf") for n in numbers):
        raise ValueError(f"price must be IN/OUT, dollars per million prompt and completion "
                         f"tokens (e.g. price=0.15/0.6), got {text!r}")
    return numbers[0], numbers[-1]


def api_key(variable: str) -> str:
    """The API key in the environment variable ``variable`` (``none``: no key)."""
    if variable.lower() == NO_KEY:
        return PLACEHOLDER_KEY
    if not variable.strip():
        raise ValueError("key_env is empty: give key_env=NAME, the environment variable that "
                         "holds the API key, or key_env=none for a server that needs none")
    key = os.environ.get(variable)
    if not key:
        raise ValueError(f"the environment variable {variable} holds no API key (set it, or "
                         f"give key_env=NAME, or key_env=none for a server that needs none)")
    return key


class LlmSpec(AgentSpec):
    """A parsed ``llm:`` spec (``llm:MODEL,prompt=moves``): identified by the arena's
    version and the prompts' (``PROMPT_VERSION``)."""

    separator = ","

    def fingerprint(self) -> str:
        """The arena's version and the prompts' version."""
        return f"connect-four-arena {version_of('connect-four-arena')}, {PROMPT_VERSION}"


def parse_llm(text: str, engines: object = None) -> AgentSpec:
    """Parse ``llm:MODEL[,key=value,...]``; the server is asked when the agent is built."""
    params = llm_spec.params()
    values = model_and_values(text, params, "llm:MODEL[,key=value,...], e.g. "
                                            "llm:gpt-4o-mini,prompt=moves")
    return LlmSpec(text, f"{PREFIX}:{values['model']}", TARGET, values, params)


TARGET = f"{__name__}:LlmAgent"
llm_spec = SpecKind(
    (f"{PREFIX}:MODEL[,key=value,...]",),
    "A language model behind an OpenAI-compatible Chat Completions API (the llm extra), "
    "asked for each move in words; the key from $OPENAI_API_KEY or key_env=NAME.",
    parse_llm, TARGET, inline=True)
"""The registry's ``llm`` kind: its agents play inline (they wait on the network; the
``--concurrency`` threads of a process share it)."""
