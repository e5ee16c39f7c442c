"""Run pytest against capsa_fast._core built with ASan + UBSan (make py-asan).

    python tests/asan/run.py [--build build/asan-py] [--jobs 2] -- [pytest arguments]

The module is built in BUILD (CMake with CAPSA_FAST_PYTHON=ON and CAPSA_FAST_SANITIZE=ON).
This script then

- stages the package in BUILD/stage/capsa_fast: links to python/capsa_fast's files and to
  the sanitized module, nothing copied;
- makes a venv of its own, BUILD/venv, whose one .pth line lists the stage and then the
  packages of the interpreter running this script (.venv's): that interpreter's editable
  install of capsa_fast (an import hook set up by a .pth file of its site-packages) is never
  loaded there, so nothing but the stage can answer ``import capsa_fast``, in the tests and
  in every Python process they start (sys.executable is the venv's);
- preloads the sanitizer runtime the module was linked with (python itself is not built with
  ASan, and ASan must come first) and libstdc++ with it: loaded later, ASan cannot find the
  real __cxa_throw and stops at the first C++ exception ("CHECK failed ... __cxa_throw");
- runs Python with its own allocator off (PYTHONMALLOC=malloc), so every Python object is a
  heap block of its own that ASan watches, and leak checking off (CPython keeps memory to
  the end by design);
- checks that the stage's module is the one imported, then runs pytest with
  tests/asan/plugin.py (Hypothesis' deadline off); with --jobs N, N pytest processes side by
  side, each with every N-th of the selected tests, their output printed when all have
  ended.

Every ASan report goes to BUILD/reports/asan.PID, those of child processes too (whose failure
a test may expect); the script prints them and fails if there is any, even when pytest passed.
UBSan (GCC's libubsan) writes to stderr whatever its log_path says, so pytest runs with
--capture=sys: a report in the test process itself is printed as it happens, and ends the run
(the module is built with -fno-sanitize-recover). In a child process it ends the child with
status 1, which the test that started it sees.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "capsa_fast"

CHECK_IMPORT = """
import sys
import capsa_fast, capsa_fast._core
print(capsa_fast.__file__)
print(capsa_fast._core.__file__)
maps = open("/proc/self/maps").read()
print("asan" if ("libasan" in maps or "clang_rt.asan" in maps) else "no asan")
"""


def module_path(build: Path) -> Path:
    path = build / ("_core" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    if not path.is_file():
        sys.exit(f"py-asan: {path} is missing (build the _core target in {build} first)")
    return path


def runtimes(module: Path) -> list[str]:
    """The ASan runtime and the C++ library the module loads, in preload order."""
    listing = subprocess.run(["ldd", str(module)], capture_output=True, text=True, check=True)
    found = dict(re.findall(r"^\s*(\S+) => (/\S+)", listing.stdout, re.MULTILINE))
    asan = [p for name, p in found.items() if name.startswith(("libasan", "libclang_rt.asan"))]
    cxx = [p for name, p in found.items() if name.startswith(("libstdc++", "libc++."))]
    if not asan:
        sys.exit(f"py-asan: {module} loads no ASan runtime (configure with CAPSA_FAST_SANITIZE=ON)")
    return asan[:1] + cxx[:1]


def stage(build: Path, module: Path) -> Path:
    root = build / "stage"
    target = root / "capsa_fast"
    shutil.rmtree(root, ignore_errors=True)
    target.mkdir(parents=True)
    for entry in sorted(PACKAGE.iterdir()):
        if entry.name.startswith("_core.") and entry.suffix in (".so", ".pyd"):
            continue  # a module left by an in-place build is not the sanitized one
        if entry.name == "__pycache__":
            continue
        (target / entry.name).symlink_to(entry)
    (target / module.name).symlink_to(module.resolve())
    return root


def make_venv(build: Path, staged: Path) -> Path:
    env_dir = build / "venv"
    python = env_dir / "bin" / "python"
    if not python.exists():
        venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(env_dir)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = [sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]
    lines = [str(staged.resolve()), *dict.fromkeys(ours)]
    (Path(site) / "capsa_fast_asan.pth").write_text("\n".join(lines) + "\n")
    return python


def run_shards(command: list[str], env: dict[str, str], jobs: int, build: Path) -> int:
    """Runs `command` as `jobs` shards at once; prints each one's output; the worst exit."""
    runs = []
    for index in range(jobs):
        log = (build / f"pytest-shard-{index}.log").open("w+")
        shard_env = dict(env, CAPSA_FAST_SHARD=f"{index}/{jobs}")
        proc = subprocess.Popen(
            command, env=shard_env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        runs.append((index, proc, log))
    codes = []
    for index, proc, log in runs:
        codes.append(proc.wait())
        log.seek(0)
        print(f"===== pytest shard {index + 1}/{jobs} (exit {codes[-1]})\n{log.read()}", flush=True)
        log.close()
    return max(codes, key=lambda code: (code != 0, abs(code)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "asan-py")
    parser.add_argument("--jobs", type=int, default=1, help="pytest processes side by side")
    parser.add_argument("pytest_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    build = args.build.resolve()
    pytest_args = args.pytest_args[1:] if args.pytest_args[:1] == ["--"] else args.pytest_args

    module = module_path(build)
    preload = runtimes(module)
    python = make_venv(build, stage(build, module))
    reports = build / "reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir()

    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.update(
        LD_PRELOAD=" ".join([*preload, env.get("LD_PRELOAD", "")]).strip(),
        ASAN_OPTIONS=f"detect_leaks=0:halt_on_error=1:log_path={reports}/asan",
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
        PYTHONMALLOC="malloc",
    )

    check = subprocess.run(
        [str(python), "-c", CHECK_IMPORT], env=env, cwd=ROOT, capture_output=True, text=True
    )
    lines = check.stdout.split()
    expected = build / "stage" / "capsa_fast" / module.name
    if check.returncode != 0 or lines[1:] != [str(expected), "asan"]:
        print(check.stdout, check.stderr, file=sys.stderr)
        for report in sorted(reports.iterdir()):
            print(report.read_text(errors="replace"), file=sys.stderr)
        sys.exit(f"py-asan: capsa_fast._core is not {expected} under ASan")
    print(f"py-asan: capsa_fast from {lines[0]}, _core from {lines[1]}")
    print(f"py-asan: LD_PRELOAD={env['LD_PRELOAD']}", flush=True)

    start = time.monotonic()
    command = [str(python), "-m", "pytest", "-p", "tests.asan.plugin", "--capture=sys"]
    command += pytest_args
    if args.jobs <= 1:
        code = subprocess.run(command, env=env, cwd=ROOT).returncode
    else:
        code = run_shards(command, env, args.jobs, build)
    seconds = time.monotonic() - start

    found = sorted(reports.iterdir())
    for report in found:
        print(f"\n===== {report.name}\n{report.read_text(errors='replace')}", file=sys.stderr)
    print(f"py-asan: pytest exited {code} after {seconds:.0f} s; sanitizer reports: {len(found)}")
    if found:
        print(f"py-asan: FAILED, reports in {reports}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
