# The two commands the README promises, and the pieces they are built from.
#   make demo   installs what is missing, builds, and runs the main job on Samples/ into ./demo-library
#   make test   installs what is missing, builds, and runs the whole test suite
# and, to put it on a machine (README, "Install"):
#   make install [PREFIX=/usr/local] [DESTDIR=]   the stripped release binary, man pages, completions
#   make deb                                      the same as a Debian package, in .build/deb/
SWIFT ?= swift
DEMO_LIBRARY ?= $(CURDIR)/demo-library
INKWELL = $(CURDIR)/.build/release/inkwell

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
# The neural line reader's files (ONNX Runtime's library and the PP-OCR model, from scripts/install-deps.sh),
# installed where the program looks: lib/inkwell beside its bin/.
NEURAL_DIR ?= $(PREFIX)/lib/inkwell
NEURAL_FILES = .build/lib/inkwell/libonnxruntime.so.1.32.0 .build/lib/inkwell/PP-OCRv6_rec_small.onnx
# The man pages, made from the release binary's own help by swift-argument-parser's generate-manual:
# one page per command (inkwell.1, inkwell.note.1, inkwell.note.list.1, …).
MAN_PAGES = $(CURDIR)/.build/man
# The date the pages carry: the last commit's, so that rebuilding them changes nothing.
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null)

.PHONY: deps deps-run deps-package build release inkwell demo test bench clean man install install-files uninstall deb deb-files

# Three sets of Debian packages (scripts/install-deps.sh): what building and running need, what packaging adds,
# and what only the tests use (a browser, a database server, the peers). The demo asks for the first alone.
deps-run:
	./scripts/install-deps.sh run

deps-package:
	./scripts/install-deps.sh package

deps:
	./scripts/install-deps.sh test

build: deps-run
	$(SWIFT) build

# The release build (scripts/swift-release.sh, the flags the benchmark scripts share): the Swift
# runtime and Foundation linked statically (a command starts in ~13 ms instead of ~22 ms, the
# difference being the dynamic loader's symbol lookups: docs/benchmarks.md, cold start), without debug
# information (stripped at install anyway; a tenth off the build). `release` builds every product (the
# benchmarks too); `inkwell` only the command, which is all that the man pages and the package need.
RELEASE_BUILD = SWIFT="$(SWIFT)" ./scripts/swift-release.sh
release: deps-run
	$(RELEASE_BUILD)

inkwell: deps-run
	$(RELEASE_BUILD) --product inkwell

# The demo runs the debug build of the command alone: a first run in minutes (the optimised, static
# release build takes two or three times as long on two cores; `make install` and `make deb` make it),
# and the demo's few pages need no speed.
demo: deps-run
	$(SWIFT) build --product inkwell
	./scripts/demo.sh "$$($(SWIFT) build --show-bin-path)/inkwell" "$(DEMO_LIBRARY)"

# Tests write libraries, exports and samples under a temporary folder of their own, removed
# afterwards whatever the outcome, so repeated runs do not pile folders up in /tmp. The peers the
# renders are compared with (rmc, from scripts/install-deps.sh) come first on PATH. Beside the suite:
# the web notebook in a real browser (headless Chromium against `inkwell serve`, Tests/Browser), the
# server killed with SIGKILL at random moments while a driver writes (about a minute, 30+ kills:
# every stroke it confirmed must be in the page files exactly once, scripts/serve-crash.py), and the
# Debian package, built, checked by lintian, installed with dpkg -i and used as installed
# (scripts/package-test.sh). scripts/test.sh says in which order, to fit CI's 25 minutes on two cores.
test: deps-run
	@SWIFT="$(SWIFT)" MAKE="$(MAKE)" ./scripts/test.sh

# generate-manual is swift-argument-parser's tool behind its GenerateManual plugin, built from the
# checkout like the package (scripts/man-pages.sh says why not through the plugin).
man: inkwell
	$(RELEASE_BUILD) --product generate-manual
	./scripts/man-pages.sh "$(INKWELL)" .build/release/generate-manual "$(MAN_PAGES)" $(MAN_DATE)

install: deps-package inkwell man
	@$(MAKE) --no-print-directory install-files

# What `install` copies, from what `inkwell` and `man` made: the binary stripped of its symbols
# (about 52 MB: scripts/swift-release.sh links ICU's English data only), the
# completions written by the binary itself (bash's without the #! line the generator puts first:
# the file is sourced, never run), and the neural reader's library and model (their licences are in
# packaging/debian/copyright; ONNX Runtime's notices of what it bundles go beside them).
install-files:
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASH_COMPLETION_DIR)" \
	  "$(DESTDIR)$(ZSH_COMPLETION_DIR)" "$(DESTDIR)$(FISH_COMPLETION_DIR)" "$(DESTDIR)$(NEURAL_DIR)"
	install -m 0755 -s "$(INKWELL)" "$(DESTDIR)$(BINDIR)/inkwell"
	install -m 0644 $(NEURAL_FILES) .build/lib/inkwell/onnxruntime-ThirdPartyNotices.txt "$(DESTDIR)$(NEURAL_DIR)/"
	install -m 0644 "$(MAN_PAGES)"/*.1 "$(DESTDIR)$(MANDIR)/man1/"
	"$(INKWELL)" --generate-completion-script bash > "$(DESTDIR)$(BASH_COMPLETION_DIR)/inkwell"
	sed -i '1{/^#!/d;}' "$(DESTDIR)$(BASH_COMPLETION_DIR)/inkwell"
	"$(INKWELL)" --generate-completion-script zsh > "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_inkwell"
	"$(INKWELL)" --generate-completion-script fish > "$(DESTDIR)$(FISH_COMPLETION_DIR)/inkwell.fish"
	chmod 0644 "$(DESTDIR)$(BASH_COMPLETION_DIR)/inkwell" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_inkwell" \
	  "$(DESTDIR)$(FISH_COMPLETION_DIR)/inkwell.fish"

uninstall:
	rm -rf "$(DESTDIR)$(NEURAL_DIR)"
	rm -f "$(DESTDIR)$(BINDIR)/inkwell" "$(DESTDIR)$(MANDIR)/man1/inkwell.1" "$(DESTDIR)$(MANDIR)/man1/inkwell".*.1 \
	  "$(DESTDIR)$(BASH_COMPLETION_DIR)/inkwell" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_inkwell" \
	  "$(DESTDIR)$(FISH_COMPLETION_DIR)/inkwell.fish"

# The Debian package: the files of `install` under /usr (zsh's completion where Debian's zsh looks),
# packed by scripts/build-deb.sh with its Depends computed from the binary (dpkg-shlibdeps).
deb: deps-package inkwell man
	@$(MAKE) --no-print-directory deb-files

# The package from what `inkwell` and `man` made (`make test` makes them beside the suite: asking
# SwiftPM again would relink the binary for nothing, half a minute).
deb-files:
	rm -rf .build/deb
	@$(MAKE) --no-print-directory install-files DESTDIR=$(CURDIR)/.build/deb/debian/inkwell PREFIX=/usr \
	  ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions
	./scripts/build-deb.sh .build/deb

bench: deps release
	./scripts/bench.sh

clean:
	rm -rf .build "$(DEMO_LIBRARY)"
