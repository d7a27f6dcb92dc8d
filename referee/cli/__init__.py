"""The ``spades`` command: matches, tournaments, standings and check-bot."""
