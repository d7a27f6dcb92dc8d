"""Seeing the games: replay pages, the tournament report and ``spades show``.

A face, like ``referee.human``: imported only by ``referee.cli``. The replay
model (:mod:`referee.pages.replay`) rebuilds every state of a match by
stepping the rules engine through the actions its transcript shows; the
pages render what it computed and decide nothing about the rules.
"""
