"""The package's layers: imports run one way only, and the rules core does no I/O.

Layers, bottom to top: ``game`` (pure rules) <- ``seat`` (one bot) <- ``match``
(one match) <- ``tournament`` (many matches) <- faces (``human`` and
``pages``, then ``cli``, which assembles every command). A module may import its own layer
and the layers below it, never one above. Every import counts: at module
level, inside functions (where a loop likes to hide) and under
``TYPE_CHECKING``. The module graph has no cycles at all.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"

#: Layer of each top-level part of the package (``referee.<part>``).
LAYERS = {"game": 0, "seat": 1, "match": 2, "tournament": 3, "human": 4, "pages": 4, "cli": 5}
LAYER_NAMES = {v: k for k, v in LAYERS.items()} | {4: "human or pages"}  # two faces share a layer


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> list[tuple[int, str, bool]]:
    """``(line, imported module, under TYPE_CHECKING)`` for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    guarded.add(id(sub))
    out: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name, id(node) in guarded) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target, id(node) in guarded))
            # ``from referee.seat import protocol`` imports the submodule too.
            for alias in node.names:
                out.append((node.lineno, f"{target}.{alias.name}", id(node) in guarded))
    return out


def layer_of(module: str, root_name: str) -> int | None:
    parts = module.split(".")
    if parts[0] != root_name or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


def violations(root: Path) -> list[str]:
    """Every upward import under package ``root``, as ``file:line: imports X (layer) from Y (layer)``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        me = module_name(path, root)
        mine = layer_of(me, root.name)
        if mine is None:
            continue
        for line, target, _ in imports_of(path, root):
            theirs = layer_of(target, root.name)
            rel = path.relative_to(root.parent)
            if theirs is not None and theirs > mine:
                found.append(f"{rel}:{line}: {me} ({LAYER_NAMES[mine]}) imports {target} "
                             f"({LAYER_NAMES[theirs]}, a layer above)")
            if mine == LAYERS["game"] and theirs is None:
                top = target.split(".")[0]
                if top == root.name or top not in sys.stdlib_module_names:
                    found.append(f"{rel}:{line}: {me} (game) imports {target}: the rules core imports only "
                                 "the standard library and itself")
    return found


def cycles(root: Path) -> list[list[str]]:
    """Import cycles among the package's modules (TYPE_CHECKING imports excluded)."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for me, path in modules.items():
        for _, target, guarded in imports_of(path, root):
            if not guarded and target in modules and target != me:
                graph[me].add(target)
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert violations(PACKAGE) == []


def test_the_module_graph_has_no_import_cycle() -> None:
    assert cycles(PACKAGE) == [], "\n".join(" -> ".join(c) for c in cycles(PACKAGE))


def test_every_module_is_in_a_layer() -> None:
    """A new top-level module must be placed in a layer here before it can be checked."""
    unplaced = [module_name(p, PACKAGE) for p in PACKAGE.rglob("*.py")
                if layer_of(module_name(p, PACKAGE), "referee") is None and module_name(p, PACKAGE) != "referee"]
    assert unplaced == []


def _fake_package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "referee"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_check_names_the_file_and_the_upward_import(tmp_path: Path) -> None:
    root = _fake_package(tmp_path, {
        "__init__.py": "",
        "game/__init__.py": "",
        "game/engine.py": "import json\n\ndef f():\n    from referee.seat.clock import Clock\n",
        "game/cards.py": "import numpy\n",
        "seat/__init__.py": "",
        "seat/clock.py": "from ..game import engine\nfrom referee.match import run_match\n",
        "match.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from referee.tournament import runner\n",
        "tournament/__init__.py": "",
        "tournament/runner.py": "from referee.cli.main import cli\n",
        "cli/__init__.py": "",
        "cli/main.py": "from referee.tournament.runner import x\nfrom referee.game.cards import y\n",
    })
    found = violations(root)
    assert found == [
        "referee/game/cards.py:1: referee.game.cards (game) imports numpy: the rules core imports only the "
        "standard library and itself",
        "referee/game/engine.py:4: referee.game.engine (game) imports referee.seat.clock (seat, a layer above)",
        "referee/game/engine.py:4: referee.game.engine (game) imports referee.seat.clock.Clock (seat, a layer above)",
        "referee/match.py:3: referee.match (match) imports referee.tournament (tournament, a layer above)",
        "referee/match.py:3: referee.match (match) imports referee.tournament.runner (tournament, a layer above)",
        "referee/seat/clock.py:2: referee.seat.clock (seat) imports referee.match (match, a layer above)",
        "referee/seat/clock.py:2: referee.seat.clock (seat) imports referee.match.run_match (match, a layer above)",
        "referee/tournament/runner.py:1: referee.tournament.runner (tournament) imports referee.cli.main "
        "(cli, a layer above)",
        "referee/tournament/runner.py:1: referee.tournament.runner (tournament) imports referee.cli.main.cli "
        "(cli, a layer above)",
    ]


def test_the_cycle_check_finds_a_loop_hidden_in_a_function(tmp_path: Path) -> None:
    root = _fake_package(tmp_path, {
        "__init__.py": "",
        "tournament/__init__.py": "",
        "tournament/standings.py": "def f():\n    from referee.tournament.runner import title\n",
        "tournament/runner.py": "from referee.tournament.standings import render\n",
    })
    assert cycles(root) == [["referee.tournament.runner", "referee.tournament.standings",
                             "referee.tournament.runner"]]


def test_importing_the_rules_core_loads_nothing_that_does_io() -> None:
    """At run time too: the game package pulls in no process, file, network or CLI module."""
    modules = sorted(module_name(p, PACKAGE) for p in (PACKAGE / "game").glob("*.py"))
    forbidden = ["subprocess", "socket", "select", "selectors", "threading", "asyncio", "click", "yaml", "tabulate",
                 "jsonschema", "shutil", "tempfile", "pathlib", "referee.seat", "referee.match", "referee.tournament",
                 "referee.cli", "referee.human"]
    code = ("import sys, json\nbefore = set(sys.modules)\n"
            f"for m in {modules!r}: __import__(m)\n"
            "print(json.dumps(sorted(set(sys.modules) - before)))\n")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = set(json.loads(out.stdout))
    assert "referee.game.engine" in loaded
    bad = sorted(m for m in loaded if any(m == f or m.startswith(f + ".") for f in forbidden))
    assert bad == []


@pytest.mark.parametrize("old", ["cards", "rules", "deals", "engine", "scoring", "view", "outcomes", "botprocess",
                                 "clock", "protocol", "transports", "schemas", "config", "schedule", "results",
                                 "standings", "ratings", "checkbot", "tournament_cli"])
def test_no_flat_module_is_left_behind(old: str) -> None:
    """The flat layout is gone for good: no module of the old names at the top of the package."""
    assert not (PACKAGE / f"{old}.py").exists()
