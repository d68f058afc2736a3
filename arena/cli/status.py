"""The exit statuses of the ``arena`` command."""

USAGE_ERROR = 2
"""Bad input: a one-line ``arena: error: ...`` on stderr."""
INTERRUPTED = 130
"""The user pressed Ctrl-C (finished games are kept)."""
WORKER_DIED = 1
"""A worker process died (finished games are kept)."""
BROKEN_AGENT = 1
"""An agent forfeited every one of its games for one reason."""
