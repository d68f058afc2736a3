"""Bridges to agents that are not Python classes of ours: programs of their own.

- ``engine``: the host of a program (``EngineHost``), supervised as ``ProcessHost`` is, and
  the ``Dialect`` it speaks.
- ``protocol``: the arena's line protocol (docs/engine-protocol.md); ``pons``: the native mode
  of Pascal Pons' solver, as an agent and as an oracle.
- ``channel``: lines to and from a program under deadlines.
- ``engines_file``: named engines (``--engines FILE``); ``external``: the specs
  ``engine:PATH``, ``engine:NAME`` and ``pons:PATH``.
"""
