"""A results folder's secret: the deals no bot can derive, and records no bot can forge.

Every results folder has a ``secret`` file (32 random bytes in hex, mode
0600), made on first use and never rewritten. Two things derive from it:

* **Deal keys.** A match's deals come from ``deal_key(secret, seed)``, an
  HMAC of its public match seed (:func:`referee.tournament.schedule.match_seed`,
  which follows from the config's master seed). The seed, the config, the
  match id and the ``hello`` are all a bot might read; without the secret none
  of them tells it a card. Twins share a seed, hence a key, hence their deals;
  the same config run into a folder with the same secret deals the same cards.
* **Record checks.** Each line of ``matches.jsonl`` carries
  ``"check": "hmac-sha256:<hex>"``, the HMAC of the record's canonical JSON
  (every other field, keys sorted, compact, ASCII). A record changed or
  written by anyone without the secret fails it.

The secret is only as private as the file: the sandbox keeps bots away from
the results folder; a bot running unsandboxed as the referee's own user can
read it (as it could read the referee's memory). See docs/security.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from referee.game.deals import DealSource, keyed_deals, seeded_deals

__all__ = ["SECRET_FILE", "CHECK_FIELD", "SecretError", "load_secret", "create_secret", "deal_key", "sign",
           "check_of", "verify", "record_deal_source"]

SECRET_FILE = "secret"
CHECK_FIELD = "check"
_CHECK_PREFIX = "hmac-sha256:"
_SECRET_BYTES = 32


class SecretError(Exception):
    """The secret file is missing, unreadable or not a secret this referee wrote."""


def load_secret(path: Path) -> bytes:
    """The secret stored at ``path``; raise :class:`SecretError` (or FileNotFoundError when absent)."""
    text = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != _SECRET_BYTES:
        raise SecretError(f"{path} is not a results secret (expected {2 * _SECRET_BYTES} hex digits, got "
                          f"{len(text)} characters); it was damaged or replaced")
    return secret


def create_secret(path: Path) -> bytes:
    """Make a new secret at ``path`` (mode 0600, never overwriting one) and return it.

    Written to a private temporary file, made durable, then linked into place:
    a crash leaves either no secret or the whole one, and two runs racing on
    one folder cannot end up with different secrets.
    """
    secret = secrets.token_bytes(_SECRET_BYTES)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, (secret.hex() + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # fails if a secret already exists: that one wins
    except FileExistsError:
        return load_secret(path)
    finally:
        os.unlink(tmp)
    return secret


def deal_key(secret: bytes, seed: int) -> str:
    """The key of the deals of the match (or twin pair) with public seed ``seed``."""
    return hmac.new(secret, f"spades-referee/deal-key/v1\x00{seed}".encode("ascii"), hashlib.sha256).hexdigest()


def _canonical(record: Mapping[str, Any]) -> bytes:
    body = {k: v for k, v in record.items() if k != CHECK_FIELD}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def check_of(secret: bytes, record: Mapping[str, Any]) -> str:
    """The ``check`` field value of ``record`` (its own ``check``, if any, is left out)."""
    return _CHECK_PREFIX + hmac.new(secret, b"spades-referee/record/v1\x00" + _canonical(record),
                                    hashlib.sha256).hexdigest()


def sign(secret: bytes, record: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``record`` with its ``check`` field (the last key)."""
    out = {k: v for k, v in record.items() if k != CHECK_FIELD}
    out[CHECK_FIELD] = check_of(secret, out)
    return out


def verify(secret: bytes, record: Mapping[str, Any]) -> bool:
    """Whether ``record``'s ``check`` is the one the referee wrote (constant-time compare)."""
    claimed = record.get(CHECK_FIELD)
    if not isinstance(claimed, str):
        return False
    try:
        expected = check_of(secret, record)
    except (TypeError, ValueError):  # a value JSON cannot hold canonically (NaN): not ours
        return False
    return hmac.compare_digest(claimed.encode("utf-8", "replace"), expected.encode("ascii"))


def record_deal_source(record: Mapping[str, Any], secret: bytes | None) -> DealSource:
    """The deals a record's match was played on, for the operator (``spades deal``).

    A record states where its deals came from (``deals``): ``"secret"``, its
    seed and the folder's secret; ``"seed"`` (``spades match --seed``, and
    records from before this field), its seed alone. Raises ``ValueError``
    saying why when they cannot be recovered.
    """
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the record has no integer seed, got: {seed!r}")
    source = record.get("deals", "seed")
    if source == "seed":
        return seeded_deals(seed)
    if source == "secret":
        if secret is None:
            raise ValueError("its deals come from the results folder's secret, and the folder has no secret file")
        return keyed_deals(deal_key(secret, seed))
    if source == "injected":
        raise ValueError("its deals were given to the match by the program that ran it (check-bot, a test), "
                         "not dealt from a seed")
    raise ValueError(f"unknown deal source {source!r} (expected \"secret\" or \"seed\")")
