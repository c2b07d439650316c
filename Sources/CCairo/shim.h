// Cairo: image, PDF and SVG surfaces (libcairo2-dev's headers). Declared here, not linked: the
// functions are CCairoOnUse's, which load libcairo on the first call.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
