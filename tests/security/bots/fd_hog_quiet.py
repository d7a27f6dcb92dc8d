"""Attack: a child opens files up to the open-files limit and keeps them; the bot then hangs, silent."""
import os
import time

from attack import play


def hog():
    if os.fork() == 0:
        held = []
        try:
            while True:
                held.append(os.open("/dev/null", os.O_RDONLY))
        except OSError:
            time.sleep(3600)  # no last words: only the descriptors it holds can tell
    time.sleep(3600)


play(hog)
