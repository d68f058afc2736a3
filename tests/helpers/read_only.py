"""A folder made read-only for one command as a read-only filesystem is: a read-only bind mount
in a mount namespace of the command's own (``unshare``), which even root cannot write through
and which no other process sees; the folder itself is left as it was."""

from __future__ import annotations

import functools
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

MOUNT = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
"""The shell's lines that mount folder $0 read-only over itself, then run the command."""


def read_only(folder: Path, command: Sequence[str]) -> list[str]:
    """``command``, to run with ``folder`` (and all under it) on a read-only filesystem."""
    user = [] if os.geteuid() == 0 else ["--map-root-user"]  # a user's own namespace
    return ["unshare", "--mount", *user, "sh", "-c", MOUNT, str(folder), *command]


@functools.cache
def read_only_mounts() -> bool:
    """Whether this machine lets a command have a read-only folder (``read_only``)."""
    with tempfile.TemporaryDirectory() as folder:
        try:
            probe = subprocess.run(read_only(Path(folder), ["touch", f"{folder}/x"]),
                                   capture_output=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return False
        return b"Read-only file system" in probe.stderr and not Path(folder, "x").exists()
