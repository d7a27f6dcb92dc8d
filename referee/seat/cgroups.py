"""A control group per seat: which cgroup version gives it on this machine.

A seat's group gives memory and process limits for its whole tree, the
freezer of the fair clock, the CPU clock and a sure kill (see
:mod:`referee.seat.cgroup_base` for the interface). :func:`cgroup_roots`
picks the backend: cgroup v1 (:mod:`referee.seat.cgroup_v1`) when its
controllers are writable, else a writable cgroup v2 hierarchy
(:mod:`referee.seat.cgroup_v2`), else none, with the reason.

``$SPADES_CGROUP`` (``auto``, the default; ``v1``; ``v2``; ``none``) forces
the choice: for testing one backend on a machine that has both (a hybrid
v1 + v2 layout), or for an operator who wants one.
"""

from __future__ import annotations

import os

from referee.seat.cgroup_base import CgroupRoots, SeatCgroup
from referee.seat.cgroup_v1 import v1_roots
from referee.seat.cgroup_v2 import v2_roots

__all__ = ["CgroupRoots", "SeatCgroup", "cgroup_roots", "CGROUP_ENV", "CGROUP_CHOICES"]

#: Environment variable forcing the cgroup backend.
CGROUP_ENV = "SPADES_CGROUP"
CGROUP_CHOICES = ("auto", "v1", "v2", "none")


def cgroup_roots() -> tuple[CgroupRoots | None, str | None]:
    """The hierarchy seats get groups in, or None; and what is missing of it (None when nothing is)."""
    choice = os.environ.get(CGROUP_ENV, "auto") or "auto"
    if choice not in CGROUP_CHOICES:
        return None, (f"${CGROUP_ENV} must be one of {', '.join(CGROUP_CHOICES)}, got: {choice!r}; "
                      "no cgroups are used")
    if choice == "none":
        return None, f"no cgroups (${CGROUP_ENV}=none): no memory or process limits, no freezer, no CPU clock"
    if choice in ("auto", "v1"):
        roots, problem = v1_roots()
        if roots is not None or choice == "v1":
            return roots, problem
        v1_problem = problem
    roots2, problem2 = v2_roots()
    if roots2 is None and choice == "auto":
        return None, f"{v1_problem}; {problem2}: no memory or process limits, no freezer, no CPU clock"
    return roots2, problem2
