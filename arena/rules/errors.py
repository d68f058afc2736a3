"""The project's exceptions: one class per cause, all of them ValueErrors; and how any exception
is told in one line."""


class ArenaError(ValueError):
    """Base class of every error caused by bad input to the arena."""


class MalformedInputError(ArenaError):
    """Input that cannot be read: a non-digit in a move string, a column out of range."""


class IllegalMoveError(ArenaError):
    """A well-formed move the position does not allow: a full column, a game already over."""


class InvalidRulesError(ArenaError):
    """Board dimensions or a connect length the project cannot play."""


class InvalidPositionError(ArenaError):
    """A board that no legal game can produce."""


class AgentSpecError(ArenaError):
    """An agent spec string naming an unknown agent or parameter, or a bad value."""


class UnsupportedBoardError(ArenaError):
    """An agent asked to play on a board it does not support."""


MAX_MESSAGE = 500
"""Characters of an agent's error message kept (in games.csv, in one-line errors)."""


def describe_error(error: BaseException) -> str:
    """An exception as one line: its type and message, shortened to MAX_MESSAGE."""
    message = str(error)
    text = " ".join(f"{type(error).__name__}: {message}".split()) if message else \
        type(error).__name__
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."
