#include "CPostgres.h"

#include "CLoadOnUse.h"

#include <pthread.h>
#include <stdio.h>

struct InkPostgresAPI ink_postgres;

static const char *load_error = "not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Where the library is on Debian/Ubuntu, Fedora and Homebrew; the first name that loads wins.
static const char *const library_names[] = {
  "libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
};

static void load(void) {
  static char message[512];
  char first_error[256];
  void *library = ink_load_first(library_names, sizeof library_names / sizeof *library_names, first_error, sizeof first_error);
  if (!library) {
    snprintf(message, sizeof message, "libpq is not installed (libpq.so.5 cannot be loaded: %s); install libpq5", first_error);
    load_error = message;
    return;
  }
#define RESOLVE(field, symbol) INK_RESOLVE(ink_postgres, field, symbol, "libpq", "PostgreSQL 10's or later is needed")
  RESOLVE(connectdb_params, PQconnectdbParams);
  RESOLVE(status, PQstatus);
  RESOLVE(error_message, PQerrorMessage);
  RESOLVE(finish, PQfinish);
  RESOLVE(exec_params, PQexecParams);
  RESOLVE(result_status, PQresultStatus);
  RESOLVE(result_error_field, PQresultErrorField);
  RESOLVE(result_error_message, PQresultErrorMessage);
  RESOLVE(clear, PQclear);
  RESOLVE(ntuples, PQntuples);
  RESOLVE(nfields, PQnfields);
  RESOLVE(getvalue, PQgetvalue);
  RESOLVE(getisnull, PQgetisnull);
#undef RESOLVE
  load_error = NULL;
}

const char *ink_postgres_load(void) {
  pthread_once(&once, load);
  return load_error;
}
