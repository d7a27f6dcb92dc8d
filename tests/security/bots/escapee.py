"""Attack: a double-forked child in a session of its own, stdio on /dev/null, that outlives the match."""
import os
import time

from attack import play


def escape():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            fd = os.open("/dev/null", os.O_RDWR)
            for n in (0, 1, 2):
                os.dup2(fd, n)
            end = time.time() + 60
            while time.time() < end:  # spin, to slow down whatever runs next
                pass
            os._exit(0)
        os._exit(0)
    os.wait()


play(escape)
