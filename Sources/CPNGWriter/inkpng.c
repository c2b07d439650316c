#include "inkpng.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
    char *error;
    size_t error_size;
} inkpng_sink;

static void inkpng_error(png_structp png, png_const_charp message) {
    inkpng_sink *sink = (inkpng_sink *)png_get_error_ptr(png);
    if (sink && sink->error && sink->error_size > 0) {
        snprintf(sink->error, sink->error_size, "libpng: %s", message);
    }
    png_longjmp(png, 1);
}

static void inkpng_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void inkpng_write(png_structp png, png_bytep bytes, png_size_t count) {
    inkpng_sink *sink = (inkpng_sink *)png_get_io_ptr(png);
    if (sink->length + count > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (capacity < sink->length + count) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(sink->data, capacity);
        if (!grown) png_error(png, "out of memory");
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->length, bytes, count);
    sink->length += count;
}

static void inkpng_flush(png_structp png) { (void)png; }

int inkpng_encode(const uint8_t *pixels, int width, int height, size_t stride, int format,
                  int level, int filter, int strategy, double dpi,
                  uint8_t **out, size_t *out_length, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = 0;
    *out = NULL;
    *out_length = 0;
    if (width <= 0 || height <= 0 || !pixels) {
        if (error && error_size > 0) snprintf(error, error_size, "empty image (%d x %d)", width, height);
        return -1;
    }

    inkpng_sink sink = {0};
    sink.error = error;
    sink.error_size = error_size;
    /* A guess at the compressed size, so the buffer rarely grows. */
    sink.capacity = (size_t)width * (size_t)height / 8 + 65536;
    sink.data = (uint8_t *)malloc(sink.capacity);
    if (!sink.data) {
        if (error && error_size > 0) snprintf(error, error_size, "out of memory");
        return -1;
    }

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, inkpng_error, inkpng_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile row = NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(sink.data);
        if (error && error_size > 0) snprintf(error, error_size, "libpng: cannot create the writer");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink.data);
        free(row);
        return -1;
    }

    png_set_write_fn(png, &sink, inkpng_write, inkpng_flush);
    png_set_compression_level(png, level);
    if (strategy == 1) png_set_compression_strategy(png, Z_RLE);
    else if (strategy == 2) png_set_compression_strategy(png, Z_HUFFMAN_ONLY);
    else png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    png_set_compression_buffer_size(png, 1 << 17);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filter ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 format == INKPNG_GRAY ? PNG_COLOR_TYPE_GRAY
                 : format == INKPNG_RGB ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (dpi > 0) {
        png_uint_32 ppm = (png_uint_32)(dpi / 0.0254 + 0.5);
        png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    }
    png_write_info(png, info);

    if (format == INKPNG_GRAY) {
        /* Grey pages: the green channel is the grey level (red and blue are equal to it). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        const size_t green = 2;
#else
        const size_t green = 1;
#endif
        row = (uint8_t *)malloc((size_t)width);
        if (!row) png_error(png, "out of memory");
        for (int y = 0; y < height; y++) {
            const uint8_t *source = pixels + (size_t)y * stride + green;
            uint8_t *target = row;
            for (int x = 0; x < width; x++) target[x] = source[(size_t)x * 4];
            png_write_row(png, row);
        }
    } else if (format == INKPNG_RGB) {
        /* Cairo's 32-bit pixels are B, G, R, X in memory on little-endian machines and X, R, G, B on
           big-endian ones: let libpng drop the filler byte (and swap to RGB) while it writes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        png_set_filler(png, 0, PNG_FILLER_BEFORE);
#else
        png_set_filler(png, 0, PNG_FILLER_AFTER);
        png_set_bgr(png);
#endif
        for (int y = 0; y < height; y++) {
            png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
        }
    } else {
        row = (uint8_t *)malloc((size_t)width * 4);
        if (!row) png_error(png, "out of memory");
        for (int y = 0; y < height; y++) {
            const uint32_t *source = (const uint32_t *)(const void *)(pixels + (size_t)y * stride);
            uint8_t *target = row;
            for (int x = 0; x < width; x++) {
                uint32_t pixel = source[x];
                uint32_t a = pixel >> 24, r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;
                if (a != 0 && a != 255) {
                    r = (r * 255 + a / 2) / a;
                    g = (g * 255 + a / 2) / a;
                    b = (b * 255 + a / 2) / a;
                }
                target[0] = (uint8_t)r;
                target[1] = (uint8_t)g;
                target[2] = (uint8_t)b;
                target[3] = (uint8_t)a;
                target += 4;
            }
            png_write_row(png, row);
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);

    *out = sink.data;
    *out_length = sink.length;
    return 0;
}

void inkpng_free(uint8_t *buffer) { free(buffer); }
