"""Every random stream of a run, derived from the run seed in this one place.

A run is reproducible because each stream depends only on the run seed and what it is for,
never on the workers, the backend or the order in which games finish:

- a game's agents: ``Generator(PCG64(game_seed(seed, game)))``, where the game seed is
  ``seed * 2**32 + game`` (games.csv records it), hashed by PCG64 through a SeedSequence;
  both agents of a game draw from it in turn;
- random openings (``random:K``): one stream for the whole run,
  ``SeedSequence(seed, spawn_key=(1,))``, drawn opening after opening;
- uniform openings (``uniform:K``): one stream per game, ``SeedSequence(seed, spawn_key=(2,
  game))``;
- the ratings' bootstrap (tournaments): ``SeedSequence(seed, spawn_key=(2,))``.

The spawn keys differ, so no two streams of a run overlap. Runs recorded before this module
used the same keys: their games and intervals come out the same.
"""

from __future__ import annotations

import numpy as np

DEFAULT_SEED = 42
"""The run seed when none is given: the same command always plays the same games."""

GAME_BITS = 32
"""Game indices fit in the low bits of a game's seed."""
MAX_SEED = (1 << (64 - GAME_BITS)) - 1
"""The largest run seed: every game's seed then fits in 64 bits (an unsigned integer column
of games.csv read by pandas, exact in meta.json and games.csv alike)."""

OPENINGS_KEY = (1,)
"""The spawn key of the random openings' stream."""
UNIFORM_OPENING_KEY = 2
"""The first word of the spawn key of a game's uniform opening (the second is the game)."""
RATINGS_KEY = (2,)
"""The spawn key of the ratings' bootstrap."""


def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game``: ``Generator(PCG64(seed))`` is the randomness of its agents."""
    return (run_seed << GAME_BITS) | game


def game_rng(run_seed: int, game: int) -> np.random.Generator:
    """The generator the agents of game ``game`` draw from."""
    return np.random.Generator(np.random.PCG64(game_seed(run_seed, game)))


def openings_rng(run_seed: int) -> np.random.Generator:
    """The generator of a run's random openings, drawn in order."""
    return _generator(np.random.SeedSequence(run_seed, spawn_key=OPENINGS_KEY))


def uniform_opening_rng(run_seed: int, game: int) -> np.random.Generator:
    """The generator of game ``game``'s uniform opening."""
    return _generator(np.random.SeedSequence(run_seed, spawn_key=(UNIFORM_OPENING_KEY, game)))


def ratings_rng(run_seed: int) -> np.random.Generator:
    """The generator of the ratings' bootstrap: the same run gives the same intervals."""
    return _generator(np.random.SeedSequence(run_seed, spawn_key=RATINGS_KEY))


def _generator(sequence: np.random.SeedSequence) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(sequence))
