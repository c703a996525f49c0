"""What python-chess recovers from PGN files: for every game it reads, the
line where the game starts, the number of mainline moves and whether it
logged errors. One tab-separated row per game: file, line, moves, errors.

Usage: python3 python_chess.py FILE...
"""

import logging
import sys

import chess.pgn

logging.disable(logging.CRITICAL)


class Lines:
    """A text handle that knows the line of the last line it gave out."""

    def __init__(self, handle):
        self.handle = handle
        self.line = 0
        self.first = None

    def readline(self):
        text = self.handle.readline()
        if text:
            self.line += 1
            stripped = text.lstrip("\ufeff")
            if self.first is None and not (
                stripped.isspace() or stripped.startswith(("%", ";"))
            ):
                self.first = self.line
        return text


def main(paths):
    out = sys.stdout
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = Lines(handle)
            while True:
                lines.first = None
                try:
                    game = chess.pgn.read_game(lines)
                except Exception as error:  # noqa: BLE001 - a crash is a finding
                    out.write(f"{path}\t{lines.first}\t-1\tcrash {type(error).__name__}\n")
                    break
                if game is None:
                    break
                moves = sum(1 for _ in game.mainline_moves())
                out.write(f"{path}\t{lines.first}\t{moves}\t{int(bool(game.errors))}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
