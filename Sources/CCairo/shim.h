// Cairo: image, PDF and SVG surfaces (found with pkg-config `cairo`).
#include <cairo.h>
#include <cairo-pdf.h>
