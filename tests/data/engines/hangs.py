"""Never answers go (it sleeps, then would answer long after any limit)."""

import time

from engine_base import serve


def answer(game):
    time.sleep(30)
    return "move 1"


serve(answer)
