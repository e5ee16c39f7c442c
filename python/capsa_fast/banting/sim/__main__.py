"""``python -m capsa_fast.banting.sim``: the same as ``capsa-fast sim``, with the same
arguments (the command is :mod:`capsa_fast.cli.sim`; the library does not import it)."""

from __future__ import annotations

from capsa_fast.cli.sim import main

if __name__ == "__main__":
    raise SystemExit(main(prog="python -m capsa_fast.banting.sim"))
