#include "COnnxRuntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Opaque ONNX Runtime types: only pointers to them pass through here.
typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtAllocator OrtAllocator;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtValue OrtValue;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtModelMetadata OrtModelMetadata;

// OrtApiBase: the one exported symbol's answer.
struct OrtApiBase {
  void *const *(*GetApi)(uint32_t version);
  const char *(*GetVersionString)(void);
};

// The API version asked for: the functions below all exist from 1.16 (version 16) on; a library
// older than that answers NULL.
enum { API_VERSION = 16 };

// Places in the OrtApi table (onnxruntime_c_api.h, `struct OrtApi`, counted from 0).
enum {
  GET_ERROR_MESSAGE = 2, CREATE_ENV = 3, DISABLE_TELEMETRY = 6, CREATE_SESSION = 7, RUN = 9,
  CREATE_SESSION_OPTIONS = 10, SET_GRAPH_OPTIMIZATION = 23, SET_INTRA_OP_THREADS = 24, SET_INTER_OP_THREADS = 25,
  SESSION_GET_INPUT_NAME = 36, SESSION_GET_OUTPUT_NAME = 37, CREATE_TENSOR_WITH_DATA = 49, GET_TENSOR_MUTABLE_DATA = 51,
  GET_DIMENSIONS_COUNT = 61, GET_DIMENSIONS = 62, GET_TENSOR_TYPE_AND_SHAPE = 65, CREATE_CPU_MEMORY_INFO = 69,
  ALLOCATOR_FREE = 76, GET_DEFAULT_ALLOCATOR = 78, RELEASE_ENV = 92, RELEASE_STATUS = 93, RELEASE_MEMORY_INFO = 94,
  RELEASE_SESSION = 95, RELEASE_VALUE = 96, RELEASE_TENSOR_TYPE_AND_SHAPE = 99, RELEASE_SESSION_OPTIONS = 100,
  SESSION_GET_MODEL_METADATA = 111, LOOKUP_CUSTOM_METADATA = 116, RELEASE_MODEL_METADATA = 118,
  ADD_SESSION_CONFIG_ENTRY = 130,
};

// Enumeration values of the C API used here.
enum { LOGGING_LEVEL_ERROR = 3, GRAPH_OPTIMIZATION_ALL = 99, ARENA_ALLOCATOR = 1, MEM_TYPE_DEFAULT = 0, TENSOR_FLOAT = 1 };

static void *const *api;
static const char *version;
static OrtEnv *env;
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

#define CALL(place, type) ((type)api[place])

typedef const char *(*error_message_fn)(const OrtStatus *);
typedef void (*release_fn)(void *);

static void release(int place, void *object) {
  if (object) CALL(place, release_fn)(object);
}

// Writes the status's message after `what` into `error`, releases the status; returns whether it was an error.
static int failed(OrtStatus *status, const char *what, char *error, size_t error_size) {
  if (!status) return 0;
  snprintf(error, error_size, "%s: %s", what, CALL(GET_ERROR_MESSAGE, error_message_fn)(status));
  release(RELEASE_STATUS, status);
  return 1;
}

const char *ink_ort_load(const char *path) {
  static char message[1024];
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(message, sizeof message, "%s", dlerror());
    return message;
  }
  const struct OrtApiBase *(*get_base)(void) = NULL;
  *(void **)(&get_base) = dlsym(library, "OrtGetApiBase");
  const struct OrtApiBase *base = get_base ? get_base() : NULL;
  void *const *table = base ? base->GetApi(API_VERSION) : NULL;
  if (!table) {
    snprintf(message, sizeof message, "%s is not ONNX Runtime 1.16 or later (no OrtGetApiBase, or no C API version %d)", path,
             API_VERSION);
    dlclose(library);
    return message;
  }
  // The first library loaded stays the one used; loading it again only counts a reference.
  if (api) {
    dlclose(library);
    return NULL;
  }
  api = table;
  version = base->GetVersionString();
  return NULL;
}

const char *ink_ort_version(void) { return api ? version : NULL; }

// The process's one environment, made with the first session.
static OrtEnv *shared_env(char *error, size_t error_size) {
  pthread_mutex_lock(&env_lock);
  if (!env) {
    typedef OrtStatus *(*create_env_fn)(int, const char *, OrtEnv **);
    if (!failed(CALL(CREATE_ENV, create_env_fn)(LOGGING_LEVEL_ERROR, "inkwell", &env), "ONNX Runtime cannot start", error,
                error_size)) {
      typedef OrtStatus *(*env_fn)(const OrtEnv *);
      OrtStatus *status = CALL(DISABLE_TELEMETRY, env_fn)(env);
      if (status) release(RELEASE_STATUS, status);
    }
  }
  OrtEnv *result = env;
  pthread_mutex_unlock(&env_lock);
  return result;
}

struct InkOrtSession {
  OrtSession *session;
  OrtMemoryInfo *memory;
  char *input;
  char *output;
};

void ink_ort_session_release(InkOrtSession *session) {
  if (!session) return;
  release(RELEASE_SESSION, session->session);
  release(RELEASE_MEMORY_INFO, session->memory);
  free(session->input);
  free(session->output);
  free(session);
}

// A name the session's allocator gave, copied with malloc and the original freed.
static char *copy_name(OrtAllocator *allocator, char *name) {
  char *copy = strdup(name);
  typedef OrtStatus *(*free_fn)(OrtAllocator *, void *);
  OrtStatus *status = CALL(ALLOCATOR_FREE, free_fn)(allocator, name);
  if (status) release(RELEASE_STATUS, status);
  return copy;
}

InkOrtSession *ink_ort_session_create(const char *path, char *error, size_t error_size) {
  if (!api) {
    snprintf(error, error_size, "ONNX Runtime is not loaded");
    return NULL;
  }
  OrtEnv *environment = shared_env(error, error_size);
  if (!environment) return NULL;
  InkOrtSession *result = calloc(1, sizeof *result);
  if (!result) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  OrtSessionOptions *options = NULL;
  typedef OrtStatus *(*options_fn)(OrtSessionOptions **);
  typedef OrtStatus *(*int_option_fn)(OrtSessionOptions *, int);
  typedef OrtStatus *(*entry_fn)(OrtSessionOptions *, const char *, const char *);
  typedef OrtStatus *(*create_session_fn)(const OrtEnv *, const char *, const OrtSessionOptions *, OrtSession **);
  typedef OrtStatus *(*allocator_fn)(OrtAllocator **);
  typedef OrtStatus *(*name_fn)(const OrtSession *, size_t, OrtAllocator *, char **);
  typedef OrtStatus *(*memory_fn)(int, int, OrtMemoryInfo **);
  OrtAllocator *allocator = NULL;
  char *name = NULL;
  int ok = !failed(CALL(CREATE_SESSION_OPTIONS, options_fn)(&options), "ONNX Runtime session options", error, error_size)
           && !failed(CALL(SET_INTRA_OP_THREADS, int_option_fn)(options, 1), "intra-op threads", error, error_size)
           && !failed(CALL(SET_INTER_OP_THREADS, int_option_fn)(options, 1), "inter-op threads", error, error_size)
           && !failed(CALL(SET_GRAPH_OPTIMIZATION, int_option_fn)(options, GRAPH_OPTIMIZATION_ALL), "graph optimisation",
                      error, error_size)
           && !failed(CALL(ADD_SESSION_CONFIG_ENTRY, entry_fn)(options, "session.intra_op.allow_spinning", "0"),
                      "thread spinning", error, error_size)
           && !failed(CALL(CREATE_SESSION, create_session_fn)(environment, path, options, &result->session), path, error,
                      error_size)
           && !failed(CALL(GET_DEFAULT_ALLOCATOR, allocator_fn)(&allocator), "allocator", error, error_size)
           && !failed(CALL(SESSION_GET_INPUT_NAME, name_fn)(result->session, 0, allocator, &name), "the model's input", error,
                      error_size)
           && (result->input = copy_name(allocator, name)) != NULL
           && !failed(CALL(SESSION_GET_OUTPUT_NAME, name_fn)(result->session, 0, allocator, &name), "the model's output",
                      error, error_size)
           && (result->output = copy_name(allocator, name)) != NULL
           && !failed(CALL(CREATE_CPU_MEMORY_INFO, memory_fn)(ARENA_ALLOCATOR, MEM_TYPE_DEFAULT, &result->memory),
                      "CPU memory", error, error_size);
  release(RELEASE_SESSION_OPTIONS, options);
  if (!ok) {
    ink_ort_session_release(result);
    return NULL;
  }
  return result;
}

char *ink_ort_session_metadata(InkOrtSession *session, const char *key, char *error, size_t error_size) {
  typedef OrtStatus *(*metadata_fn)(const OrtSession *, OrtModelMetadata **);
  typedef OrtStatus *(*allocator_fn)(OrtAllocator **);
  typedef OrtStatus *(*lookup_fn)(const OrtModelMetadata *, OrtAllocator *, const char *, char **);
  error[0] = 0;
  OrtModelMetadata *metadata = NULL;
  OrtAllocator *allocator = NULL;
  char *value = NULL, *copy = NULL;
  if (!failed(CALL(SESSION_GET_MODEL_METADATA, metadata_fn)(session->session, &metadata), "the model's metadata", error,
              error_size)
      && !failed(CALL(GET_DEFAULT_ALLOCATOR, allocator_fn)(&allocator), "allocator", error, error_size)
      && !failed(CALL(LOOKUP_CUSTOM_METADATA, lookup_fn)(metadata, allocator, key, &value), key, error, error_size)
      && value) {
    copy = copy_name(allocator, value);
  }
  release(RELEASE_MODEL_METADATA, metadata);
  return copy;
}

int ink_ort_run(InkOrtSession *session, const float *input, const int64_t *shape, size_t rank, float **output,
                int64_t *output_shape, size_t max_rank, size_t *output_rank, char *error, size_t error_size) {
  typedef OrtStatus *(*tensor_fn)(const OrtMemoryInfo *, void *, size_t, const int64_t *, size_t, int, OrtValue **);
  typedef OrtStatus *(*run_fn)(OrtSession *, const void *, const char *const *, const OrtValue *const *, size_t,
                               const char *const *, size_t, OrtValue **);
  typedef OrtStatus *(*shape_fn)(const OrtValue *, OrtTensorTypeAndShapeInfo **);
  typedef OrtStatus *(*count_fn)(const OrtTensorTypeAndShapeInfo *, size_t *);
  typedef OrtStatus *(*dims_fn)(const OrtTensorTypeAndShapeInfo *, int64_t *, size_t);
  typedef OrtStatus *(*data_fn)(OrtValue *, void **);
  size_t elements = 1;
  for (size_t i = 0; i < rank; i++) elements *= (size_t)shape[i];
  OrtValue *in = NULL, *out = NULL;
  OrtTensorTypeAndShapeInfo *info = NULL;
  void *data = NULL;
  size_t count = 0;
  *output = NULL;
  const char *input_names[] = {session->input};
  const char *output_names[] = {session->output};
  int ok = !failed(CALL(CREATE_TENSOR_WITH_DATA, tensor_fn)(session->memory, (void *)input, elements * sizeof(float), shape,
                                                            rank, TENSOR_FLOAT, &in),
                   "the input tensor", error, error_size)
           && !failed(CALL(RUN, run_fn)(session->session, NULL, input_names, (const OrtValue *const *)&in, 1, output_names, 1,
                                        &out),
                      "the model run", error, error_size)
           && !failed(CALL(GET_TENSOR_TYPE_AND_SHAPE, shape_fn)(out, &info), "the output's shape", error, error_size)
           && !failed(CALL(GET_DIMENSIONS_COUNT, count_fn)(info, &count), "the output's rank", error, error_size);
  if (ok && count > max_rank) {
    snprintf(error, error_size, "the model's output has %zu dimensions, more than %zu", count, max_rank);
    ok = 0;
  }
  ok = ok && !failed(CALL(GET_DIMENSIONS, dims_fn)(info, output_shape, count), "the output's dimensions", error, error_size)
       && !failed(CALL(GET_TENSOR_MUTABLE_DATA, data_fn)(out, &data), "the output's data", error, error_size);
  if (ok) {
    size_t total = 1;
    for (size_t i = 0; i < count; i++) total *= output_shape[i] > 0 ? (size_t)output_shape[i] : 0;
    *output = malloc(total ? total * sizeof(float) : 1);
    if (*output) {
      memcpy(*output, data, total * sizeof(float));
      *output_rank = count;
    } else {
      snprintf(error, error_size, "out of memory");
      ok = 0;
    }
  }
  release(RELEASE_TENSOR_TYPE_AND_SHAPE, info);
  release(RELEASE_VALUE, out);
  release(RELEASE_VALUE, in);
  return ok ? 0 : -1;
}
