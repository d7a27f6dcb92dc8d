"""spades-referee: a referee and bot-tournament harness for the card game Spades."""

__version__ = "0.1.0"
