"""The agent protocol: what an agent is (``agent``: Agent, Choice, Limit, GameStart, Traits),
functions as agents (``functions``), spec strings and the registry that builds agents from
them (``registry``; built-ins and plugins found through entry points), players with their own
limits (``players``), short labels (``labels``), agents handed over as Python objects
(``objects``) and the conformance check every agent must pass (``conformance``)."""
