"""The transcripts of a run's language-model games (``RunFiles.llm_transcript``): every
prompt and answer of a game, and one record per move with what it cost, as gzip-compressed
JSON lines; and the moves' costs read back for the summary and the report.

A record is a JSON object with ``kind``: ``request`` (a prompt, its answer and its tokens)
or ``move`` (``MOVE_FIELDS``: the ply, the column, the requests made and replayed from the
cache, the invalid answers, the requests asked again, the tokens, the seconds and the cost).
A record's ``ply`` is the move's number, counted from 1 (ply + 1 as the glossary counts
plies, which readers such as ``model_usage.MoveCost`` give back).
Each record is one gzip member appended in one write, so the two agents of a game may add to
the same file, and a kill leaves at most one torn member at the end.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any, NamedTuple

from arena.system.files import AppendOnly, write_chunks_atomically

REQUEST = "request"
MOVE = "move"


def canonical(value: object) -> str:
    """``value`` as canonical JSON: sorted keys, no spaces, text as written."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Transcript:
    """The records of one game in ``path`` (kept open from the first record to ``close``)."""

    def __init__(self, path: Path):
        self.path = path
        self._file = AppendOnly(path)

    def start(self, player: int) -> None:
        """Begin ``player``'s part of the game's transcript afresh: a game played again (a
        resumed run) replaces that player's records of the earlier session. The agents of a
        game are told it starts one after the other, before any move."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            return
        others = [record for record in read_transcript(self.path)
                  if record.get("player") != player]
        write_chunks_atomically(self.path, [_member(record) for record in others])

    def add(self, record: dict[str, Any]) -> None:
        """Append ``record`` as one line."""
        self._file.write(_member(record))

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def _member(record: dict[str, Any]) -> bytes:
    """``record`` as one line in a gzip member of its own."""
    import gzip  # only here: writing a language model's records (reading them takes zlib)

    return gzip.compress((canonical(record) + "\n").encode(), mtime=0)


class TranscriptRecords(NamedTuple):
    """What a transcript holds: its whole records, and the bytes after the last of them that
    are none (a member torn by a kill, or damage)."""

    records: list[dict[str, Any]]
    unread: int


def read_records(path: Path) -> TranscriptRecords:
    """The records of a game's transcript up to the first member that is not a whole one (torn
    by a kill, or damaged), and the bytes left from there."""
    data, records = path.read_bytes(), []
    while data:
        inflater = zlib.decompressobj(wbits=31)
        try:
            text = inflater.decompress(data)
            if not inflater.eof:
                break
            lines = [json.loads(line) for line in text.decode().splitlines() if line.strip()]
        except (zlib.error, UnicodeDecodeError, ValueError):
            break
        records += lines
        data = inflater.unused_data
    return TranscriptRecords(records, len(data))


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The records of a game's transcript, up to a member torn by a kill, if any."""
    return read_records(path).records
