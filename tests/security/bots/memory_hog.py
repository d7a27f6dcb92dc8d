"""Attack: take 4 GiB of memory (touched, so it is really used)."""
from attack import play

hoard = []


def hog():
    for _ in range(64):
        hoard.append(b"x" * (64 << 20))  # 64 MiB at a time, 4 GiB in all


play(hog)
