#!/usr/bin/env bash
# Installs, when any is missing, the Debian packages Inkwell needs for one purpose:
#   install-deps.sh run       build the command and run it: compilers' -dev packages, Tesseract and its
#                             English data, poppler (PDF pages), the word lists the recogniser votes with
#   install-deps.sh package   run, and what `make deb` and `make install` use (strip, dpkg-shlibdeps, lintian, man)
#   install-deps.sh test      (the default) all of the above, and what only the tests use: Chromium, PostgreSQL,
#                             Xournal++ and rmc/rmscene (from PyPI, into the venv .build/peers) as peers, strace,
#                             qpdf, librsvg, cmark-gfm, unzip
# `make demo` asks for `run` alone, so a first run does not wait for a browser and a database server it never
# starts. Safe to run again: it does nothing when everything is there. Needs root (or sudo) to install packages.
set -euo pipefail
cd "$(dirname "$0")/.."

purpose="${1:-test}"
run_packages=(pkg-config zlib1g-dev libcairo2-dev libpng-dev libtesseract-dev libleptonica-dev
              tesseract-ocr-eng libzip-dev libsqlite3-dev libpoppler-glib8 wamerican wbritish fonts-dejavu-core)
package_packages=(binutils dpkg-dev lintian man-db)
test_packages=(poppler-utils unzip cmark-gfm strace python3 python3-venv python3-numpy python3-pil librsvg2-bin
               xournalpp postgresql chromium qpdf)
case "$purpose" in
    run) packages=("${run_packages[@]}") ;;
    package) packages=("${run_packages[@]}" "${package_packages[@]}") ;;
    test) packages=("${run_packages[@]}" "${package_packages[@]}" "${test_packages[@]}") ;;
    *) echo "usage: $0 [run|package|test]" >&2; exit 2 ;;
esac

# The peers in a venv of Debian's Python: rmc 0.3.0 with rmscene 0.8.0 (rmc pins an older one).
# Without PyPI the peer tests skip, saying what is missing; nothing else needs it.
peers() {
    [ "$purpose" = test ] || return 0
    [ -x .build/peers/bin/rmc ] && return 0
    mkdir -p .build
    if /usr/bin/python3 -m venv --system-site-packages .build/peers \
        && .build/peers/bin/pip install -q rmc==0.3.0 \
        && .build/peers/bin/pip install -q --no-deps rmscene==0.8.0; then
        echo "installed rmc and rmscene in .build/peers" >&2
    else
        echo "warning: could not install rmc from PyPI; the rmc comparison tests will skip" >&2
        rm -rf .build/peers
    fi
}

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    peers
    exit 0
fi

echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# Another process (unattended upgrades, a parallel job) may hold the dpkg lock for a while: wait and retry.
attempt=1
until $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; do
    if [ $attempt -ge 10 ]; then
        echo "apt-get failed $attempt times; giving up" >&2
        exit 1
    fi
    echo "apt-get failed (attempt $attempt), retrying in 10 s" >&2
    sleep 10
    attempt=$((attempt + 1))
done
peers
