"""The answers an ``llm:`` agent paid for, kept in the run directory (``RunFiles.llm_cache``)
to replay when a run is resumed (``ResponseCache``); each game's transcript is the store's
(``arena.runs.store.transcripts``).

An answer is kept under a digest of its request (the model, the messages and the sampling
parameters, as canonical JSON) together with the game's number and how many times the same
request was answered before in that game: a resumed game asks the same questions in the same
order and gets the same answers back without asking the server, while two games that happen
to ask the same question still get an answer each, as they would from the model. Each answer
is one small file written at once, so processes playing games side by side, or a run killed
mid-write, never leave a torn entry. The key is never part of what is kept.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from arena.runs.store.transcripts import canonical
from arena.system.files import write_atomically


class ResponseCache:
    """The answers of one game kept in ``folder`` (one file per answer); with ``ask_again``
    none is read back, each new answer replacing the one kept."""

    def __init__(self, folder: Path, game: int, ask_again: bool = False):
        self.folder = folder
        self.game = game
        self.ask_again = ask_again
        self._answered: Counter[str] = Counter()

    def key(self, request: dict[str, Any]) -> str:
        """The name of the next answer to ``request`` in this game."""
        text = canonical(request)
        seen = self._answered[text]
        return hashlib.sha256(canonical(
            {"request": text, "game": self.game, "seen": seen}).encode()).hexdigest()

    def path(self, key: str) -> Path:
        """Where the answer named ``key`` is kept."""
        return self.folder / key[:2] / f"{key}.json"

    def get(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer kept for ``request`` (counted as answered), or None."""
        if self.ask_again:
            return None
        try:
            entry = json.loads(self.path(self.key(request)).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or not isinstance(entry.get("answer"), str):
            return None
        self._answered[canonical(request)] += 1
        return entry

    def put(self, request: dict[str, Any], entry: dict[str, Any]) -> None:
        """Keep ``entry`` (its ``answer`` and what it cost) as the next answer to
        ``request``."""
        path = self.path(self.key(request))
        text = canonical({"request": request, **entry})
        try:
            write_atomically(path, text)
        except FileNotFoundError:  # the folder's first answer
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text)
        self._answered[canonical(request)] += 1
