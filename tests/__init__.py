"""The test suite: ``unit/``, ``integration/`` and ``cli/`` tests, ``helpers/`` they share, and
``data/`` (agents, engines and a fake solver that tests load by path)."""
