# Quick start: `make demo` runs the main job, `make test` runs the tests.
# Each installs missing Debian packages, configures and builds first.
BUILD ?= build
JOBS ?= $(shell nproc)
# Optimized, without debug info: debug info costs compile and link time on every unit (src/package/
# op_import.cpp: 16 s with -g, 12 s without); `make test BUILD_TYPE=RelWithDebInfo` builds to debug.
BUILD_TYPE ?= Release

.PHONY: deps configure programs build demo suite test bench clean
deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null

# What running ascendopt needs: the program, the sandboxed case runner, the source rewriter and
# the single-file program runner; not the tests and benchmarks.
PROGRAMS = ascendopt aoc-harness aoc-rewrite aoc-asc-host
programs: configure
	@cmake --build $(BUILD) -j $(JOBS) --target $(PROGRAMS)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on a few operators: optimize vs Best-of-N at a small budget, HTML report.
demo: programs
	@bash scripts/demo.sh $(BUILD)

# Every operator package's cases, run once against the golden.
suite: build
	@bash scripts/run-suite.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bash scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
