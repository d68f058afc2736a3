"""Short, readable labels for agent specs, the same in every chart and table.

``negamax:depth=6,heuristic=threats+positional`` reads ``negamax d6 threats+positional``:
parameters left at their default are dropped (when the spec still resolves), except the
search depth, which is always shown, and so are those the agent calls ``unlabelled`` (an
``llm:`` model's server, key variable and price); ``depth=N``
becomes ``dN``, a word value stands for itself, ``flag=true`` becomes ``flag`` and
``flag=false`` ``no-flag``; other values keep their key. Long labels end in an ellipsis
(charts and pages ask for a width that keeps them whole, and wrap them). A name the user gave
an agent stands instead. A spec shown beside its label carries the depth too (``shown_spec``).

An agent of the user's code or files is named by where it is, one rule for every form: the
file's name without its folders (or the module's name) and, when the spec names one, the
class or function after a colon: ``kaggle:subs/main.py`` reads ``main.py``,
``subs/main.py:my_agent`` ``main.py:my_agent``, ``my.agents:Bot`` ``my.agents:Bot``,
``engine:bin/leftmost`` ``leftmost`` and ``onnx:nets/net.onnx,sims=20`` ``net.onnx sims=20``.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from arena.protocol.registry import canonical_spec, import_target, parse_spec, spec_kinds

__all__ = ["TABLE_WIDTH", "WIDTH", "Sweep", "depth_family", "plain_spec", "plain_specs",
           "short_name", "short_names", "shown_spec", "sweeps", "table_labels"]

WIDTH = 30
"""Longest label, in characters."""
TABLE_WIDTH = 80
"""Longest label in the tables of report.md and of the terminal (charts wrap them)."""

ELLIPSIS = "…"
_PREFIXES = {"depth": "d"}
ALWAYS_SHOWN = ("depth",)
"""Parameters labels show even at their default: a depth comparison needs every depth."""


@dataclass(frozen=True)
class _Spec:
    """A spec as labels see it: the agent's name, its non-default and all known values."""

    name: str
    given: tuple[tuple[str, str], ...]
    resolved: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Sweep:
    """An agent as one point of a sweep over one of its numeric parameters: the family of
    agents that differ from it in that parameter alone (a key to group them and a label
    without the parameter), the parameter and its value here."""

    key: tuple[str, str, tuple[tuple[str, str], ...]]
    label: str
    parameter: str
    value: float


FILE_KINDS = ("engine", "kaggle", "onnx", "pons")
"""Kinds of spec that name a file (``engine:`` and ``kaggle:`` also a name: ``engine:mine``,
``kaggle:random``)."""


def _code_name(name: str) -> str:
    """What a label calls the agent of a spec named ``name`` (``AgentSpec.name``): a file's
    name without its folders, after the class or function the spec names if any (the
    module's docstring), else all that follows the kind (``llama3.1:8b`` for
    ``llm:llama3.1:8b``) or the name itself."""
    head, _, rest = name.partition(":")
    if head in FILE_KINDS:
        return os.path.basename(rest)
    if rest and head not in spec_kinds() and _names_code(name):
        source, _, attribute = name.rpartition(":")
        return f"{os.path.basename(source)}:{attribute}"
    return rest or name


def _names_code(name: str) -> bool:
    """True if ``name`` reads as the user's code, FILE.py:ATTR or MODULE:ATTR (not a kind of
    spec that is not installed, as ``nosuch:llama3.1:8b``)."""
    source, _, attribute = name.rpartition(":")
    return source.endswith(".py") or "/" in source or (
        attribute.isidentifier() and all(part.isidentifier() for part in source.split(".")))


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _split_text(spec: str) -> tuple[str, dict[str, str]]:
    """Name and parameters read from the text alone (for specs that no longer resolve): the
    parameters start after the last ``:`` or ``,`` before the first ``=``, so a name may hold
    either (``llm:llama3.1:8b,prompt=moves``, ``bot.py:Bot:depth=3``)."""
    equals = spec.find("=")
    cut = max(spec.rfind(":", 0, equals), spec.rfind(",", 0, equals)) if equals >= 0 else -1
    name, rest = (spec[:cut], spec[cut + 1:]) if cut >= 0 else (spec, "")
    values = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        values[key.strip()] = value.strip()
    return _code_name(name), values


@cache
def _parse(spec: str) -> _Spec:
    spec = spec.strip()
    try:
        parsed = parse_spec(spec)
    except Exception:  # noqa: BLE001 - a spec that no longer loads is read from its text
        name, values = _split_text(spec)
        items = tuple(values.items())
        return _Spec(name, items, items)
    defaults = {p.name: p.default for p in parsed.params if not p.required}
    name, named = _code_name(parsed.name), parsed.name.partition(":")[2]
    unlabelled = _unlabelled(parsed.target)
    given = tuple(
        (key, _text(value))
        for key, value in parsed.resolved().items()
        if (key in ALWAYS_SHOWN or key not in defaults or defaults[key] != value)
        and _text(value) != named  # the file a kaggle: or onnx: agent is named after
        and key not in unlabelled
    )
    resolved = tuple((key, _text(value)) for key, value in parsed.resolved().items())
    return _Spec(name, given, resolved)


def _unlabelled(target: str) -> tuple[str, ...]:
    """The parameters the agent class ``target`` says do not change its play."""
    try:
        return tuple(getattr(import_target(target, target), "unlabelled", ()))
    except Exception:  # noqa: BLE001 - a target that does not load hides nothing
        return ()


@cache
def plain_spec(spec: str) -> str:
    """``spec`` without the parameters its agent calls ``unlabelled`` (``llm:gpt-4o-mini`` for
    ``llm:gpt-4o-mini,base_url=URL,price=0.15/0.6``), for tables of specs; a spec without
    them, or one that no longer loads, as it is."""
    head, at, limit = spec.strip().rpartition("@")
    text, limit = (head, limit) if at else (limit, "")
    try:
        parsed = parse_spec(text)
    except Exception:  # noqa: BLE001 - a spec that no longer loads is shown as it is
        return spec.strip()
    hidden = _unlabelled(parsed.target)
    head, separator, rest = text.partition(parsed.separator)
    if not hidden or not separator:
        return spec.strip()
    kept = [item for item in rest.split(",") if item.partition("=")[0].strip() not in hidden]
    return head + (separator + ",".join(kept) if kept else "") + at + limit


def plain_specs(specs: Iterable[str]) -> dict[str, str]:
    """``plain_spec`` of each spec, but the specs' own text where two would read the same."""
    plain = {spec: plain_spec(spec) for spec in dict.fromkeys(specs)}
    for spec in _duplicates(plain):
        plain[spec] = spec
    return plain


@cache
def shown_spec(spec: str) -> str:
    """``spec`` as pages and the terminal show it: the run's canonical text with the
    parameters labels always show written even at their default (``negamax:depth=4,
    heuristic=threats`` for ``negamax:heuristic=threats``), a player's limit after ``@``
    kept; a spec that no longer loads as it is. Runs store and compare the canonical text."""
    head, at, limit = spec.strip().rpartition("@")
    text = head if at else limit
    try:
        parsed = parse_spec(text)
    except Exception:  # noqa: BLE001 - a spec that no longer loads is shown as it is
        return spec.strip()
    return canonical_spec(parsed, ALWAYS_SHOWN) + (at + limit if at else "")


def _param_label(key: str, value: str) -> str:
    if key in _PREFIXES:
        return _PREFIXES[key] + value
    if value.lower() == "true":
        return key
    if value.lower() == "false":
        return f"no-{key}"
    if any(ch.isalpha() for ch in value):
        return value
    return f"{key}={value}"


def _label(name: str, params: Iterable[tuple[str, str]]) -> str:
    return " ".join([name, *(_param_label(key, value) for key, value in params)])


def _truncate(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + ELLIPSIS


def _truncate_middle(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head].rstrip() + ELLIPSIS + text[len(text) - (width - 1 - head) :].lstrip()


def _full_label(spec: str) -> str:
    """The label of ``spec``, a player's limit after ``@`` kept as it is."""
    head, at, limit = spec.strip().rpartition("@")
    parsed = _parse(head if at else limit)
    return _label(parsed.name, parsed.given) + (at + limit if at else "")


def short_name(spec: str, width: int = WIDTH) -> str:
    """A readable label for ``spec`` of at most ``width`` characters."""
    return _truncate(_full_label(spec), width)


def table_labels(specs: Iterable[str], given: Mapping[str, str] | None = None
                 ) -> dict[str, str]:
    """The agents' names in tables, the same on the report's page and in the terminal: the
    user's names (``given``) and, for the others, short labels of at most TABLE_WIDTH."""
    return short_names(specs, TABLE_WIDTH, given)


def _duplicates(labels: dict[str, str]) -> list[str]:
    counts = Counter(labels.values())
    return [spec for spec, label in labels.items() if counts[label] > 1]


def short_names(specs: Iterable[str], width: int = WIDTH,
                given: Mapping[str, str] | None = None) -> dict[str, str]:
    """Labels for every spec, distinct from one another, each at most ``width`` characters;
    the names in ``given`` (the user's: ``--label``, an experiment's ``labels``, the API's
    ``(name, agent)``) are used as they are.

    Specs that would read the same are labelled by their own text; labels that truncate
    to the same text are cut in the middle instead, so both ends show; a clash that
    remains gets a number.
    """
    given = given or {}
    specs = [spec for spec in dict.fromkeys(specs)]
    full = {spec: _full_label(spec) for spec in specs if spec not in given}
    for spec in _duplicates(full):
        full[spec] = spec.strip()
    labels = {spec: _truncate(text, width) for spec, text in full.items()}
    for spec in _duplicates(labels):
        labels[spec] = _truncate_middle(full[spec], width)
    for number, spec in enumerate(_duplicates(labels), start=1):
        suffix = f" #{number}"
        labels[spec] = _truncate(labels[spec], width - len(suffix)) + suffix
    return {spec: given.get(spec) or labels[spec] for spec in specs}


def _numeric(text: str) -> float | None:
    """The finite number ``text`` reads as, or None (words, booleans, infinities)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def sweeps(spec: str) -> list[Sweep]:
    """``spec`` as a point of a sweep over each of its numeric parameters (resolved, so a
    default counts: ``minimax`` is ``minimax:depth=4``)."""
    parsed = _parse(spec)
    points = []
    for key, text in parsed.resolved:
        value = _numeric(text)
        if value is not None:
            others = tuple(sorted(p for p in parsed.resolved if p[0] != key))
            label = _truncate(_label(parsed.name, (p for p in parsed.given if p[0] != key)),
                              WIDTH)
            points.append(Sweep((parsed.name, key, others), label, key, value))
    return points


def depth_family(spec: str) -> Sweep | None:
    """``spec`` as a point of a sweep over its search depth, or None without a depth."""
    return next((point for point in sweeps(spec) if point.parameter == "depth"), None)
