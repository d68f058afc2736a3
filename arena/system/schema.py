"""Checking tables read from TOML files (experiment files, engines files) against their fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from arena.rules.errors import ArenaError


class Kind(NamedTuple):
    """What a field's value must be: described for errors, checked by ``accepts``."""

    description: str
    accepts: Callable[[Any], bool]


def is_whole(value: Any) -> bool:
    """True for an int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


STRING = Kind("a string", lambda v: isinstance(v, str))
WHOLE = Kind("a whole number", is_whole)
NUMBER = Kind("a number", lambda v: is_whole(v) or isinstance(v, float))
BOOLEAN = Kind("true or false", lambda v: isinstance(v, bool))
STRINGS = Kind("a list of strings", lambda v: isinstance(v, list)
               and all(isinstance(x, str) for x in v))
TABLE = Kind("a table", lambda v: isinstance(v, dict))
TABLES = Kind("an array of tables ([[...]])", lambda v: isinstance(v, list)
              and all(isinstance(x, dict) for x in v))


class Place(Protocol):
    """Where a table is (a file, an entry of it), able to make the error of a problem there."""

    def error(self, problem: str) -> ArenaError:
        """The error of ``problem`` at this place."""
        ...


def check_fields(table: Mapping[str, Any], fields: Mapping[str, Kind], required: Sequence[str],
                 where: Place) -> None:
    """Refuse unknown keys, missing required ones and values of the wrong kind."""
    for key, value in table.items():
        if key not in fields:
            raise where.error(f"unknown key {key!r}; expected one of {', '.join(fields)}")
        if not fields[key].accepts(value):
            raise where.error(f"{key} must be {fields[key].description}, got {value!r}")
    missing = [key for key in required if key not in table]
    if missing:
        raise where.error(f"missing field {missing[0]!r}")


def read_toml(path: Path, where: Place) -> dict[str, Any]:
    """The tables of a TOML file; the error of ``where`` if it cannot be read or parsed."""
    import tomllib  # only here: the commands that read no TOML file load without its parser

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise where.error(f"cannot read it: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise where.error(f"not valid TOML: {error}") from None
