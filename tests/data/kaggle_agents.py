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


def raises_at_step_7(observation, configuration):
    """The leftmost legal column, but an exception at step 7 (moving second, its fourth
    move)."""
    if observation.step == 7:
        raise ValueError("step 7 is too much")
    return legal(observation, configuration)[0]


def answers_text(observation, configuration):
    """Answers with a string, as a careless agent may."""
    return "x"


def answers_numpy(observation, configuration):
    """The leftmost legal column as a numpy integer (np.argmax and friends give those)."""
    import numpy as np

    return np.int64(legal(observation, configuration)[0])


def _told_then_sleep(observation, configuration, seconds):
    """Prints what it is told (``told ACT OVERAGE BANK``), sleeps ``seconds`` on its first
    move, then plays the leftmost legal column."""
    import sys
    import time

    print("told", configuration.actTimeout, round(observation.remainingOverageTime, 1),
          configuration.agentTimeout, file=sys.stderr)
    if observation.step < 2:
        time.sleep(seconds)
    return legal(observation, configuration)[0]


def told_then_half_a_second(observation, configuration):
    """Half a second on its first move."""
    return _told_then_sleep(observation, configuration, 0.5)


def told_then_past_kaggles_limit(observation, configuration):
    """2.4 s on its first move: past Kaggle's 2 s, within its 60 s of overage."""
    return _told_then_sleep(observation, configuration, 2.4)
