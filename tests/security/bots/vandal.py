"""Attack: read and then edit the files named in $SPY_TARGETS (referee source, another bot, results, config).

The paths come in the environment, not on the command line: the sandbox
shows a bot the folders its command names, and the point is to reach others.
"""
import os

from attack import play, report


def vandalise():
    for path in os.environ.get("SPY_TARGETS", "").split(os.pathsep):
        try:
            with open(path, "rb") as fh:
                fh.read(1)
            report(f"read {path}")
        except OSError:
            pass
        try:
            with open(path, "ab") as fh:
                fh.write(b"\n# vandalised\n")
            report(f"wrote {path}")
        except OSError:
            pass
        try:
            os.listdir(os.path.dirname(path))
            report(f"listed {os.path.dirname(path)}")
        except OSError:
            pass


play(vandalise)
