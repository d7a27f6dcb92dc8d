"""Named nasty inputs: the cases of issue 17 and their relatives, for the fuzz suite's invariants."""

from __future__ import annotations

from typing import Any

HUGE = 10 ** 30
LONG = "x" * 300

#: Values put in place of any config value (by the strategies) or given as an option value.
NASTY_VALUES: list[Any] = [
    None, True, -1, 0, HUGE, -HUGE, 2 ** 64, 1.5, float("inf"), float("nan"), "", " ", "~", "a\0b", LONG,
    "../../escaped", "sub/dir/x", "/proc/x", "\u2028", "\udcff", [], {}, [[[[[]]]]], {"a": {"b": {"c": 1}}},
    "x" * 5000, "'", '"', "{", "[", "*alias", "&anchor", "builtin:nope", "python3 nosuch.py",
]

#: Whole config documents (text), each named.
NASTY_CONFIGS: dict[str, str] = {
    "deep-10000": "rules: " + "[" * 10_000 + "]" * 10_000 + "\n",
    "deep-mapping": "a: " + "{b: " * 500 + "1" + "}" * 500 + "\n",
    "billion-laughs": "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9)),
    "tilde-key": "~: 1\n",
    "not-a-mapping": "- 1\n- 2\n",
    "only-comment": "# nothing\n",
    "tab-indent": "name: t\n\tvariant: x\n",
    "unclosed-flow": "bots: [\n",
    "alias-undefined": "name: *nope\n",
    "huge-int": "seed: " + "9" * 5000 + "\n",
    "binary": "\x00\x01\x02",
}

#: Extra `spades match` arguments, each named: every one must be refused (exit 2) naming its option.
NASTY_MATCH_ARGS: dict[str, list[str]] = {
    "match-id-escape": ["--match-id", "../../escaped"],
    "match-id-sub": ["--match-id", "sub/dir/x"],
    "match-id-long": ["--match-id", LONG],
    "match-id-nul": ["--match-id", "a\0b"],
    "move-ms-huge": ["--move-ms", str(HUGE)],
    "bank-ms-huge": ["--bank-ms", str(HUGE)],
    "startup-ms-negative": ["--startup-ms", "-5"],
    "max-faults-negative": ["--max-faults", "-1"],
    "rule-unclosed": ["--rule", "target={"],
    "rule-deep": ["--rule", "target=" + "[" * 5000],
    "rule-unknown": ["--rule", "nosuch=1"],
    "rule-no-equals": ["--rule", "target"],
    "target-zero": ["--target", "0"],
    "output-proc": ["--output", "/proc/spades-x"],
    "seed-text": ["--seed", "abc"],
    "variant-bad": ["--variant", "three"],
}
