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

# The Swift runtime and Foundation linked statically: a command starts in ~13 ms instead of ~22 ms,
# the difference being the dynamic loader's symbol lookups (docs/benchmarks.md, cold start).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

demo: release
	./scripts/demo.sh "$(INKWELL)" "$(DEMO_LIBRARY)"

# Tests write libraries, exports and samples under a temporary folder of their own, removed
# afterwards whatever the outcome, so repeated runs do not pile folders up in /tmp. The peers the
# renders are compared with (rmc, from scripts/install-deps.sh) come first on PATH. Then the web
# notebook in a real browser (headless Chromium against `inkwell serve`, Tests/Browser), and the
# server killed with SIGKILL at random moments while a driver writes (about a minute, 30+ kills):
# every stroke it confirmed must be in the page files exactly once (scripts/serve-crash.py).
test: deps
	$(SWIFT) build --build-tests
	tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/inkwell-tests.XXXXXX") && \
	  PATH="$(CURDIR)/.build/peers/bin:$$PATH" TMPDIR="$$tmp" $(SWIFT) test --skip-build; status=$$?; rm -rf "$$tmp"; \
	  [ $$status -eq 0 ] || exit $$status
	/usr/bin/python3 Tests/Browser/browser_test.py $(CURDIR)/.build/debug/inkwell
	/usr/bin/python3 scripts/serve-crash.py $(CURDIR)/.build/debug/inkwell --seconds 30

bench: release
	./scripts/bench.sh

clean:
	rm -rf .build "$(DEMO_LIBRARY)"
