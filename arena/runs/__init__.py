"""Runs: many games of agents into a run directory, resumable and checked; three rooms, each
importing only the rooms before it:

- ``planning``: what to play, before any game: the run request (``request``, the charts it
  asks for in ``charts``), the plan (``plan``: every game numbered, with its pairing, first
  mover, opening and seed), the openings (``openings``) and every random stream (``seeds``);
- ``store``: the run directory and its files: their names (``files``), meta.json
  (``meta``), games.csv (``rows``; its rows checked against the plan, ``validation``), the
  lock and appending (``directory``), summary.csv (``summary``), and a run opened for reading
  (``reading``, ``recorded``);
- ``playing``: the games played into a store: one game (``game``, ``adjudication``), the fused
  game loop (``fused``), a worker's batch (``batches``), the workers (``pool``), a native
  crash reported (``crashes``, ``crash_watcher``), the runner (``runner``) and progress bars
  (``progress``).

The modules' earlier names (``arena.runs.plan``, ``arena.runs.rows``, ...) still import them.
"""
