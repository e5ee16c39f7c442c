"""``python -m capsa_fast.susun.tournament``: the same as ``capsa-fast tournament``, with the
same arguments (the command is :mod:`capsa_fast.cli.tournament`; the library does not import
it)."""

from __future__ import annotations

from capsa_fast.cli.tournament import command

if __name__ == "__main__":
    command.main(prog_name="python -m capsa_fast.susun.tournament")
