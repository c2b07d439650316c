// Tesseract's plain C API (found with pkg-config `tesseract`). Its pkg-config file does not name
// leptonica, so the module map links `lept` itself.
#include <tesseract/capi.h>
