#!/usr/bin/env python3
"""ICU's data cut to what an English command needs, for the static release build.

    scripts/icu-data.py OUTPUT.o    writes the object, prints the linker options that use it

The toolchain is the one `$SWIFT` (else `swift`) names, as for the build. OUTPUT.o is rewritten
only when what it holds changes (another toolchain, other rules here), so the link is not redone
for nothing.

The static Foundation links ICU with all of its data (34 MB of a 107 MB binary: `icudtNN_dat` in
the toolchain's lib_FoundationICU.a): every locale's names, formats and collations, 200 legacy
charset converters, the Chinese, Japanese and Thai word dictionaries. GRDB uses Foundation's
formatters and regular expressions, so ICU itself stays; all of its data need not. This keeps what
an English program uses: Unicode properties, normalisation, break rules, root collation, time zones,
calendars, plural rules, and the root and English (`en`, `en_*`) locales: 5 MB. It is what Node.js
ships as its "small-icu" build and what ICU's own data filters make. A locale whose data is missing
falls back to root, as ICU does for any locale it lacks.

The object names the data `inkwell_icu_data`; the link defines the toolchain's symbol as that one
(`--defsym`). A symbol so defined is never looked for in an archive, so ICU's packaged data is not
extracted; an object defining the symbol itself would be a second definition, since the archives
are read before any object given to the linker.

The file is ICU's common data format ("CmnD", udata.h): a header, a table of (name, data) offsets
sorted by name, the names, then each item 16-byte aligned. Items are kept whole and in order.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

# Locale bundles look like `de.res`, `zh_Hant_TW.res`; everything else in the tree (supplementalData.res,
# zoneinfo64.res, pool.res, *.brk, *.nrm, *.icu) is data about all of Unicode or all locales.
LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*\.res$")


def keep(name):
    """Whether ICU item `name` (`icudt76l/coll/de.res`) stays."""
    parts = name.split("/")[1:]
    tree, leaf = (parts[0] if len(parts) > 1 else ""), parts[-1]
    if leaf.endswith(".cnv") or leaf.endswith(".dict"):
        return False  # legacy charset converters (UTF-8/16/32 and Latin-1 are built in); CJK/Thai word dictionaries
    if tree == "translit":
        return False  # transliterators (String.applyingTransform): not used
    if leaf in ("root.res", "pool.res", "res_index.res"):
        return True
    if LOCALE.match(leaf):
        return leaf == "en.res" or leaf.startswith("en_")
    return True


def items(data):
    """The header bytes and the (name, bytes) items of a common data file."""
    header_size = struct.unpack_from("<H", data, 0)[0]
    if data[12:16] != b"CmnD":
        raise SystemExit(f"icu-data: not ICU common data (format {data[12:16]!r})")
    toc = data[header_size:]
    count = struct.unpack_from("<I", toc, 0)[0]
    offsets = [struct.unpack_from("<II", toc, 4 + 8 * i) for i in range(count)]
    result = []
    for i, (name_offset, data_offset) in enumerate(offsets):
        name = toc[name_offset:toc.index(b"\0", name_offset)].decode("ascii")
        end = offsets[i + 1][1] if i + 1 < count else len(toc)
        result.append((name, toc[data_offset:end]))
    return data[:header_size], result


def common_data(header, kept):
    """A common data file of `kept` items, in the given (sorted) order."""
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in kept)
    table_size = 4 + 8 * len(kept)
    first = (table_size + len(names) + 15) // 16 * 16
    offsets, body, position = [], bytearray(), first
    name_position = table_size
    for name, item in kept:
        offsets.append((name_position, position))
        name_position += len(name) + 1
        padded = item + b"\0" * (-len(item) % 16)
        body += padded
        position += len(padded)
    table = struct.pack("<I", len(kept)) + b"".join(struct.pack("<II", n, d) for n, d in offsets)
    return header + table + names + b"\0" * (first - table_size - len(names)) + bytes(body)


def toolchain_icu():
    """The build's toolchain's lib_FoundationICU.a and the data symbol it defines."""
    swift = os.environ.get("SWIFT", "swift")
    found = shutil.which(swift)
    if not found:
        raise SystemExit(f"icu-data: {swift} not found (the toolchain, as $SWIFT or on PATH)")
    archive = Path(found).resolve().parent.parent / "lib/swift_static/linux/lib_FoundationICU.a"
    if not archive.exists():
        raise SystemExit(f"icu-data: {archive} not found (a toolchain without the static Foundation)")
    symbols = subprocess.run(["nm", "--defined-only", str(archive)], capture_output=True, text=True, check=True).stdout
    member = None
    for line in symbols.splitlines():
        if line.endswith(".o:"):
            member = line[:-1]
        match = re.match(r"^[0-9a-f]+ R (icudt\d+_dat)$", line)
        if match:
            return archive, member, match.group(1)
    raise SystemExit(f"icu-data: no icudtNN_dat symbol in {archive}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    output = Path(sys.argv[1]).resolve()
    archive, member, symbol = toolchain_icu()
    options = f"-Xlinker {output} -Xlinker --defsym -Xlinker {symbol}=inkwell_icu_data"
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        subprocess.run(["ar", "x", str(archive), member], cwd=work, check=True)
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", member, "full.dat"], cwd=work, check=True)
        full = (work / "full.dat").read_bytes()
        header, everything = items(full)
        kept = [(name, item) for name, item in everything if keep(name)]
        small = common_data(header, kept)
        (work / "small.dat").write_bytes(small)
        (work / "data.S").write_text(
            '.section .rodata\n.globl inkwell_icu_data\n.type inkwell_icu_data, @object\n.balign 16\n'
            'inkwell_icu_data:\n.incbin "small.dat"\n.size inkwell_icu_data, . - inkwell_icu_data\n'
            '.section .note.GNU-stack,"",@progbits\n')
        subprocess.run(["cc", "-c", "data.S", "-o", "data.o"], cwd=work, check=True)
        made = (work / "data.o").read_bytes()
        if not output.exists() or output.read_bytes() != made:
            output.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(work / "data.o", output)
            print(f"icu-data: {symbol} {len(full) / 1e6:.1f} MB → {len(small) / 1e6:.1f} MB "
                  f"({len(kept)} of {len(everything)} items) in {output}", file=sys.stderr)
    print(options)


if __name__ == "__main__":
    main()
