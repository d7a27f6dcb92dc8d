"""A results folder damaged by hand never crashes standings or resume, and never loses a record (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from referee.cli.main import cli
from referee.tournament import integrity
from referee.tournament.results import ReadReport, ResultsFolder


def signed_folder(tmp_path: Path, count: int = 2) -> tuple[ResultsFolder, bytes]:
    folder = ResultsFolder(tmp_path / "res")
    secret = folder.secret(create=True)
    assert secret is not None
    lines = b"".join((json.dumps(integrity.sign(secret, {"match": f"m{i}", "x": i})) + "\n").encode()
                     for i in range(count))
    folder.matches_path.write_bytes(lines)
    return folder, secret


def standings(folder: ResultsFolder):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["standings", str(folder.path)])


def test_a_whole_last_record_without_its_newline_is_kept(tmp_path: Path) -> None:
    folder, _ = signed_folder(tmp_path)
    body = folder.matches_path.read_bytes()
    folder.matches_path.write_bytes(body[:-1])  # an editor dropped the final newline
    report, warnings = ReadReport(), []  # type: ignore[var-annotated]
    assert [r["match"] for r in folder.iter_records(report, warn=warnings.append)] == ["m0", "m1"]
    assert report.torn_bytes == 0 and warnings == []
    assert folder.repair() == 0  # not torn: it gets its newline back and stays
    assert folder.matches_path.read_bytes() == body
    assert not (folder.path / "matches.jsonl.torn").exists()


def test_a_line_that_does_not_parse_is_still_torn(tmp_path: Path) -> None:
    folder, _ = signed_folder(tmp_path)
    body = folder.matches_path.read_bytes()
    folder.matches_path.write_bytes(body + b'{"match": "m2", "x"')
    assert folder.repair() == len(b'{"match": "m2", "x"')
    assert folder.matches_path.read_bytes() == body


def test_out_of_range_and_too_deep_lines_are_reported_by_line_and_skipped(tmp_path: Path) -> None:
    folder, secret = signed_folder(tmp_path)
    check = integrity.sign(secret, {"match": "m9"})["check"]
    extra = (b'{"match": "m7", "score": [1e400, 0], "check": "' + check.encode() + b'"}\n'
             + b"[" * 100_000 + b"]" * 100_000 + b"\n" + b'{"match": "m8", "v": NaN}\n')
    folder.matches_path.write_bytes(folder.matches_path.read_bytes() + extra)
    result = standings(folder)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "matches.jsonl:3: ignoring a line that is not a match record: the number 1e400 is out of range" \
        in result.output
    assert "matches.jsonl:4: ignoring a line that is not a match record: it nests too deeply" in result.output
    assert "matches.jsonl:5:" in result.output and "NaN" in result.output
    report = ReadReport()
    assert [r["match"] for r in folder.iter_records(report)] == ["m0", "m1"] and report.bad_lines == [3, 4, 5]


def test_matches_jsonl_as_a_folder_is_refused_with_exit_2(tmp_path: Path) -> None:
    folder, _ = signed_folder(tmp_path)
    folder.matches_path.unlink()
    folder.matches_path.mkdir()
    result = standings(folder)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{folder.matches_path} is a folder, not the file of match records" in result.output


def test_resume_keeps_a_record_without_newline_and_refuses_a_folder(tmp_path: Path) -> None:
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: t\nvariant: two-player\nseed: 1\nmatches_per_pairing: 2\nrules: {target: 100}\n"
                   "output: res\nbots:\n  - {name: a, command: builtin:random}\n"
                   "  - {name: b, command: builtin:random}\n")
    runner = CliRunner()
    first = runner.invoke(cli, ["run", str(cfg), "--quiet"])
    assert first.exit_code == 0, first.output
    matches = tmp_path / "res" / "matches.jsonl"
    body = matches.read_bytes()
    matches.write_bytes(body[:-1])
    again = runner.invoke(cli, ["run", str(cfg), "--quiet"])
    assert again.exit_code == 0, again.output
    assert matches.read_bytes() == body  # nothing replayed, the record kept as it was
    assert not (tmp_path / "res" / "matches.jsonl.torn").exists()
    matches.unlink()
    matches.mkdir()
    refused = runner.invoke(cli, ["run", str(cfg), "--quiet"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "matches.jsonl is a folder, not the file of match records" in refused.output


def test_unusable_records_name_the_missing_field(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path / "old")  # a folder from before integrity checks: records are read unverified
    folder.path.mkdir()
    folder.matches_path.write_text('{"match": "m1", "score": "x"}\n'
                                   '{"match": "m2", "variant": "two-player", "bots": ["a", "b"], "score": "x"}\n')
    result = standings(folder)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "match 'm1': skipped, the record is not usable (it has no field 'variant')" in result.output
    assert "match 'm2': skipped, the record is not usable (ValueError:" in result.output
