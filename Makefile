# porlab — `make demo` and `make test` work on a fresh machine (they install what is missing).
PYTHON ?= python3
JOBS ?= 2
# Warnings are errors in CI (CI=true) and in the C++ test build.
WERROR ?= $(if $(filter true,$(CI)),ON,OFF)

# ccache, when installed (scripts/setup-deps.sh installs it), is the compiler launcher of every
# build here: the extension module's build and the C++ test build use the same flags (Release,
# warnings as errors under CI), so the second one reuses the first one's objects. Resolved when a
# recipe runs, since a fresh machine only has ccache after the setup step.
# (ccache hashes the compiler's name too: both builds get the same one, make's $(CXX).)
export CXX
LAUNCHER = CMAKE_CXX_COMPILER_LAUNCHER=$${CMAKE_CXX_COMPILER_LAUNCHER-$$(command -v ccache)}

CPP_SOURCES := $(shell find cpp -name '*.cpp' -o -name '*.hpp' 2>/dev/null) CMakeLists.txt pyproject.toml
DEMO_EXAMPLES := examples/rvf_fig1.py $(wildcard examples/rvf_fig13c.py examples/godot_fig*.py \
                 examples/lapor_n_reads_lock.py examples/lapor_ww_r_mixed.py examples/litmus_*.py)

.PHONY: all setup build cpp cpp-nollvm demo test test-cpp test-python test-notebooks test-sanitize \
        lint format format-check tidy bench clean

all: build

setup: build/.deps-stamp
build/.deps-stamp: scripts/setup-deps.sh pyproject.toml
	@mkdir -p build
	PYTHON=$(PYTHON) scripts/setup-deps.sh
	@touch $@

# The Python package with its extension module porlab._core (editable install: Python files
# are used in place, only C++ changes need a rebuild).
build: build/.python-stamp
build/.python-stamp: build/.deps-stamp $(CPP_SOURCES)
	$(LAUNCHER) PORLAB_WERROR=$(WERROR) CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) \
	    $(PYTHON) -m pip install -q --disable-pip-version-check --no-build-isolation -e .
	@touch $@

# The C++ core and its GoogleTest suite, warnings as errors; Release like the extension module
# (pyproject.toml), so that ccache shares their objects.
cpp: build/.deps-stamp
	$(LAUNCHER) cmake -S . -B build/cmake -G Ninja -DCMAKE_BUILD_TYPE=Release \
	    -DPORLAB_BUILD_TESTS=ON -DPORLAB_WERROR=ON -DPORLAB_WITH_LLVM=ON > /dev/null
	cmake --build build/cmake -j $(JOBS)

# The LLVM-free core without the C front end (-DPORLAB_WITH_LLVM=OFF), and the tests of
# program/'s interpreter (tests/cpp/program), which need no LLVM either. (CI runs it after
# `make cpp`: Release with the same flags, so the core's objects come from ccache.)
cpp-nollvm: build/.deps-stamp
	$(LAUNCHER) cmake -S . -B build/nollvm -G Ninja -DCMAKE_BUILD_TYPE=Release \
	    -DPORLAB_BUILD_TESTS=ON -DPORLAB_WERROR=ON -DPORLAB_WITH_LLVM=OFF > /dev/null
	cmake --build build/nollvm -j $(JOBS)
	ctest --test-dir build/nollvm --output-on-failure -j $(JOBS) -R '^CodeInterpreter\.'

demo: build
	porlab partition $(DEMO_EXAMPLES)

test: test-cpp test-python test-notebooks lint

test-cpp: cpp
	ctest --test-dir build/cmake --output-on-failure -j $(JOBS)

# Two pytest workers (pytest-xdist) on CI's two cores, all tests of one C corpus file on one
# worker (conftest.py); pytest-benchmark, if installed, would refuse to run under xdist.
test-python: build
	$(PYTHON) -m pytest -q -n $(JOBS) --dist loadgroup -p no:benchmark tests/python

test-notebooks: build
	PORLAB_SMALL=1 $(PYTHON) -m pytest -q -p no:cacheprovider --nbmake notebooks

# AddressSanitizer + UndefinedBehaviorSanitizer over the C++ tests (100 random programs per
# conformance family instead of 500: the Release run above checks the full count; every
# registered explorer is in those families now). -O1 with line tables: the sanitizers' reports
# keep their file:line stacks, and the tests run several times faster than at -O0.
test-sanitize: build/.deps-stamp
	$(LAUNCHER) cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DPORLAB_BUILD_TESTS=ON \
	    -DPORLAB_WERROR=ON -DPORLAB_SANITIZE=ON -DPORLAB_WITH_LLVM=ON > /dev/null
	cmake --build build/asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 PORLAB_RANDOM_PROGRAMS=100 \
	    ctest --test-dir build/asan --output-on-failure -j $(JOBS)

lint: format-check
	$(PYTHON) -m ruff check python tests examples benchmarks

# C++ style (STYLE.md; .clang-format, .clang-tidy): `make format` rewrites, `format-check` fails
# on any difference (and on a line over 100 columns that clang-format cannot break), `tidy` runs
# clang-tidy on the LLVM-free core with the compile commands of `make cpp`.
CXX_FORMAT_FILES = $(shell find cpp tests/cpp -name '*.cpp' -o -name '*.hpp')
CLANG_FORMAT ?= clang-format-19
CLANG_TIDY ?= clang-tidy-19
format: build/.deps-stamp
	$(CLANG_FORMAT) -i $(CXX_FORMAT_FILES)

format-check: build/.deps-stamp
	$(CLANG_FORMAT) --dry-run --Werror $(CXX_FORMAT_FILES)
	$(PYTHON) scripts/check-columns.py

# TIDY_DIRS: the whole LLVM-free core, in CI too (about 50 translation units, ~10 s of CPU each:
# ~4-5 minutes on CI's 2 cores).
TIDY_DIRS ?= cpp/porlab/core cpp/porlab/program cpp/porlab/explore cpp/porlab/equiv
tidy: cpp
	find $(TIDY_DIRS) -name '*.cpp' | \
	    xargs -P $(JOBS) -n 4 $(CLANG_TIDY) -p build/cmake --quiet \
	        --extra-arg=-Wno-unknown-warning-option \
	        --extra-arg=-Wno-deprecated-declarations

# The DPOR suite through the benchmark runner; results resume from build/bench/dpor.parquet.
bench: build
	porlab bench benchmarks/suites/dpor.toml -o build/bench/dpor.parquet -j $(JOBS)
	porlab report build/bench/dpor.parquet --table plain

clean:
	rm -rf build
