"""games.csv's rows under the module name earlier versions gave them: every name of
``arena.runs.store.rows``, and ``load_games`` (``arena.runs.store.reading``) as it once was."""

from arena.runs.store.reading import load_games as load_games
from arena.runs.store.rows import *  # noqa: F403
