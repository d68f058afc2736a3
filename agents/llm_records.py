"""What the ``llm:`` agent keeps in a run directory (``RunFiles.llm``): the answers it paid
for, to replay when a run is resumed (``ResponseCache``), and every prompt and answer of a
game (``Transcript``).

An answer is kept under a digest of its request (the model, the messages and the sampling
parameters, as canonical JSON) together with the game's number and how many times the same
request was answered before in that game: a resumed game asks the same questions in the same
order and gets the same answers back without asking the server, while two games that happen
to ask the same question still get an answer each, as they would from the model. Each answer
is one small file written at once, so processes playing games side by side, or a run killed
mid-write, never leave a torn entry. The key is never part of what is kept.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from arena.system.files import FILE_MODE, write_all, write_atomically, write_chunks_atomically


def canonical(value: object) -> str:
    """``value`` as canonical JSON: sorted keys, no spaces, text as written."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


class Transcript:
    """The prompts and answers of one game, as gzip-compressed JSON lines in ``path``; each
    record is one gzip member appended in one write, so two agents of the game may add to
    the same file."""

    def __init__(self, path: Path):
        self.path = path

    def start(self, player: int) -> None:
        """Begin ``player``'s part of the game's transcript afresh: a game played again (a
        resumed run) replaces that player's lines of the earlier session. The agents of a game
        are told it starts one after the other, before any move."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            return
        others = [record for record in read_transcript(self.path)
                  if record.get("player") != player]
        write_chunks_atomically(self.path, [_member(record) for record in others])

    def add(self, record: dict[str, Any]) -> None:
        """Append ``record`` as one line."""
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        try:
            write_all(fd, _member(record))
        finally:
            os.close(fd)


def _member(record: dict[str, Any]) -> bytes:
    """``record`` as one line in a gzip member of its own."""
    return gzip.compress((canonical(record) + "\n").encode(), mtime=0)


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The records of a game's transcript, up to a member torn by a kill, if any."""
    data, records = path.read_bytes(), []
    while data:
        inflater = zlib.decompressobj(wbits=31)
        try:
            text = inflater.decompress(data)
        except zlib.error:
            break
        if not inflater.eof:
            break
        records += [json.loads(line) for line in text.decode().splitlines() if line.strip()]
        data = inflater.unused_data
    return records
