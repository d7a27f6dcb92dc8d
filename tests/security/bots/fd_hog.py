"""Attack: open files until the open-files limit refuses one (EMFILE), and die of it."""
import os

from attack import play


def hog():
    held = []
    while True:
        held.append(os.open("/dev/null", os.O_RDONLY))  # OSError: [Errno 24] Too many open files


play(hog)
