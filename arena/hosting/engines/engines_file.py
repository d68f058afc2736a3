"""Engines files: named engines with their command, arguments, directory and options (TOML).

An engines file reads::

    [[engine]]
    name = "example"                 # required: the agent is engine:example
    command = "engine.py"            # required: a file (relative to cwd) or a program on PATH
    args = ["--hash", "64"]          # optional: arguments
    cwd = "engines"                  # optional: the working directory, relative to this file
                                     # (default: the file's directory)
    options = { block = false }      # optional: sent as `setoption block false` at start

A command ending in ``.py`` runs with the Python that runs the arena. The file is checked
when it is loaded: an unknown key, a missing field, a value of the wrong kind, a duplicate
name or a command that cannot be found is an ``EnginesFileError`` naming the file and the
entry. A run carries its table in its ``GameSettings`` to every worker, where the registry's
``engine`` kind looks names up in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.hosting.engines.engine import Program
from arena.rules.errors import ArenaError
from arena.system.schema import STRING, STRINGS, TABLES, Kind, check_fields, read_toml

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
"""What an engine's name may be: it is written ``engine:NAME`` in specs."""
_OPTION_NAME = re.compile(r"[^\s=]+")

OPTIONS = Kind("a table of option values (strings, numbers, true or false)",
               lambda v: isinstance(v, dict)
               and all(isinstance(x, str | int | float) for x in v.values()))
FIELDS: dict[str, Kind] = {"name": STRING, "command": STRING, "args": STRINGS, "cwd": STRING,
                           "options": OPTIONS}
TOP_LEVEL: dict[str, Kind] = {"engine": TABLES}


class EnginesFileError(ArenaError):
    """An engines file that cannot be used: which file, which entry, what is wrong."""


@dataclass(frozen=True)
class Place:
    """An engines file, or an entry of it, for error messages."""

    file: Path
    entry: str = ""

    def error(self, problem: str) -> EnginesFileError:
        """An EnginesFileError at this place."""
        return EnginesFileError(f"{self.file}: {self.entry + ': ' if self.entry else ''}"
                                f"{problem}")


@dataclass(frozen=True)
class NamedEngine:
    """An engine of an engines file, its paths resolved."""

    name: str
    command: str
    """An absolute path, or the name of a program found on PATH."""
    args: tuple[str, ...] = ()
    cwd: str = "."
    options: tuple[tuple[str, str], ...] = ()

    def program(self) -> Program:
        """How to start it."""
        return Program.of(self.command, self.args, self.cwd, self.options)

    def describe(self) -> dict[str, Any]:
        """The entry (JSON-friendly), as meta.json records it."""
        return {"command": self.command, "args": list(self.args), "cwd": self.cwd,
                "options": dict(self.options)}

    def fingerprint(self) -> str:
        """SHA-256 of the entry, of the command's file and of every argument that names a
        file (relative to its directory): it changes when any of them does."""
        digest = hashlib.sha256(json.dumps(self.describe(), sort_keys=True).encode())
        command = shutil.which(self.command) or self.command
        for path in (command, *(os.path.join(self.cwd, arg) for arg in self.args)):
            if os.path.isfile(path):
                digest.update(Path(path).read_bytes())
        return "sha256 " + digest.hexdigest()


@dataclass(frozen=True)
class EnginesTable:
    """The engines of a file, by name."""

    file: str
    engines: tuple[NamedEngine, ...]

    def get(self, name: str) -> NamedEngine | None:
        """The engine called ``name``, if any."""
        return next((engine for engine in self.engines if engine.name == name), None)

    def names(self) -> list[str]:
        """The engines' names, in the file's order."""
        return [engine.name for engine in self.engines]

    def describe(self) -> dict[str, Any]:
        """The file and its engines (JSON-friendly), as meta.json records them."""
        return {"file": self.file,
                "engines": {engine.name: engine.describe() for engine in self.engines}}


def load_engines(path: Path | str) -> EnginesTable:
    """Read and check an engines file."""
    path = Path(path)
    where = Place(path)
    data = read_toml(path, where)
    check_fields(data, TOP_LEVEL, (), where)
    entries = data.get("engine", [])
    if not entries:
        raise where.error("no engines: add an [[engine]] table with a name and a command")
    engines: list[NamedEngine] = []
    for index, entry in enumerate(entries, start=1):
        name = entry.get("name")
        place = Place(path, f'engine #{index}' + (f' "{name}"' if isinstance(name, str) else ""))
        engines.append(_engine(entry, path.parent, place, engines))
    return EnginesTable(str(path), tuple(engines))


def _engine(entry: dict[str, Any], base: Path, where: Place,
            before: Iterable[NamedEngine]) -> NamedEngine:
    check_fields(entry, FIELDS, ("name", "command"), where)
    name = entry["name"]
    if not NAME.fullmatch(name):
        raise where.error(f"name {name!r} must be letters, digits, '.', '_', '+' and '-', "
                          "starting with a letter or digit")
    if any(engine.name == name for engine in before):
        raise where.error(f"name {name!r} is used by an earlier engine")
    cwd = Path(os.path.abspath(base / entry.get("cwd", ".")))
    if not cwd.is_dir():
        raise where.error(f"cwd {entry.get('cwd')!r} is not a directory ({cwd})")
    options = tuple((key, _option_text(value)) for key, value in entry.get("options", {}).items())
    for key, value in options:
        if not _OPTION_NAME.fullmatch(key) or "\n" in value:
            raise where.error(f"option {key!r} = {value!r}: names are single words without "
                              "'=', values single lines")
    return NamedEngine(name, _command(entry["command"], cwd, where), tuple(entry.get("args", ())),
                       str(cwd), options)


def _command(command: str, cwd: Path, where: Place) -> str:
    """The command as an absolute path (a file relative to ``cwd``), or the name of a program
    found on PATH."""
    path = Path(os.path.abspath(cwd / command))
    if path.is_file():
        if path.suffix != ".py" and not os.access(path, os.X_OK):
            raise where.error(f"command {command!r}: {path} is not executable (chmod +x it)")
        return str(path)
    if Path(command).name == command and shutil.which(command) is not None:
        return command
    raise where.error(f"command {command!r}: no such file {path}, nor a program of that name "
                      "on PATH")


def _option_text(value: str | int | float) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
