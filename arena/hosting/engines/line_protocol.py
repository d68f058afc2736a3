"""The arena's engine protocol: lines over stdin and stdout, summed up in ``PROTOCOL``
(``arena agents engine`` prints it; docs/engine-protocol.md in a checkout has it in full).

The arena greets the engine with ``arena 1``; the engine declares its options, the search
limits it honours and whether it is reproducible, then says ``ready``. Each game starts with
``board ROWS COLS CONNECT`` and ``newgame PLAYER`` (answered ``ready``, or ``unsupported
REASON``); each move is ``position MOVES`` and ``go [time S] [bank S] [depth D] [nodes N] seed
K``, answered ``move COLUMN [depth D] [nodes N] [score S] [pv MOVES]``. ``info`` lines are
logged, blank lines ignored, ``error TEXT`` ends the game; ``quit`` ends the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.hosting.engines.engine import (
    BoardRefused,
    EngineRefused,
    ProtocolError,
    Talk,
    Turn,
    quote,
)
from arena.protocol.agent import Choice, GameStart, Traits
from arena.rules.board import Rules

VERSION = 1
PROTOCOL = """\
The line protocol, version 1: the arena writes commands to the engine's standard input
and reads its answers from its standard output, one UTF-8 line each. Flush after every line.
Columns are 1-based (1 = leftmost); MOVES is a move string (4453). Blank lines are ignored;
ignore commands you do not know. The engine's standard error goes to the run's agents.log.

The arena says                                 the engine answers
  arena 1                                        its declarations, then ready
  setoption NAME VALUE                           nothing (options of the engines file)
  board ROWS COLS CONNECT                        nothing (before every game)
  newgame PLAYER                                 ready, or unsupported REASON (1 moves first)
  position MOVES                                 nothing (the game's moves; alone: empty board)
  go [time S] [bank S] [depth D] [nodes N] seed K
                                                 move COLUMN [depth D] [nodes N] [score S]
                                                      [pv MOVES]
  quit                                           nothing: exit (also when the input ends)

Declarations, between arena 1 and ready, all optional: name TEXT; option NAME [DEFAULT]
(setoption may set it); limits depth nodes (the search limits it honours); reproducible no.
Any time: info TEXT (logged), or error TEXT instead of an answer (the game is lost). time is
the move's limit in seconds, bank what is left of the game's time bank; draw random choices
from seed, so a run can be reproduced.

What loses a game: exiting, no move within limit + bank + 0.1 s (60 s without a limit), a line
other than info, move or error while thinking, a malformed move or a full column. The engine is
then started afresh for its next game.
"""
"""The protocol in short, as ``arena agents engine`` prints it."""
SEARCH_LIMITS = ("depth", "nodes")
"""The limits an engine may declare it honours (time it always has: the arena enforces it)."""


def split(line: str) -> tuple[str, str]:
    """The first word of a line and the rest, stripped."""
    words = line.split(maxsplit=1)
    return (words[0], words[1] if len(words) > 1 else "") if words else ("", "")


def parse_move(line: str, rules: Rules) -> Choice:
    """The Choice of a ``move COLUMN [KEY VALUE]...`` line (column 1-based in the line);
    ProtocolError quoting the line if it is not one. Unknown keys are skipped with their
    value."""
    words = line.split()
    column = words[1] if len(words) > 1 else ""
    if words[0] != "move" or not column.isdigit() or not 1 <= int(column) <= rules.cols:
        raise ProtocolError(f"the engine answered {quote(line)}: expected move COLUMN with a "
                            f"column from 1 to {rules.cols}")
    pairs = words[2:]
    if len(pairs) % 2:
        raise ProtocolError(f"the engine answered {quote(line)}: expected KEY VALUE pairs "
                            "after the column")
    info: dict[str, object] = {}
    for key, value in zip(pairs[::2], pairs[1::2], strict=True):
        try:
            if key in ("depth", "nodes"):
                if not value.isdigit():
                    raise ValueError(value)
                info[key] = int(value)
            elif key == "score":
                number = float(value)
                info[key] = int(number) if number.is_integer() else number
            elif key == "pv":
                if not all(ch.isdigit() and 1 <= int(ch) <= rules.cols for ch in value):
                    raise ValueError(value)
                info[key] = tuple(int(ch) - 1 for ch in value)
        except ValueError:
            raise ProtocolError(f"the engine answered {quote(line)}: bad {key} {value!r}") \
                from None
    return Choice(int(column) - 1, **info)  # type: ignore[arg-type]


def go_command(turn: Turn) -> str:
    """``go`` with the move's limits, what is left of the bank and a seed."""
    limit = turn.game.limit
    words = ["go"]
    if limit.time is not None:
        words += ["time", f"{limit.time:g}"]
    if turn.bank is not None:
        words += ["bank", f"{turn.bank:.3f}"]
    if limit.depth is not None:
        words += ["depth", str(limit.depth)]
    if limit.nodes is not None:
        words += ["nodes", str(limit.nodes)]
    return " ".join([*words, "seed", str(turn.seed)])


class ArenaDialect:
    """The arena's own protocol."""

    def hello(self, talk: Talk, options: Sequence[tuple[str, str]]) -> Traits:
        """``arena 1``; the declarations up to ``ready``; then the options."""
        talk.send(f"arena {VERSION}")
        declared: list[str] = []
        limits: set[str] = set()
        reproducible = True
        while True:
            line = talk.receive()
            word, rest = split(line)
            if word == "ready":
                break
            if word == "error":
                raise EngineRefused(f"the engine answered {quote(line)}")
            if word == "option" and rest:
                declared.append(rest.split()[0])
            elif word == "limits":
                unknown = [name for name in rest.split() if name not in (*SEARCH_LIMITS, "time")]
                if unknown:
                    raise ProtocolError(f"the engine declared {quote(line)}: the limits are "
                                        f"{', '.join(SEARCH_LIMITS)}")
                limits.update(rest.split())
            elif word == "reproducible":
                if rest not in ("yes", "no"):
                    raise ProtocolError(f"the engine declared {quote(line)}: expected "
                                        "reproducible yes or reproducible no")
                reproducible = rest == "yes"
            else:  # its name, a banner: for the log
                talk.note(line)
        for name, _ in options:
            if name not in declared:
                raise ProtocolError(f"the engine has no option {name!r} (it declares "
                                    f"{', '.join(declared) or 'none'})")
        talk.send(*(f"setoption {name} {value}" for name, value in options))
        return Traits(reproducible=reproducible, supported_limits=frozenset(limits | {"time"}))

    def new_game(self, talk: Talk, game: GameStart) -> None:
        """``board`` and ``newgame``, answered ``ready`` (or ``unsupported``)."""
        rules = game.rules
        talk.send(f"board {rules.rows} {rules.cols} {rules.connect}", f"newgame {game.player}")
        while True:
            line = talk.receive()
            word, rest = split(line)
            if word == "ready":
                return
            if word == "unsupported":
                raise BoardRefused(f"the engine cannot play on {rules}: "
                                   f"{rest or 'it gave no reason'}")
            if word == "error":
                raise EngineRefused(f"the engine answered {quote(line)} to newgame")
            talk.note(line)

    def move(self, talk: Talk, turn: Turn) -> Choice:
        """``position`` and ``go``, answered ``move``; only ``info`` lines may come before."""
        talk.send(f"position {turn.moves}".rstrip(), go_command(turn))
        while True:
            line = talk.receive()
            word, _ = split(line)
            if word == "move":
                return parse_move(line, turn.position.rules)
            if word == "info":
                talk.note(line)
            elif word == "error":
                raise EngineRefused(f"the engine answered {quote(line)} to go")
            else:
                raise ProtocolError(f"the engine printed {quote(line)} where a move was "
                                    "expected")

    def goodbye(self, talk: Talk) -> None:
        """``quit``."""
        talk.send("quit")
