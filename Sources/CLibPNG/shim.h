// libpng (found with pkg-config `libpng`); used only by the CPNGWriter C target.
#include <png.h>
