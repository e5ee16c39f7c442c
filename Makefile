# Two commands for a fresh machine: `make run` and `make test`.
# Everything is installed into .venv by this file; nothing is expected on the machine but
# Python 3.11+, a C++17 compiler and access to PyPI.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The server's settings: make variables, else the CAPSA_FAST_* environment, else defaults
# (api/settings.py reads the environment; the README lists every variable).
HOST ?= $(or $(CAPSA_FAST_HOST),127.0.0.1)
PORT ?= $(or $(CAPSA_FAST_PORT),8000)
# WORKERS empty: one per core (api/settings.py, ServerSettings).
WORKERS ?= $(CAPSA_FAST_WORKERS)

# Two sets of dependencies: what serving needs (`make run`: the package with its "server"
# extra) and, on top, what testing needs (`make test`: the "test" extra: pytest, linters,
# the peer evaluators, schemathesis, atheris).
DEPS_STAMP := $(VENV)/.deps-stamp
TEST_DEPS_STAMP := $(VENV)/.test-deps-stamp
BUILD_STAMP := $(VENV)/.build-stamp
CORE_SOURCES := $(shell find cpp -type f) CMakeLists.txt pyproject.toml
CMAKE := $(BIN)/cmake
CMAKE_GEN := -G Ninja -DCMAKE_MAKE_PROGRAM=$(abspath $(BIN)/ninja)

.PHONY: all install install-test browser-deps run test lint cpp-test cpp-asan cpp-fuzz pytest fuzz fuzz-short py-fuzz bench clean

all: install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Build tools first (the package is built without isolation so rebuilds are incremental),
# then the package with the server's dependencies only.
$(DEPS_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install "scikit-build-core>=0.10" "pybind11>=3" cmake ninja
	$(BIN)/python -m pip install --no-build-isolation -e ".[server]"
	touch $@

$(TEST_DEPS_STAMP): $(DEPS_STAMP)
	$(BIN)/python -m pip install --no-build-isolation -e ".[server,test]"
	touch $@

$(BUILD_STAMP): $(DEPS_STAMP) $(CORE_SOURCES)
	$(BIN)/python -m pip install --no-build-isolation --no-deps -e .
	touch $@

install: $(BUILD_STAMP)

install-test: $(TEST_DEPS_STAMP) $(BUILD_STAMP)

# The browser tests (tests/browser) drive Debian's Chromium through its own chromedriver;
# both are installed here when missing (apt-get as root, else through sudo). Selenium is
# pointed at /usr/bin/chromedriver and never downloads a driver or a browser.
BROWSER_PACKAGES := chromium chromium-driver
browser-deps:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
		echo "chromium and chromedriver present"; \
	else \
		sudo=$$(test "$$(id -u)" = 0 || echo sudo); \
		export DEBIAN_FRONTEND=noninteractive; \
		$$sudo apt-get install -y --no-install-recommends $(BROWSER_PACKAGES) \
		|| { $$sudo apt-get update && \
			$$sudo apt-get install -y --no-install-recommends $(BROWSER_PACKAGES); }; \
	fi

run: install
	$(BIN)/capsa-fast serve --host $(HOST) --port $(PORT) $(if $(WORKERS),--workers $(WORKERS))

lint: $(TEST_DEPS_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The C++ core and its tests: once optimised, once with ASan + UBSan (there ctest also
# replays the fuzz targets' corpus and regression inputs and fuzzes each briefly). The
# optimised build also compiles the Python bindings (not installed from there), so a
# warning in them fails here as one in the core does. A build that registers no test fails
# (--no-tests=error) instead of passing with nothing run.
cpp-test: $(DEPS_STAMP)
	$(CMAKE) -S . -B build/cpp $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror \
		-DCAPSA_FAST_PYTHON=ON -DPython_EXECUTABLE=$(abspath $(BIN)/python) \
		-Dpybind11_DIR=$$($(BIN)/python -m pybind11 --cmakedir)
	$(CMAKE) --build build/cpp
	$(BIN)/ctest --test-dir build/cpp --output-on-failure --no-tests=error --parallel 2

cpp-asan: $(DEPS_STAMP)
	$(CMAKE) -S . -B build/asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCAPSA_FAST_SANITIZE=ON -DCMAKE_CXX_FLAGS=-Werror -DCAPSA_FAST_FUZZ=ON
	$(CMAKE) --build build/asan
	CAPSA_FAST_SHORT=1 $(BIN)/ctest --test-dir build/asan --output-on-failure --no-tests=error --parallel 2

# The fuzz targets (cpp/fuzz) under ASan + UBSan, in the sanitizer build: each replays its
# seed corpus and regression inputs, then fuzzes for FUZZ_SECONDS. After a crash the input
# is in build/fuzz-artifacts/cpp/<target>/current-input (and a crash-<hash> copy).
FUZZ_SECONDS ?= 10
FUZZ_TARGETS := cards poker equity banting banting_game susun
cpp-fuzz: $(DEPS_STAMP)
	$(CMAKE) -S . -B build/asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCAPSA_FAST_SANITIZE=ON -DCMAKE_CXX_FLAGS=-Werror -DCAPSA_FAST_FUZZ=ON
	$(CMAKE) --build build/asan
	@for t in $(FUZZ_TARGETS); do \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		mkdir -p build/fuzz-corpus/cpp/$$t build/fuzz-artifacts/cpp/$$t; \
		build/asan/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=build/fuzz-artifacts/cpp/$$t/ \
			build/fuzz-corpus/cpp/$$t cpp/fuzz/corpus/$$t \
			$$(test -d cpp/fuzz/regressions/$$t && echo cpp/fuzz/regressions/$$t) || exit 1; \
	done

# The Python fuzzers (tests/fuzz: card parser, rule parser, every JSON body) with atheris,
# each for FUZZ_SECONDS; a crash leaves its input in build/fuzz-artifacts/<name>/.
py-fuzz: install-test
	$(BIN)/python tests/fuzz/run.py --seconds $(FUZZ_SECONDS)

# Every fuzzer for FUZZ_SECONDS (`make fuzz FUZZ_SECONDS=600` for a long run); `make test`
# runs each for SHORT_FUZZ_SECONDS with fresh random inputs.
SHORT_FUZZ_SECONDS ?= 8
fuzz: cpp-fuzz py-fuzz

fuzz-short:
	$(MAKE) cpp-fuzz py-fuzz FUZZ_SECONDS=$(SHORT_FUZZ_SECONDS)

pytest: install-test browser-deps
	$(BIN)/python -m pytest

test: lint cpp-test cpp-asan pytest fuzz-short

bench: install-test cpp-test
	build/cpp/bench_poker
	$(BIN)/capsa-fast bench

clean:
	rm -rf build $(VENV)
