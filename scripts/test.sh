#!/usr/bin/env bash
# `make test`: the whole suite, the browser checks, the crash test and the Debian package, arranged to
# fit CI's 25 minutes on two cores. It is CPU-bound, so the order is what keeps both cores busy:
#
#   1. The suite's binary and the debug command build, while the test-only packages (a browser, a
#      database server, the peers: minutes of apt on a fresh machine) install.
#   2. Four things at once, by priority: the crash test (a minute of kills) and the browser checks
#      (minutes, mostly waiting on sockets and timers, measuring a few of them) at normal priority,
#      on the debug command; the suite without its command-line tests at nice 10 (it is designed not
#      to depend on how busy the machine is); the release build of the command at nice 19, on what
#      the others leave.
#   3. Once the release build is done: the command-line tests against it (the binary users get; a
#      debug `inkwell` a test process costs twice the CPU: 419 CPU s against 223 for these 150 tests),
#      beside the Debian package, built, checked by lintian, installed and used (scripts/package-test.sh).
#
# The suite's binary is run directly (what `swift test --skip-build` runs), since two SwiftPM commands
# cannot share .build at once. Each side's output is kept in a log under .build and shown when it ends;
# any failing fails the whole, after the others have run.
#   scripts/test.sh          (SWIFT and MAKE name the tools; the Makefile passes its own)
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
MAKE=${MAKE:-make}
root=$PWD
mkdir -p .build
failures=()

# 1. Build, while the test packages install.
./scripts/install-deps.sh test > .build/install-deps-test.log 2>&1 & installing=$!
"$SWIFT" build --product InkwellPackageTests && "$SWIFT" build --product inkwell; built=$?
wait $installing; installed=$?
cat .build/install-deps-test.log >&2
[ $installed -eq 0 ] || { echo "make test: installing the test packages failed (.build/install-deps-test.log)" >&2; exit 1; }
[ $built -eq 0 ] || { echo "make test: the build failed (its output above)" >&2; exit 1; }

suite="$("$SWIFT" build --show-bin-path)/InkwellPackageTests.xctest"
debug_inkwell="$("$SWIFT" build --show-bin-path)/inkwell"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/inkwell-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/suite" "$tmp/cli"
peers="$root/.build/peers/bin"

# 3, started now: the release build, then the command-line tests and the package beside each other.
release_side() {
    nice -n 19 "$MAKE" --no-print-directory inkwell man > .build/release-build.log 2>&1
    local released=$?
    tail -n 20 .build/release-build.log > "$tmp/release.tail"
    [ $released -eq 0 ] || return 10
    { "$MAKE" --no-print-directory deps-package deb-files && ./scripts/package-test.sh .build/deb/inkwell_*.deb; } \
        > .build/package-test.log 2>&1 & local packaging=$!
    INKWELL_TEST_COMMAND="$root/.build/release/inkwell" PATH="$peers:$PATH" TMPDIR="$tmp/cli" \
        nice -n 10 "$suite" --testing-library swift-testing --filter InkwellCLITests > .build/cli-tests.log 2>&1
    local cli=$?
    wait $packaging; local packaged=$?
    return $(( (cli != 0) * 1 + (packaged != 0) * 2 ))
}
release_side & releasing=$!

# 2. The crash test and the browser checks on the debug command, the rest of the suite.
/usr/bin/python3 scripts/serve-crash.py "$debug_inkwell" --seconds 30 > .build/serve-crash.log 2>&1 & crashing=$!
/usr/bin/python3 Tests/Browser/browser_test.py "$debug_inkwell" > .build/browser-test.log 2>&1 & browsing=$!
PATH="$peers:$PATH" TMPDIR="$tmp/suite" nice -n 10 "$suite" --testing-library swift-testing --skip InkwellCLITests \
    || failures+=("the suite failed (its output above)")

wait $browsing || failures+=("the browser checks failed (.build/browser-test.log)")
cat .build/browser-test.log >&2
wait $crashing || failures+=("the crash test failed (.build/serve-crash.log)")
cat .build/serve-crash.log >&2
wait $releasing; released=$?
cat "$tmp/release.tail" >&2 2>/dev/null
if [ $released -eq 10 ]; then
    failures+=("the release build failed (.build/release-build.log)")
else
    cat .build/cli-tests.log
    cat .build/package-test.log >&2
    [ $((released & 1)) -eq 0 ] || failures+=("the command-line tests failed (.build/cli-tests.log)")
    [ $((released & 2)) -eq 0 ] || failures+=("the Debian package's test failed (.build/package-test.log)")
fi

for failure in "${failures[@]}"; do echo "make test: $failure" >&2; done
[ ${#failures[@]} -eq 0 ]
