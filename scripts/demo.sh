#!/usr/bin/env bash
# The main job, end to end on the samples: a fresh library, import every sample recording through
# the editor session, index the handwriting, search it, and export everything.
# Usage: demo.sh INKWELL_BINARY LIBRARY_FOLDER (exports go to LIBRARY_FOLDER-export/)
set -euo pipefail
inkwell="$1"
library="$2"
cd "$(dirname "$0")/.."

export_folder="$library-export"
rm -rf "$library" "$export_folder"
mkdir -p "$export_folder"
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
step "inkwell index (handwriting recognition; hashtags become tags)"
"$inkwell" index
step "inkwell tags"
"$inkwell" tags
step "inkwell search planning"
"$inkwell" search planning
step "inkwell search --tag retro"
"$inkwell" search --tag retro
step "inkwell convert \"Sprint retro\""
"$inkwell" convert "Sprint retro"
step "inkwell export --all --format pdf --zip"
"$inkwell" export --all --format pdf --zip "$export_folder/notes-pdf.zip"
step "inkwell export --notebook Work --format md"
"$inkwell" export --notebook Work --format md -o "$export_folder"
step "inkwell export --all --obsidian-vault (daily notes of a vault; twice: the second adds nothing)"
mkdir -p "$export_folder/vault"
"$inkwell" export --all --obsidian-vault "$export_folder/vault"
"$inkwell" export --all --obsidian-vault "$export_folder/vault"
step "inkwell render \"Sprint retro\" --format png --scale 2"
"$inkwell" render "Sprint retro" --format png --scale 2 -o "$export_folder/sprint-retro.png"
printf '\nlibrary: %s\nexports: %s\n' "$library" "$export_folder"
