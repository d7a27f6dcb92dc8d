"""Not an attack: a bot that sleeps 20 ms per decision (wall time without CPU), for the clock tests."""
import time

from attack import play

play(every=lambda msg: time.sleep(0.020))
