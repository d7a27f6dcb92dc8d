"""``--sandbox`` on the commands that start bots, and the loud warnings about it.

Every command that starts bot processes (``spades match``, ``spades run``,
``spades check-bot``) takes ``--sandbox auto|required|none`` and, before any
bot starts, says on stderr what this machine cannot give (no bubblewrap, no
cgroups, ``none``), or stops with a clear message when ``required`` cannot be met.
"""

from __future__ import annotations

from typing import Any, Callable

import click

from referee.seat.sandbox import SandboxPolicy, SandboxUnavailable, check_policy

__all__ = ["sandbox_option", "announce_sandbox"]

_CHOICES = click.Choice([p.value for p in SandboxPolicy])


def sandbox_option(default: str | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--sandbox`` option; ``default=None`` means "the config's"."""
    shown = f" (default: {default})" if default is not None else " (default: the config's 'sandbox', else auto)"
    return click.option("--sandbox", "sandbox", type=_CHOICES, default=default,
                        help="How to confine each bot: auto = the strongest this machine allows, required = "
                             "refuse to start without namespaces, none = plain processes" + shown + ".")


def announce_sandbox(policy: SandboxPolicy) -> None:
    """Warn on stderr about what ``policy`` lacks here; exit 2 if ``required`` cannot be met."""
    try:
        warnings = check_policy(policy)
    except SandboxUnavailable as exc:
        raise click.ClickException(str(exc)) from None
    for line in warnings:
        click.secho(f"WARNING: {line}", err=True, fg="yellow", bold=True)
