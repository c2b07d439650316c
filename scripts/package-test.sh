#!/usr/bin/env bash
# make test's last step: the Debian package `make deb` built, checked by lintian (no errors;
# warnings are printed), installed on this machine with dpkg -i and used as a user would use it,
# through the installed /usr/bin/inkwell: its version, a render of a real reMarkable page from the
# shared corpus to PDF, its man pages found by man and indexed by mandb, its bash completion loaded
# and completing.
# Installing needs root or sudo; without either it says so and stops after lintian. A package that
# was not installed before is purged afterwards, so a developer's machine is left as it was.
# Usage: package-test.sh PATH/inkwell_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "$1")
started=$SECONDS
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }
step() { printf '== %s\n' "$*"; }

[ -f "$deb" ] || fail "$1: no such file (make deb builds it)"
version=$(dpkg-deb -f "$deb" Version)

step "lintian $(basename "$deb")"
command -v lintian > /dev/null || fail "lintian is missing: install it (scripts/install-deps.sh does)"
# Lintian exits non-zero on an error tag only; warnings and notes are listed for the reader.
lintian --fail-on error --display-info "$deb" || fail "lintian reported errors (above)"

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    sudo=(sudo -n)
else
    echo "package-test: SKIPPED installing the package: dpkg -i needs root, and sudo is missing or asks for a password"
    exit 0
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/inkwell-package-test.XXXXXX")
installed_before=$(dpkg-query -W -f='${Status}' inkwell 2> /dev/null | grep -c 'install ok installed' || true)
cleanup() {
    rm -rf "$scratch"
    if [ "$installed_before" -eq 0 ]; then
        "${sudo[@]}" dpkg --purge inkwell > /dev/null
    fi
}
trap cleanup EXIT

step "dpkg -i $(basename "$deb")"
"${sudo[@]}" dpkg -i "$deb"
[ "$installed_before" -eq 0 ] || echo "(an inkwell package was installed before: it is replaced by this one and left installed)"

inkwell=/usr/bin/inkwell
step "$inkwell --version"
[ -x "$inkwell" ] || fail "$inkwell is not there after dpkg -i"
shown=$("$inkwell" --version)
[ "$shown" = "$version" ] || fail "$inkwell --version prints '$shown', the package is version $version"
echo "$shown"

corpus=${INKWELL_CORPUS:-../shared/corpus}
page="$corpus/rm/rmc/writing_tools.rm"
if [ -f "$page" ]; then
    step "$inkwell render $page -o page.pdf"
    (cd "$scratch" && "$inkwell" render "$(realpath "$OLDPWD/$page")" -o page.pdf)
    [ "$(head -c 5 "$scratch/page.pdf")" = "%PDF-" ] || fail "the render of $page is not a PDF"
    if command -v pdfinfo > /dev/null; then
        pages=$(pdfinfo "$scratch/page.pdf" | sed -n 's/^Pages: *//p')
        [ "$pages" = 1 ] || fail "the render of $page has '$pages' pages, not 1"
    fi
    echo "a one-page PDF of $(du -k "$scratch/page.pdf" | cut -f1) KB"
else
    echo "package-test: SKIPPED the render: the shared corpus is not here ($page; set INKWELL_CORPUS)"
fi

# The binary carries ICU's English data only (scripts/icu-data.py): dates are still read (ISO 8601 in a
# replay log), shown in the local time zone whatever the language, and written in UTC in an export.
step "dates and time zones: import, note show in Asia/Kolkata under de_DE, export --format md"
library="$scratch/library"
"$inkwell" init --library "$library" > /dev/null
"$inkwell" import --library "$library" --no-recognize Samples/errands-print-mild.jsonl > /dev/null
note=$("$inkwell" note list --library "$library" --json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
shown=$(TZ=Asia/Kolkata LANG=de_DE.UTF-8 "$inkwell" note show --library "$library" "$note")
grep -q 'created *2025-03-02 14:20' <<< "$shown" \
    || fail "a note created 2025-03-02T08:50:00Z is not shown as 2025-03-02 14:20 in Asia/Kolkata: $shown"
TZ=America/New_York "$inkwell" export --library "$library" "$note" --format md -o "$scratch/markdown" > /dev/null
grep -q '^created: 2025-03-02T08:50:00Z$' "$scratch/markdown/20250302-errands.md" || fail "the Markdown export does not date the note 2025-03-02T08:50:00Z (UTC)"
echo "created 2025-03-02T08:50:00Z: shown 14:20 in Kolkata, exported as UTC"

step "man -w inkwell; whatis inkwell.note.list"
manual=$(man -w inkwell) || fail "man does not find inkwell's page"
[ "$manual" = /usr/share/man/man1/inkwell.1.gz ] || fail "man -w inkwell found $manual, not the package's page"
echo "$manual"
MANWIDTH=80 man -P cat inkwell 2> /dev/null | grep -q 'inkwell-export(1)\|inkwell.export(1)' \
    || fail "inkwell's man page does not refer to the export command's page"
man -w inkwell.export > /dev/null || fail "man does not find the export command's page (inkwell.export)"
# dpkg's trigger ran mandb: every page is indexed under the name man opens it by.
whatis inkwell.note.list | grep -q '^inkwell.note.list (1) *- *.*List notes' \
    || fail "whatis does not know inkwell.note.list: mandb could not read its NAME section"

step "bash completion"
completion=/usr/share/bash-completion/completions/inkwell
# Loaded as bash-completion would, then asked what follows "inkwell no": the commands note and notebook.
words=$(bash -c "source $completion && complete -p inkwell \
    && function=\$(complete -p inkwell | sed -n 's/.* -F \([^ ]*\) .*/\1/p') \
    && COMP_WORDS=(inkwell no) COMP_CWORD=1 COMP_LINE='inkwell no' COMP_POINT=10 \
    && \$function inkwell no inkwell && printf '%s\n' \"\${COMPREPLY[@]}\"") \
    || fail "sourcing $completion or completing with it failed"
echo "$words"
grep -qx note <<< "$words" && grep -qx notebook <<< "$words" \
    || fail "completing 'inkwell no' did not offer note and notebook"

echo "package-test: passed in $((SECONDS - started)) s"
