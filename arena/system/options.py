"""Options declared once: a name, the command line's flags, a help text, the kind of value
and one default. The commands' options (click, in ``arena.cli.options``), the keys of
experiment files (``schema.Kind``) and the Python API's keywords are made from these
declarations, so that no surface spells, documents or defaults an option a second time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from arena.system.schema import BOOLEAN, NUMBER, STRING, WHOLE, Kind

ValueKind = Literal["whole", "number", "text", "choice", "flag", "file", "directory", "texts"]


@dataclass(frozen=True)
class Value:
    """What an option takes: a whole number or a number (with bounds: ``minimum``, excluded
    when ``above``, and ``maximum``, excluded when ``below``), a text, one of ``choices``, an
    on/off flag, a file's or a directory's path, or texts given once each (a repeated
    flag)."""

    kind: ValueKind
    minimum: float | None = None
    maximum: float | None = None
    above: bool = False
    below: bool = False
    choices: tuple[str, ...] = ()

    def file_kind(self) -> Kind | None:
        """The kind of value an experiment file's key takes (None: no plain one)."""
        return {"whole": WHOLE, "number": NUMBER, "text": STRING, "choice": STRING,
                "flag": BOOLEAN}.get(self.kind)


def whole(minimum: int | None = None, maximum: int | None = None) -> Value:
    """A whole number, at least ``minimum`` and at most ``maximum`` where given."""
    return Value("whole", minimum, maximum)


def number(minimum: float | None = None, above: bool = False, maximum: float | None = None,
           below: bool = False) -> Value:
    """A number, at least ``minimum`` (more than it with ``above``) and at most ``maximum``
    (less than it with ``below``) where given."""
    return Value("number", minimum, maximum, above, below)


def choice(choices: Sequence[str]) -> Value:
    """One of ``choices``."""
    return Value("choice", choices=tuple(choices))


TEXT = Value("text")
FLAG = Value("flag")
FILE = Value("file")
DIRECTORY = Value("directory")
TEXTS = Value("texts")


@dataclass(frozen=True)
class Option:
    """One option, declared once.

    ``name`` is its key in experiment files and its click parameter; ``field`` the field it
    fills (default: ``name``), through ``convert`` when the value given is not the field's
    (a file's path for the table it holds, a flag that turns a field off); ``flags`` its
    spelling on the command line; ``default`` its one default; ``metavar`` and
    ``show_default`` how ``--help`` shows it. ``file_kind`` is the kind of value an
    experiment file's key takes (default: from ``value``); ``in_files`` False keeps it out
    of experiment files."""

    name: str
    flags: tuple[str, ...]
    help: str
    value: Value
    default: Any = None
    metavar: str | None = None
    show_default: bool = False
    field: str = ""
    convert: Callable[[Any], Any] | None = None
    file_kind: Kind | None = None
    in_files: bool = True

    @property
    def target(self) -> str:
        """The field this option fills."""
        return self.field or self.name

    def kind(self) -> Kind:
        """The kind of value an experiment file's key takes."""
        kind = self.file_kind or self.value.file_kind()
        if kind is None:
            raise ValueError(f"option {self.name!r} declares no kind for experiment files")
        return kind

    def described(self, **context: str) -> str:
        """The help text, its ``{...}`` places filled from ``context`` (the command's own
        defaults, e.g. its results directory)."""
        return self.help.format_map(context) if context else self.help


def file_keys(options: Sequence[Option]) -> dict[str, Kind]:
    """The keys of experiment files among ``options``, with the kind of value each takes."""
    return {option.name: option.kind() for option in options if option.in_files}
