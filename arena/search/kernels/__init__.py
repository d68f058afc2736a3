"""The search kernels, one module per job, in the compiled core: the C++17 extension
``_core``, built from ``arena/search/core/`` by pip (scikit-build-core and nanobind) and
imported through ``native``. The modules keep the Python functions the rest of the arena calls
and the arrays those functions work in; every long call releases the GIL.

- ``bitboard``: the per-board tables (``board_array``) and the rules (playable cells, threats,
  lines);
- ``evaluation``: the heuristics evaluated at the depth limit;
- ``negamax``: the alpha-beta search and its root (``root_scores``);
- ``mcts``: random playouts and the UCT tree search;
- ``solver``: the exact solver's search, its table and books;
- ``endings``: how move strings end, checked in bulk (the checks of a run's rows);
- ``row_text``: the fused loop's rows of games.csv as bytes, and their moves' hashes;
- ``vector``: the vectorized environment's steps and observations;
- ``streams``: numpy's ``Generator(PCG64(seed))`` rebuilt, draw for draw;
- ``native``: the compiled core, imported;
- ``games``: whole games between two kernel agents, a batch in one call (the fused loop).

A position is two uint64 bitboards in the layout of ``arena.rules.board``: ``cur`` (discs of the
side to move) and ``mask`` (all discs). What a kernel needs to know about the board size comes
in the uint64 array of ``bitboard.board_array``, built once per Rules (a negamax search's
``search_array`` begins with it).
"""
