"""``python -m capsa_fast``: the ``capsa-fast`` command line."""

from __future__ import annotations

from capsa_fast.cli import main

if __name__ == "__main__":
    main()
