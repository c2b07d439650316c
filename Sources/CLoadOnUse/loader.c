#include "CLoadOnUse.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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

static pthread_mutex_t forwarded_lock = PTHREAD_MUTEX_INITIALIZER;

void ink_forwarded_load_or_exit(struct ink_forwarded_library *library) {
  pthread_mutex_lock(&forwarded_lock);
  if (__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE) == NULL) {
    char first_error[256];
    void *handle = ink_load_first(library->names, library->count, first_error, sizeof first_error);
    if (!handle) {
      fprintf(stderr, "inkwell: %s is not installed (%s cannot be loaded: %s); %s\n", library->label, library->names[0], first_error,
              library->install);
      exit(70);
    }
    library->resolve(handle);
    __atomic_store_n(&library->loaded, handle, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&forwarded_lock);
}

void ink_forwarded_resolve(const struct ink_forwarded_library *library, void *handle, const char *symbol, void **slot) {
  *slot = dlsym(handle, symbol);
  if (*slot) return;
  fprintf(stderr, "inkwell: the %s library (%s) has no %s; %s\n", library->label, library->names[0], symbol, library->install);
  exit(70);
}
