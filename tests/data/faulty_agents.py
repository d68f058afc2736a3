"""Agents whose faults must be told in one clear line (tests/integration/test_agent_errors.py)."""


class NoChoose:
    """Meant to be an agent, but its author forgot choose."""

    def new_game(self, game):
        pass


def _deep_trouble(depth):
    if depth == 0:
        raise ValueError("the evaluation went wrong")
    _deep_trouble(depth - 1)


class RaisesDeep:
    """Raises from deep in its own code on its second move."""

    def choose(self, position, rng):
        if position.plies >= 2:
            _deep_trouble(8)
        return position.legal_moves()[0]


class BadConstructor:
    """Cannot be built."""

    def __init__(self):
        raise RuntimeError("no weights file")

    def choose(self, position, rng):
        return 0
