// A small PNG encoder over libpng's classic API (which reports errors with longjmp, so it lives in C).
#ifndef INKPNG_H
#define INKPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What inkpng_encode writes.
enum {
    /// 8-bit RGBA, each pixel un-premultiplied.
    INKPNG_RGBA = 0,
    /// 8-bit RGB; the alpha byte is ignored (the page is opaque).
    INKPNG_RGB = 1,
    /// 8-bit grey from the green channel (the page is opaque and every pixel grey).
    INKPNG_GRAY = 2,
};

/// Encodes Cairo image data (CAIRO_FORMAT_ARGB32 or RGB24: native-endian 32-bit pixels, premultiplied
/// alpha) as a PNG in memory.
///
/// - format: INKPNG_RGBA, INKPNG_RGB or INKPNG_GRAY.
/// - level: zlib level 0…9 (1 is fast and nearly as small as 6 for pages of ink).
/// - filter: non-zero lets libpng choose row filters (smaller, slower); zero writes no filter.
/// - strategy: 0 zlib's default, 1 run-length only (fast, good on pages of ink), 2 Huffman only.
/// - dpi: when above 0, stored in a pHYs chunk.
/// On success returns 0 and sets *out to a malloc'd buffer of *out_length bytes (free it with
/// inkpng_free). On failure returns -1 and writes a message into error (error_size bytes).
int inkpng_encode(const uint8_t *pixels, int width, int height, size_t stride, int format,
                  int level, int filter, int strategy, double dpi,
                  uint8_t **out, size_t *out_length, char *error, size_t error_size);

/// Frees a buffer returned by inkpng_encode.
void inkpng_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
