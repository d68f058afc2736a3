"""Writing files safely: atomic replacement under unique temporary names, digests, torn last
lines cut (or left unread: a file's first bytes opened as a file), a check that a directory
can be written before any work is done for it, and why one could not be made."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

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
        if error.errno == errno.ENOENT and directory.is_dir():  # /proc: no file may be made
            reason = "it takes no new files"
        raise UnwritableError(f"cannot write {what} in {directory}: {reason}", reason) from None


def directory_problem(path: Path, error: OSError) -> str:
    """Why the directory ``path`` could not be made (``error``), in a few words: the file that
    stands where it or a directory above it should be, else the system's reason."""
    for directory in (path, *path.parents):
        if directory.exists():
            if not directory.is_dir():
                return f"{directory} is a file, not a directory"
            break
    return error.strerror or str(error)


NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})
"""The errors of a write that found no room: a full disk, a quota, a read-only filesystem, a
file size limit."""


class NoRoomError(ArenaError):
    """A file could not be written for want of room (see NO_ROOM); the message names the file,
    the system's reason and the space left."""


def free_space(directory: Path) -> str:
    """The space left to this user in ``directory``'s filesystem, e.g. ``12.5 kB``."""
    try:
        stats = os.statvfs(directory)
    except OSError:
        return "unknown"
    size = float(stats.f_bavail * stats.f_frsize)
    for unit in ("bytes", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError("unreachable")


@contextmanager
def room_checked(path: Path) -> Iterator[None]:
    """Writes to ``path`` inside the block: one that finds no room (NO_ROOM) is a NoRoomError,
    ``cannot write PATH: No space left on device (0 bytes free)``; other errors pass."""
    try:
        yield
    except OSError as error:
        if error.errno not in NO_ROOM:
            raise
        raise NoRoomError(f"cannot write {path}: {error.strerror} "
                          f"({free_space(path.parent)} free)") from None


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (nothing is kept in a buffer to be written later:
    a write that fails leaves at most a torn last line, which a resume cuts)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class AppendOnly:
    """A file written only at its end, each piece in one write (a kill leaves whole pieces,
    but for a torn last one), opened at the first piece (its folder made if need be) and kept
    open until ``close``."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None

    def write(self, data: bytes) -> None:
        """Append ``data``."""
        if self._fd is None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
            try:
                self._fd = os.open(self.path, flags, FILE_MODE)
            except FileNotFoundError:  # the folder's first file
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, flags, FILE_MODE)
        write_all(self._fd, data)

    def close(self) -> None:
        """Close the file (the next piece opens it again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` at once: a reader sees the old file or the new one, never
    half, and two writers never share a temporary file. No room to write it is a NoRoomError,
    the old file left as it was."""
    write_chunks_atomically(path, [text.encode("utf-8")])


def write_chunks_atomically(path: Path, chunks: Iterable[bytes]) -> None:
    """``write_atomically`` for a file made piece by piece: ``chunks`` in order, none of them
    held once written."""
    temporary: Path | None = None
    try:
        with room_checked(path):
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            temporary = Path(name)
            try:
                for chunk in chunks:
                    write_all(fd, chunk)
            finally:
                os.close(fd)
            os.chmod(temporary, FILE_MODE)
            os.replace(temporary, path)
    except BaseException:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise


@contextmanager
def replaced_atomically(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` (a unique name) for a library to write the new file
    to; when the block ends without error, that file replaces ``path`` at once, with the mode
    of any new file here (``FILE_MODE``, not the temporary file's private one); otherwise it
    is removed."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def complete_length(path: Path) -> int:
    """The bytes of ``path`` up to its last newline (a last line without one is cut short)."""
    with path.open("rb") as file:
        end = file.seek(0, os.SEEK_END)
        while end > 0:
            start = max(0, end - 65536)
            file.seek(start)
            newline = file.read(end - start).rfind(b"\n")
            if newline >= 0:
                return start + newline + 1
            end = start
    return 0


def truncate_partial_line(path: Path) -> None:
    """Cut a last line that lacks its newline (an append cut short by a kill or a crash)."""
    keep = complete_length(path)
    if keep < path.stat().st_size:
        os.truncate(path, keep)


class _Prefix(io.RawIOBase):
    """The first bytes of a binary file, read as a file of their own."""

    def __init__(self, file: BinaryIO, length: int):
        self._file = file
        self._left = length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._file.read(min(len(buffer), self._left))
        buffer[:len(data)] = data
        self._left -= len(data)
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()


def open_prefix(path: Path, length: int | None = None) -> BinaryIO:
    """``path`` opened to read its first ``length`` bytes (all of it with None): what a reader
    of a file being appended to reads up to its last complete line."""
    file = path.open("rb")
    if length is None:
        return file
    return io.BufferedReader(_Prefix(file, length), buffer_size=1 << 20)
