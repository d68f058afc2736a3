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
        """The kind of value an experiment file's key takes (None: no plain one), within the
        bounds or among the choices that the command line's option takes."""
        plain = {"whole": WHOLE, "number": NUMBER, "text": STRING, "choice": STRING,
                 "flag": BOOLEAN}.get(self.kind)
        bounded = self.choices or self.minimum is not None or self.maximum is not None
        if plain is None or not bounded:
            return plain
        return Kind(self.described(plain), lambda v: plain.accepts(v) and self.within(v))

    def within(self, value: Any) -> bool:
        """Whether ``value`` (of this kind) is among the choices and not beyond a bound, as
        click's ranges check it (nan is beyond none: what takes a number says if it must be
        finite)."""
        if self.choices:
            return value in self.choices
        low, high = self.minimum, self.maximum
        under = low is not None and (value < low or (value == low and self.above))
        over = high is not None and (value > high or (value == high and self.below))
        return not under and not over

    def described(self, plain: Kind) -> str:
        """What a value must be, in words: ``a whole number from 1 to 1024``."""
        if self.choices:
            return f"one of {', '.join(self.choices)}"
        low, high = self.minimum, self.maximum
        if low is not None and high is not None and not self.above and not self.below:
            return f"{plain.description} from {low:g} to {high:g}"
        bounds = [f"{'>' if self.above else '>='} {low:g}" if low is not None else "",
                  f"{'<' if self.below else '<='} {high:g}" if high is not None else ""]
        return f"{plain.description} {' and '.join(bound for bound in bounds if bound)}"


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
