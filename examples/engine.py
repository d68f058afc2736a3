"""An example engine for Connect Four Arena's line protocol (docs/engine-protocol.md).

It takes a win when it has one, else blocks the opponent's (unless `setoption block false`),
else plays a random column, seeded by the arena so that its games can be replayed.
Play it: arena match engine:examples/engine.py random -n 100
"""

import random
import sys


def say(line):
    print(line, flush=True)


def wins(columns, rows, connect, col, player):
    """True if `player` dropping a disc in column `col` makes `connect` in a row."""
    row = len(columns[col])

    def owns(c, r):
        return 0 <= c < len(columns) and 0 <= r < len(columns[c]) and columns[c][r] == player

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while owns(c, r):
                count, c, r = count + 1, c + sign * dc, r + sign * dr
        if count >= connect:
            return True
    return False


def choose(moves, rows, cols, connect, block, seed):
    columns = [[] for _ in range(cols)]
    for ply, digit in enumerate(moves):
        columns[int(digit) - 1].append(ply % 2 + 1)
    me = len(moves) % 2 + 1
    legal = [c for c in range(cols) if len(columns[c]) < rows]
    for player in (me, 3 - me) if block else (me,):
        for col in legal:
            if wins(columns, rows, connect, col, player):
                return col
    return random.Random(seed).choice(legal)


rows, cols, connect, block, moves = 6, 7, 4, True, ""
for line in sys.stdin:
    command, *args = line.split() or [""]
    if command == "arena":
        say("name Example engine")
        say("option block true")
        say("ready")
    elif command == "setoption" and args[0] == "block":
        block = args[1] == "true"
    elif command == "board":
        rows, cols, connect = map(int, args)
    elif command == "newgame":
        say("ready")
    elif command == "position":
        moves = args[0] if args else ""
    elif command == "go":
        seed = int(args[args.index("seed") + 1])
        say(f"move {choose(moves, rows, cols, connect, block, seed) + 1}")
    elif command == "quit":
        break
