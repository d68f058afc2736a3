"""The search layer: the compiled kernels (``kernels``: bitboards, negamax, MCTS, the exact
solver, how move strings end, in bulk), the heuristics they evaluate (``heuristics``), the
exact solver as an engine with its transposition table (``solver``), its opening books
(``book``) and the published 6 x 7 database (``database``), and the oracle protocol of
column scores (``oracle``). Nothing here knows agents: the built-in agents in ``agents/``
wrap these searches."""
