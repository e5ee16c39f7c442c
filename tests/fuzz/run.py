"""Run the atheris fuzzers (tests/fuzz/fuzz_*.py), each in its own process, for a bounded time.

    python tests/fuzz/run.py --seconds 180 [--only api --only cards] [-- extra libFuzzer flags]

Each fuzzer reads its committed seeds (tests/fuzz/corpus/<name>/) and past crashes
(tests/fuzz/regressions/<name>/), and writes the inputs it finds to a scratch corpus,
build/fuzz-corpus/<name>/ (kept between runs, never in the repository); crash, timeout and
out-of-memory inputs go to build/fuzz-artifacts/<name>/ and the full log to
build/fuzz-logs/<name>.log. A crash worth keeping becomes a regression: copy its file to
tests/fuzz/regressions/<name>/ (tests/package/test_fuzz_regressions.py replays those).

Prints one summary line per fuzzer and exits non-zero if any failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
ROOT = FUZZ_DIR.parents[1]
BUILD = ROOT / "build"
RSS_LIMIT_MB = 2048
# libFuzzer's -timeout: one input running longer than this is a hang (a failure).
INPUT_TIMEOUT_SECONDS = 60
# Past --seconds, how long a fuzzer may take to start up and to wind down before it is killed.
GRACE_SECONDS = 120
ARTIFACT_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")


def fuzzer_names() -> list[str]:
    return sorted(path.stem.removeprefix("fuzz_") for path in FUZZ_DIR.glob("fuzz_*.py"))


@dataclass
class Outcome:
    name: str
    runs: int | None
    seconds: float
    returncode: int
    result: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def line(self) -> str:
        runs = "?" if self.runs is None else str(self.runs)
        return f"{self.name:<8} runs={runs:>10} seconds={self.seconds:7.1f} result={self.result}"


def run_one(name: str, seconds: int, extra: list[str]) -> Outcome:
    artifacts = BUILD / "fuzz-artifacts" / name
    scratch = BUILD / "fuzz-corpus" / name
    logs = BUILD / "fuzz-logs"
    for folder in (artifacts, scratch, logs):
        folder.mkdir(parents=True, exist_ok=True)
    # libFuzzer writes new inputs to the first corpus folder only: the scratch one.
    corpora = [scratch]
    for committed in (FUZZ_DIR / "corpus" / name, FUZZ_DIR / "regressions" / name):
        if committed.is_dir():
            corpora.append(committed)
    command = [
        sys.executable,
        str(FUZZ_DIR / f"fuzz_{name}.py"),
        f"-max_total_time={seconds}",
        f"-rss_limit_mb={RSS_LIMIT_MB}",
        f"-timeout={INPUT_TIMEOUT_SECONDS}",
        f"-artifact_prefix={artifacts}{os.sep}",
        "-print_final_stats=1",
        *extra,
        *map(str, corpora),
    ]
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    before = set(artifacts.iterdir())
    log_path = logs / f"{name}.log"
    started = time.monotonic()
    with log_path.open("w", encoding="utf-8", errors="replace") as log:
        log.write(" ".join(command) + "\n")
        log.flush()
        try:
            returncode = subprocess.run(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=seconds + GRACE_SECONDS,
                check=False,
            ).returncode
        except subprocess.TimeoutExpired:
            returncode = -9
    elapsed = time.monotonic() - started
    text = log_path.read_text(encoding="utf-8", errors="replace")
    runs = _runs(text)
    written = set(artifacts.iterdir()) - before
    new = sorted(p for p in written if p.name.startswith(ARTIFACT_PREFIXES))
    if returncode == 0:
        slow = [p.name for p in new if p.name.startswith("slow-unit-")]
        result = "ok" + (f" (slow inputs kept in {artifacts.relative_to(ROOT)})" if slow else "")
    elif returncode == -9:
        result = f"FAILED (killed after {seconds + GRACE_SECONDS}s; log {log_path})"
    else:
        found = ", ".join(str(p.relative_to(ROOT)) for p in new) or "no artifact"
        result = f"FAILED (exit {returncode}; {found}; log {log_path.relative_to(ROOT)})"
    return Outcome(name, runs, elapsed, returncode, result)


def _runs(log: str) -> int | None:
    """Executions, from libFuzzer's final stats or else its last status line."""
    for pattern in (r"stat::number_of_executed_units:\s*(\d+)", r"Done (\d+) runs in"):
        found = re.findall(pattern, log)
        if found:
            return int(found[-1])
    status = re.findall(r"^#(\d+)\s", log, flags=re.MULTILINE)
    return int(status[-1]) if status else None


def main(argv: list[str] | None = None) -> int:
    names = fuzzer_names()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, required=True, help="fuzzing time per fuzzer")
    parser.add_argument(
        "--only", action="append", choices=names, help="run just this fuzzer (repeatable)"
    )
    parser.add_argument("extra", nargs="*", help="more libFuzzer flags, after --")
    args = parser.parse_args(argv)
    if args.seconds < 1:
        parser.error("--seconds must be at least 1")
    outcomes = []
    for name in args.only or names:
        print(f"fuzzing {name} for {args.seconds}s ...", flush=True)
        outcome = run_one(name, args.seconds, args.extra)
        outcomes.append(outcome)
        print(outcome.line(), flush=True)
    print("summary:")
    for outcome in outcomes:
        print("  " + outcome.line())
    return 0 if all(outcome.ok for outcome in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
