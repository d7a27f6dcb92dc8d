"""What the sandbox binds for a bot's command: its own folder, or its file alone.

A script straight in ``/tmp`` (or the home folder) is the one case where the file's
folder is far more than the bot's own: the sandbox has a private ``/tmp``, so binding
nothing made the bot fail with "can't open file"; binding all of ``/tmp`` would show it
every other file there. The file alone is bound.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat.clock import TimeControl
from referee.seat.sandbox import SandboxSpec, detect
from referee.seat.sandbox_paths import bot_paths
from referee.seat.spec import SeatSpec
from conftest import BOTS, PY


def test_a_script_in_a_top_level_folder_is_bound_alone_and_one_in_a_subfolder_with_its_folder(
        tmp_path: Path) -> None:
    top = Path("/tmp") / f"spades-paths-{uuid.uuid4().hex}.py"
    top.write_text("print('x')\n")
    try:
        paths = bot_paths([PY, str(top)], str(tmp_path), os.environ)
        assert str(top) in paths.ro and "/tmp" not in paths.ro
    finally:
        top.unlink()
    (tmp_path / "bot").mkdir()
    script = tmp_path / "bot" / "main.py"
    script.write_text("print('x')\n")
    paths = bot_paths([PY, str(script)], str(tmp_path), os.environ)
    assert str((tmp_path / "bot").resolve()) in paths.ro


@pytest.mark.skipif(detect().bwrap is None, reason=f"needs bubblewrap: {detect().bwrap_problem}")
def test_a_bot_straight_in_tmp_plays_in_the_sandbox_and_sees_no_other_file_there(tmp_path: Path) -> None:
    tag = uuid.uuid4().hex
    bot = Path("/tmp") / f"spades-bot-{tag}.py"
    neighbour = Path("/tmp") / f"spades-neighbour-{tag}.txt"
    shutil.copy(BOTS / "random_bot.py", bot)
    # The bot names its neighbour on stderr if it can see it.
    bot.write_text(bot.read_text().replace(
        "import", f"import os, sys\nif os.path.exists({str(neighbour)!r}): print('SAW NEIGHBOUR', file=sys.stderr)\nimport",
        1))
    neighbour.write_text("secret\n")
    try:
        spec = MatchSpec(variant=Variant.TWO_PLAYER, rules=Rules(target=100, max_hands=3), seed=5, match_id="tmp-bot",
                         seats=[SeatSpec("in-tmp", [PY, str(bot)]), SeatSpec("random", [PY, str(BOTS / "random_bot.py")])],
                         time=TimeControl(1000, 10000, 10000), logs=str(tmp_path / "logs"), sandbox=SandboxSpec())
        record = run_match(spec)
        stderr = spec.stderr_path(0)
        assert stderr is not None
        assert record.faults == [], record.faults
        assert record.to_dict()["sandbox"][0]["namespaces"] is True
        assert "SAW NEIGHBOUR" not in stderr.read_text()
    finally:
        bot.unlink()
        neighbour.unlink()
