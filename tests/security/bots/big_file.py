"""Attack: leave a 1 GiB file in /tmp."""
from attack import play


def fill():
    chunk = b"x" * (1 << 20)
    with open("/tmp/big", "wb") as fh:
        for _ in range(1024):
            fh.write(chunk)


play(fill)
