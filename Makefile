# Two commands for a fresh machine: `make run` and `make test`.
# Everything is installed into .venv by this file; nothing is expected on the machine but
# Python 3.11+, a C++17 compiler and access to PyPI.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The server's settings: make variables, else the CAPSA_FAST_* environment, else defaults
# (api/server/settings.py reads the environment; docs/production.md lists every variable).
HOST ?= $(or $(CAPSA_FAST_HOST),127.0.0.1)
PORT ?= $(or $(CAPSA_FAST_PORT),8000)
# WORKERS empty: one per core (api/server/settings.py, ServerSettings).
WORKERS ?= $(CAPSA_FAST_WORKERS)

# Two sets of dependencies: what serving needs (`make run`: the package with its "server"
# extra) and, on top, what testing needs (`make test`: the "test" extra: pytest, linters,
# the peer evaluators, schemathesis, atheris) and the docs tools.
DEPS_STAMP := $(VENV)/.deps-stamp
TEST_DEPS_STAMP := $(VENV)/.test-deps-stamp
DOCS_DEPS_STAMP := $(VENV)/.docs-deps-stamp
BUILD_STAMP := $(VENV)/.build-stamp
CORE_SOURCES := $(shell find cpp -type f) CMakeLists.txt pyproject.toml
CMAKE := $(BIN)/cmake
CMAKE_GEN := -G Ninja -DCMAKE_MAKE_PROGRAM=$(abspath $(BIN)/ninja)

.PHONY: all install install-test browser-deps run test lint cpp-test paths-exercised cpp-asan py-asan cpp-fuzz pytest fuzz fuzz-short py-fuzz bench docs docs-serve clean

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
	$(BIN)/python -m pip install --no-build-isolation -e ".[server,test,docs]"
	touch $@

# The documentation site's tools alone (pyproject's "docs" extra: mkdocs, its Material theme
# and mkdocstrings), without building the package: the reference is read from the sources
# and _core.pyi, never imported. `make test` installs the extra with the package.
$(DOCS_DEPS_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["docs"]))' > $(VENV)/docs-requirements.txt
	$(BIN)/python -m pip install -r $(VENV)/docs-requirements.txt
	touch $@

$(BUILD_STAMP): $(DEPS_STAMP) $(CORE_SOURCES)
	$(BIN)/python -m pip install --no-build-isolation --no-deps -e .
	touch $@

install: $(BUILD_STAMP)

install-test: $(TEST_DEPS_STAMP) $(BUILD_STAMP)

# The browser tests (tests/web/browser) drive Debian's Chromium through its own chromedriver;
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
# replays the fuzz targets' corpus and regression inputs and fuzzes each briefly). Under the
# sanitizers the dispatch tests run once, uncapped (they force every loop the CPU has in
# turn); the optimised build also runs them under each CAPSA_FAST_ISA cap. The
# optimised build also compiles the Python bindings (not installed from there), so a
# warning in them fails here as one in the core does. A build that registers no test fails
# (--no-tests=error) instead of passing with nothing run.
cpp-test: $(DEPS_STAMP)
	$(CMAKE) -S . -B build/cpp $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror \
		-DCAPSA_FAST_PYTHON=ON -DPython_EXECUTABLE=$(abspath $(BIN)/python) \
		-Dpybind11_DIR=$$($(BIN)/python -m pybind11 --cmakedir)
	$(CMAKE) --build build/cpp
	$(BIN)/ctest --test-dir build/cpp --output-on-failure --no-tests=error --parallel 2
	@$(MAKE) --no-print-directory paths-exercised LOG=build/cpp/Testing/Temporary/LastTest.log

# The run-time dispatched loops each test run exercised (the tests print "paths exercised:";
# ctest runs the dispatch tests once per CAPSA_FAST_ISA cap, see CMakeLists.txt).
paths-exercised:
	@echo "== paths exercised (this CPU: $$(grep -o -w -E 'avx512bw|avx2' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' '))"
	@awk '/^[0-9]+\/[0-9]+ Test: / { name = $$3 } /^paths exercised: / { sub(/^paths exercised: /, ""); printf "  %-22s %s\n", name, $$0 }' $(LOG)

cpp-asan: $(DEPS_STAMP)
	$(CMAKE) -S . -B build/asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCAPSA_FAST_SANITIZE=ON -DCMAKE_CXX_FLAGS=-Werror -DCAPSA_FAST_FUZZ=ON
	$(CMAKE) --build build/asan
	CAPSA_FAST_SHORT=1 $(BIN)/ctest --test-dir build/asan --output-on-failure --no-tests=error --parallel 2 \
		--exclude-regex '_isa_'
	@$(MAKE) --no-print-directory paths-exercised LOG=build/asan/Testing/Temporary/LastTest.log

# The Python bindings under ASan + UBSan: capsa_fast._core and the core under it built with
# the sanitizers in build/asan-py (the module at -O1, see CMakeLists.txt), then the tests that
# drive the bindings run against that module through tests/asan/run.py: a venv of its own
# over .venv's packages, without the editable install's import hook; the sanitizer runtimes
# preloaded; two pytest processes share the tests; any report fails the target. The
# editable build (build/<wheel tag>) and build/cpp are left alone. A subset, to take about
# 4 min from a clean build/ on two cores: the slowest bot, oracle and strength tests stay
# with `make pytest`, and so do the two that cap the address space (ASan reserves terabytes
# of it for its shadow memory) and the one that times a call (ASan runs it 3-4 times slower).
PY_ASAN_TESTS ?= tests/poker/test_cards.py tests/package/test_words.py tests/package/test_copies.py \
	tests/package/test_threads.py tests/poker/test_poker_properties.py tests/poker/test_equity.py \
	tests/api/test_api.py tests/banting/test_banting_edges.py tests/banting/test_banting_mask.py \
	tests/banting/test_banting_perft.py tests/banting/test_banting_properties.py \
	tests/banting/test_banting_seed_rules.py tests/banting/test_banting_game.py \
	tests/susun/test_susun_edges.py tests/susun/test_susun_table.py tests/cli/test_strength.py \
	tests/rl/test_rl_vec.py tests/rl/test_rl_gym_vec.py tests/rl/test_rl_envs.py \
	tests/package/test_fuzz_regressions.py
PY_ASAN_SKIP ?= not system_refuses and not rarely_fit and not eval7 and not like_the_oracle \
	and not bots_only_make_legal_moves and not expert_beats_standard and not beats_three_beginners \
	and not deep_candidates_are_bounded and not fouling[master] and not fouling[deep] \
	and not deep_settings_reach and not kept_within_bounds \
	and not look_ahead_beats and not first_play_brute_force and not stops_near_its_time_limit \
	and not (positions_match_the_rules_engine and not rules0) and (batch or not test_api.py)
py-asan: $(TEST_DEPS_STAMP)
	$(CMAKE) -S . -B build/asan-py $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCAPSA_FAST_SANITIZE=ON -DCAPSA_FAST_PYTHON=ON -DCAPSA_FAST_TESTS=OFF -DCMAKE_CXX_FLAGS=-Werror \
		-DPython_EXECUTABLE=$(abspath $(BIN)/python) -Dpybind11_DIR=$$($(BIN)/python -m pybind11 --cmakedir)
	$(CMAKE) --build build/asan-py --target _core --parallel 2
	$(BIN)/python tests/asan/run.py --build build/asan-py --jobs 2 -- -q -p no:cacheprovider \
		$(PY_ASAN_TESTS) -k "$(PY_ASAN_SKIP)"

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

test: lint cpp-test cpp-asan py-asan pytest fuzz-short

bench: install-test cpp-test
	build/cpp/bench_poker
	$(BIN)/capsa-fast bench

# The documentation site (mkdocs.yml, docs/): built strictly (a broken link or a reference
# that does not resolve fails) into site/; docs-serve rebuilds it on every change.
DOCS_PORT ?= 8001
docs: $(DOCS_DEPS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

docs-serve: $(DOCS_DEPS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:$(DOCS_PORT)

clean:
	rm -rf build site $(VENV)
