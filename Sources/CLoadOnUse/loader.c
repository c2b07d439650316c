#include "CLoadOnUse.h"

#include <dlfcn.h>
#include <stdio.h>

void *ink_load_first(const char *const *names, size_t count, char *first_error, size_t size) {
  if (size > 0) first_error[0] = '\0';
  for (size_t i = 0; i < count; i++) {
    void *library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library) return library;
    const char *error = dlerror();
    if (i == 0 && error && size > 0) snprintf(first_error, size, "%s", error);
  }
  return NULL;
}

int ink_resolve(void *library, const char *symbol, void **slot, const char *label, const char *need, char *message,
                size_t size) {
  *slot = dlsym(library, symbol);
  if (*slot) return 1;
  snprintf(message, size, "the %s library has no %s: %s", label, symbol, need);
  return 0;
}
