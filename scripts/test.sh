#!/usr/bin/env bash
# `make test`: the whole suite, the browser checks, the crash test and the Debian package, arranged to
# fit CI's 25 minutes on two cores. It is CPU-bound, so the order is what keeps both cores busy:
#
#   1. Two builds at once: the suite's binary and the debug command in a build folder of their own
#      (.build/tests: two SwiftPM commands cannot share one), and the release command in .build (its
#      last modules are whole-module compiles one after another, minutes on one core, so it starts at
#      once rather than after the debug build); the test-only packages (a browser, a database server,
#      the peers: minutes of apt on a fresh machine) install meanwhile.
#   2. Once the debug build is done, the release build drops to nice 19 and beside it run the crash
#      test (a minute of kills) and the browser checks (minutes, mostly waiting on sockets and timers,
#      measuring a few of them) at normal priority, on the debug command, and the suite without its
#      command-line tests at nice 10 (it is designed not to depend on how busy the machine is).
#   3. Once the release build is done: the command-line tests against it (the binary users get; a
#      debug `inkwell` a test process costs twice the CPU: 419 CPU s against 223 for these 150 tests),
#      beside the Debian package, built, checked by lintian, installed and used (scripts/package-test.sh).
#
# The suite's binary is run directly (what `swift test --skip-build` runs). Each side's output is kept
# in a log under .build and shown when it ends; any failing fails the whole, after the others have run.
#   scripts/test.sh          (SWIFT and MAKE name the tools; the Makefile passes its own)
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
MAKE=${MAKE:-make}
root=$PWD
mkdir -p .build/tests
# The neural reader's files, where a program in .build/tests/<platform>/debug looks (two folders up).
ln -sfn ../lib .build/tests/lib
failures=()

tmp=$(mktemp -d "${TMPDIR:-/tmp}/inkwell-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/suite" "$tmp/cli"
peers="$root/.build/peers/bin"
tests=("$SWIFT" build --scratch-path .build/tests)
suite="$root/.build/tests/debug/InkwellPackageTests.xctest"
debug_inkwell="$root/.build/tests/debug/inkwell"

# 3, started first: the release build, then the command-line tests and the package beside each other.
release_side() {
    "$MAKE" --no-print-directory inkwell man > .build/release-build.log 2>&1
    [ $? -eq 0 ] || return 10
    { "$MAKE" --no-print-directory deps-package deb-files && ./scripts/package-test.sh .build/deb/inkwell_*.deb; } \
        > .build/package-test.log 2>&1 & local packaging=$!
    # The suite's binary runs them: the debug build may still be going.
    while [ ! -e "$tmp/debug-built" ]; do sleep 2; done
    INKWELL_TEST_COMMAND="$root/.build/release/inkwell" PATH="$peers:$PATH" TMPDIR="$tmp/cli" \
        nice -n 10 "$suite" --testing-library swift-testing --filter InkwellCLITests > .build/cli-tests.log 2>&1
    local cli=$?
    wait $packaging; local packaged=$?
    return $(( (cli != 0) * 1 + (packaged != 0) * 2 ))
}
# In a process group of its own (job control on while it starts), so that it can be reniced whole.
set -m
release_side & releasing=$!
set +m
trap 'kill -TERM -- -"$releasing" 2>/dev/null; exit 130' INT TERM

# 1. The debug build, while the test packages install.
./scripts/install-deps.sh test > .build/install-deps-test.log 2>&1 & installing=$!
"${tests[@]}" --product InkwellPackageTests && "${tests[@]}" --product inkwell; built=$?
wait $installing; installed=$?
cat .build/install-deps-test.log >&2
if [ $installed -ne 0 ] || [ $built -ne 0 ]; then
    [ $installed -eq 0 ] || echo "make test: installing the test packages failed (.build/install-deps-test.log)" >&2
    [ $built -eq 0 ] || echo "make test: the build failed (its output above)" >&2
    kill -TERM -- -"$releasing" 2>/dev/null
    exit 1
fi
touch "$tmp/debug-built"
renice -n 19 -g "$releasing" > /dev/null

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
tail -n 20 .build/release-build.log >&2
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
