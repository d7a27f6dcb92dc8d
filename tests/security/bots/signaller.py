"""Attack: SIGSTOP, then SIGKILL, every other process it can find (the opponent, the referee)."""
import os
import signal

from attack import foreign_pids, play, report


def strike():
    targets = [os.getppid()] + foreign_pids()
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in targets:
            if pid in (os.getpid(), 1):
                continue
            try:
                os.kill(pid, sig)
                report(f"signal {sig.name} to pid {pid}")
            except OSError:
                pass
    try:
        os.kill(-1, signal.SIGKILL)  # everything this uid may signal (but itself)
    except OSError:
        pass


play(strike)
