// What the C libraries Inkwell loads on first use (Tesseract, poppler-glib, libpq) share: the first
// of a list of names that dlopen can load, and each symbol looked up into a table of function
// pointers, the first one missing saying so. Loading on use keeps a library and what it pulls in out
// of the start-up of every command that never needs it.
#ifndef INK_CLOADONUSE_H
#define INK_CLOADONUSE_H

#include <stddef.h>

/// dlopens the first of `names` that loads (RTLD_NOW | RTLD_LOCAL) and returns its handle; NULL when
/// none does, with the first name's error (the telling one: the others are other systems' names)
/// copied into `first_error`.
void *ink_load_first(const char *const *names, size_t count, char *first_error, size_t size);

/// Looks up `symbol` in `library` into `*slot`; on failure writes "the LABEL library has no SYMBOL:
/// NEED" into `message` and returns 0.
int ink_resolve(void *library, const char *symbol, void **slot, const char *label, const char *need, char *message,
                size_t size);

/// In a loader's load(), with `library`, `message` and `load_error` in scope: looks `symbol` up into
/// `table.field`, or sets `load_error` to why and returns.
#define INK_RESOLVE(table, field, symbol, label, need)                                                 \
  do {                                                                                                 \
    if (!ink_resolve(library, #symbol, (void **)&table.field, label, need, message, sizeof message)) { \
      load_error = message;                                                                            \
      return;                                                                                          \
    }                                                                                                  \
  } while (0)

/// A library whose functions the program defines itself, each forwarding to the library loaded on the
/// first call (CCairoOnUse, CZipOnUse: written by scripts/forwarders.py), so that the Swift sources
/// call them by their own names and the program does not link the library.
struct ink_forwarded_library {
  /// The names dlopen tries, in order; the first of them is the one error messages name.
  const char *const *names;
  size_t count;
  /// What is missing, and the one command that installs it ("Cairo", "install libcairo2").
  const char *label;
  const char *install;
  /// Fills the forwarders' table from the loaded library (ink_forwarded_resolve for each function).
  void (*resolve)(void *library);
  /// The loaded library once resolved, else NULL (read on every call).
  void *loaded;
};

/// Loads and resolves `library` once; a program cannot go on without a library it calls, so when it
/// cannot be loaded this says why on standard error and exits with status 70.
void ink_forwarded_load_or_exit(struct ink_forwarded_library *library);

/// Looks `symbol` up in `handle` into `*slot`, or says which function `library` lacks and exits.
void ink_forwarded_resolve(const struct ink_forwarded_library *library, void *handle, const char *symbol, void **slot);

/// The first thing a forwarder does: the load on the first call, one atomic read on the others.
static inline void ink_forwarded_ensure(struct ink_forwarded_library *library) {
  if (__builtin_expect(__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE) == NULL, 0)) ink_forwarded_load_or_exit(library);
}

#endif
