"""Agents whose faults must be told in one clear line (tests/integration/test_agent_errors.py)."""


class NoChoose:
    """Meant to be an agent, but its author forgot choose."""

    def new_game(self, game):
        pass


def plan(position):
    return search(position)


def search(position):
    return evaluate(position)


def evaluate(position):
    return score(position)


def score(position):
    return weigh(position)


def weigh(position):
    raise ValueError("the evaluation went wrong")


class RaisesDeep:
    """Raises six calls deep in its own code on its second move."""

    def choose(self, position, rng):
        if position.plies >= 2:
            plan(position)
        return position.legal_moves()[0]


class BadConstructor:
    """Cannot be built."""

    def __init__(self):
        raise RuntimeError("no weights file")

    def choose(self, position, rng):
        return 0
