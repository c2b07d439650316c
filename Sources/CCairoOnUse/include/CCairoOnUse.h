// Cairo, loaded on first use instead of linked: libcairo and what it pulls in (pixman, fontconfig,
// freetype, the X11 and xcb libraries: 22 libraries) cost every command ~2.5 ms of CPU at start-up,
// and only the commands that draw need them (docs/benchmarks.md, start-up). The Swift sources call
// Cairo's functions by their own names through the CCairo module (its headers); this target defines
// each of them (cairo_on_use.c, written by scripts/forwarders.py), forwarding to libcairo once loaded.
// Nothing is declared here.
