#!/usr/bin/env python3
"""Writes Sources/CCairoOnUse/cairo_on_use.c: a definition of every Cairo function the Swift sources
call, each forwarding to libcairo loaded with dlopen on the first call (docs/benchmarks.md, start-up).
Run it after calling a Cairo function not called before (the link fails, naming it, until then):
    scripts/cairo-on-use.py        (reads /usr/include/cairo from libcairo2-dev)"""
import pathlib
import re
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent
swift = subprocess.run(["grep", "-rhoE", r"\bcairo_[a-z0-9_]+\b", "Sources", "--include=*.swift"],
                       cwd=root, capture_output=True, text=True, check=True).stdout.split()
names = sorted({name for name in swift if not name.endswith("_t")})
headers = "".join(pathlib.Path(f"/usr/include/cairo/{h}").read_text() for h in ("cairo.h", "cairo-pdf.h"))
headers = re.sub(r"/\*.*?\*/", "", headers, flags=re.S)
prototypes = {m.group(2): (" ".join(m.group(1).split()), " ".join(m.group(3).split()))
              for m in re.finditer(r"cairo_public\s+([^;]+?)\b(cairo_[a-z0-9_]+)\s*\(([^;]*?)\)\s*;", headers, flags=re.S)}
missing = [name for name in names if name not in prototypes]
if missing:
    raise SystemExit(f"not declared in cairo.h or cairo-pdf.h: {', '.join(missing)}")


def arguments(parameters):
    if parameters in ("void", ""):
        return ""
    return ", ".join(re.findall(r"(\w+)\s*(?:\[\])?$", p.strip())[0] for p in parameters.split(","))


lines = ["// Written by scripts/cairo-on-use.py: do not edit. Every Cairo function the Swift sources call,",
         "// forwarding to libcairo, which is loaded on the first call (loader.c).",
         '#include "loader.h"', "", "#include <cairo/cairo.h>", "#include <cairo/cairo-pdf.h>", "",
         "struct ink_cairo_api {"]
lines += [f"  __typeof__({name}) *{name};" for name in names]
lines += ["};", "", "static struct ink_cairo_api api;", "", "static void resolve(void *library) {"]
lines += [f'  INK_CAIRO_RESOLVE({name});' for name in names]
lines += ["}", ""]
for name in names:
    result, parameters = prototypes[name]
    call = f"api.{name}({arguments(parameters)})"
    lines += [f"{result} {name}({parameters}) {{", "  ink_cairo_ensure_loaded(resolve);",
              f"  {'' if result == 'void' else 'return '}{call};", "}", ""]
(root / "Sources/CCairoOnUse/cairo_on_use.c").write_text("\n".join(lines))
print(f"{len(names)} functions")
