#!/usr/bin/env bash
# The main job, end to end on the samples: a fresh library, import every sample recording through
# the editor session, then show what is there. Usage: demo.sh INKWELL_BINARY LIBRARY_FOLDER
set -euo pipefail
inkwell="$1"
library="$2"
cd "$(dirname "$0")/.."

rm -rf "$library"
export INKWELL_LIBRARY="$library"

step() { printf '\n== %s\n' "$*"; }

step "inkwell init"
"$inkwell" init
step "inkwell import Samples/"
"$inkwell" import Samples/
step "inkwell notebook list"
"$inkwell" notebook list
step "inkwell note list"
"$inkwell" note list
step "inkwell stats"
"$inkwell" stats
step "inkwell check"
"$inkwell" check
printf '\nlibrary: %s\n' "$library"
