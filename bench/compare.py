"""The peer comparison, as before: the same as ``capsa-fast bench`` (same arguments).

The measurements live in ``capsa_fast.benchmark``; ``capsa-fast bench --help`` lists the
options (``--quick``, ``--batch-only``, ``--external LIB.so``, ``--json``, ``--plot``).
"""

from __future__ import annotations

from capsa_fast.cli.bench import command

if __name__ == "__main__":
    command.main(prog_name="python bench/compare.py")
