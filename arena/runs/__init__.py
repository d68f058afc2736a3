"""Runs: many games of agents into a run directory, resumable and checked.

- ``plan``: every game of a run numbered, with its pairing, first mover, opening and seed;
  ``openings`` the positions games start from; ``seeds`` every random stream;
- ``game``: one game between two hosted agents; ``batches``: a worker's batch of games;
  ``pool``: the worker processes (local or dask); ``runner``: a plan played into a directory;
  ``crashes``: a native crash of the process that plays, reported (``crash_watcher``);
- ``directory``: the run directory and its files; ``rows``: games.csv; ``validation``: its
  rows checked against the plan; ``summary``: summary.csv; ``recorded``: games read back;
- ``adjudication``: games ended with the solver's proven result; ``progress``: progress bars.
"""
