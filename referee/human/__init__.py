"""Human play: a person takes a seat through a text adapter that is itself a protocol-v1 bot.

``python -m referee.human`` (or ``spades human``) runs the adapter: the referee
talks to it on stdin/stdout exactly as to any bot, and the adapter talks to the
person on a terminal. ``spades play`` seats you against the bundled bots.
See docs/human-play.md.
"""

from referee.human.adapter import run_adapter

__all__ = ["run_adapter"]
