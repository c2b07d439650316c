// What the forwarders (cairo_on_use.c) share with the loader (loader.c).
#ifndef INK_CAIRO_LOADER_H
#define INK_CAIRO_LOADER_H

#include <stdatomic.h>

/// The library's handle once loaded and resolved, else NULL.
extern _Atomic(void *) ink_cairo_library;

/// Loads libcairo and fills the forwarders' table with `resolve`, once; a program that draws cannot go
/// on without it, so when it cannot be loaded this says why on standard error and exits.
void ink_cairo_load_or_exit(void (*resolve)(void *library));

/// Looks `symbol` up in `library` into `*slot`, or says which is missing and exits.
void ink_cairo_resolve(void *library, const char *symbol, void **slot);

/// Inside resolve(): looks the function `name` up into the table `api`.
#define INK_CAIRO_RESOLVE(name) ink_cairo_resolve(library, #name, (void **)&api.name)

/// The first thing a forwarder does: a load on the first call, one atomic read on the others.
static inline void ink_cairo_ensure_loaded(void (*resolve)(void *library)) {
  if (__builtin_expect(atomic_load_explicit(&ink_cairo_library, memory_order_acquire) == NULL, 0)) ink_cairo_load_or_exit(resolve);
}

#endif
