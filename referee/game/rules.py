"""Rule options, variants and their validation.

Defaults are the seeds' rules (see docs/rules.md). Options are a frozen
dataclass so a match can hash, compare and freeze them into its record.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
from typing import Any, Mapping


class Variant(str, enum.Enum):
    """The two games the referee plays."""

    TWO_PLAYER = "two-player"
    PARTNERSHIP = "partnership"

    @property
    def seats(self) -> int:
        return 2 if self is Variant.TWO_PLAYER else 4

    @property
    def sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (partners sit opposite)."""
        return seat if self is Variant.TWO_PLAYER else seat % 2

    @classmethod
    def parse(cls, value: object) -> "Variant":
        """Parse a variant name, suggesting the nearest one on a typo."""
        for v in cls:
            if value == v.value:
                return v
        names = [v.value for v in cls]
        hint = difflib.get_close_matches(str(value), names, n=1)
        extra = f"; did you mean {hint[0]!r}?" if hint else ""
        raise RuleError(f"unknown variant {value!r}: expected one of {names}{extra}")


class RuleError(ValueError):
    """A rule option with a bad name or value."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """Every rule option with its value (defaults: the seeds' rules)."""

    target: int = 500
    nil: bool = True
    nil_bonus: int = 100
    blind_nil: bool = True
    blind_nil_bonus: int = 200
    blind_nil_cards: int = 3
    blind_nil_behind: int | None = None
    bag_limit: int = 10
    bag_penalty: int = 100
    mercy: int | None = None
    max_hands: int = 100

    def __post_init__(self) -> None:
        def need_int(name: str, lo: int | None = None, hi: int | None = None, optional: bool = False) -> None:
            v = getattr(self, name)
            if v is None and optional:
                return
            if isinstance(v, bool) or not isinstance(v, int):
                raise RuleError(f"rule {name!r} must be an integer{' or null' if optional else ''}, got: {v!r}")
            if lo is not None and v < lo:
                raise RuleError(f"rule {name!r} must be at least {lo}, got: {v!r}")
            if hi is not None and v > hi:
                raise RuleError(f"rule {name!r} must be at most {hi}, got: {v!r}")

        for name in ("nil", "blind_nil"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError(f"rule {name!r} must be true or false, got: {getattr(self, name)!r}")
        need_int("target", 1)
        need_int("nil_bonus", 0)
        need_int("blind_nil_bonus", 0)
        need_int("blind_nil_cards", 0, 13)
        need_int("blind_nil_behind", 0, optional=True)
        need_int("bag_limit", 1)
        need_int("bag_penalty", 0)
        need_int("mercy", optional=True)
        need_int("max_hands", 1)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "rules") -> "Rules":
        """Build from a mapping (YAML, CLI); unknown keys name the nearest valid key."""
        data = dict(data or {})
        known = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in known:
                hint = difflib.get_close_matches(str(key), known, n=1)
                extra = f"; did you mean {hint[0]!r}?" if hint else f"; known options: {', '.join(known)}"
                raise RuleError(f"{where}: unknown rule option {key!r}{extra}")
        try:
            return cls(**data)
        except RuleError as exc:
            raise RuleError(f"{where}: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, as sent in ``hello.rules``."""
        return dataclasses.asdict(self)
