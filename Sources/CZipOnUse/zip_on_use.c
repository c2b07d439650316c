// Written by scripts/forwarders.py: do not edit. Every function of libzip the Swift sources
// and tests call, forwarding to the library, loaded on the first call (CLoadOnUse's ink_forwarded_library).
#include "CLoadOnUse.h"

#include <zip.h>

static struct {
  __typeof__(zip_close) *zip_close;
  __typeof__(zip_discard) *zip_discard;
  __typeof__(zip_error_fini) *zip_error_fini;
  __typeof__(zip_error_init) *zip_error_init;
  __typeof__(zip_error_init_with_code) *zip_error_init_with_code;
  __typeof__(zip_error_strerror) *zip_error_strerror;
  __typeof__(zip_fclose) *zip_fclose;
  __typeof__(zip_file_add) *zip_file_add;
  __typeof__(zip_file_strerror) *zip_file_strerror;
  __typeof__(zip_fopen_index) *zip_fopen_index;
  __typeof__(zip_fread) *zip_fread;
  __typeof__(zip_get_name) *zip_get_name;
  __typeof__(zip_get_num_entries) *zip_get_num_entries;
  __typeof__(zip_open) *zip_open;
  __typeof__(zip_open_from_source) *zip_open_from_source;
  __typeof__(zip_set_file_compression) *zip_set_file_compression;
  __typeof__(zip_source_buffer) *zip_source_buffer;
  __typeof__(zip_source_buffer_create) *zip_source_buffer_create;
  __typeof__(zip_source_file) *zip_source_file;
  __typeof__(zip_source_free) *zip_source_free;
  __typeof__(zip_stat_index) *zip_stat_index;
  __typeof__(zip_stat_init) *zip_stat_init;
  __typeof__(zip_strerror) *zip_strerror;
} zip_api;

static void resolve(void *handle);

static const char *const names[] = {"libzip.so.4", "libzip.so.5", "libzip.so", "libzip.5.dylib", "/opt/homebrew/lib/libzip.5.dylib", "/usr/local/lib/libzip.5.dylib"};
static struct ink_forwarded_library library = {names, sizeof names / sizeof *names, "libzip", "install libzip4", resolve, NULL};

static void resolve(void *handle) {
  ink_forwarded_resolve(&library, handle, "zip_close", (void **)&zip_api.zip_close);
  ink_forwarded_resolve(&library, handle, "zip_discard", (void **)&zip_api.zip_discard);
  ink_forwarded_resolve(&library, handle, "zip_error_fini", (void **)&zip_api.zip_error_fini);
  ink_forwarded_resolve(&library, handle, "zip_error_init", (void **)&zip_api.zip_error_init);
  ink_forwarded_resolve(&library, handle, "zip_error_init_with_code", (void **)&zip_api.zip_error_init_with_code);
  ink_forwarded_resolve(&library, handle, "zip_error_strerror", (void **)&zip_api.zip_error_strerror);
  ink_forwarded_resolve(&library, handle, "zip_fclose", (void **)&zip_api.zip_fclose);
  ink_forwarded_resolve(&library, handle, "zip_file_add", (void **)&zip_api.zip_file_add);
  ink_forwarded_resolve(&library, handle, "zip_file_strerror", (void **)&zip_api.zip_file_strerror);
  ink_forwarded_resolve(&library, handle, "zip_fopen_index", (void **)&zip_api.zip_fopen_index);
  ink_forwarded_resolve(&library, handle, "zip_fread", (void **)&zip_api.zip_fread);
  ink_forwarded_resolve(&library, handle, "zip_get_name", (void **)&zip_api.zip_get_name);
  ink_forwarded_resolve(&library, handle, "zip_get_num_entries", (void **)&zip_api.zip_get_num_entries);
  ink_forwarded_resolve(&library, handle, "zip_open", (void **)&zip_api.zip_open);
  ink_forwarded_resolve(&library, handle, "zip_open_from_source", (void **)&zip_api.zip_open_from_source);
  ink_forwarded_resolve(&library, handle, "zip_set_file_compression", (void **)&zip_api.zip_set_file_compression);
  ink_forwarded_resolve(&library, handle, "zip_source_buffer", (void **)&zip_api.zip_source_buffer);
  ink_forwarded_resolve(&library, handle, "zip_source_buffer_create", (void **)&zip_api.zip_source_buffer_create);
  ink_forwarded_resolve(&library, handle, "zip_source_file", (void **)&zip_api.zip_source_file);
  ink_forwarded_resolve(&library, handle, "zip_source_free", (void **)&zip_api.zip_source_free);
  ink_forwarded_resolve(&library, handle, "zip_stat_index", (void **)&zip_api.zip_stat_index);
  ink_forwarded_resolve(&library, handle, "zip_stat_init", (void **)&zip_api.zip_stat_init);
  ink_forwarded_resolve(&library, handle, "zip_strerror", (void **)&zip_api.zip_strerror);
}

int zip_close(zip_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_close(a0);
}

void zip_discard(zip_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  zip_api.zip_discard(a0);
}

void zip_error_fini(zip_error_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  zip_api.zip_error_fini(a0);
}

void zip_error_init(zip_error_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  zip_api.zip_error_init(a0);
}

void zip_error_init_with_code(zip_error_t *_Nonnull a0, int a1) {
  ink_forwarded_ensure(&library);
  zip_api.zip_error_init_with_code(a0, a1);
}

const char *_Nonnull zip_error_strerror(zip_error_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_error_strerror(a0);
}

int zip_fclose(zip_file_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_fclose(a0);
}

zip_int64_t zip_file_add(zip_t *_Nonnull a0, const char *_Nonnull a1, zip_source_t *_Nonnull a2, zip_flags_t a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_file_add(a0, a1, a2, a3);
}

const char *_Nonnull zip_file_strerror(zip_file_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_file_strerror(a0);
}

zip_file_t *_Nullable zip_fopen_index(zip_t *_Nonnull a0, zip_uint64_t a1, zip_flags_t a2) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_fopen_index(a0, a1, a2);
}

zip_int64_t zip_fread(zip_file_t *_Nonnull a0, void *_Nonnull a1, zip_uint64_t a2) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_fread(a0, a1, a2);
}

const char *_Nullable zip_get_name(zip_t *_Nonnull a0, zip_uint64_t a1, zip_flags_t a2) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_get_name(a0, a1, a2);
}

zip_int64_t zip_get_num_entries(zip_t *_Nonnull a0, zip_flags_t a1) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_get_num_entries(a0, a1);
}

zip_t *_Nullable zip_open(const char *_Nonnull a0, int a1, int *_Nullable a2) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_open(a0, a1, a2);
}

zip_t *_Nullable zip_open_from_source(zip_source_t *_Nonnull a0, int a1, zip_error_t *_Nullable a2) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_open_from_source(a0, a1, a2);
}

int zip_set_file_compression(zip_t *_Nonnull a0, zip_uint64_t a1, zip_int32_t a2, zip_uint32_t a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_set_file_compression(a0, a1, a2, a3);
}

zip_source_t *_Nullable zip_source_buffer(zip_t *_Nonnull a0, const void *_Nullable a1, zip_uint64_t a2, int a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_source_buffer(a0, a1, a2, a3);
}

zip_source_t *_Nullable zip_source_buffer_create(const void *_Nullable a0, zip_uint64_t a1, int a2, zip_error_t *_Nullable a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_source_buffer_create(a0, a1, a2, a3);
}

zip_source_t *_Nullable zip_source_file(zip_t *_Nonnull a0, const char *_Nonnull a1, zip_uint64_t a2, zip_int64_t a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_source_file(a0, a1, a2, a3);
}

void zip_source_free(zip_source_t *_Nullable a0) {
  ink_forwarded_ensure(&library);
  zip_api.zip_source_free(a0);
}

int zip_stat_index(zip_t *_Nonnull a0, zip_uint64_t a1, zip_flags_t a2, zip_stat_t *_Nonnull a3) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_stat_index(a0, a1, a2, a3);
}

void zip_stat_init(zip_stat_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  zip_api.zip_stat_init(a0);
}

const char *_Nonnull zip_strerror(zip_t *_Nonnull a0) {
  ink_forwarded_ensure(&library);
  return zip_api.zip_strerror(a0);
}
