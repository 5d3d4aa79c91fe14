# Quick start: `make demo` runs the main job, `make test` runs the tests.
# Each installs missing Debian packages, configures and builds first.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps configure build demo test bench clean
deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bash scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
