"""The strong bundled Spades bot: determinized search for card play, simulation for bids.

The package is self-contained (standard library only) and never imports the referee:
like any foreign bot it learns everything from protocol messages. ``bots/strong_bot.py``
is the entry script; :class:`bots.strong.bot.StrongBot` holds the decisions.
"""
