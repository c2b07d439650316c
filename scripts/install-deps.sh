#!/usr/bin/env bash
# Installs the Debian packages Inkwell builds and tests with, when any is missing.
# Safe to run again: it does nothing when everything is there. Needs root (or sudo) to install.
set -euo pipefail

packages=(pkg-config zlib1g-dev libcairo2-dev libpng-dev libtesseract-dev libleptonica-dev
          tesseract-ocr-eng libzip-dev libsqlite3-dev poppler-utils unzip cmark-gfm strace python3)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

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
