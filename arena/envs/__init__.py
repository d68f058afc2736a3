"""Environments to train agents in: many boards stepped at once in a compiled kernel
(``vector``), PettingZoo's two-player AEC game (``pettingzoo_env``) and Gymnasium's
one-learner game against any arena agent (``gymnasium_env``). The last two need the ``rl``
extra."""
