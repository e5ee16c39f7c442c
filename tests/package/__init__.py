"""The package as a whole: wheel, README, docs, import layout, copies, threads, fuzz replays."""
