"""Attack: write a fake answer into the opponent's stdout pipe through /proc/<pid>/fd/1."""
import os

from attack import foreign_pids, play, report


def forge():
    for pid in foreign_pids():
        try:
            fd = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            os.write(fd, b'{"id":999,"card":"XX"}\n')
            report(f"wrote into stdout of pid {pid}")
        except OSError:
            pass
        finally:
            os.close(fd)


play(forge)
