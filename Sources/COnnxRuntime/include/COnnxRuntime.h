// ONNX Runtime's C API, loaded on first use instead of linked, as Tesseract is (CTesseract): only the
// commands that recognise need it, and it may be absent (then recognition is Tesseract's alone).
// ONNX Runtime ships no header with its PyPI wheel, so this target calls the few functions it needs
// through the function table `OrtGetApiBase()->GetApi(version)` returns, by their places in that
// table (the C API only ever appends to it), and offers Inkwell a small interface of its own: a
// session made from a model file with one intra-op thread, its metadata, and one float input → one
// float output runs.
#ifndef INK_CONNXRUNTIME_H
#define INK_CONNXRUNTIME_H

#include <stddef.h>
#include <stdint.h>

/// A loaded model: an ONNX Runtime session with its first input's and first output's names.
typedef struct InkOrtSession InkOrtSession;

/// Loads ONNX Runtime from `path` (a file, or a name the dynamic loader looks for) and checks that it
/// has the C API this target needs. Returns NULL on success, else a sentence saying what failed (static
/// storage; valid until the next call). The first library loaded stays the one used: a later call
/// only checks that its `path` loads. Not thread-safe: call it under a lock.
const char *ink_ort_load(const char *path);

/// The loaded library's version ("1.32.0"), or NULL before a successful load.
const char *ink_ort_version(void);

/// Opens the model at `path` with one intra-op and one inter-op thread (the caller's own threads are
/// the parallelism). Returns NULL and writes a sentence into `error` on failure. Thread-safe once loaded.
InkOrtSession *ink_ort_session_create(const char *path, char *error, size_t error_size);

void ink_ort_session_release(InkOrtSession *session);

/// The model's custom metadata value for `key`, malloc'd (free it), or NULL with `error` set (empty
/// when the key is simply absent).
char *ink_ort_session_metadata(InkOrtSession *session, const char *key, char *error, size_t error_size);

/// Runs the model on one float tensor of `rank` dimensions `shape`; on success returns 0, sets
/// `*output` to a malloc'd copy of the first output (free it), its dimensions into `output_shape`
/// (room for `max_rank`) and its rank into `*output_rank`. On failure returns -1 and writes `error`.
/// Concurrent runs of one session from several threads are allowed.
int ink_ort_run(InkOrtSession *session, const float *input, const int64_t *shape, size_t rank, float **output,
                int64_t *output_shape, size_t max_rank, size_t *output_rank, char *error, size_t error_size);

#endif
