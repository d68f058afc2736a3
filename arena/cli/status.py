"""The exit statuses of the ``arena`` command."""

USAGE_ERROR = 2
"""Bad input: a one-line ``arena: error: ...`` on stderr."""
INTERRUPTED = 130
"""The user pressed Ctrl-C (finished games are kept)."""
WORKER_DIED = 1
"""A worker process died (finished games are kept)."""
BROKEN_AGENT = 1
"""An agent forfeited every one of its games for one reason."""
NO_ROOM = 2
"""A run's file found no room to be written (a full disk, a quota, a read-only filesystem):
one line naming the file and the space left (finished games are kept)."""
