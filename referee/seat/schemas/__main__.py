"""``python -m referee.seat.schemas LOG.jsonl ...``: validate match transcripts."""

import sys

from referee.seat.schemas import main

sys.exit(main())
