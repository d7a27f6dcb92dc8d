"""A fair bot: exactly 150 ms of CPU per decision (measured as CPU time), then a legal answer."""
import time

from attack import play


def think(msg):
    end = time.process_time() + 0.150
    while time.process_time() < end:
        pass


play(every=think)
