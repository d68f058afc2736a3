"""The registry: agents built from spec strings.

Spec strings:
- ``name`` or ``name:key=value,key=value``: a registered agent. The built-ins and the agents
  of installed plugins register under the entry-point group ``connect_four_arena.agents``
  (this project's pyproject.toml lists the built-ins of ``agents/``); a plugin never replaces
  a built-in of the same name.
- ``module.path:Attr`` or ``path/to/file.py:Attr``, optionally followed by
  ``:key=value,...``: an agent class or function of your own.
- ``KIND:...``: an agent of another kind, parsed by the kind's own parser, registered under
  the entry-point group ``connect_four_arena.spec_kinds``: ``engine:PATH``, ``engine:NAME``
  and ``pons:PATH`` (programs of their own), ``kaggle:...`` (Kaggle's agents and submission
  files), ``onnx:PATH`` (networks) and ``local:NAME`` (Python objects handed to the API). Each
  kind is declared by a ``SpecKind`` (forms, summary, parser, parameters) that
  ``arena agents`` lists.

Parameters are the keyword arguments of the agent's constructor; their annotations give their
types and their defaults the defaults.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import sys
import types
import typing
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import (
    EntryPoint,
    EntryPoints,
    PackageNotFoundError,
    entry_points,
    version,
)
from pathlib import Path
from typing import Any, ClassVar, Literal

from arena.protocol.agent import Agent
from arena.protocol.functions import agent_of_function
from arena.rules.errors import AgentSpecError, describe_error
from arena.system.interrupts import from_user

ENTRY_POINT_GROUP = "connect_four_arena.agents"
KINDS_GROUP = "connect_four_arena.spec_kinds"
ARENA_DISTRIBUTION = "connect-four-arena"
"""The distribution whose registered agents are the built-ins."""

KindParser = Callable[[str, object], "AgentSpec"]
"""A kind's parser: ``parse(text, engines)`` -> the spec (``engines``: the engines file in
effect, for ``engine:NAME``; other kinds ignore it)."""


# --- parameters -----------------------------------------------------------------------


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError(text)


SCALAR_PARSERS: dict[Any, tuple[str, Callable[[str], Any]]] = {
    int: ("a whole number", int),
    float: ("a number", float),
    bool: ("true or false", _parse_bool),
}


def _unwrap_optional(kind: Any) -> Any:
    """``T | None`` -> ``T``; other types unchanged."""
    args = typing.get_args(kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return kind


@dataclass(frozen=True)
class Param:
    """One typed constructor parameter of an agent."""

    name: str
    kind: Any
    default: Any = inspect.Parameter.empty

    @property
    def required(self) -> bool:
        """True if the parameter has no default."""
        return self.default is inspect.Parameter.empty

    def type_name(self) -> str:
        """The type as shown to users: int, float, bool, str or the allowed choices."""
        if typing.get_origin(self.kind) is Literal:
            return "|".join(str(choice) for choice in typing.get_args(self.kind))
        return getattr(self.kind, "__name__", str(self.kind))

    def parse(self, text: str, spec: str) -> Any:
        """Convert the string value from a spec to this parameter's type."""
        if typing.get_origin(self.kind) is Literal:
            choices = {str(choice): choice for choice in typing.get_args(self.kind)}
            if text not in choices:
                raise AgentSpecError(
                    f"agent spec {spec!r}: parameter {self.name} must be one of "
                    f"{', '.join(choices)}, got {text!r}"
                )
            return choices[text]
        if self.kind is str:
            return text
        if self.kind not in SCALAR_PARSERS:
            raise AgentSpecError(
                f"agent spec {spec!r}: parameter {self.name} has type {self.type_name()}, "
                "which a spec string cannot set (use int, float, bool, str or Literal)"
            )
        expected, parser = SCALAR_PARSERS[self.kind]
        try:
            return parser(text)
        except ValueError:
            raise AgentSpecError(
                f"agent spec {spec!r}: parameter {self.name} expects {expected}, got {text!r}"
            ) from None


def signature_params(factory: Callable[..., Any]) -> tuple[Param, ...]:
    """The keyword parameters of a class constructor (none for a move function)."""
    if not inspect.isclass(factory):
        return ()
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # some built-in classes have none: no parameters to set
        return ()
    init = factory.__init__
    hints = typing.get_type_hints(init) if init is not object.__init__ else {}
    params = []
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        params.append(Param(name, _unwrap_optional(hints.get(name, str)), parameter.default))
    return tuple(params)


def first_doc_line(factory: Callable[..., Any]) -> str:
    """The first line of the docstring, or an empty string."""
    doc = inspect.getdoc(factory) or ""
    return doc.splitlines()[0] if doc else ""


# --- the registry ---------------------------------------------------------------------


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: its name, the ``module:attr`` it is imported from when used, and
    the distribution that registers it."""

    name: str
    target: str
    origin: str = ARENA_DISTRIBUTION

    @property
    def builtin(self) -> bool:
        """True for the agents that come with the arena."""
        return self.origin == ARENA_DISTRIBUTION

    def load(self) -> Callable[..., Any]:
        """Import the agent's class or function."""
        return import_target(self.target, self.name)

    def params(self) -> tuple[Param, ...]:
        """The agent's parameters."""
        return signature_params(self.load())

    def description(self) -> str:
        """One line saying what the agent does."""
        return first_doc_line(self.load())


def _with_origins(points: Iterable[EntryPoint]) -> list[tuple[EntryPoint, str]]:
    """Each entry point with the name of the distribution that registers it, the metadata of
    each distribution read once (parsing it costs milliseconds)."""
    names: dict[int, str] = {}
    pairs = []
    for point in points:
        dist = point.dist
        if dist is None:
            pairs.append((point, "entry point"))
            continue
        if id(dist) not in names:
            names[id(dist)] = dist.name
        pairs.append((point, names[id(dist)]))
    return pairs


@cache
def installed_entry_points() -> EntryPoints:
    """The entry points of every installed distribution, read once: each read opens every
    distribution's metadata (milliseconds on a machine with many), and the registry's two
    groups, agents and spec kinds, select from the same read (``cache_clear`` reads again)."""
    # Python 3.11 gives SelectableGroups (3.12 EntryPoints): its select(group=...) is theirs
    return typing.cast(EntryPoints, entry_points())


@cache
def registry() -> dict[str, AgentEntry]:
    """Every registered agent by name: the built-ins first, in the order pyproject.toml lists
    them, then the plugins' by name."""
    pairs = sorted(_with_origins(installed_entry_points().select(group=ENTRY_POINT_GROUP)),
                   key=lambda pair: pair[1] != ARENA_DISTRIBUTION)
    entries: dict[str, AgentEntry] = {}
    for point, origin in pairs:
        entries.setdefault(point.name, AgentEntry(point.name, point.value, origin))
    return entries


def registered(name: str) -> AgentEntry | None:
    """The registered agent ``name``, or None."""
    return registry().get(name)


def is_builtin(spec: str) -> bool:
    """True for the spec of an agent that comes with the arena (trusted: it runs inline)."""
    entry = registered(spec.strip().partition(":")[0])
    return entry is not None and entry.builtin


@cache
def spec_kinds() -> dict[str, EntryPoint]:
    """The kinds of spec (``KIND:...``) and the entry points of their parsers."""
    return {point.name: point for point in installed_entry_points().select(group=KINDS_GROUP)}


@dataclass(frozen=True)
class SpecKind:
    """A kind of spec string as its module declares it (the object a kind's entry point
    names): the forms it is written in, what it plays, its parser, and the agent class whose
    optional constructor parameters it takes as ``key=value`` (the required ones are parts of
    the form, as onnx's PATH)."""

    forms: tuple[str, ...]
    summary: str
    parser: KindParser
    agent: str | None = None
    inline: bool = False
    """Its agents are the arena's own code that mostly waits (``llm:``): under ``--hosting
    auto`` they play inline, their output captured, so ``--concurrency`` threads share one
    process (a plugin's kind cannot claim it)."""
    details: str = ""
    """More than the summary, as lines to print as they are when the kind is described alone
    (``arena agents engine``: the line protocol)."""

    def __call__(self, text: str, engines: object = None) -> AgentSpec:
        """Parse ``text`` (``engines``: the engines file in effect)."""
        return self.parser(text, engines)

    def params(self) -> tuple[Param, ...]:
        """The ``key=value`` parameters the kind takes."""
        if self.agent is None:
            return ()
        return tuple(param for param in signature_params(import_target(self.agent, self.forms[0]))
                     if not param.required)


def spec_kind(name: str) -> SpecKind:
    """The declaration of the registered kind ``name`` (a plugin's bare parser function is
    described by its docstring); AgentSpecError if its module cannot be imported."""
    parser = import_target(spec_kinds()[name].value, f"{name}:")
    if isinstance(parser, SpecKind):
        return parser
    return SpecKind((f"{name}:...",), first_doc_line(parser), typing.cast(KindParser, parser))


def plays_inline(text: str) -> bool:
    """True for a spec of a kind that comes with the arena and declares ``inline``."""
    kind = kind_of(text)
    if kind is None or _with_origins([spec_kinds()[kind]])[0][1] != ARENA_DISTRIBUTION:
        return False
    return spec_kind(kind).inline


def kind_of(text: str) -> str | None:
    """The kind a spec names (``engine``, ``kaggle``, ...), or None for an agent's spec."""
    head = text.strip().partition(":")[0]
    return head if head in spec_kinds() else None


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec string: what to build and with which parameter values."""

    text: str
    name: str
    target: str
    values: dict[str, Any] = field(default_factory=dict, hash=False)
    params: tuple[Param, ...] = ()
    separator: ClassVar[str] = ":"
    """What comes between the name and its ``key=value`` parameters."""

    def resolved(self) -> dict[str, Any]:
        """Every parameter with its value, defaults filled in."""
        full = {p.name: p.default for p in self.params if not p.required}
        full.update(self.values)
        return full

    @property
    def factory(self) -> Callable[..., Any]:
        """The agent's class or function."""
        return import_target(self.target, self.text)

    @property
    def interactive(self) -> bool:
        """True if the agent asks a person (declared by its class)."""
        return bool(getattr(self.factory, "interactive", False))

    def fingerprint(self) -> str:
        """What identifies the agent's code: the version of the distribution that registers
        it (the arena's for a built-in), else the SHA-256 of its source file."""
        entry = registered(self.name)
        if entry is not None:
            return f"{entry.origin} {version_of(entry.origin)}"
        try:
            source = inspect.getsourcefile(self.factory)
        except TypeError:
            source = None
        return file_fingerprint(Path(source)) if source else "unknown source"

    def subject(self) -> str:
        """What the spec names, as its author knows it: ``my_bot.py:Bot``, ``module:Attr``."""
        return self.target

    def build(self) -> Agent:
        """A new agent from this spec."""
        factory = self.factory
        if not inspect.isclass(factory):
            return agent_of_function(factory, f"agent spec {self.text!r}")
        try:
            agent = factory(**self.values)
        except AgentSpecError:
            raise  # it names the spec already
        except (ValueError, TypeError) as error:
            raise AgentSpecError(f"agent spec {self.text!r}: {error}") from None
        if not callable(getattr(agent, "choose", None)):
            raise AgentSpecError(f"agent spec {self.text!r}: {self.subject()} has no "
                                 "choose(position, rng) method")
        return typing.cast(Agent, agent)


def file_fingerprint(path: Path) -> str:
    """``sha256 HEX`` of a file's bytes, or ``unknown source`` if it cannot be read."""
    try:
        return "sha256 " + hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unknown source"


def version_of(distribution: str) -> str:
    """The installed version of a distribution, or "unknown"."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


def parse_spec(text: str, engines: object = None) -> AgentSpec:
    """Parse and validate a spec string without building the agent (``engines``: the engines
    file in effect, for ``engine:NAME``)."""
    text = text.strip()
    if not text:
        raise AgentSpecError("agent spec is empty: " + _known_agents_hint())
    head, _, rest = text.partition(":")
    if head in spec_kinds():
        return spec_kind(head)(text, engines)
    first, _, tail = rest.partition(":")
    entry = registered(head)
    if entry is not None:
        name, target, assignments = head, entry.target, rest
    elif rest and "=" not in first and first.isidentifier():
        name, target, assignments = f"{head}:{first}", f"{head}:{first}", tail
    elif head.endswith(".py"):
        raise AgentSpecError(f"agent spec {text!r}: {_name_the_attribute(Path(head))}")
    else:
        raise AgentSpecError(f"unknown agent {head!r} in spec {text!r}: "
                             f"{_did_you_mean(head, text)}{_known_agents_hint()}")
    try:
        factory = import_target(target, text)
    except AgentSpecError as error:
        guess = "" if registered(head) or head.endswith(".py") else _did_you_mean(head, text)
        if not guess:
            raise
        raise AgentSpecError(f"{error} ({guess.rstrip()})") from None
    params = signature_params(factory)
    return AgentSpec(text, name, target, parse_values(assignments, params, text), params)


OWN_CODE = SpecKind(
    ("MODULE:ATTR[:key=value,...]", "FILE.py:ATTR[:key=value,...]"),
    "Your own class with choose(position, rng), function f(position, rng) or Kaggle agent "
    "function; key=value sets the class's constructor keyword arguments (arena agents "
    "FILE.py:ATTR lists them).",
    parse_spec)
"""Agents of your own code: a class or function named by module or file."""


def make_agent(text: str, engines: object = None) -> Agent:
    """Build an agent from its spec string in this process (``engines`` as for
    ``parse_spec``); whatever its constructor raises (but the user's Ctrl-C) is an
    AgentSpecError naming the spec."""
    spec = parse_spec(text, engines)
    try:
        return spec.build()
    except AgentSpecError:
        raise
    except BaseException as error:
        if from_user(error):
            raise
        raise AgentSpecError(f"agent spec {spec.text!r}: could not build the agent: "
                             f"{describe_error(error)}") from None


def canonical_spec(spec: AgentSpec, always: Collection[str] = ()) -> str:
    """The spec with only non-default parameters (and those named in ``always``, even at
    their default), in signature order: one text per agent."""
    resolved = spec.resolved()
    values = [
        f"{p.name}={_format_value(resolved[p.name])}"
        for p in spec.params
        if p.name in resolved and (p.name in always or p.required or resolved[p.name] != p.default)
    ]
    return spec.name + (spec.separator + ",".join(values) if values else "")


def _format_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def model_and_values(text: str, params: tuple[Param, ...], usage: str) -> dict[str, Any]:
    """``KIND:MODEL[,key=value,...]`` read: ``model`` (the part after the kind) and the typed
    values of ``params``; AgentSpecError saying ``usage`` (what to give) when MODEL is
    missing."""
    _, _, rest = text.strip().partition(":")
    model, _, assignments = rest.partition(",")
    model = model.strip()
    if not model or "=" in model:
        raise AgentSpecError(f"agent spec {text!r}: give {usage}")
    return {"model": model, **parse_values(assignments, params, text)}


def parse_values(assignments: str, params: tuple[Param, ...], spec: str) -> dict[str, Any]:
    """The values of ``key=value,...`` for ``params``; AgentSpecError naming ``spec`` for an
    unknown, repeated, malformed or missing parameter."""
    by_name = {p.name: p for p in params}
    values: dict[str, Any] = {}
    for item in filter(None, assignments.split(",")):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key:
            raise AgentSpecError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise AgentSpecError(
                f"agent spec {spec!r}: unknown parameter {key!r}; parameters: {known}"
            )
        if key in values:
            raise AgentSpecError(f"agent spec {spec!r}: parameter {key!r} given twice")
        values[key] = by_name[key].parse(value.strip(), spec)
    missing = [p.name for p in params if p.required and p.name not in values]
    if missing:
        raise AgentSpecError(f"agent spec {spec!r}: missing parameter(s) {', '.join(missing)}")
    return values


def _did_you_mean(head: str, text: str) -> str:
    """``did you mean 'negamax:depth=3'? `` when ``head`` is close to the name of an agent or
    a spec kind, else ""."""
    import difflib  # only here: a spec that names no agent

    close = difflib.get_close_matches(head, [*registry(), *spec_kinds()], n=3)
    if not close:
        return ""
    tail = text.strip()[len(head):]
    return "did you mean " + " or ".join(repr(name + tail) for name in close) + "? "


MAX_NAMES = 8
"""Callables of a file named in a hint, at most."""


def _name_the_attribute(path: Path) -> str:
    """The hint for a file named without the class or function to play: ``FILE.py:NAME``,
    with the names the file defines, read without running it (its syntax tree)."""
    hint = (f"name the class or function to play after a colon, as {path}:NAME (or "
            f"kaggle:{path} for a Kaggle submission, whose last function plays)")
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError) as error:
        if isinstance(error, FileNotFoundError):
            return f"{hint}; there is no file {path}"
        return hint
    names = [node.name for node in tree.body
             if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
             and not node.name.startswith("_")]
    if not names:
        return f"{hint}; {path} defines no class or function"
    shown = ", ".join(names[:MAX_NAMES]) + (", ..." if len(names) > MAX_NAMES else "")
    return f"{hint}; {path} defines {shown}"


def spec_forms() -> list[SpecKind]:
    """Every form of spec string but a registered agent's name, as declared: your own code's
    (``FILE.py:ATTR``), then each kind's that can be loaded."""
    forms = [OWN_CODE]
    for name in spec_kinds():
        try:
            forms.append(spec_kind(name))
        except AgentSpecError:
            continue  # a plugin that cannot be imported: its specs say so when used
    return forms


def _known_agents_hint() -> str:
    others = (form.partition("[")[0] for kind in spec_forms() for form in kind.forms)
    return (f"known agents: {', '.join(registry())} (or {', '.join(others)}; "
            "arena agents lists them)")


def import_target(target: str, spec: str) -> Callable[..., Any]:
    """The class or function ``module:attr`` (or ``file.py:attr``) names;
    AgentSpecError naming ``spec`` when it cannot be imported."""
    module_name, _, attr = target.partition(":")
    try:
        if module_name.endswith(".py"):
            module = _import_file(Path(module_name))
        else:
            _search_working_directory()
            module = _import_module(module_name)
    except (ImportError, OSError) as error:
        raise AgentSpecError(f"agent spec {spec!r}: cannot import {module_name}: {error}") from None
    except BaseException as error:
        if from_user(error):
            raise
        raise AgentSpecError(f"agent spec {spec!r}: importing {module_name} failed: "
                             f"{describe_error(error)}") from None
    try:
        factory = getattr(module, attr)
    except AttributeError:
        import difflib  # only here: a target that names nothing

        public = [name for name in vars(module) if not name.startswith("_")]
        close = difflib.get_close_matches(attr, public, n=3)
        guess = f": did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise AgentSpecError(f"agent spec {spec!r}: {module_name} has no {attr!r}{guess}"
                             ) from None
    if not callable(factory):
        raise AgentSpecError(f"agent spec {spec!r}: {target} is not a class or function")
    return typing.cast(Callable[..., Any], factory)


def _search_working_directory() -> None:
    """Let ``module:Attr`` specs find the user's modules in the directory arena runs in."""
    cwd = str(Path.cwd())
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)


def _import_file(path: Path) -> Any:
    resolved = path.resolve()
    module_name = f"arena_user_agent_{abs(hash(str(resolved)))}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    if not resolved.is_file():
        raise OSError(f"no such file {path}")
    loader_spec = importlib.util.spec_from_file_location(module_name, resolved)
    if loader_spec is None or loader_spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]  # a later attempt imports it afresh
        raise
    return module


def _import_module(name: str) -> types.ModuleType:
    """Import ``name``; if a plain module of the same top-level name, in a folder another
    library put on sys.path, hides the package it belongs to (kaggle-environments puts a
    folder holding an ``agents.py`` first on sys.path), that folder is taken off sys.path
    and the import tried again."""
    try:
        return importlib.import_module(name)
    except ImportError:
        top = name.partition(".")[0]
        if top == name or top in sys.modules:
            raise
        found = importlib.util.find_spec(top)
        if found is None or found.origin is None or found.submodule_search_locations:
            raise
        folder = Path(found.origin).parent.resolve()
        hiding = [entry for entry in sys.path if entry and Path(entry).resolve() == folder]
        if not hiding:
            raise
        for entry in hiding:
            sys.path.remove(entry)
        importlib.invalidate_caches()
        return importlib.import_module(name)
