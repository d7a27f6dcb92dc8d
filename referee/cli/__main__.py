"""``python -m referee.cli``: the ``spades`` command."""

from referee.cli.main import main

main()
