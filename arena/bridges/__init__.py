"""Bridges to agents written for other hosts: Kaggle ConnectX agents, programs of their own.

- ``kaggle``: Kaggle's ConnectX agents (``kaggle:random``, ``kaggle:negamax``, a submission
  file, any ``(observation, configuration)`` function) as arena agents; out:
  ``kaggle_submission`` writes a single-file submission from the template ``kaggle_agent``.
- ``engine``: the host of a program (``EngineHost``), supervised as ``ProcessHost`` is, and
  the ``Dialect`` it speaks.
- ``protocol``: the arena's line protocol (docs/engine-protocol.md); ``pons``: the native mode
  of Pascal Pons' solver, as an agent and as an oracle.
- ``channel``: lines to and from a program under deadlines.
- ``engines_file``: named engines (``--engines FILE``); ``external``: the specs
  ``engine:PATH``, ``engine:NAME`` and ``pons:PATH``.
"""
