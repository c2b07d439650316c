#include "CTesseract.h"

#include "CLoadOnUse.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct InkTesseractAPI ink_tesseract;

static const char *load_error = "not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Where the library is on Debian/Ubuntu, Fedora and Homebrew; the first name that loads wins.
static const char *const library_names[] = {
  "libtesseract.so.5", "libtesseract.so", "libtesseract.5.dylib", "/opt/homebrew/lib/libtesseract.5.dylib",
  "/usr/local/lib/libtesseract.5.dylib",
};

static void load(void) {
  static char message[512];
  // Tesseract's OpenMP (libgomp, loaded with it) reads OMP_THREAD_LIMIT once, as it loads. Unset,
  // its threads fight the caller's own workers and OCR is 2-7x slower on a busy machine; a value the
  // user set is kept.
  setenv("OMP_THREAD_LIMIT", "1", 0);
  char first_error[256];
  void *library = ink_load_first(library_names, sizeof library_names / sizeof *library_names, first_error, sizeof first_error);
  if (!library) {
    snprintf(message, sizeof message, "Tesseract is not installed (libtesseract.so.5 cannot be loaded: %s); install libtesseract5 and tesseract-ocr-eng", first_error);
    load_error = message;
    return;
  }
#define RESOLVE(field, symbol) INK_RESOLVE(ink_tesseract, field, symbol, "Tesseract", "version 5 is needed")
  RESOLVE(BaseAPICreate, TessBaseAPICreate);
  RESOLVE(BaseAPIDelete, TessBaseAPIDelete);
  RESOLVE(BaseAPIInit4, TessBaseAPIInit4);
  RESOLVE(BaseAPIEnd, TessBaseAPIEnd);
  RESOLVE(BaseAPISetVariable, TessBaseAPISetVariable);
  RESOLVE(BaseAPISetPageSegMode, TessBaseAPISetPageSegMode);
  RESOLVE(BaseAPISetImage, TessBaseAPISetImage);
  RESOLVE(BaseAPISetSourceResolution, TessBaseAPISetSourceResolution);
  RESOLVE(BaseAPIClear, TessBaseAPIClear);
  RESOLVE(BaseAPIRecognize, TessBaseAPIRecognize);
  RESOLVE(BaseAPIGetIterator, TessBaseAPIGetIterator);
  RESOLVE(DeleteText, TessDeleteText);
  RESOLVE(PageIteratorIsAtBeginningOf, TessPageIteratorIsAtBeginningOf);
  RESOLVE(PageIteratorBoundingBox, TessPageIteratorBoundingBox);
  RESOLVE(ResultIteratorDelete, TessResultIteratorDelete);
  RESOLVE(ResultIteratorCopy, TessResultIteratorCopy);
  RESOLVE(ResultIteratorGetPageIterator, TessResultIteratorGetPageIterator);
  RESOLVE(ResultIteratorGetChoiceIterator, TessResultIteratorGetChoiceIterator);
  RESOLVE(ResultIteratorNext, TessResultIteratorNext);
  RESOLVE(ResultIteratorGetUTF8Text, TessResultIteratorGetUTF8Text);
  RESOLVE(ResultIteratorConfidence, TessResultIteratorConfidence);
  RESOLVE(ChoiceIteratorDelete, TessChoiceIteratorDelete);
  RESOLVE(ChoiceIteratorNext, TessChoiceIteratorNext);
  RESOLVE(ChoiceIteratorGetUTF8Text, TessChoiceIteratorGetUTF8Text);
  RESOLVE(ChoiceIteratorConfidence, TessChoiceIteratorConfidence);
#undef RESOLVE
  load_error = NULL;
}

const char *ink_tesseract_load(void) {
  pthread_once(&once, load);
  return load_error;
}
