"""ConnectX agents written for Kaggle (observation, configuration) -> column, for the tests."""

import random

FIELDS = {"board", "mark", "step", "remainingOverageTime"}
SETTINGS = {"rows", "columns", "inarow", "actTimeout", "timeout", "agentTimeout",
            "episodeSteps", "runTimeout"}


def legal(observation, configuration):
    return [c for c in range(configuration.columns) if observation.board[c] == 0]


def checks_every_field(observation, configuration):
    """Plays the leftmost legal column after checking what Kaggle would give it."""
    assert set(observation) >= FIELDS and set(configuration) >= SETTINGS
    assert len(observation.board) == configuration.rows * configuration.columns
    discs = sum(cell != 0 for cell in observation.board)
    assert observation.step == discs and observation.mark == 1 + discs % 2
    assert configuration.inarow == 4 and configuration.actTimeout == 0.5
    return legal(observation, configuration)[0]


def random_choice(observation, configuration):
    """A random legal column from Python's global random, as Kaggle agents draw."""
    return random.choice(legal(observation, configuration))


def broken(observation, configuration):
    return observation.no_such_field


def answers_text(observation, configuration):
    """Answers with a string, as a careless agent may."""
    return "x"


def answers_numpy(observation, configuration):
    """The leftmost legal column as a numpy integer (np.argmax and friends give those)."""
    import numpy as np

    return np.int64(legal(observation, configuration)[0])
