// Written by scripts/forwarders.py: do not edit. Every function of Cairo the Swift sources
// and tests call, forwarding to the library, loaded on the first call (CLoadOnUse's ink_forwarded_library).
#include "CLoadOnUse.h"

#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>

static struct {
  __typeof__(cairo_clip) *cairo_clip;
  __typeof__(cairo_close_path) *cairo_close_path;
  __typeof__(cairo_create) *cairo_create;
  __typeof__(cairo_curve_to) *cairo_curve_to;
  __typeof__(cairo_destroy) *cairo_destroy;
  __typeof__(cairo_fill) *cairo_fill;
  __typeof__(cairo_format_stride_for_width) *cairo_format_stride_for_width;
  __typeof__(cairo_image_surface_create) *cairo_image_surface_create;
  __typeof__(cairo_image_surface_create_for_data) *cairo_image_surface_create_for_data;
  __typeof__(cairo_image_surface_create_from_png) *cairo_image_surface_create_from_png;
  __typeof__(cairo_image_surface_get_data) *cairo_image_surface_get_data;
  __typeof__(cairo_image_surface_get_format) *cairo_image_surface_get_format;
  __typeof__(cairo_image_surface_get_height) *cairo_image_surface_get_height;
  __typeof__(cairo_image_surface_get_stride) *cairo_image_surface_get_stride;
  __typeof__(cairo_image_surface_get_width) *cairo_image_surface_get_width;
  __typeof__(cairo_line_to) *cairo_line_to;
  __typeof__(cairo_move_to) *cairo_move_to;
  __typeof__(cairo_new_path) *cairo_new_path;
  __typeof__(cairo_paint) *cairo_paint;
  __typeof__(cairo_pdf_surface_create_for_stream) *cairo_pdf_surface_create_for_stream;
  __typeof__(cairo_pdf_surface_set_metadata) *cairo_pdf_surface_set_metadata;
  __typeof__(cairo_pdf_surface_set_size) *cairo_pdf_surface_set_size;
  __typeof__(cairo_recording_surface_create) *cairo_recording_surface_create;
  __typeof__(cairo_rectangle) *cairo_rectangle;
  __typeof__(cairo_restore) *cairo_restore;
  __typeof__(cairo_save) *cairo_save;
  __typeof__(cairo_scale) *cairo_scale;
  __typeof__(cairo_set_antialias) *cairo_set_antialias;
  __typeof__(cairo_set_fill_rule) *cairo_set_fill_rule;
  __typeof__(cairo_set_font_face) *cairo_set_font_face;
  __typeof__(cairo_set_font_size) *cairo_set_font_size;
  __typeof__(cairo_set_line_cap) *cairo_set_line_cap;
  __typeof__(cairo_set_line_join) *cairo_set_line_join;
  __typeof__(cairo_set_line_width) *cairo_set_line_width;
  __typeof__(cairo_set_operator) *cairo_set_operator;
  __typeof__(cairo_set_source_rgb) *cairo_set_source_rgb;
  __typeof__(cairo_set_source_rgba) *cairo_set_source_rgba;
  __typeof__(cairo_set_source_surface) *cairo_set_source_surface;
  __typeof__(cairo_show_page) *cairo_show_page;
  __typeof__(cairo_show_text_glyphs) *cairo_show_text_glyphs;
  __typeof__(cairo_status) *cairo_status;
  __typeof__(cairo_status_to_string) *cairo_status_to_string;
  __typeof__(cairo_stroke) *cairo_stroke;
  __typeof__(cairo_surface_destroy) *cairo_surface_destroy;
  __typeof__(cairo_surface_finish) *cairo_surface_finish;
  __typeof__(cairo_surface_flush) *cairo_surface_flush;
  __typeof__(cairo_surface_mark_dirty) *cairo_surface_mark_dirty;
  __typeof__(cairo_surface_status) *cairo_surface_status;
  __typeof__(cairo_surface_write_to_png) *cairo_surface_write_to_png;
  __typeof__(cairo_user_font_face_create) *cairo_user_font_face_create;
  __typeof__(cairo_user_font_face_set_render_glyph_func) *cairo_user_font_face_set_render_glyph_func;
} cairo_api;

static void resolve(void *handle);

static const char *const names[] = {"libcairo.so.2", "libcairo.so", "libcairo.2.dylib", "/opt/homebrew/lib/libcairo.2.dylib", "/usr/local/lib/libcairo.2.dylib"};
static struct ink_forwarded_library library = {names, sizeof names / sizeof *names, "Cairo", "install libcairo2", resolve, NULL};

static void resolve(void *handle) {
  ink_forwarded_resolve(&library, handle, "cairo_clip", (void **)&cairo_api.cairo_clip);
  ink_forwarded_resolve(&library, handle, "cairo_close_path", (void **)&cairo_api.cairo_close_path);
  ink_forwarded_resolve(&library, handle, "cairo_create", (void **)&cairo_api.cairo_create);
  ink_forwarded_resolve(&library, handle, "cairo_curve_to", (void **)&cairo_api.cairo_curve_to);
  ink_forwarded_resolve(&library, handle, "cairo_destroy", (void **)&cairo_api.cairo_destroy);
  ink_forwarded_resolve(&library, handle, "cairo_fill", (void **)&cairo_api.cairo_fill);
  ink_forwarded_resolve(&library, handle, "cairo_format_stride_for_width", (void **)&cairo_api.cairo_format_stride_for_width);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_create", (void **)&cairo_api.cairo_image_surface_create);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_create_for_data", (void **)&cairo_api.cairo_image_surface_create_for_data);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_create_from_png", (void **)&cairo_api.cairo_image_surface_create_from_png);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_get_data", (void **)&cairo_api.cairo_image_surface_get_data);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_get_format", (void **)&cairo_api.cairo_image_surface_get_format);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_get_height", (void **)&cairo_api.cairo_image_surface_get_height);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_get_stride", (void **)&cairo_api.cairo_image_surface_get_stride);
  ink_forwarded_resolve(&library, handle, "cairo_image_surface_get_width", (void **)&cairo_api.cairo_image_surface_get_width);
  ink_forwarded_resolve(&library, handle, "cairo_line_to", (void **)&cairo_api.cairo_line_to);
  ink_forwarded_resolve(&library, handle, "cairo_move_to", (void **)&cairo_api.cairo_move_to);
  ink_forwarded_resolve(&library, handle, "cairo_new_path", (void **)&cairo_api.cairo_new_path);
  ink_forwarded_resolve(&library, handle, "cairo_paint", (void **)&cairo_api.cairo_paint);
  ink_forwarded_resolve(&library, handle, "cairo_pdf_surface_create_for_stream", (void **)&cairo_api.cairo_pdf_surface_create_for_stream);
  ink_forwarded_resolve(&library, handle, "cairo_pdf_surface_set_metadata", (void **)&cairo_api.cairo_pdf_surface_set_metadata);
  ink_forwarded_resolve(&library, handle, "cairo_pdf_surface_set_size", (void **)&cairo_api.cairo_pdf_surface_set_size);
  ink_forwarded_resolve(&library, handle, "cairo_recording_surface_create", (void **)&cairo_api.cairo_recording_surface_create);
  ink_forwarded_resolve(&library, handle, "cairo_rectangle", (void **)&cairo_api.cairo_rectangle);
  ink_forwarded_resolve(&library, handle, "cairo_restore", (void **)&cairo_api.cairo_restore);
  ink_forwarded_resolve(&library, handle, "cairo_save", (void **)&cairo_api.cairo_save);
  ink_forwarded_resolve(&library, handle, "cairo_scale", (void **)&cairo_api.cairo_scale);
  ink_forwarded_resolve(&library, handle, "cairo_set_antialias", (void **)&cairo_api.cairo_set_antialias);
  ink_forwarded_resolve(&library, handle, "cairo_set_fill_rule", (void **)&cairo_api.cairo_set_fill_rule);
  ink_forwarded_resolve(&library, handle, "cairo_set_font_face", (void **)&cairo_api.cairo_set_font_face);
  ink_forwarded_resolve(&library, handle, "cairo_set_font_size", (void **)&cairo_api.cairo_set_font_size);
  ink_forwarded_resolve(&library, handle, "cairo_set_line_cap", (void **)&cairo_api.cairo_set_line_cap);
  ink_forwarded_resolve(&library, handle, "cairo_set_line_join", (void **)&cairo_api.cairo_set_line_join);
  ink_forwarded_resolve(&library, handle, "cairo_set_line_width", (void **)&cairo_api.cairo_set_line_width);
  ink_forwarded_resolve(&library, handle, "cairo_set_operator", (void **)&cairo_api.cairo_set_operator);
  ink_forwarded_resolve(&library, handle, "cairo_set_source_rgb", (void **)&cairo_api.cairo_set_source_rgb);
  ink_forwarded_resolve(&library, handle, "cairo_set_source_rgba", (void **)&cairo_api.cairo_set_source_rgba);
  ink_forwarded_resolve(&library, handle, "cairo_set_source_surface", (void **)&cairo_api.cairo_set_source_surface);
  ink_forwarded_resolve(&library, handle, "cairo_show_page", (void **)&cairo_api.cairo_show_page);
  ink_forwarded_resolve(&library, handle, "cairo_show_text_glyphs", (void **)&cairo_api.cairo_show_text_glyphs);
  ink_forwarded_resolve(&library, handle, "cairo_status", (void **)&cairo_api.cairo_status);
  ink_forwarded_resolve(&library, handle, "cairo_status_to_string", (void **)&cairo_api.cairo_status_to_string);
  ink_forwarded_resolve(&library, handle, "cairo_stroke", (void **)&cairo_api.cairo_stroke);
  ink_forwarded_resolve(&library, handle, "cairo_surface_destroy", (void **)&cairo_api.cairo_surface_destroy);
  ink_forwarded_resolve(&library, handle, "cairo_surface_finish", (void **)&cairo_api.cairo_surface_finish);
  ink_forwarded_resolve(&library, handle, "cairo_surface_flush", (void **)&cairo_api.cairo_surface_flush);
  ink_forwarded_resolve(&library, handle, "cairo_surface_mark_dirty", (void **)&cairo_api.cairo_surface_mark_dirty);
  ink_forwarded_resolve(&library, handle, "cairo_surface_status", (void **)&cairo_api.cairo_surface_status);
  ink_forwarded_resolve(&library, handle, "cairo_surface_write_to_png", (void **)&cairo_api.cairo_surface_write_to_png);
  ink_forwarded_resolve(&library, handle, "cairo_user_font_face_create", (void **)&cairo_api.cairo_user_font_face_create);
  ink_forwarded_resolve(&library, handle, "cairo_user_font_face_set_render_glyph_func", (void **)&cairo_api.cairo_user_font_face_set_render_glyph_func);
}

void cairo_clip(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_clip(cr);
}

void cairo_close_path(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_close_path(cr);
}

cairo_t * cairo_create(cairo_surface_t *target) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_create(target);
}

void cairo_curve_to(cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_curve_to(cr, x1, y1, x2, y2, x3, y3);
}

void cairo_destroy(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_destroy(cr);
}

void cairo_fill(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_fill(cr);
}

int cairo_format_stride_for_width(cairo_format_t format, int width) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_format_stride_for_width(format, width);
}

cairo_surface_t * cairo_image_surface_create(cairo_format_t format, int width, int height) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_create(format, width, height);
}

cairo_surface_t * cairo_image_surface_create_for_data(unsigned char *data, cairo_format_t format, int width, int height, int stride) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_create_for_data(data, format, width, height, stride);
}

cairo_surface_t * cairo_image_surface_create_from_png(const char *filename) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_create_from_png(filename);
}

unsigned char * cairo_image_surface_get_data(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_get_data(surface);
}

cairo_format_t cairo_image_surface_get_format(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_get_format(surface);
}

int cairo_image_surface_get_height(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_get_height(surface);
}

int cairo_image_surface_get_stride(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_get_stride(surface);
}

int cairo_image_surface_get_width(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_image_surface_get_width(surface);
}

void cairo_line_to(cairo_t *cr, double x, double y) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_line_to(cr, x, y);
}

void cairo_move_to(cairo_t *cr, double x, double y) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_move_to(cr, x, y);
}

void cairo_new_path(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_new_path(cr);
}

void cairo_paint(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_paint(cr);
}

cairo_surface_t * cairo_pdf_surface_create_for_stream(cairo_write_func_t write_func, void *closure, double width_in_points, double height_in_points) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_pdf_surface_create_for_stream(write_func, closure, width_in_points, height_in_points);
}

void cairo_pdf_surface_set_metadata(cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *utf8) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_pdf_surface_set_metadata(surface, metadata, utf8);
}

void cairo_pdf_surface_set_size(cairo_surface_t *surface, double width_in_points, double height_in_points) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_pdf_surface_set_size(surface, width_in_points, height_in_points);
}

cairo_surface_t * cairo_recording_surface_create(cairo_content_t content, const cairo_rectangle_t *extents) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_recording_surface_create(content, extents);
}

void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_rectangle(cr, x, y, width, height);
}

void cairo_restore(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_restore(cr);
}

void cairo_save(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_save(cr);
}

void cairo_scale(cairo_t *cr, double sx, double sy) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_scale(cr, sx, sy);
}

void cairo_set_antialias(cairo_t *cr, cairo_antialias_t antialias) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_antialias(cr, antialias);
}

void cairo_set_fill_rule(cairo_t *cr, cairo_fill_rule_t fill_rule) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_fill_rule(cr, fill_rule);
}

void cairo_set_font_face(cairo_t *cr, cairo_font_face_t *font_face) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_font_face(cr, font_face);
}

void cairo_set_font_size(cairo_t *cr, double size) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_font_size(cr, size);
}

void cairo_set_line_cap(cairo_t *cr, cairo_line_cap_t line_cap) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_line_cap(cr, line_cap);
}

void cairo_set_line_join(cairo_t *cr, cairo_line_join_t line_join) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_line_join(cr, line_join);
}

void cairo_set_line_width(cairo_t *cr, double width) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_line_width(cr, width);
}

void cairo_set_operator(cairo_t *cr, cairo_operator_t op) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_operator(cr, op);
}

void cairo_set_source_rgb(cairo_t *cr, double red, double green, double blue) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_source_rgb(cr, red, green, blue);
}

void cairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_source_rgba(cr, red, green, blue, alpha);
}

void cairo_set_source_surface(cairo_t *cr, cairo_surface_t *surface, double x, double y) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_set_source_surface(cr, surface, x, y);
}

void cairo_show_page(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_show_page(cr);
}

void cairo_show_text_glyphs(cairo_t *cr, const char *utf8, int utf8_len, const cairo_glyph_t *glyphs, int num_glyphs, const cairo_text_cluster_t *clusters, int num_clusters, cairo_text_cluster_flags_t cluster_flags) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_show_text_glyphs(cr, utf8, utf8_len, glyphs, num_glyphs, clusters, num_clusters, cluster_flags);
}

cairo_status_t cairo_status(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_status(cr);
}

const char * cairo_status_to_string(cairo_status_t status) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_status_to_string(status);
}

void cairo_stroke(cairo_t *cr) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_stroke(cr);
}

void cairo_surface_destroy(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_surface_destroy(surface);
}

void cairo_surface_finish(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_surface_finish(surface);
}

void cairo_surface_flush(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_surface_flush(surface);
}

void cairo_surface_mark_dirty(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_surface_mark_dirty(surface);
}

cairo_status_t cairo_surface_status(cairo_surface_t *surface) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_surface_status(surface);
}

cairo_status_t cairo_surface_write_to_png(cairo_surface_t *surface, const char *filename) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_surface_write_to_png(surface, filename);
}

cairo_font_face_t * cairo_user_font_face_create(void) {
  ink_forwarded_ensure(&library);
  return cairo_api.cairo_user_font_face_create();
}

void cairo_user_font_face_set_render_glyph_func(cairo_font_face_t *font_face, cairo_user_scaled_font_render_glyph_func_t render_glyph_func) {
  ink_forwarded_ensure(&library);
  cairo_api.cairo_user_font_face_set_render_glyph_func(font_face, render_glyph_func);
}
