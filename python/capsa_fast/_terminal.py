"""What long runs show on the terminal: a rich console, and a progress bar with an ETA.

The library's own long runs (``python -m capsa_fast.susun.gen_ev_model --ray``) and the
``capsa-fast`` commands (:mod:`capsa_fast.cli`) share them; the commands import this module,
never the reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def console(stderr: bool = False) -> Console:
    """A rich console on stdout (``stderr``: on stderr) that colours no numbers of its own."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


@contextmanager
def progress(
    total: int, description: str, *, out: Console | None = None
) -> Iterator[Callable[[int], None]]:
    """A progress bar with an ETA on stderr while the block runs; yields ``advance(done)``
    taking how many units are done so far. Silent when stderr is not a terminal."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    out = out or console(stderr=True)
    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=out,
        disable=not out.is_terminal,
        transient=False,
    )
    task = bar.add_task(description, total=total)
    with bar:
        yield lambda done: bar.update(task, completed=done)
