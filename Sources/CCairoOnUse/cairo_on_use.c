// Written by scripts/cairo-on-use.py: do not edit. Every Cairo function the Swift sources call,
// forwarding to libcairo, which is loaded on the first call (loader.c).
#include "loader.h"

#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>

struct ink_cairo_api {
  __typeof__(cairo_clip) *cairo_clip;
  __typeof__(cairo_close_path) *cairo_close_path;
  __typeof__(cairo_create) *cairo_create;
  __typeof__(cairo_curve_to) *cairo_curve_to;
  __typeof__(cairo_destroy) *cairo_destroy;
  __typeof__(cairo_fill) *cairo_fill;
  __typeof__(cairo_image_surface_create) *cairo_image_surface_create;
  __typeof__(cairo_image_surface_get_data) *cairo_image_surface_get_data;
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
};

static struct ink_cairo_api api;

static void resolve(void *library) {
  INK_CAIRO_RESOLVE(cairo_clip);
  INK_CAIRO_RESOLVE(cairo_close_path);
  INK_CAIRO_RESOLVE(cairo_create);
  INK_CAIRO_RESOLVE(cairo_curve_to);
  INK_CAIRO_RESOLVE(cairo_destroy);
  INK_CAIRO_RESOLVE(cairo_fill);
  INK_CAIRO_RESOLVE(cairo_image_surface_create);
  INK_CAIRO_RESOLVE(cairo_image_surface_get_data);
  INK_CAIRO_RESOLVE(cairo_image_surface_get_height);
  INK_CAIRO_RESOLVE(cairo_image_surface_get_stride);
  INK_CAIRO_RESOLVE(cairo_image_surface_get_width);
  INK_CAIRO_RESOLVE(cairo_line_to);
  INK_CAIRO_RESOLVE(cairo_move_to);
  INK_CAIRO_RESOLVE(cairo_new_path);
  INK_CAIRO_RESOLVE(cairo_paint);
  INK_CAIRO_RESOLVE(cairo_pdf_surface_create_for_stream);
  INK_CAIRO_RESOLVE(cairo_pdf_surface_set_metadata);
  INK_CAIRO_RESOLVE(cairo_pdf_surface_set_size);
  INK_CAIRO_RESOLVE(cairo_recording_surface_create);
  INK_CAIRO_RESOLVE(cairo_rectangle);
  INK_CAIRO_RESOLVE(cairo_restore);
  INK_CAIRO_RESOLVE(cairo_save);
  INK_CAIRO_RESOLVE(cairo_scale);
  INK_CAIRO_RESOLVE(cairo_set_antialias);
  INK_CAIRO_RESOLVE(cairo_set_fill_rule);
  INK_CAIRO_RESOLVE(cairo_set_font_face);
  INK_CAIRO_RESOLVE(cairo_set_font_size);
  INK_CAIRO_RESOLVE(cairo_set_line_cap);
  INK_CAIRO_RESOLVE(cairo_set_line_join);
  INK_CAIRO_RESOLVE(cairo_set_line_width);
  INK_CAIRO_RESOLVE(cairo_set_operator);
  INK_CAIRO_RESOLVE(cairo_set_source_rgb);
  INK_CAIRO_RESOLVE(cairo_set_source_rgba);
  INK_CAIRO_RESOLVE(cairo_set_source_surface);
  INK_CAIRO_RESOLVE(cairo_show_page);
  INK_CAIRO_RESOLVE(cairo_show_text_glyphs);
  INK_CAIRO_RESOLVE(cairo_status);
  INK_CAIRO_RESOLVE(cairo_status_to_string);
  INK_CAIRO_RESOLVE(cairo_stroke);
  INK_CAIRO_RESOLVE(cairo_surface_destroy);
  INK_CAIRO_RESOLVE(cairo_surface_finish);
  INK_CAIRO_RESOLVE(cairo_surface_flush);
  INK_CAIRO_RESOLVE(cairo_surface_mark_dirty);
  INK_CAIRO_RESOLVE(cairo_surface_status);
  INK_CAIRO_RESOLVE(cairo_surface_write_to_png);
  INK_CAIRO_RESOLVE(cairo_user_font_face_create);
  INK_CAIRO_RESOLVE(cairo_user_font_face_set_render_glyph_func);
}

void cairo_clip(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_clip(cr);
}

void cairo_close_path(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_close_path(cr);
}

cairo_t * cairo_create(cairo_surface_t *target) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_create(target);
}

void cairo_curve_to(cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_curve_to(cr, x1, y1, x2, y2, x3, y3);
}

void cairo_destroy(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_destroy(cr);
}

void cairo_fill(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_fill(cr);
}

cairo_surface_t * cairo_image_surface_create(cairo_format_t format, int width, int height) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_image_surface_create(format, width, height);
}

unsigned char * cairo_image_surface_get_data(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_image_surface_get_data(surface);
}

int cairo_image_surface_get_height(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_image_surface_get_height(surface);
}

int cairo_image_surface_get_stride(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_image_surface_get_stride(surface);
}

int cairo_image_surface_get_width(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_image_surface_get_width(surface);
}

void cairo_line_to(cairo_t *cr, double x, double y) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_line_to(cr, x, y);
}

void cairo_move_to(cairo_t *cr, double x, double y) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_move_to(cr, x, y);
}

void cairo_new_path(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_new_path(cr);
}

void cairo_paint(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_paint(cr);
}

cairo_surface_t * cairo_pdf_surface_create_for_stream(cairo_write_func_t write_func, void *closure, double width_in_points, double height_in_points) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_pdf_surface_create_for_stream(write_func, closure, width_in_points, height_in_points);
}

void cairo_pdf_surface_set_metadata(cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *utf8) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_pdf_surface_set_metadata(surface, metadata, utf8);
}

void cairo_pdf_surface_set_size(cairo_surface_t *surface, double width_in_points, double height_in_points) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_pdf_surface_set_size(surface, width_in_points, height_in_points);
}

cairo_surface_t * cairo_recording_surface_create(cairo_content_t content, const cairo_rectangle_t *extents) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_recording_surface_create(content, extents);
}

void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_rectangle(cr, x, y, width, height);
}

void cairo_restore(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_restore(cr);
}

void cairo_save(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_save(cr);
}

void cairo_scale(cairo_t *cr, double sx, double sy) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_scale(cr, sx, sy);
}

void cairo_set_antialias(cairo_t *cr, cairo_antialias_t antialias) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_antialias(cr, antialias);
}

void cairo_set_fill_rule(cairo_t *cr, cairo_fill_rule_t fill_rule) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_fill_rule(cr, fill_rule);
}

void cairo_set_font_face(cairo_t *cr, cairo_font_face_t *font_face) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_font_face(cr, font_face);
}

void cairo_set_font_size(cairo_t *cr, double size) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_font_size(cr, size);
}

void cairo_set_line_cap(cairo_t *cr, cairo_line_cap_t line_cap) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_line_cap(cr, line_cap);
}

void cairo_set_line_join(cairo_t *cr, cairo_line_join_t line_join) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_line_join(cr, line_join);
}

void cairo_set_line_width(cairo_t *cr, double width) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_line_width(cr, width);
}

void cairo_set_operator(cairo_t *cr, cairo_operator_t op) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_operator(cr, op);
}

void cairo_set_source_rgb(cairo_t *cr, double red, double green, double blue) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_source_rgb(cr, red, green, blue);
}

void cairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_source_rgba(cr, red, green, blue, alpha);
}

void cairo_set_source_surface(cairo_t *cr, cairo_surface_t *surface, double x, double y) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_set_source_surface(cr, surface, x, y);
}

void cairo_show_page(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_show_page(cr);
}

void cairo_show_text_glyphs(cairo_t *cr, const char *utf8, int utf8_len, const cairo_glyph_t *glyphs, int num_glyphs, const cairo_text_cluster_t *clusters, int num_clusters, cairo_text_cluster_flags_t cluster_flags) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_show_text_glyphs(cr, utf8, utf8_len, glyphs, num_glyphs, clusters, num_clusters, cluster_flags);
}

cairo_status_t cairo_status(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_status(cr);
}

const char * cairo_status_to_string(cairo_status_t status) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_status_to_string(status);
}

void cairo_stroke(cairo_t *cr) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_stroke(cr);
}

void cairo_surface_destroy(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_surface_destroy(surface);
}

void cairo_surface_finish(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_surface_finish(surface);
}

void cairo_surface_flush(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_surface_flush(surface);
}

void cairo_surface_mark_dirty(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_surface_mark_dirty(surface);
}

cairo_status_t cairo_surface_status(cairo_surface_t *surface) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_surface_status(surface);
}

cairo_status_t cairo_surface_write_to_png(cairo_surface_t *surface, const char *filename) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_surface_write_to_png(surface, filename);
}

cairo_font_face_t * cairo_user_font_face_create(void) {
  ink_cairo_ensure_loaded(resolve);
  return api.cairo_user_font_face_create();
}

void cairo_user_font_face_set_render_glyph_func(cairo_font_face_t *font_face, cairo_user_scaled_font_render_glyph_func_t render_glyph_func) {
  ink_cairo_ensure_loaded(resolve);
  api.cairo_user_font_face_set_render_glyph_func(font_face, render_glyph_func);
}
