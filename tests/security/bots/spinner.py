"""Attack: children spinning on every core while the opponent thinks, to make it lose on time."""
import os

from attack import play


def spin():
    for _ in range(2 * (os.cpu_count() or 2)):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass


play(spin)
