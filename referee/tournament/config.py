"""Tournament configs: load a YAML file, validate every key, explain every mistake.

A config is validated completely before anything starts. Each problem names
the file, the line and column, the key path (``bots[2].comand``), what is
wrong with the value it quotes, and the nearest valid key or value, in the
``file:line:column: message`` form editors and terminals make clickable.
Every problem found is reported at once, so a user fixes a file in one pass.

Relative paths written in a config (a bot's ``cwd``, ``output``) are relative
to the config file's folder, so a config means the same thing wherever
``spades run`` is started. The one exception is the *default* output folder,
``results/<name>`` under the current directory, which is where a user who
wrote no ``output`` looks for results.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from referee.game.rules import RuleError, Rules, Variant
from referee.match import MatchSpec
from referee.seat.builtin import BuiltinError, builtin_name
from referee.seat.builtin import resolve as resolve_builtin
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultPolicy
from referee.seat.limits import Limit, SeatLimits
from referee.tournament.limits import (
    MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH, MAX_PATH_CHARS, MAX_PATH_PART, MAX_MATCHES_PER_PAIRING, MAX_MS, NAME_RE, name_problem, quoted,
)
from referee.tournament.yamlbounds import bounds_problem
from referee.seat.sandbox import SandboxPolicy, SandboxSpec
from referee.seat.spec import bot_name
from referee.tournament.executors import EXECUTORS, ExecutorSettings
from referee.tournament.formats import FORMATS, FormatOption

__all__ = [
    "BotEntry", "ConfigError", "ConfigIssue", "TournamentConfig", "standings_title",
    "load_config", "parse_config", "check_command", "shown_path",
]

KeyPath = tuple[str | int, ...]


@dataclasses.dataclass(frozen=True)
class BotEntry:
    """One bot of a tournament: a name and how to start it.

    ``cwd`` is absolute (resolved against the config file's folder);
    ``time`` is the bot's own time control when the config overrides it.
    """

    name: str
    command: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    time: TimeControl | None = None
    limits: SeatLimits | None = None  # the bot's own limits (the tournament's with its overrides)
    extra_ro_paths: tuple[Path, ...] = ()  # more it may read in its sandbox (absolute)
    extra_rw_paths: tuple[Path, ...] = ()  # more it may read and write (a terminal, an output file)


@dataclasses.dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config with every default filled in."""

    path: Path | None  # the file it came from (None: built in code)
    name: str
    variant: Variant
    bots: tuple[BotEntry, ...]
    seed: int = 0
    format: str = "round-robin"  # a name in referee.tournament.formats.FORMATS
    matches_per_pairing: int = 2
    duplicate: bool = True
    concurrency: int = 1
    rules: Rules = dataclasses.field(default_factory=Rules)
    time: TimeControl = dataclasses.field(default_factory=TimeControl)
    faults: FaultPolicy = MatchSpec.faults  # a match's defaults, stated in MatchSpec
    max_faults: int = MatchSpec.max_faults
    output: Path = Path("results")
    #: The keys of the chosen format alone (``rounds``, ``alpha``, ...), every one filled in.
    format_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    sandbox: SandboxPolicy = SandboxPolicy.AUTO
    ponder: bool = False  # let bots run while others think (off: the fair clock freezes them)
    clock: str = "wall"  # "wall": a request is charged its wall time; "cpu": the seat's CPU time
    limits: SeatLimits = dataclasses.field(default_factory=SeatLimits)
    executor: ExecutorSettings = dataclasses.field(default_factory=ExecutorSettings)  # where matches are played

    def bot_sandbox(self, bot: BotEntry) -> SandboxSpec:
        """The sandbox a bot plays in: the tournament's policy and limits, with its own overrides."""
        return SandboxSpec(policy=self.sandbox, limits=bot.limits or self.limits, ponder=self.ponder,
                           cpu_clock=self.clock == "cpu",
                           ro_paths=tuple(os.fspath(p) for p in bot.extra_ro_paths),
                           rw_paths=tuple(os.fspath(p) for p in bot.extra_rw_paths))

    def bot_time(self, bot: BotEntry) -> TimeControl:
        """The time control a bot plays under (its override, else the tournament's)."""
        return bot.time or self.time

    def identity(self) -> dict[str, Any]:
        """Everything that decides which matches are played and how.

        Two configs with the same identity produce the same matches, so a
        results folder made with one can be resumed with the other. Left out
        on purpose: ``name``, ``output``, ``concurrency`` and ``executor``, which
        change where and how fast the matches run, never what they are.
        """
        return {
            **({"format_options": self._set_options()} if self._set_options() else {}),
            "variant": self.variant.value,
            "seed": self.seed,
            "format": self.format,
            "matches_per_pairing": self.matches_per_pairing,
            "duplicate": self.duplicate,
            "rules": self.rules.to_dict(),
            "time": self.time.to_dict(),
            "faults": self.faults.value,
            "max_faults": self.max_faults,
            "bots": [
                {"name": b.name, "command": list(b.command), "cwd": os.fspath(b.cwd), "env": dict(b.env),
                 "time": self.bot_time(b).to_dict()}
                for b in self.bots
            ],
        }

    def _set_options(self) -> dict[str, Any]:
        """The format options with a value: null ones (none, or automatic) say nothing and are left out."""
        return {k: v for k, v in self.format_options.items() if v is not None}

    def frozen(self, folder: Path) -> dict[str, Any]:
        """The config as a plain mapping to freeze into ``folder/config.yaml``.

        Paths are written relative to ``folder`` so the frozen file stays valid
        when the whole tree is moved, and running it resumes the same
        tournament in place (``output: .``).
        """
        folder = folder.resolve()
        out: dict[str, Any] = {
            "name": self.name, "variant": self.variant.value, "seed": self.seed, "format": self.format,
            "matches_per_pairing": self.matches_per_pairing, "duplicate": self.duplicate,
            "concurrency": self.concurrency, "rules": self.rules.to_dict(), "time": self.time.to_dict(),
            "faults": self.faults.value, "max_faults": self.max_faults, "output": ".", "bots": [],
            "sandbox": self.sandbox.value, "ponder": self.ponder, "clock": self.clock,
            "limits": self.limits.to_dict(),
        }
        if not FORMATS[self.format].uses_matches_per_pairing:
            del out["matches_per_pairing"]
        paths = {option.key for option in FORMATS[self.format].options if option.is_path}
        for key, value in self._set_options().items():
            out[key] = os.path.relpath(value, folder) if key in paths else value
        for b in self.bots:
            entry: dict[str, Any] = {"name": b.name, "command": list(b.command),
                                     "cwd": os.path.relpath(b.cwd, folder)}
            if b.env:
                entry["env"] = dict(b.env)
            if b.time is not None:
                entry["time"] = b.time.to_dict()
            if b.limits is not None:
                entry.update({k: v for k, v in b.limits.to_dict().items() if v != self.limits.to_dict()[k]})
            for key, extra in (("extra_ro_paths", b.extra_ro_paths), ("extra_rw_paths", b.extra_rw_paths)):
                if extra:
                    entry[key] = [os.path.relpath(p, folder) for p in extra]
            out["bots"].append(entry)
        if self.executor != ExecutorSettings():
            out["executor"] = self.executor.to_dict()
        return out


#: The defaults of every top-level key, read off :class:`TournamentConfig` (stated there once).
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(TournamentConfig)
                             if f.default is not dataclasses.MISSING}


def standings_title(config: TournamentConfig) -> str:
    """``demo: partnership round-robin, 2 per pairing (twins), target 500``."""
    twins = " (twins)" if config.duplicate else ""
    if not FORMATS[config.format].uses_matches_per_pairing:  # the format decides how many: say only "twins"
        return f"{config.name}: {config.variant.value} {config.format}{twins}, target {config.rules.target}"
    return (f"{config.name}: {config.variant.value} {config.format}, {config.matches_per_pairing} per "
            f"pairing{twins}, target {config.rules.target}")


@dataclasses.dataclass(frozen=True)
class ConfigIssue:
    """One problem in a config file."""

    path: KeyPath
    message: str
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based

    @property
    def key(self) -> str:
        """The key path as written in messages: ``bots[2].command``."""
        return format_path(self.path)


class ConfigError(ValueError):
    """A config that cannot be run; ``str()`` lists every problem, one per line."""

    def __init__(self, file: str, issues: Sequence[ConfigIssue]):
        self.file = file
        self.issues = list(issues)
        super().__init__(self._text())

    def _text(self) -> str:
        lines = []
        for issue in self.issues:
            where = self.file
            if issue.line is not None:
                where += f":{issue.line}"
                if issue.column is not None:
                    where += f":{issue.column}"
            key = f"{issue.key}: " if issue.path else ""
            lines.append(f"{where}: {key}{issue.message}")
        return "\n".join(lines)


def format_path(path: KeyPath) -> str:
    """``("bots", 2, "command")`` -> ``bots[2].command``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


# ----------------------------------------------------------------- key tables

_TOP_KEYS = ("name", "variant", "seed", "format", "matches_per_pairing", "duplicate", "concurrency", "rules",
             "time", "faults", "max_faults", "output", "bots", "sandbox", "ponder", "clock", "limits",
             "executor")
#: Every format's own keys, and the format each belongs to.
_FORMAT_KEYS: dict[str, str] = {option.key: name for name, cls in FORMATS.items() for option in cls.options}
_LIMIT_KEYS = tuple(limit.value for limit in Limit)
_BOT_KEYS = ("name", "command", "cwd", "env", "time", "extra_ro_paths", "extra_rw_paths") + _LIMIT_KEYS
_TIME_KEYS = ("move_ms", "bank_ms", "startup_ms")
_RULE_KEYS = tuple(f.name for f in dataclasses.fields(Rules))

# Programs that run a script named by their first non-option argument: for
# these the script must exist too, or every match would fail at start-up.
_INTERPRETER_RE = re.compile(r"(python|pypy)[0-9.]*|node|nodejs|ruby|perl|bash|sh|dash|zsh|lua[0-9.]*|php|Rscript")
# Options after which there is no script file (code given inline, or a module).
_NO_SCRIPT_OPTS = frozenset({"-c", "-m", "-e", "-E", "--eval", "-p", "--print", "-r", "-n"})
# Options that take a separate value, which must not be mistaken for the script.
_VALUE_OPTS = frozenset({"-W", "-X", "--require", "--import", "-I", "--loader", "--experimental-loader"})
_COMMON_PROGRAMS = ("python3", "python", "node", "ruby", "perl", "bash", "sh", "java", "dotnet", "go", "cargo")


def nearest(value: object, choices: Sequence[str]) -> str | None:
    """The closest choice to a mistyped value, if any is close enough."""
    hits = difflib.get_close_matches(str(value), list(choices), n=1, cutoff=0.6)
    return hits[0] if hits else None


def _hint(value: object, choices: Sequence[str]) -> str:
    near = nearest(value, choices)
    if near is not None:
        return f"; did you mean {near!r}?"
    return f"; expected one of: {', '.join(choices)}"


# ----------------------------------------------------------------- loading

def load_config(path: str | os.PathLike[str], *, check_commands: bool = True) -> TournamentConfig:
    """Read and validate a config file.

    Raises :class:`ConfigError` for a missing, unreadable or malformed file
    and for every invalid key or value. With ``check_commands`` every bot's
    program (and its script, for an interpreter) must exist.
    """
    file = Path(path)
    shown = os.fspath(path)
    try:
        with open(file, "rb") as fh:
            raw = fh.read(MAX_CONFIG_BYTES + 1)  # bounded: `spades run /dev/zero` must not read forever
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(shown, [ConfigIssue((), f"is larger than {MAX_CONFIG_BYTES:,} bytes; a config is a "
                                                      "page of YAML (is this the right file?)")])
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(shown, [ConfigIssue((), "no such config file")]) from None
    except IsADirectoryError:
        raise ConfigError(shown, [ConfigIssue((), "is a folder, expected a YAML config file")]) from None
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(shown, [ConfigIssue((), f"is not UTF-8 text (byte {exc.start + 1}, line {line}: "
                                                  f"{quoted(raw[exc.start:exc.start + 4])}); save it as UTF-8")]
                          ) from None
    except (OSError, ValueError) as exc:  # unreadable, a NUL or a name too long in the path
        raise ConfigError(shown, [ConfigIssue((), f"cannot read the file: {getattr(exc, 'strerror', None) or exc}")]
                          ) from None
    config = parse_config(text, file=shown, base=file.resolve().parent, check_commands=check_commands)
    return dataclasses.replace(config, path=file)


def parse_config(text: str, *, file: str = "<config>", base: Path | None = None, check_commands: bool = True,
                 default_output_root: Path | None = None) -> TournamentConfig:
    """Validate config text. ``base`` is the folder relative paths start from
    (default: the current directory); the default output folder is
    ``results/<name>`` under ``default_output_root`` (default: the current
    directory)."""
    base = (base or Path.cwd()).resolve()
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        too_big = bounds_problem(node) if node is not None else None
        if too_big is not None:
            mark = too_big[1].start_mark
            raise ConfigError(file, [ConfigIssue((), too_big[0], mark.line + 1, mark.column + 1)])
        data = yaml.safe_load(text)
    except RecursionError:  # the composer recurses once per level
        raise ConfigError(file, [ConfigIssue((), f"the document nests too deeply (at most {MAX_CONFIG_DEPTH} "
                                                 "levels)")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "invalid YAML"
        if exc.context and exc.context not in problem:
            problem = f"{problem} ({exc.context}"
            problem += f" at line {exc.context_mark.line + 1})" if exc.context_mark is not None else ")"
        raise ConfigError(file, [ConfigIssue((), f"malformed YAML: {problem}",
                                             mark.line + 1 if mark else None,
                                             mark.column + 1 if mark else None)]) from None
    except yaml.YAMLError as exc:
        raise ConfigError(file, [ConfigIssue((), f"malformed YAML: {exc}")]) from None
    checker = _Checker(file, node, base)
    config = checker.check(data, Path(file).stem, check_commands, (default_output_root or Path.cwd()))
    if checker.issues:
        raise ConfigError(file, checker.issues)
    assert config is not None
    return config


class _Checker:
    """Collects every problem of one config, with positions from the YAML node tree."""

    def __init__(self, file: str, node: yaml.Node | None, base: Path):
        self.file, self.base = file, base
        self.issues: list[ConfigIssue] = []
        self._base_limits = SeatLimits()  # the config's 'limits', which a bot's own limit keys override
        self.marks: dict[KeyPath, tuple[int, int]] = {}
        self.value_marks: dict[KeyPath, tuple[int, int]] = {}
        if node is not None:
            self._index(node, ())

    # -- positions

    def _index(self, node: yaml.Node, path: KeyPath) -> None:
        """Record where each key and value starts; flag duplicate keys, which
        YAML loaders silently resolve to the last one."""
        self.value_marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
                sub = path + (key,)
                line = key_node.start_mark.line + 1
                if key in seen:
                    self.issues.append(ConfigIssue(sub, f"duplicate key {key!r} (first given at line {seen[key]}); "
                                                        "give each key once", line, key_node.start_mark.column + 1))
                else:
                    seen[key] = line
                    self.marks[sub] = (line, key_node.start_mark.column + 1)
                self._index(value_node, sub)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.marks[path + (i,)] = (item.start_mark.line + 1, item.start_mark.column + 1)
                self._index(item, path + (i,))

    def error(self, path: KeyPath, message: str, *, at_value: bool = True) -> None:
        pos = (self.value_marks.get(path) if at_value else None) or self.marks.get(path)
        if pos is None:  # a missing key: point at the mapping that lacks it
            parent = path[:-1]
            pos = self.marks.get(parent) or self.value_marks.get(parent)
        self.issues.append(ConfigIssue(path, message, *(pos or (None, None))))

    # -- generic checks

    def mapping(self, value: Any, path: KeyPath, keys: Sequence[str], what: str) -> dict[str, Any] | None:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(path, f"must be a mapping of {what}, got: {value!r}")
            return None
        for key in value:
            if not isinstance(key, str):
                # YAML reads ~, null, true and numbers unquoted as values, not names; say so, not "None".
                written = "~" if key is None else str(key).lower() if isinstance(key, bool) else str(key)
                self.error(path + (written,), f"unknown key {quoted(written)} (YAML reads it as the value "
                                              f"{quoted(key)}, not a name); keys are {', '.join(keys[:4])}, ...",
                           at_value=False)
            elif key not in keys:
                self.error(path + (str(key),), f"unknown key {key!r}{_hint(key, keys)}", at_value=False)
        return value

    def integer(self, value: Any, path: KeyPath, lo: int | None = None, null: bool = False,
                hi: int | None = None) -> int | None:
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"must be an integer{' or null' if null else ''}, got: {quoted(value)}")
            return None
        if lo is not None and value < lo:
            self.error(path, f"must be at least {lo}, got: {quoted(value)}")
            return None
        if hi is not None and value > hi:
            self.error(path, f"must be at most {hi}, got: {quoted(value)}")
            return None
        return value

    def boolean(self, value: Any, path: KeyPath) -> bool | None:
        if not isinstance(value, bool):
            self.error(path, f"must be true or false, got: {value!r}")
            return None
        return value

    def choice(self, value: Any, path: KeyPath, choices: Sequence[str]) -> str | None:
        if not isinstance(value, str) or value not in choices:
            self.error(path, f"unknown value {value!r}{_hint(value, choices)}")
            return None
        return value

    def time(self, value: Any, path: KeyPath, base: TimeControl) -> TimeControl | None:
        """A time control; keys left out keep their value in ``base``."""
        data = self.mapping(value, path, _TIME_KEYS, "time limits in milliseconds")
        if data is None:
            return None
        before = len(self.issues)
        move = self.integer(data.get("move_ms", base.move_ms), path + ("move_ms",), 1, null=True, hi=MAX_MS)
        bank = self.integer(data.get("bank_ms", base.bank_ms), path + ("bank_ms",), 0, hi=MAX_MS)
        startup = self.integer(data.get("startup_ms", base.startup_ms), path + ("startup_ms",), 1, hi=MAX_MS)
        if len(self.issues) > before or bank is None or startup is None:
            return None
        return TimeControl(move, bank, startup)

    def limits(self, data: Mapping[str, Any], path: KeyPath, base: SeatLimits) -> SeatLimits | None:
        """The limit keys present in ``data`` over ``base``; None if one is invalid."""
        values: dict[str, int] = {}
        ok = True
        for key in _LIMIT_KEYS:
            if key in data:
                value = self.integer(data[key], path + (key,), 1)
                if value is None:
                    ok = False
                else:
                    values[key] = value
        if not ok:
            return None
        return dataclasses.replace(base, **values)

    def user_path(self, raw: Any, path: KeyPath, what: str = "a folder path") -> Path | None:
        """``raw`` resolved against the config file's folder; None (and an issue) when it cannot be.

        Refused here rather than where the path is used: a NUL (``embedded
        null byte``), a name longer than the file system allows, a symlink loop.
        """
        if not isinstance(raw, str) or not raw.strip():
            self.error(path, f"must be {what}, got: {quoted(raw)}")
            return None
        if "\0" in raw:
            self.error(path, f"must be {what} without a NUL character, got: {quoted(raw)}")
            return None
        long_part = next((part for part in raw.split("/") if len(part.encode("utf-8", "replace")) > MAX_PATH_PART),
                         None)
        if long_part is not None or len(raw) > MAX_PATH_CHARS:
            self.error(path, f"has a name longer than the file system allows ({MAX_PATH_PART} bytes a name, "
                             f"{MAX_PATH_CHARS} a path), got: {quoted(raw)}")
            return None
        try:
            return (self.base / os.path.expanduser(raw)).resolve()
        except (RuntimeError, OSError, ValueError) as exc:  # RuntimeError: a symlink loop (Python 3.11)
            reason = "it runs into a symlink loop" if isinstance(exc, RuntimeError) else \
                (getattr(exc, "strerror", None) or str(exc))
            self.error(path, f"cannot resolve {quoted(raw)}: {reason}")
            return None

    def paths(self, value: Any, path: KeyPath) -> tuple[Path, ...] | None:
        """A list of existing files or folders, relative to the config file's folder."""
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.error(path, f"must be a list of paths (relative to the config file's folder), got: {value!r}")
            return None
        out = []
        for i, raw in enumerate(value):
            resolved = (self.base / os.path.expanduser(raw)).resolve()
            if not resolved.exists():
                self.error(path + (i,), f"path {raw!r} does not exist (resolved to {shown_path(resolved)}; "
                                        "relative to the config file's folder)")
                return None
            out.append(resolved)
        return tuple(out)

    def rules(self, value: Any, path: KeyPath) -> Rules | None:
        data = self.mapping(value, path, _RULE_KEYS, "rule options (rules.md)")
        if data is None:
            return None
        ok = True
        for key, v in data.items():
            if key not in _RULE_KEYS:
                ok = False
                continue
            try:  # one option at a time, so each error points at its own key
                Rules(**{key: v})
            except RuleError as exc:
                ok = False
                self.error(path + (key,), str(exc).replace(f"rule {key!r} ", "", 1))
        if not ok:
            return None
        try:
            return Rules(**data)
        except RuleError as exc:
            self.error(path, str(exc))
            return None

    # -- the whole file

    def check(self, data: Any, stem: str, check_commands: bool, output_root: Path) -> TournamentConfig | None:
        if data is None:
            self.error((), "the file is empty; a config needs at least 'variant' and 'bots'")
            return None
        top = self.mapping(data, (), _TOP_KEYS + tuple(_FORMAT_KEYS), "tournament settings")
        if top is None:
            return None
        for key in ("variant", "bots"):
            if key not in top:
                self.error((key,), f"missing required key {key!r}")

        # Without a 'name', the file's stem names the results folder, made safe.
        name = top["name"] if "name" in top else (
            re.sub(r"[^A-Za-z0-9._+-]+", "_", stem).lstrip("._+-") or "tournament")
        problem = name_problem(name, why="it names the results folder")
        if problem is not None:
            self.error(("name",), problem)
            name = None
        variant = None
        if "variant" in top:
            try:
                variant = Variant.parse(top["variant"])
            except RuleError:
                self.choice(top["variant"], ("variant",), [v.value for v in Variant])
        seed = self.integer(top.get("seed", _DEFAULTS["seed"]), ("seed",))
        fmt = self.choice(top.get("format", _DEFAULTS["format"]), ("format",), list(FORMATS))
        per = self.integer(top.get("matches_per_pairing", _DEFAULTS["matches_per_pairing"]), ("matches_per_pairing",), 1,
                           hi=MAX_MATCHES_PER_PAIRING)
        duplicate = self.boolean(top.get("duplicate", _DEFAULTS["duplicate"]), ("duplicate",))
        if per is not None and duplicate and per % 2:
            # Duplicate matches come in twins; an odd count would leave one
            # match without its twin, and its card luck would not cancel.
            evens = f"{per - 1} or {per + 1}" if per > 1 else "2"
            self.error(("matches_per_pairing",), f"must be even when 'duplicate' is true (matches come in twins "
                                                 f"on the same cards), got: {per}; use {evens}, or set "
                                                 "duplicate: false")
        options = self.format_options(top, fmt, per, duplicate, len(top.get("bots") or ()) if isinstance(
            top.get("bots"), list) else None, variant)
        concurrency = self.integer(top.get("concurrency", _DEFAULTS["concurrency"]), ("concurrency",), 1)
        rules = self.rules(top.get("rules"), ("rules",))
        time_control = self.time(top.get("time"), ("time",), TimeControl())
        faults = self.choice(top.get("faults", _DEFAULTS["faults"].value), ("faults",), [p.value for p in FaultPolicy])
        max_faults = self.integer(top.get("max_faults", _DEFAULTS["max_faults"]), ("max_faults",), 1)
        output = None
        if "output" in top:
            output = self.user_path(top["output"], ("output",))
        elif name is not None:
            output = (output_root / "results" / name).resolve()

        sandbox = self.choice(top.get("sandbox", _DEFAULTS["sandbox"].value), ("sandbox",),
                              [p.value for p in SandboxPolicy])
        ponder = self.boolean(top.get("ponder", _DEFAULTS["ponder"]), ("ponder",))
        clock = self.choice(top.get("clock", _DEFAULTS["clock"]), ("clock",), ["wall", "cpu"])
        limits = self.limits(self.mapping(top.get("limits"), ("limits",), _LIMIT_KEYS, "resource limits") or {},
                             ("limits",), SeatLimits())
        self._base_limits = limits or SeatLimits()

        bots = self.bots(top.get("bots"), time_control or TimeControl(), check_commands) if "bots" in top else None
        executor = self.executor(top.get("executor"), ("executor",))

        if self.issues:
            return None
        assert variant and seed is not None and fmt and per and duplicate is not None and concurrency
        assert rules and time_control and faults and max_faults and output and bots is not None and name
        assert sandbox and ponder is not None and limits is not None and clock
        assert executor is not None
        return TournamentConfig(
            path=None, name=name, variant=variant, bots=tuple(bots), seed=seed, format=fmt,
            matches_per_pairing=per, duplicate=duplicate, concurrency=concurrency, rules=rules,
            time=time_control, faults=FaultPolicy(faults), max_faults=max_faults, output=output,
            sandbox=SandboxPolicy(sandbox), ponder=ponder, clock=clock, limits=limits,
            format_options=options or {}, executor=executor)

    def format_options(self, top: Mapping[str, Any], fmt: str | None, per: int | None, duplicate: bool | None,
                       n_bots: int | None, variant: Variant | None) -> dict[str, Any] | None:
        """The chosen format's own keys, defaults filled in; a key of another format is refused."""
        for key in top:
            owner = _FORMAT_KEYS.get(key)
            if owner is not None and owner != fmt and fmt is not None:
                self.error((key,), f"belongs to format {owner!r}, not {fmt!r}; remove it, or set format: {owner}",
                           at_value=False)
        if fmt is None:
            return None
        cls = FORMATS[fmt]
        if not cls.uses_matches_per_pairing and "matches_per_pairing" in top:
            self.error(("matches_per_pairing",), f"has no meaning with format {fmt!r} (it decides how many "
                                                 "matches are played); remove it", at_value=False)
        before = len(self.issues)
        options = {option.key: self.option(top.get(option.key, option.default), option) for option in cls.options}
        if len(self.issues) > before or duplicate is None or n_bots is None or variant is None:
            return None
        for key, message in cls.setup_problems(n_bots, duplicate, options, variant.value):
            self.error((key,), message, at_value=key in top)
        return options

    def option(self, value: Any, option: FormatOption) -> Any:
        """One format key's value, checked against its :class:`FormatOption`."""
        path: KeyPath = (option.key,)
        if value is None and option.nullable:
            return None
        if option.choices:
            return self.choice(value, path, option.choices)
        if option.kind is str:
            if not isinstance(value, str) or not value.strip():
                self.error(path, f"must be {'a folder path' if option.is_path else 'a text value'}, got: {value!r}")
                return None
            return os.fspath((self.base / os.path.expanduser(value)).resolve()) if option.is_path else value
        numeric = (int,) if option.kind is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            what = "an integer" if option.kind is int else "a number"
            self.error(path, f"must be {what}{' or null' if option.nullable else ''}, got: {value!r}")
            return None
        low_ok = option.low is None or (value > option.low if option.exclusive else value >= option.low)
        high_ok = option.high is None or (value < option.high if option.exclusive else value <= option.high)
        if not (low_ok and high_ok):
            ends = "strictly " if option.exclusive else ""
            if option.low is not None and option.high is not None:
                self.error(path, f"must be {ends}between {option.low:g} and {option.high:g}, got: {value!r}")
            elif option.low is not None:
                self.error(path, f"must be {'more than' if option.exclusive else 'at least'} {option.low:g}, "
                                 f"got: {value!r}")
            else:
                self.error(path, f"must be {'less than' if option.exclusive else 'at most'} {option.high:g}, "
                                 f"got: {value!r}")
            return None
        return option.kind(value)

    def executor(self, value: Any, path: KeyPath) -> ExecutorSettings | None:
        """``executor: {kind: dask, ...}`` (or just ``executor: dask``); the kind checks its own settings."""
        if value is None:
            return ExecutorSettings()
        if isinstance(value, str):
            value = {"kind": value}
        if not isinstance(value, dict):
            self.error(path, f"must be a mapping like {{kind: dask, workers: 4}}, or a kind, got: {value!r}")
            return None
        kind = self.choice(value.get("kind", ExecutorSettings.kind), path + ("kind",), list(EXECUTORS))
        if kind is None:
            return None
        options = {str(k): v for k, v in value.items() if k != "kind"}
        issues = EXECUTORS[kind].check_settings(options)
        for key, message in issues:
            self.error(path + (key,), message)
        return None if issues else ExecutorSettings(kind, options)

    def bots(self, value: Any, base_time: TimeControl, check_commands: bool) -> list[BotEntry] | None:
        path: KeyPath = ("bots",)
        if not isinstance(value, list):
            self.error(path, f"must be a list of bots (each with 'name' and 'command'), got: {value!r}")
            return None
        if len(value) < 2:
            self.error(path, f"a tournament needs at least 2 bots, got {len(value)}")
            return None
        out: list[BotEntry] = []
        first_name: dict[str, int] = {}
        for i, item in enumerate(value):
            entry = self.bot(item, path + (i,), base_time, check_commands)
            if entry is None:
                continue
            if entry.name in first_name:
                self.error(path + (i, "name"), f"duplicate bot name {entry.name!r} (also bots[{first_name[entry.name]}]"
                                               ".name); every bot needs its own name, e.g. "
                                               f"{entry.name + '2'!r}")
                continue
            first_name[entry.name] = i
            out.append(entry)
        return out

    def bot(self, item: Any, path: KeyPath, base_time: TimeControl, check_commands: bool) -> BotEntry | None:
        data = self.mapping(item, path, _BOT_KEYS, "bot settings ('name', 'command', ...)")
        if data is None:
            return None
        n_issues = len(self.issues)
        argv = self.command(data.get("command"), path + ("command",)) if "command" in data else None
        if "command" not in data:
            self.error(path + ("command",), "missing required key 'command' (the program to run, e.g. "
                                            "[python3, bots/heuristic_bot.py])")
        name = data.get("name")
        if "name" not in data:
            suggestion = f", e.g. {_suggest_name(argv)!r}" if argv else ""
            self.error(path + ("name",), f"missing required key 'name' (a unique display name{suggestion})")
        elif name_problem(name) is not None:
            self.error(path + ("name",), name_problem(name) or "")
        cwd = self.base
        if "cwd" in data:
            raw = data["cwd"]
            resolved = self.user_path(raw, path + ("cwd",))
            if resolved is not None:
                cwd = resolved
                why = _folder_problem(cwd)
                if why is not None:
                    self.error(path + ("cwd",), f"folder {quoted(raw)} {why} (resolved to {shown_path(cwd)}; "
                                                "relative to the config file's folder)")
        env: dict[str, str] = {}
        if "env" in data:
            raw_env = data["env"]
            if not isinstance(raw_env, dict):
                self.error(path + ("env",), f"must be a mapping of variable names to strings, got: {raw_env!r}")
            else:
                for key, v in raw_env.items():
                    if not isinstance(key, str) or not key or "=" in key or "\0" in key:
                        self.error(path + ("env", str(key)), "must be an environment variable name (not empty, "
                                                             f"no '=' or NUL), got: {quoted(key)}", at_value=False)
                    elif isinstance(v, bool) or not isinstance(v, (str, int, float)):
                        self.error(path + ("env", str(key)), f"must be a string (quote it), got: {quoted(v)}")
                    elif "\0" in str(v):
                        self.error(path + ("env", key), f"must be a string without a NUL character, got: {quoted(v)}")
                    else:
                        env[str(key)] = str(v)
        time_control = self.time(data["time"], path + ("time",), base_time) if "time" in data else None
        limits = self.limits(data, path, self._base_limits) if any(k in data for k in _LIMIT_KEYS) else None
        extra = {key: self.paths(data[key], path + (key,)) if key in data else ()
                 for key in ("extra_ro_paths", "extra_rw_paths")}
        if len(self.issues) > n_issues:
            return None
        assert argv is not None
        if check_commands:
            problem = check_command(argv, cwd, env)
            if problem is not None:
                self.error(path + ("command",), problem)
                return None
        return BotEntry(name=str(name), command=tuple(argv), cwd=cwd, env=env, time=time_control, limits=limits,
                        extra_ro_paths=extra["extra_ro_paths"] or (), extra_rw_paths=extra["extra_rw_paths"] or ())

    def command(self, value: Any, path: KeyPath) -> list[str] | None:
        if isinstance(value, str):
            try:
                argv = shlex.split(value)
            except ValueError as exc:
                self.error(path, f"cannot split the command like a shell would ({exc}), got: {value!r}")
                return None
        elif isinstance(value, list) and all(isinstance(a, (str, int, float)) and not isinstance(a, bool)
                                             for a in value):
            argv = [str(a) for a in value]
        else:
            self.error(path, f"must be a command string or a list of arguments, got: {value!r}")
            return None
        if not argv:
            self.error(path, f"the command is empty, got: {value!r}")
            return None
        return argv


def _suggest_name(argv: Sequence[str]) -> str:
    """A name to suggest for a bot with no ``name``: the one ``spades match`` would show."""
    name = bot_name(argv)
    return name if NAME_RE.fullmatch(name) else "bot1"


def shown_path(path: Path) -> str:
    """A path as a user best reads it: relative to the current folder when inside it."""
    try:
        return os.fspath(path.relative_to(Path.cwd()))
    except ValueError:
        return os.fspath(path)


def _script_argument(argv: Sequence[str]) -> str | None:
    """The script an interpreter command runs, or None (inline code, a module, none)."""
    if not _INTERPRETER_RE.fullmatch(os.path.basename(argv[0])):
        return None
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
            continue
        if arg in _NO_SCRIPT_OPTS:
            return None
        if arg in _VALUE_OPTS:
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg
    return None


def check_command(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> str | None:
    """Why ``argv`` cannot start in ``cwd``, or None when it looks runnable.

    The program is looked up as the operating system will: a name with a
    slash relative to ``cwd``, a bare name on ``PATH``. For an interpreter
    (python3, node, ...) the script argument must exist as well, since a
    missing script only shows up as a crash in every match.
    """
    try:
        return _command_problem(argv, cwd, env)
    except (OSError, ValueError) as exc:  # a NUL, a name too long, a folder the user cannot enter
        reason = getattr(exc, "strerror", None) or str(exc)
        return f"cannot look up the command {quoted(' '.join(map(str, argv)))}: {reason}"


def _command_problem(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None) -> str | None:
    if builtin_name(argv) is not None:
        try:
            resolved = resolve_builtin(argv)
        except BuiltinError as exc:
            return str(exc)
        argv = list(resolved)
    program = argv[0]
    if "/" in program:
        exe = (cwd / os.path.expanduser(program))
        if not exe.is_file():
            return f"program {program!r} not found (looked for {shown_path(exe)}){_file_hint(exe)}"
        if not os.access(exe, os.X_OK):
            return f"program {program!r} is not executable (chmod +x {shown_path(exe)}, or run it with its interpreter)"
    else:
        search = (env or {}).get("PATH", os.environ.get("PATH", os.defpath))
        if shutil.which(program, path=search) is None:
            near = nearest(program, _COMMON_PROGRAMS)
            extra = f"; did you mean {near!r}?" if near and near != program else ""
            return f"program {program!r} not found on PATH{extra}"
    script = _script_argument(argv)
    if script is not None:
        target = cwd / os.path.expanduser(script)
        if not target.is_file():
            return (f"script {script!r} not found (looked for {shown_path(target)}; a bot runs in its 'cwd', "
                    f"by default the config file's folder){_file_hint(target)}")
    return None


def _folder_problem(folder: Path) -> str | None:
    """Why a bot cannot run in ``folder`` (None: it can)."""
    try:
        if not folder.exists():
            return "does not exist"
        if not folder.is_dir():
            return "is a file, not a folder"
    except OSError as exc:
        return f"cannot be looked at: {exc.strerror or exc}"
    if not os.access(folder, os.X_OK):
        return "cannot be entered (permission denied)"
    return None


def _file_hint(path: Path) -> str:
    """``; did you mean 'random_bot.py'?`` from the files next to a missing one."""
    try:
        names = [p.name for p in path.parent.iterdir()]
    except OSError:
        return ""
    near = nearest(path.name, names)
    return f"; did you mean {near!r} in that folder?" if near else ""
