# The two commands the README promises, and the pieces they are built from.
#   make demo   installs what is missing, builds, and runs the main job on Samples/ into ./demo-library
#   make test   installs what is missing, builds, and runs the whole test suite
SWIFT ?= swift
DEMO_LIBRARY ?= $(CURDIR)/demo-library
INKWELL = $(CURDIR)/.build/release/inkwell

.PHONY: deps build release demo test bench clean

deps:
	./scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

demo: release
	./scripts/demo.sh "$(INKWELL)" "$(DEMO_LIBRARY)"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	./scripts/bench.sh

clean:
	rm -rf .build "$(DEMO_LIBRARY)"
