"""Solver-backed analysis: how close agents play to perfection, and where games were lost.

- ``scores``: exact column scores of positions, cached on disk and computed in parallel;
- ``position_sets``: the positions to test agents on (benchmark sets, files, random play,
  a run's games);
- ``accuracy``: each agent's best-move rate and blunder rate on a set, and their cost;
- ``annotate``: the first move of each game of a run that changed its theoretical result;
- ``adjudication``: games ended at a ply with the result the solver proves;
- ``charts``, ``report_section``: what the report and the commands draw and write.
"""
