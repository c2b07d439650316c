#!/usr/bin/env bash
# The main job, end to end on the samples: a fresh library, import every sample recording through
# the editor session (which recognises the handwriting it saves: hashtags become tags), search it,
# and export everything.
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
step "inkwell import Samples/ (handwriting recognised as the session saves it; hashtags become tags)"
"$inkwell" import Samples/
step "inkwell notebook list"
"$inkwell" notebook list
step "inkwell note list"
"$inkwell" note list
step "inkwell stats"
"$inkwell" stats
step "inkwell check"
"$inkwell" check
step "inkwell index (nothing left to recognise: the import filed every page's text)"
"$inkwell" index
step "inkwell import --trace (one sample, into a scratch library): a save the 10 s ceiling forces while writing goes on waits for the pause to be read; each page is read once"
rm -rf "$library-trace"
"$inkwell" init --library "$library-trace" > /dev/null
"$inkwell" import --trace --library "$library-trace" Samples/sprint-retro-hashtags.jsonl
rm -rf "$library-trace"
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
