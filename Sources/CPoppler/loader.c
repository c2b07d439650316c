#include "CPoppler.h"

#include "CLoadOnUse.h"

#include <pthread.h>
#include <stdio.h>

struct InkPopplerAPI ink_poppler;

static const char *load_error = "not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Where the library is on Debian/Ubuntu, Fedora and Homebrew; the first name that loads wins.
static const char *const library_names[] = {
  "libpoppler-glib.so.8", "libpoppler-glib.so", "libpoppler-glib.8.dylib", "/opt/homebrew/lib/libpoppler-glib.8.dylib",
  "/usr/local/lib/libpoppler-glib.8.dylib",
};

static void load(void) {
  static char message[512];
  char first_error[256];
  void *library = ink_load_first(library_names, sizeof library_names / sizeof *library_names, first_error, sizeof first_error);
  if (!library) {
    snprintf(message, sizeof message, "poppler is not installed (libpoppler-glib.so.8 cannot be loaded: %s); install libpoppler-glib8", first_error);
    load_error = message;
    return;
  }
  // dlsym on the handle also searches what it loaded: GLib (g_bytes_*, g_error_free) and GObject.
#define RESOLVE(field, symbol) INK_RESOLVE(ink_poppler, field, symbol, "poppler-glib", "0.82 or later is needed")
  RESOLVE(document_new_from_bytes, poppler_document_new_from_bytes);
  RESOLVE(document_get_n_pages, poppler_document_get_n_pages);
  RESOLVE(document_get_page, poppler_document_get_page);
  RESOLVE(page_get_size, poppler_page_get_size);
  RESOLVE(page_render, poppler_page_render);
  RESOLVE(page_render_for_printing, poppler_page_render_for_printing);
  RESOLVE(bytes_new, g_bytes_new);
  RESOLVE(bytes_unref, g_bytes_unref);
  RESOLVE(object_unref, g_object_unref);
  RESOLVE(error_free, g_error_free);
  RESOLVE(page_get_text, poppler_page_get_text);
  RESOLVE(page_get_text_layout, poppler_page_get_text_layout);
  RESOLVE(free, g_free);
  RESOLVE(compute_checksum_for_data, g_compute_checksum_for_data);
#undef RESOLVE
  load_error = NULL;
}

const char *ink_poppler_load(void) {
  pthread_once(&once, load);
  return load_error;
}

// GError is { GQuark domain; gint code; gchar *message; }.
struct ink_gerror {
  unsigned int domain;
  int code;
  char *message;
};

const char *ink_poppler_error_message(void *error) {
  return error ? ((struct ink_gerror *)error)->message : NULL;
}
