"""Engines: agents that are programs of their own, always in a supervised process.

- ``engine``: the host of a program (``EngineHost``) and the ``Dialect`` it speaks;
- ``line_protocol``: the arena's line protocol (docs/engine-protocol.md);
- ``pons``: the native mode of Pascal Pons' solver, as an agent and as an oracle;
- ``channel``: lines to and from a program under deadlines;
- ``engines_file``: named engines (``--engines FILE``);
- ``external``: the specs ``engine:PATH``, ``engine:NAME`` and ``pons:PATH``.
"""
