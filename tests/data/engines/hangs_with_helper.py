"""Starts a helper program (a long ``sleep``) when asked to move, then never answers: both must
end when the arena does, however it ends."""

import subprocess
import time

from engine_base import serve


def answer(game):
    subprocess.Popen(["sleep", "600"])
    time.sleep(600)
    return "move 1"


serve(answer)
