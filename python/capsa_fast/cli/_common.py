"""What the subcommands share: --json output, rule options, progress bars and tables."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

# The library's long runs show the same bars, so they live in the library (re-exported here).
from .._terminal import console as console
from .._terminal import progress as progress

F = TypeVar("F", bound=Callable[..., Any])


def json_option(function: F) -> F:
    """``--json``: print one JSON object on stdout instead of tables."""
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print one JSON object (machine-readable) instead of tables.",
    )(function)


def ray_option(function: F) -> F:
    """``--ray [ADDRESS]``: run the work's seeded chunks as tasks on Ray (same results)."""
    return click.option(
        "--ray",
        "ray",
        is_flag=False,
        flag_value="local",
        default=None,
        metavar="[ADDRESS]",
        help="Run the work in seeded chunks on Ray, with the same results: a local Ray "
        "without an address, else the cluster at ADDRESS (auto, HOST:6379, "
        "ray://HOST:10001). Needs the 'ray' extra.",
    )(function)


def connect_ray(address: str | None, cpus: int | None = None) -> None:
    """Start or join the Ray that ``--ray`` names (nothing without it); a missing ray
    package, or an address that cannot be joined, is a usage error saying what to do."""
    if address is None:
        return
    from .. import _ray

    try:
        _ray.connect(address, cpus=cpus)
    except (ImportError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float as None: JSON has no such numbers (a 95%
    interval from a single round is unbounded, printed as null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def emit_json(value: Any) -> None:
    click.echo(json.dumps(_finite(value), indent=2, ensure_ascii=False, allow_nan=False))


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value (else the text itself)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise click.BadParameter(f"expected key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def set_option(function: F) -> F:
    """``--set KEY=VALUE`` (repeatable): a rule setting on top of the preset."""
    return click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override a rule setting of the game (JSON values allowed), e.g. --set "
        "pass_locks=true for Capsa Banting, --set foul_points=6 for Capsa Susun.",
    )(function)


def settings_of(overrides: tuple[str, ...]) -> dict[str, Any]:
    return dict(parse_setting(text) for text in overrides)


def fail(message: str) -> click.UsageError:
    """A usage error (exit status 2) with ``message``."""
    return click.UsageError(message)


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()
