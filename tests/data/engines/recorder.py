"""Plays the leftmost free column and writes every line it is sent to the file named by the
environment variable ENGINE_TRANSCRIPT."""

import os
import sys

from engine_base import leftmost, say

with open(os.environ["ENGINE_TRANSCRIPT"], "a") as transcript:
    rows, cols, moves = 6, 7, ""
    for line in sys.stdin:
        transcript.write(line)
        transcript.flush()
        command, *args = line.split() or [""]
        if command == "arena":
            say("option hash 16")
            say("limits depth")
            say("ready")
        elif command == "board":
            rows, cols = int(args[0]), int(args[1])
        elif command == "newgame":
            say("ready")
        elif command == "position":
            moves = args[0] if args else ""
        elif command == "go":
            say(f"move {leftmost(moves, rows, cols)}")
        elif command == "quit":
            break
