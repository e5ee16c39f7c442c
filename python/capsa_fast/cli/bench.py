"""``capsa-fast bench``: the evaluator against its peers on the same hands, side by side."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from ._common import emit_json, json_option, progress


def plot(result: dict[str, Any], path: Path) -> None:
    """A bar chart of every row's speed (M hands/s, log scale), one panel per hand size."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    rows = result["rows"]
    sizes = sorted({row["k"] for row in rows})
    figure, axes = plt.subplots(len(sizes), 1, figsize=(10, 1.2 + 0.32 * len(rows)), squeeze=False)
    for axis, k in zip(axes[:, 0], sizes, strict=True):
        mine = sorted((r for r in rows if r["k"] == k), key=lambda r: r["m_hands_per_s"])
        labels = [r["peer"] for r in mine]
        speeds = [r["m_hands_per_s"] for r in mine]
        colours = ["tab:blue" if r["peer"].startswith("capsa_fast") else "tab:gray" for r in mine]
        axis.barh(labels, speeds, color=colours)
        axis.set_xscale("log")
        axis.set_title(f"{k}-card hands")
        axis.set_xlabel("million hands per second (log scale)")
        for y, speed in enumerate(speeds):
            axis.text(speed, y, f" {speed:,.3g}", va="center", fontsize=8)
    figure.suptitle(f"capsa_fast and its peers ({result['cpu']})", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


@click.command(name="bench")
@click.option("--quick", is_flag=True, help="Small samples, few repeats (seconds, not minutes).")
@click.option("--batch-only", is_flag=True, help="Batch rows and thread scaling only.")
@click.option(
    "--external",
    multiple=True,
    metavar="LIB.so",
    help="A shared library exporting capsa_external_batch (e.g. OMPEval in a wrapper).",
)
@click.option("--seed", type=int, default=20240501, show_default=True)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw the rows as a chart into this PNG file (needs matplotlib).",
)
@json_option
def command(
    quick: bool,
    batch_only: bool,
    external: tuple[str, ...],
    seed: int,
    plot_path: Path | None,
    as_json: bool,
) -> None:
    """capsa_fast against phevaluator, eval7 and treys (and any --external evaluator) in one
    process on the same random hands: batch and per-hand rows with their ratios, thread
    scaling and import time. Peers that are not installed are left out (they come with the
    "test" extra)."""
    from . import _benchmark

    if plot_path is not None:  # before minutes of measuring, not after
        folder = plot_path.resolve().parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise click.BadParameter(f"cannot write into {folder}", param_hint="--plot")
    say = (lambda *_a, **_k: None) if as_json else click.echo
    with progress(6, "benchmark phases") as advance:
        result = _benchmark.run(
            quick=quick,
            batch_only=batch_only,
            external_paths=external,
            seed=seed,
            say=say,
            step=lambda done, _total: advance(done),
        )
    if plot_path is not None:
        try:
            plot(result, plot_path)
        except ImportError:
            raise click.ClickException(
                'drawing needs matplotlib: pip install "capsa_fast[plot]"'
            ) from None
        except OSError as exc:
            raise click.ClickException(f"cannot write {plot_path}: {exc}") from None
        if not as_json:
            click.echo(f"chart written to {plot_path}")
    if as_json:
        emit_json(result)
