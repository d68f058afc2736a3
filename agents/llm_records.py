"""The answers an ``llm:`` agent paid for, kept in the run directory
(``RunFiles.llm_answers``, a file a game) to replay when a run is resumed
(``ResponseCache``); each game's transcript is the store's (``arena.runs.store.transcripts``).

An answer is kept under a digest of its request (the model, the messages and the sampling
parameters, as canonical JSON) together with the game's number and how many times the same
request was answered before in that game: a resumed game asks the same questions in the same
order and gets the same answers back without asking the server, while two games that happen
to ask the same question still get an answer each, as they would from the model. Each answer
is one JSON line appended in one write, so the two agents of a game may share the file, and a
run killed mid-write leaves at most a torn last line, which is never read as an answer. The
key is never part of what is kept.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from arena.runs.store.transcripts import canonical
from arena.system.files import AppendOnly


class ResponseCache:
    """The answers of one game kept in ``path``, read when the game starts; with
    ``ask_again`` none is read back, each new answer appended after the kept ones (when two
    answer one request, the later is read)."""

    def __init__(self, path: Path, game: int, ask_again: bool = False):
        self.path = path
        self.game = game
        self._answered: Counter[str] = Counter()
        self._kept = {} if ask_again else read_answers(path)
        self._file = AppendOnly(path)

    def _key(self, text: str) -> str:
        """The name of the next answer to the request ``text`` (canonical) in this game."""
        return hashlib.sha256(canonical(
            {"request": text, "game": self.game, "seen": self._answered[text]}).encode()
        ).hexdigest()

    def get(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer kept for ``request`` (counted as answered), or None."""
        text = canonical(request)
        entry = self._kept.get(self._key(text))
        if entry is not None:
            self._answered[text] += 1
        return entry

    def put(self, request: dict[str, Any], entry: dict[str, Any]) -> None:
        """Keep ``entry`` (its ``answer`` and what it cost) as the next answer to
        ``request``."""
        text = canonical(request)
        line = canonical({"key": self._key(text), "request": request, **entry}) + "\n"
        self._file.write(line.encode())
        self._answered[text] += 1

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def read_answers(path: Path) -> dict[str, dict[str, Any]]:
    """The answers kept in ``path`` by key (the later of two with one key), none if there is
    no such file; a torn or damaged line is left out."""
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return {}
    kept = {}
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("key"), str) \
                and isinstance(entry.get("answer"), str):
            kept[entry["key"]] = entry
    return kept
