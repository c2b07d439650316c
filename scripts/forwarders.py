#!/usr/bin/env python3
"""Writes the forwarders of the C libraries the program calls by their own names but loads on first use
(docs/benchmarks.md, start-up): for each library, a C file defining every one of its functions the
Swift sources and tests call, each forwarding to the library dlopened on the first call (CLoadOnUse's
ink_forwarded_library). Run it after calling a function of theirs not called before (the link fails,
naming it, until then); it reads the headers of libcairo2-dev and libzip-dev:
    scripts/forwarders.py"""
import pathlib
import re
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent

LIBRARIES = [
    {"target": "CCairoOnUse", "file": "cairo_on_use.c", "prefix": "cairo_", "label": "Cairo", "install": "install libcairo2",
     "headers": ["cairo/cairo.h", "cairo/cairo-pdf.h"], "declared": r"cairo_public",
     "names": ["libcairo.so.2", "libcairo.so", "libcairo.2.dylib", "/opt/homebrew/lib/libcairo.2.dylib", "/usr/local/lib/libcairo.2.dylib"]},
    {"target": "CZipOnUse", "file": "zip_on_use.c", "prefix": "zip_", "label": "libzip", "install": "install libzip4",
     "headers": ["zip.h"], "declared": r"ZIP_EXTERN",
     "names": ["libzip.so.4", "libzip.so.5", "libzip.so", "libzip.5.dylib", "/opt/homebrew/lib/libzip.5.dylib", "/usr/local/lib/libzip.5.dylib"]},
]


UNNAMED = re.compile(r"(\*|\b(_Nonnull|_Nullable|_Null_unspecified|void|char|short|int|long|float|double|unsigned|signed|\w+_t))$")


def named(parameters):
    """The parameters with a name for each (libzip's header leaves them unnamed), and the names."""
    if parameters in ("void", ""):
        return "void", []
    pairs = []
    for index, parameter in enumerate(p.strip() for p in parameters.split(",")):
        if UNNAMED.search(parameter):
            parameter = f"{parameter} a{index}"
        pairs.append((parameter, re.findall(r"(\w+)\s*(?:\[\])?$", parameter)[0]))
    return ", ".join(p for p, _ in pairs), [n for _, n in pairs]


def write(library):
    swift = subprocess.run(["grep", "-rhoE", rf"\b{library['prefix']}[a-z0-9_]+\b", "Sources", "Tests", "--include=*.swift"],
                           cwd=root, capture_output=True, text=True).stdout.split()
    text = "".join(pathlib.Path(f"/usr/include/{h}").read_text() for h in library["headers"])
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    prototypes = {m.group(2): (" ".join(m.group(1).split()), " ".join(m.group(3).split()))
                  for m in re.finditer(rf"{library['declared']}\s+([^;]+?)\b({library['prefix']}[a-z0-9_]+)\s*\(([^;]*?)\)\s*;", text, flags=re.S)}
    names = sorted({name for name in swift if name in prototypes})
    table = library["prefix"] + "api"
    lines = ["// Written by scripts/forwarders.py: do not edit. Every function of " + library["label"] + " the Swift sources",
             "// and tests call, forwarding to the library, loaded on the first call (CLoadOnUse's ink_forwarded_library).",
             '#include "CLoadOnUse.h"', ""] + [f"#include <{h}>" for h in library["headers"]] + ["",
             f"static struct {{"] + [f"  __typeof__({name}) *{name};" for name in names] + [f"}} {table};", "",
             "static void resolve(void *handle);", "",
             "static const char *const names[] = {" + ", ".join(f'"{n}"' for n in library["names"]) + "};",
             f'static struct ink_forwarded_library library = {{names, sizeof names / sizeof *names, "{library["label"]}", "{library["install"]}", resolve, NULL}};',
             "", "static void resolve(void *handle) {"]
    lines += [f"  ink_forwarded_resolve(&library, handle, \"{name}\", (void **)&{table}.{name});" for name in names]
    lines += ["}", ""]
    for name in names:
        result, declared = prototypes[name]
        parameters, names_ = named(declared)
        call = f"{table}.{name}({', '.join(names_)})"
        lines += [f"{result} {name}({parameters}) {{", "  ink_forwarded_ensure(&library);",
                  f"  {'' if result == 'void' else 'return '}{call};", "}", ""]
    (root / "Sources" / library["target"] / library["file"]).write_text("\n".join(lines))
    print(f"{library['target']}: {len(names)} functions")


for library in LIBRARIES:
    write(library)
