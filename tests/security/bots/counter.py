"""Not an attack: a child counts as fast as it can into a file of its scratch space; each request, the bot reports the count.

On stderr, per request: ``COUNT <at the request> <at the answer>``. Under the
freezer the child makes no progress between an answer and the next request
(the whole seat is frozen); with ``ponder`` it counts on meanwhile.
"""
import os
import struct
import sys
import tempfile
import time

from attack import play

PATH = os.path.join(os.environ.get("SPADES_SCRATCH") or tempfile.mkdtemp(), "count")


def start_counting():
    fd = os.open(PATH, os.O_RDWR | os.O_CREAT, 0o600)
    os.pwrite(fd, struct.pack("q", 0), 0)
    if os.fork() == 0:
        n = 0
        while True:
            n += 1
            os.pwrite(fd, struct.pack("q", n), 0)


def count():
    with open(PATH, "rb") as fh:
        return struct.unpack("q", fh.read(8))[0]


def report(msg):
    start = count()
    time.sleep(0.020)  # on turn: the child counts
    print(f"COUNT {start} {count()}", file=sys.stderr, flush=True)


play(attack=start_counting, every=report)
