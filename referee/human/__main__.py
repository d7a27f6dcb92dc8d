"""``python -m referee.human``: run the human adapter (same options as ``spades human``)."""

from referee.human.command import human_command

if __name__ == "__main__":
    human_command(prog_name="python -m referee.human")
