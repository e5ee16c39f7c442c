"""The ``capsa-fast`` command line (also ``python -m capsa_fast``).

Each subcommand is a module of this package that defines a click command named ``command``.
:data:`COMMANDS` is the one place that registers them: a subcommand's name, its module and
its one-line help. ``capsa-fast --help`` lists them from here without importing any (so it
answers at once), and a subcommand's module is imported only when it runs.

To add a subcommand ``NAME``: write ``capsa_fast/cli/NAME.py`` with ``command =
click.Command(...)`` (or ``@click.command()``), taking ``--json`` through
``capsa_fast.cli._common.json_option`` and showing long work with ``_common.progress``; then
add one line to :data:`COMMANDS`. Options shared by several subcommands (such as a
``--ray`` option for the simulations) belong in ``_common``, so each subcommand adds them
with one decorator.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

# name -> (module, one-line help), in the order `capsa-fast --help` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("capsa_fast.cli.serve", "Run the HTTP API server (needs the 'server' extra)."),
    "eval": ("capsa_fast.cli.evaluate", "Evaluate poker hands: category, strength, best five."),
    # "equity": Hold'em equity of hands or ranges (API.md) -- its module
    # capsa_fast/cli/equity.py comes with cf.poker.equity; register it here.
    "arrange": ("capsa_fast.cli.arrange", "Arrange a Capsa Susun hand into three rows."),
    "play": ("capsa_fast.cli.play", "Play a Capsa Banting round against bots in the terminal."),
    "sim": ("capsa_fast.cli.sim", "Simulate Capsa Banting rounds between bots."),
    "tournament": (
        "capsa_fast.cli.tournament",
        "Play Capsa Susun strategies against each other at random tables.",
    ),
    "bench": ("capsa_fast.cli.bench", "Compare the evaluator's speed with its peers."),
}


class LazyGroup(click.Group):
    """A group whose subcommands come from :data:`COMMANDS`, imported on use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = COMMANDS.get(cmd_name)
        if found is None:
            return None
        module = importlib.import_module(found[0])
        command: click.Command = module.command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # From the registry, so `--help` imports no subcommand (and so no numpy).
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="capsa_fast", message="capsa-fast %(version)s")
def main(**_: Any) -> None:
    """capsa_fast: Capsa Banting, Capsa Susun and poker hands, fast.

    Every subcommand has --help and --json (one JSON object on stdout instead of tables);
    long runs show a progress bar with an ETA on the terminal.
    """
