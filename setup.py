"""Packaging beyond pyproject.toml: which packages the wheel holds.

The referee's packages, and the bundled bots: the ``bots/`` folder is shipped
as the package ``spades_bots`` (mapped, not moved, so paths like
``bots/heuristic_bot.py`` keep working in a clone), which is where
``referee.seat.builtin`` finds them after a plain ``pip install``.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["referee", "referee.*"]) + ["spades_bots", "spades_bots.strong"],
    package_dir={"spades_bots": "bots"},
)
