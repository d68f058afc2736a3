"""Writing files safely: atomic replacement under unique temporary names, digests, torn last
lines cut, and a check that a directory can be written before any work is done for it."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from arena.rules.errors import ArenaError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()
"""The mode a new file gets here (temporary files are created private: they are widened)."""


class UnwritableError(ArenaError):
    """A place the arena must write to and cannot; ``reason`` is the system's word for why."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def check_writable(directory: Path, what: str) -> None:
    """Raise UnwritableError unless a file can be created in ``directory`` (``what`` names
    the output in the message)."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise UnwritableError(f"cannot write {what} in {directory}: {reason}", reason) from None


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` at once: a reader sees the old file or the new one, never
    half, and two writers never share a temporary file."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=path.parent,
                                     prefix=f".{path.name}.", suffix=".tmp",
                                     delete=False) as file:
        temporary = Path(file.name)
        try:
            file.write(text)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    try:
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def truncate_partial_line(path: Path) -> None:
    """Cut a last line that lacks its newline (an append cut short by a kill or a crash)."""
    with path.open("r+b") as file:
        size = file.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - 65536)
            file.seek(start)
            chunk = file.read(end - start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            end = start
        else:
            keep = 0
        if keep < size:
            file.truncate(keep)
