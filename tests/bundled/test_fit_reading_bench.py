"""bench/fit_reading.py, the tool that fits the learned reading: one tiny run plays real
hands, saves the decisions with the sampler's marginals and the true deal, and fits
weights of the shape reading.py takes; a file it cannot read is refused by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import load_bench

fit_reading = load_bench("fit_reading")

from bots.strong.reading import FEATURE_NAMES  # noqa: E402


def test_a_tiny_run_records_real_decisions_and_fits_weights(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "decisions.jsonl"
    fit_reading.main(["--deals", "1", "--first-deal", "20001", "--jobs", "1", "--marginal", "8", "--save", str(saved)])
    out = capsys.readouterr().out
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert out.startswith(f"{len(records)} decisions") and len(records) >= 10
    for rec in records:
        # The label is the true deal: the reader's own hand is in it, and every marginal
        # counts only the deals sampled.
        assert rec["true"][rec["seat"]] == rec["hand"]
        assert set(rec["marg"]) == {str(s) for s in range(4)} - {str(rec["seat"])}
        assert all(0 <= k <= rec["n"] for counts in rec["marg"].values() for k in counts)
        # A card the reader holds is dealt to no other seat.
        assert all(counts[c] == 0 for counts in rec["marg"].values() for c in range(52) if rec["hand"] >> c & 1)
    for name in ("PARTNER_WEIGHTS", "OPPONENT_WEIGHTS"):
        line = re.search(rf"^{name}: tuple\[float, \.\.\.\] = \((.*),\)$", out, re.M)
        assert line is not None, out
        assert len(line.group(1).split(", ")) == len(FEATURE_NAMES) + 1
    # Fitting again from the saved decisions gives the same weights without playing.
    fit_reading.main(["--records", str(saved)])
    assert capsys.readouterr().out == out


def test_an_unreadable_records_file_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(SystemExit) as err:
        fit_reading.main(["--records", str(bad)])
    assert "cannot read decisions from" in str(err.value) and str(bad) in str(err.value)
