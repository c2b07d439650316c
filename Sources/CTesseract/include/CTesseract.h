// Tesseract's plain C API, loaded on first use instead of linked: libtesseract and what it pulls
// in (libcurl, libarchive, leptonica, OpenMP …) cost a command ~13 ms at start-up, and only the
// commands that recognise need them. The declarations mirror <tesseract/capi.h> (Tesseract 5);
// each function calls through a pointer that ink_tesseract_load() fills with dlsym.
#ifndef INK_CTESSERACT_H
#define INK_CTESSERACT_H

#include <stddef.h>

typedef int BOOL;
typedef struct TessBaseAPI TessBaseAPI;
typedef struct TessPageIterator TessPageIterator;
typedef struct TessResultIterator TessResultIterator;
typedef struct TessChoiceIterator TessChoiceIterator;
typedef struct ETEXT_DESC ETEXT_DESC;

typedef enum TessOcrEngineMode {
  OEM_TESSERACT_ONLY, OEM_LSTM_ONLY, OEM_TESSERACT_LSTM_COMBINED, OEM_DEFAULT
} TessOcrEngineMode;

typedef enum TessPageSegMode {
  PSM_OSD_ONLY, PSM_AUTO_OSD, PSM_AUTO_ONLY, PSM_AUTO, PSM_SINGLE_COLUMN, PSM_SINGLE_BLOCK_VERT_TEXT,
  PSM_SINGLE_BLOCK, PSM_SINGLE_LINE, PSM_SINGLE_WORD, PSM_CIRCLE_WORD, PSM_SINGLE_CHAR, PSM_SPARSE_TEXT,
  PSM_SPARSE_TEXT_OSD, PSM_RAW_LINE, PSM_COUNT
} TessPageSegMode;

typedef enum TessPageIteratorLevel {
  RIL_BLOCK, RIL_PARA, RIL_TEXTLINE, RIL_WORD, RIL_SYMBOL
} TessPageIteratorLevel;

/// The functions Inkwell calls, resolved from the loaded library.
struct InkTesseractAPI {
  TessBaseAPI *(*BaseAPICreate)(void);
  void (*BaseAPIDelete)(TessBaseAPI *);
  int (*BaseAPIInit4)(TessBaseAPI *, const char *, const char *, TessOcrEngineMode, char **, int, char **, char **,
                      size_t, BOOL);
  void (*BaseAPIEnd)(TessBaseAPI *);
  BOOL (*BaseAPISetVariable)(TessBaseAPI *, const char *, const char *);
  void (*BaseAPISetPageSegMode)(TessBaseAPI *, TessPageSegMode);
  void (*BaseAPISetImage)(TessBaseAPI *, const unsigned char *, int, int, int, int);
  void (*BaseAPISetSourceResolution)(TessBaseAPI *, int);
  void (*BaseAPIClear)(TessBaseAPI *);
  int (*BaseAPIRecognize)(TessBaseAPI *, ETEXT_DESC *);
  TessResultIterator *(*BaseAPIGetIterator)(TessBaseAPI *);
  void (*DeleteText)(const char *);
  BOOL (*PageIteratorIsAtBeginningOf)(const TessPageIterator *, TessPageIteratorLevel);
  BOOL (*PageIteratorBoundingBox)(const TessPageIterator *, TessPageIteratorLevel, int *, int *, int *, int *);
  void (*ResultIteratorDelete)(TessResultIterator *);
  TessResultIterator *(*ResultIteratorCopy)(const TessResultIterator *);
  TessPageIterator *(*ResultIteratorGetPageIterator)(TessResultIterator *);
  TessChoiceIterator *(*ResultIteratorGetChoiceIterator)(const TessResultIterator *);
  BOOL (*ResultIteratorNext)(TessResultIterator *, TessPageIteratorLevel);
  char *(*ResultIteratorGetUTF8Text)(const TessResultIterator *, TessPageIteratorLevel);
  float (*ResultIteratorConfidence)(const TessResultIterator *, TessPageIteratorLevel);
  void (*ChoiceIteratorDelete)(TessChoiceIterator *);
  BOOL (*ChoiceIteratorNext)(TessChoiceIterator *);
  const char *(*ChoiceIteratorGetUTF8Text)(const TessChoiceIterator *);
  float (*ChoiceIteratorConfidence)(const TessChoiceIterator *);
};

extern struct InkTesseractAPI ink_tesseract;

/// Loads libtesseract (once; safe from any thread) and resolves the functions above. Returns NULL
/// when they are ready, else why not (the library is missing, or lacks a function), in static storage.
const char *ink_tesseract_load(void);

static inline TessBaseAPI *TessBaseAPICreate(void) { return ink_tesseract.BaseAPICreate(); }
static inline void TessBaseAPIDelete(TessBaseAPI *h) { ink_tesseract.BaseAPIDelete(h); }
static inline int TessBaseAPIInit4(TessBaseAPI *h, const char *datapath, const char *language, TessOcrEngineMode mode,
                                   char **configs, int configs_size, char **vars_vec, char **vars_values,
                                   size_t vars_vec_size, BOOL set_only_non_debug_params) {
  return ink_tesseract.BaseAPIInit4(h, datapath, language, mode, configs, configs_size, vars_vec, vars_values,
                                    vars_vec_size, set_only_non_debug_params);
}
static inline void TessBaseAPIEnd(TessBaseAPI *h) { ink_tesseract.BaseAPIEnd(h); }
static inline BOOL TessBaseAPISetVariable(TessBaseAPI *h, const char *name, const char *value) {
  return ink_tesseract.BaseAPISetVariable(h, name, value);
}
static inline void TessBaseAPISetPageSegMode(TessBaseAPI *h, TessPageSegMode mode) { ink_tesseract.BaseAPISetPageSegMode(h, mode); }
static inline void TessBaseAPISetImage(TessBaseAPI *h, const unsigned char *data, int width, int height, int bytes_per_pixel,
                                       int bytes_per_line) {
  ink_tesseract.BaseAPISetImage(h, data, width, height, bytes_per_pixel, bytes_per_line);
}
static inline void TessBaseAPISetSourceResolution(TessBaseAPI *h, int ppi) { ink_tesseract.BaseAPISetSourceResolution(h, ppi); }
static inline void TessBaseAPIClear(TessBaseAPI *h) { ink_tesseract.BaseAPIClear(h); }
static inline int TessBaseAPIRecognize(TessBaseAPI *h, ETEXT_DESC *monitor) { return ink_tesseract.BaseAPIRecognize(h, monitor); }
static inline TessResultIterator *TessBaseAPIGetIterator(TessBaseAPI *h) { return ink_tesseract.BaseAPIGetIterator(h); }
static inline void TessDeleteText(const char *text) { ink_tesseract.DeleteText(text); }
static inline BOOL TessPageIteratorIsAtBeginningOf(const TessPageIterator *h, TessPageIteratorLevel level) {
  return ink_tesseract.PageIteratorIsAtBeginningOf(h, level);
}
static inline BOOL TessPageIteratorBoundingBox(const TessPageIterator *h, TessPageIteratorLevel level, int *left, int *top,
                                               int *right, int *bottom) {
  return ink_tesseract.PageIteratorBoundingBox(h, level, left, top, right, bottom);
}
static inline void TessResultIteratorDelete(TessResultIterator *h) { ink_tesseract.ResultIteratorDelete(h); }
static inline TessResultIterator *TessResultIteratorCopy(const TessResultIterator *h) { return ink_tesseract.ResultIteratorCopy(h); }
static inline TessPageIterator *TessResultIteratorGetPageIterator(TessResultIterator *h) {
  return ink_tesseract.ResultIteratorGetPageIterator(h);
}
static inline TessChoiceIterator *TessResultIteratorGetChoiceIterator(const TessResultIterator *h) {
  return ink_tesseract.ResultIteratorGetChoiceIterator(h);
}
static inline BOOL TessResultIteratorNext(TessResultIterator *h, TessPageIteratorLevel level) {
  return ink_tesseract.ResultIteratorNext(h, level);
}
static inline char *TessResultIteratorGetUTF8Text(const TessResultIterator *h, TessPageIteratorLevel level) {
  return ink_tesseract.ResultIteratorGetUTF8Text(h, level);
}
static inline float TessResultIteratorConfidence(const TessResultIterator *h, TessPageIteratorLevel level) {
  return ink_tesseract.ResultIteratorConfidence(h, level);
}
static inline void TessChoiceIteratorDelete(TessChoiceIterator *h) { ink_tesseract.ChoiceIteratorDelete(h); }
static inline BOOL TessChoiceIteratorNext(TessChoiceIterator *h) { return ink_tesseract.ChoiceIteratorNext(h); }
static inline const char *TessChoiceIteratorGetUTF8Text(const TessChoiceIterator *h) { return ink_tesseract.ChoiceIteratorGetUTF8Text(h); }
static inline float TessChoiceIteratorConfidence(const TessChoiceIterator *h) { return ink_tesseract.ChoiceIteratorConfidence(h); }

#endif
