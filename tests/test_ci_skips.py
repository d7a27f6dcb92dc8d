"""The suite's own rule: in CI a skipped test fails; on a user's machine it stays a skip."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text()


@pytest.mark.parametrize(("ci", "expected"), [("true", {"failed": 1}), ("", {"skipped": 1})])
def test_a_skip_fails_only_in_ci(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str, expected: dict[str, int]) -> None:
    monkeypatch.setenv("CI", ci)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile("import pytest\n\ndef test_needs_a_tool():\n    pytest.skip('chromium is not installed')\n")
    result = pytester.runpytest_inprocess("-p", "no:xdist", "-p", "no:benchmark")
    result.assert_outcomes(**expected)
    if ci:
        result.stdout.fnmatch_lines(["*skipped in CI, which counts as a failure*chromium is not installed*"])


@pytest.mark.parametrize(("ci", "expected"), [("true", {"errors": 1}), ("", {"skipped": 1})])
def test_a_module_skipped_at_import_fails_only_in_ci(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                     ci: str, expected: dict[str, int]) -> None:
    monkeypatch.setenv("CI", ci)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile("import pytest\n\npytest.importorskip('no_such_module_here')\n\ndef test_x():\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "no:xdist", "-p", "no:benchmark")
    result.assert_outcomes(**expected)
    if ci:
        result.stdout.fnmatch_lines(["*skipped in CI, which counts as a failure*no_such_module_here*"])
