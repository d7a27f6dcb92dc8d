"""Attack: read /proc/<pid>/mem of the referee and of the other bots, looking for hidden hands."""
import os

from attack import foreign_pids, play, report


def peek():
    for pid in [os.getppid()] + foreign_pids():
        try:
            with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
                for line in maps:
                    start = int(line.split("-")[0], 16)
                    try:
                        mem.seek(start)
                        if mem.read(4096):
                            report(f"read memory of pid {pid}")
                            return
                    except OSError:
                        continue
        except OSError:
            continue


play(peek)
