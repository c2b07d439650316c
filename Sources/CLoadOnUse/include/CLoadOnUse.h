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

#endif
