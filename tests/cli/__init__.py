"""The command line, and the Ray backend and bots' strength it drives."""
