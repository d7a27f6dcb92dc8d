"""bench/starter_kits.py: with one kit available it prints a row of per-decision figures
for the kit and for the Python random bot (the reference), names the slowest kit and ends
with ``ratio R``, the kit's p99 over the reference's; from known decision times it prints
their median, p99 and max and picks the slowest kit by p99; with no kit it says the ratio
is not available; and the Java kit's second build really leaves the JVM warm-up out.

Only the cheap kits are really run (JavaScript: nothing to build; Java: one javac run),
one round each. A kit whose toolchain is missing is skipped, which tests/conftest.py turns
into a failure in CI (.ci/system-packages installs every toolchain there).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import load_bench

bench = load_bench("starter_kits")
REFERENCE = "python random (reference)"
#: A table row as read back: decisions, median ms, p99 ms, max ms, hello ms.
Figures = tuple[int, float, float, float, int]
ROW = re.compile(r"^(.+?) +(\d+) +(\d+\.\d\d) +(\d+\.\d) +(\d+\.\d) +(\d+)$")


def only_kit(monkeypatch: pytest.MonkeyPatch, *names: str) -> ModuleType:
    """Make the bench see only the kits ``names`` (skipped when a toolchain is missing)."""
    kits: ModuleType = bench.kits
    for name in names:
        missing = kits.missing_tools(name)
        if missing:
            pytest.skip(f"the {name} kit needs {', '.join(missing)}, not installed on this machine")
    monkeypatch.setattr(kits, "KITS", {name: kits.KITS[name] for name in names})
    return kits


def run_main(monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Figures], list[str]]:
    """Run the bench for one round; returns its table rows by bot and its other lines."""
    monkeypatch.setattr(sys, "argv", ["starter_kits.py", "--rounds", "1"])
    bench.main()
    return parse(capsys.readouterr().out)


def parse(out: str) -> tuple[dict[str, Figures], list[str]]:
    """The table rows by bot (decisions, median, p99, max, hello) and the lines after the table."""
    lines = out.splitlines()
    assert lines[0].split() == ["bot", "decisions", "median", "ms", "p99", "ms", "max", "ms", "hello", "ms"]
    rows: dict[str, Figures] = {}
    rest: list[str] = []
    for line in lines[1:]:
        m = ROW.match(line)
        if m:
            name, decisions, median, p99, top, hello = m.groups()
            rows[name] = (int(decisions), float(median), float(p99), float(top), int(hello))
        else:
            rest.append(line)
    return rows, rest


def test_one_kit_gets_per_decision_rows_and_a_ratio(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    only_kit(monkeypatch, "js")
    rows, rest = run_main(monkeypatch, capsys)
    assert list(rows) == [REFERENCE, "js"]
    for name, (decisions, median, p99, top, _hello) in rows.items():
        assert decisions > 0, name
        assert median <= p99 + 0.05 and p99 <= top, name  # p99 is printed to 0.1 ms, the median to 0.01
    assert rest[:-1] == ["slowest kit by p99: js"]
    m = re.fullmatch(r"ratio (\d+\.\d\d)", rest[-1])
    assert m, rest
    ratio = float(m.group(1))
    assert ratio > 0
    # R = the kit's p99 / the reference's, both printed rounded to 0.1 ms.
    kit, ref = rows["js"][2], rows[REFERENCE][2]
    assert (kit - 0.05) / (ref + 0.05) - 0.005 <= ratio
    if ref > 0.05:
        assert ratio <= (kit + 0.05) / (ref - 0.05) + 0.005


def test_figures_and_ratio_from_known_decision_times(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """With the builds and check-bot passes replaced by fixed times (ms), the table holds
    their median, p99 and max over all rounds, the slowest kit is picked by p99 among the
    kits only (not the Java build without warm-up), and R is its p99 over the reference's."""
    base = [1.0] * 980 + [2.0] * 15 + [5.0] * 5  # median 1, p99 2, max 5
    scale = {"ref": 1.0, "go": 2.0, "js": 3.0, "cold": 10.0}
    monkeypatch.setattr(bench, "build_all", lambda out: {REFERENCE: ["ref"], "go": ["go"], "js": ["js"],
                                                         "java (no warm-up)": ["cold"]})
    monkeypatch.setattr(bench, "measure", lambda cmd: ([t * scale[cmd[0]] for t in base], [40.0, 60.0, 50.0]))
    monkeypatch.setattr(sys, "argv", ["starter_kits.py", "--rounds", "2"])
    bench.main()
    rows, rest = parse(capsys.readouterr().out)
    assert rows == {name: (2000, 1.0 * k, 2.0 * k, 5.0 * k, 50) for name, k in
                    ((REFERENCE, 1), ("go", 2), ("js", 3), ("java (no warm-up)", 10))}
    assert rest == ["slowest kit by p99: js", "ratio 3.00"]


def test_without_a_kit_the_ratio_is_not_available(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    only_kit(monkeypatch)
    rows, rest = run_main(monkeypatch, capsys)
    assert list(rows) == [REFERENCE] and rows[REFERENCE][0] > 0
    assert rest == ["ratio n/a: no kit toolchain on this machine"]


def test_the_java_build_without_warm_up_leaves_the_call_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    kits = only_kit(monkeypatch, "java")
    cmds = bench.build_all(tmp_path)
    assert list(cmds) == [REFERENCE, "java", "java (no warm-up)"]
    call = re.compile(r"^\s*warmUp\(\);", re.M)  # the call, not commented out
    sources = {Path(p).name: Path(p).read_text() for p in kits.java_sources()}
    cold = {Path(p).name: Path(p).read_text() for p in kits.java_sources(tmp_path / "java-cold-src")}
    assert cold.keys() == sources.keys()
    assert len(call.findall(sources["Main.java"])) == 1 and not call.findall(cold["Main.java"])
    assert {n for n in sources if sources[n] != cold[n]} == {"Main.java"}
    # The build without it still answers check-bot's scenarios.
    decisions, hellos = bench.measure(cmds["java (no warm-up)"])
    assert decisions and len(hellos) >= 1
