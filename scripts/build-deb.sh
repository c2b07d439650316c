#!/usr/bin/env bash
# Packs the tree `make deb` staged (the files of `make install` under /usr, in WORK/debian/inkwell)
# into WORK/inkwell_VERSION_ARCH.deb with dpkg's own tools, without debhelper: packaging/debian/
# (control, changelog, copyright) is copied to WORK/debian, dpkg-shlibdeps computes Depends from
# the libraries the binary and ONNX Runtime's library link (Tesseract, poppler and libpq are dlopened on use:
# control recommends them), dpkg-gencontrol writes the control file (version from the changelog, Installed-Size).
# Usage: build-deb.sh WORK
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(realpath "$1")
root="$work/debian/inkwell"
binary="$root/usr/bin/inkwell"
fail() { echo "build-deb: $*" >&2; exit 1; }

[ -x "$binary" ] || fail "$binary is missing: run 'make deb', which stages it"
for tool in dpkg-shlibdeps dpkg-gencontrol dpkg-parsechangelog dpkg-deb; do
    command -v "$tool" > /dev/null || fail "$tool is missing: install dpkg-dev (scripts/install-deps.sh does)"
done
cp packaging/debian/control packaging/debian/changelog packaging/debian/copyright "$work/debian/"

# One version: the binary's (InkwellVersion), which the changelog's first entry must name.
version=$("$binary" --version)
packaged=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
[ "$version" = "$packaged" ] \
    || fail "inkwell --version is $version but packaging/debian/changelog's first entry is $packaged: add an entry for $version"

# The copyright file must name every Swift package whose code is in the binary (by its checkout
# folder): those of Package.resolved with a module (a folder of Sources/ or a target of its manifest)
# that the unstripped build's Swift symbols name ($s<length><module>). Test-only packages, and those
# pulled in for products the binary does not use, are not in it.
unstripped=.build/release/inkwell
modules=$(nm "$unstripped" | grep -o '[$]s[0-9]\+[A-Za-z_][A-Za-z0-9_]*' \
    | awk '{ match($0, /[0-9]+/); n = substr($0, RSTART, RLENGTH); print substr($0, RSTART + RLENGTH, n) }' | sort -u)
[ -n "$modules" ] || fail "no Swift symbols in $unstripped: it should be the unstripped release build"
for package in $(sed -n 's/.*"identity" *: *"\(.*\)".*/\1/p' Package.resolved); do
    checkout=$(find .build/checkouts -maxdepth 1 -iname "$package" | head -1)
    [ -f "$checkout/Package.swift" ] || fail "no checkout of $package in .build/checkouts"
    targets=$(ls "$checkout/Sources" 2> /dev/null; perl -0777 -ne 'print "$1\n" while /\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"/g' "$checkout/Package.swift")
    linked=$(grep -Fxf <(echo "$targets") <<< "$modules" || true)
    [ -n "$linked" ] || continue
    grep -qiF ".build/checkouts/$package/" packaging/debian/copyright \
        || fail "packaging/debian/copyright does not name $package, whose $(echo $linked) the binary holds: add its copyright and licence"
done

doc="$root/usr/share/doc/inkwell"
install -d -m 0755 "$doc"
install -m 0644 packaging/debian/copyright "$doc/copyright"
gzip -9n < packaging/debian/changelog > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"
gzip -9n "$root"/usr/share/man/man1/*.1
# What lintian is told on purpose (packaging/debian/lintian-overrides says why).
install -d -m 0755 "$root/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/inkwell"

cd "$work"
# (DEBIAN first: dpkg-shlibdeps finds the package's root by it.)
install -d -m 0755 debian/inkwell/DEBIAN
# ONNX Runtime's library (the neural reader's, in /usr/lib/inkwell) is loaded on use as Tesseract is, but
# it ships in the package: what it links counts too.
dpkg-shlibdeps -Tdebian/substvars debian/inkwell/usr/bin/inkwell debian/inkwell/usr/lib/inkwell/libonnxruntime.so.*
dpkg-gencontrol -pinkwell -Pdebian/inkwell -Tdebian/substvars -fdebian/files
(cd debian/inkwell && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > debian/inkwell/DEBIAN/md5sums
chmod 0644 debian/inkwell/DEBIAN/control debian/inkwell/DEBIAN/md5sums

deb="$work/inkwell_${version}_$(dpkg --print-architecture).deb"
dpkg-deb --root-owner-group --build debian/inkwell "$deb" > /dev/null
echo "built $deb ($(du -k "$deb" | cut -f1) KB)"
grep '^Depends:\|^Recommends:' debian/inkwell/DEBIAN/control
