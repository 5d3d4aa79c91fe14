# Quick start: `make demo` runs the main job, `make test` runs the tests.
# Each installs missing Debian packages, configures and builds first.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps configure build demo suite test bench clean
deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on a few operators: optimize vs Best-of-N at a small budget, HTML report.
demo: build
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
