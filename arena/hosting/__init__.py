"""How agents are run: in the worker process, or in a supervised child process of their own.

A *host* runs one agent for one worker, the way engine testers host engines: it builds the
agent, tells it of each game, asks it for moves within a bound, collects what it prints, and
turns whatever goes wrong into an ``AgentFault`` (a forfeit with its reason), so that a
misbehaving agent costs one game, never the run.

- ``InlineHost`` (``inline``) calls the agent in the worker: no overhead, for trusted code.
  Exceptions of every kind are caught, but a hang cannot be stopped and a crash takes the
  worker down.
- ``ProcessHost`` (``process``) runs the agent in a child process: a move not back within
  its bound is preempted (the child is killed, the game is a ``time_forfeit``, and the next
  game gets a fresh child); a child that dies is an ``agent_crash``.

``make_host`` chooses by the run's ``hosting`` policy: ``auto`` (the default) runs the
built-in agents inline and every other agent (files, modules, entry points) in a process.
"""
