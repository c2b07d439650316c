#!/usr/bin/env bash
# The man pages, one per command (inkwell.1, inkwell.note.1, inkwell.note.list.1, …), written from
# the binary's own help by swift-argument-parser's generate-manual: the tool its GenerateManual
# plugin runs. (The plugin itself rebuilds the whole package first and `swift package` cannot be
# given --static-swift-stdlib: it would relink the release binaries without it, or need a debug
# build. The tool, built from the same checkout, reads the binary that gets installed.)
# Two fixes to its output, both for man's tools: an empty line between paragraphs becomes mdoc's
# .Pp (man warns about empty lines), and a command's page is named `inkwell.note.list` in its NAME
# section, as man opens it (mandb cannot index a name with spaces, so `man -k` missed it), its
# synopsis still saying `inkwell note list`.
# Usage: man-pages.sh INKWELL GENERATE_MANUAL OUTPUT_FOLDER [DATE yyyy-mm-dd]
set -euo pipefail
inkwell="$1"
generator="$2"
output="$3"
date=${4:+--date $4}

rm -rf "$output"
mkdir -p "$output"
# shellcheck disable=SC2086 # $date is one option and its value, or nothing
"$generator" "$inkwell" --multi-page $date --output-directory "$output"
perl -0pi -e '
    s/^$/.Pp/mg;
    s/^\.Sh NAME\n\.Nm "([^"]+)"\n(.*?^\.Sh SYNOPSIS\n)\.Nm\n/
        (my $page = $1) =~ tr{ }{.}; ".Sh NAME\n.Nm $page\n$2.Nm \"$1\"\n"/mse;
' "$output"/*.1
echo "wrote $(ls "$output" | wc -l) man pages in $output"
