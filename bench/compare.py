"""capsa_fast and its peers side by side: the same as ``capsa-fast bench`` (same arguments).

The measurements live in the package beside the command (``capsa_fast/cli/_benchmark.py``),
so that ``capsa-fast bench`` runs them wherever the package is installed; ``capsa-fast bench
--help`` lists the options (``--quick``, ``--batch-only``, ``--external LIB.so``, ``--json``,
``--plot``).
"""

from __future__ import annotations

from capsa_fast.cli.bench import command

if __name__ == "__main__":
    command.main(prog_name="python bench/compare.py")
