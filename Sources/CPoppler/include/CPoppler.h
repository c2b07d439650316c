// Poppler's GLib API, loaded on first use instead of linked: poppler, GLib and GObject cost every
// command start-up time, and only pages with a PDF background need them. The declarations mirror
// <poppler.h> (poppler-glib ≥ 0.82) with opaque pointers; each function is called through a pointer
// that ink_poppler_load() fills with dlsym. Cairo contexts are passed as void * (the caller's
// cairo_t, from the same libcairo that poppler-glib links).
#ifndef INK_CPOPPLER_H
#define INK_CPOPPLER_H

#include <stddef.h>

/// PopplerRectangle: a box in PDF points, the origin at the page's top-left corner.
struct InkPopplerRectangle {
  double x1, y1, x2, y2;
};

struct InkPopplerAPI {
  void *(*document_new_from_bytes)(void *bytes, const char *password, void **error);
  int (*document_get_n_pages)(void *document);
  void *(*document_get_page)(void *document, int index);
  void (*page_get_size)(void *page, double *width, double *height);
  void (*page_render)(void *page, void *cairo);
  void (*page_render_for_printing)(void *page, void *cairo);
  void *(*bytes_new)(const void *data, size_t size);
  void (*bytes_unref)(void *bytes);
  void (*object_unref)(void *object);
  void (*error_free)(void *error);
  char *(*page_get_text)(void *page);
  int (*page_get_text_layout)(void *page, struct InkPopplerRectangle **rectangles, unsigned int *count);
  void (*free)(void *memory);
  char *(*compute_checksum_for_data)(int type, const unsigned char *data, size_t length);
};

extern struct InkPopplerAPI ink_poppler;

/// Loads poppler-glib once (thread-safe); NULL when loaded, else why it could not be (a static string).
const char *ink_poppler_load(void);

/// The message of a GError (its third field), or NULL.
const char *ink_poppler_error_message(void *error);

// The calls, through the pointers above (call only after ink_poppler_load() returned NULL).
static inline void *ink_poppler_document_new_from_bytes(void *bytes, void **error) {
  return ink_poppler.document_new_from_bytes(bytes, NULL, error);
}
static inline int ink_poppler_document_get_n_pages(void *document) { return ink_poppler.document_get_n_pages(document); }
static inline void *ink_poppler_document_get_page(void *document, int index) {
  return ink_poppler.document_get_page(document, index);
}
static inline void ink_poppler_page_get_size(void *page, double *width, double *height) {
  ink_poppler.page_get_size(page, width, height);
}
static inline void ink_poppler_page_render(void *page, void *cairo) { ink_poppler.page_render(page, cairo); }
static inline void ink_poppler_page_render_for_printing(void *page, void *cairo) {
  ink_poppler.page_render_for_printing(page, cairo);
}
static inline void *ink_poppler_bytes_new(const void *data, size_t size) { return ink_poppler.bytes_new(data, size); }
static inline void ink_poppler_bytes_unref(void *bytes) { ink_poppler.bytes_unref(bytes); }
static inline void ink_poppler_object_unref(void *object) { ink_poppler.object_unref(object); }
static inline void ink_poppler_error_free(void *error) { ink_poppler.error_free(error); }
/// The SHA-256 of `length` bytes at `data` in lowercase hex (GLib's G_CHECKSUM_SHA256; g_free it).
static inline char *ink_poppler_sha256(const unsigned char *data, size_t length) {
  return ink_poppler.compute_checksum_for_data(2, data, length);
}
/// The page's text (UTF-8, g_free it), and a box for each of its characters, in the same order (g_free them).
static inline char *ink_poppler_page_get_text(void *page) { return ink_poppler.page_get_text(page); }
static inline int ink_poppler_page_get_text_layout(void *page, struct InkPopplerRectangle **rectangles, unsigned int *count) {
  return ink_poppler.page_get_text_layout(page, rectangles, count);
}
static inline void ink_poppler_free(void *memory) { ink_poppler.free(memory); }

#endif
