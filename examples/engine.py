"""An example engine for Connect Four Arena's line protocol (docs/engine-protocol.md).

It takes a win when it has one, else blocks the opponent's (unless `setoption block false`),
else plays a random column, seeded by the arena so that its games can be replayed.
Play it: arena match engine:examples/engine.py random -n 100
"""

import random
import sys


def wins(columns, connect, col, player):
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


def choose(columns, rows, connect, me, block, seed):
    """The column (0-based) to play; `columns` holds each column's discs, bottom first."""
    legal = [c for c in range(len(columns)) if len(columns[c]) < rows]
    for player in (me, 3 - me) if block else (me,):
        for col in legal:
            if wins(columns, connect, col, player):
                return col
    return random.Random(seed).choice(legal)


def main():
    rows, cols, connect, block, moves = 6, 7, 4, True, ""
    for line in sys.stdin:
        command, *args = line.split() or [""]
        if command == "arena":
            print("name Example engine\noption block true\nready", flush=True)
        elif command == "setoption" and args[0] == "block":
            block = args[1] == "true"
        elif command == "board":
            rows, cols, connect = map(int, args)
        elif command == "newgame":
            print("ready", flush=True)
        elif command == "position":
            moves = args[0] if args else ""
        elif command == "go":
            columns = [[] for _ in range(cols)]
            for ply, digit in enumerate(moves):
                columns[int(digit) - 1].append(ply % 2 + 1)
            seed = int(args[args.index("seed") + 1])
            column = choose(columns, rows, connect, len(moves) % 2 + 1, block, seed)
            print(f"move {column + 1}", flush=True)
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
