#!/usr/bin/env bash
# Installs the Debian packages Inkwell builds, packages and tests with (strip, dpkg-shlibdeps and
# lintian for `make deb`, man for its test), when any is missing, and the peers the tests compare
# against: Xournal++ from Debian, rmc and rmscene from PyPI in .build/peers (a venv that sees
# Debian's numpy and Pillow). Safe to run again: it does nothing when everything is there.
# Needs root (or sudo) to install packages.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(pkg-config zlib1g-dev libcairo2-dev libpng-dev libtesseract-dev libleptonica-dev
          tesseract-ocr-eng libzip-dev libsqlite3-dev poppler-utils unzip cmark-gfm strace python3
          python3-venv python3-numpy python3-pil librsvg2-bin xournalpp postgresql wamerican wbritish
          chromium fonts-dejavu-core libpoppler-glib8 qpdf
          binutils dpkg-dev lintian man-db)

# The peers in a venv of Debian's Python: rmc 0.3.0 with rmscene 0.8.0 (rmc pins an older one).
# Without PyPI the peer tests skip, saying what is missing; nothing else needs it.
peers() {
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
