#include "loader.h"

#include "CLoadOnUse.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Atomic(void *) ink_cairo_library = NULL;

// Where the library is on Debian/Ubuntu, Fedora and Homebrew; the first name that loads wins.
static const char *const library_names[] = {
  "libcairo.so.2", "libcairo.so", "libcairo.2.dylib", "/opt/homebrew/lib/libcairo.2.dylib", "/usr/local/lib/libcairo.2.dylib",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char load_error[512];

static void *open_library(void) {
  char first_error[256];
  void *library = ink_load_first(library_names, sizeof library_names / sizeof *library_names, first_error, sizeof first_error);
  if (!library) {
    snprintf(load_error, sizeof load_error, "Cairo is not installed (libcairo.so.2 cannot be loaded: %s); install libcairo2", first_error);
  }
  return library;
}

void ink_cairo_resolve(void *library, const char *symbol, void **slot) {
  *slot = dlsym(library, symbol);
  if (*slot) return;
  fprintf(stderr, "inkwell: the Cairo library has no %s: version 1.16 or later is needed\n", symbol);
  exit(70);
}

void ink_cairo_load_or_exit(void (*resolve)(void *library)) {
  pthread_mutex_lock(&lock);
  if (atomic_load_explicit(&ink_cairo_library, memory_order_acquire) == NULL) {
    void *library = open_library();
    if (!library) {
      fprintf(stderr, "inkwell: %s\n", load_error);
      exit(70);
    }
    resolve(library);
    atomic_store_explicit(&ink_cairo_library, library, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
}
