// libpq's C API, loaded on first use instead of linked: libpq and what it pulls in (OpenSSL,
// Kerberos, LDAP) would cost every command start-up time, and only `--index postgres://…` needs
// them. The declarations mirror <libpq-fe.h> (PostgreSQL 10 or later) with opaque pointers; each
// function is called through a pointer that ink_postgres_load() fills with dlsym.
#ifndef INK_CPOSTGRES_H
#define INK_CPOSTGRES_H

/// ConnStatusType's CONNECTION_OK and CONNECTION_BAD.
enum { INK_PG_CONNECTION_OK = 0, INK_PG_CONNECTION_BAD = 1 };
/// ExecStatusType's values that answer a statement.
enum { INK_PG_COMMAND_OK = 1, INK_PG_TUPLES_OK = 2 };
/// PQresultErrorField's field codes: the SQLSTATE and the primary message.
enum { INK_PG_DIAG_SQLSTATE = 'C', INK_PG_DIAG_MESSAGE_PRIMARY = 'M' };

struct InkPostgresAPI {
  void *(*connectdb_params)(const char *const *keywords, const char *const *values, int expand_dbname);
  int (*status)(const void *connection);
  char *(*error_message)(const void *connection);
  void (*finish)(void *connection);
  void *(*exec_params)(void *connection, const char *command, int count, const unsigned int *types,
                       const char *const *values, const int *lengths, const int *formats, int result_format);
  int (*result_status)(const void *result);
  char *(*result_error_field)(const void *result, int field);
  char *(*result_error_message)(const void *result);
  void (*clear)(void *result);
  int (*ntuples)(const void *result);
  int (*nfields)(const void *result);
  char *(*getvalue)(const void *result, int row, int field);
  int (*getisnull)(const void *result, int row, int field);
};

extern struct InkPostgresAPI ink_postgres;

/// Loads libpq once (thread-safe); NULL when loaded, else why it could not be (a static string).
const char *ink_postgres_load(void);

// The calls, through the pointers above (call only after ink_postgres_load() returned NULL).
static inline void *ink_pq_connect(const char *const *keywords, const char *const *values) {
  return ink_postgres.connectdb_params(keywords, values, 0);
}
static inline int ink_pq_is_open(const void *connection) { return ink_postgres.status(connection) == INK_PG_CONNECTION_OK; }
static inline const char *ink_pq_error_message(const void *connection) { return ink_postgres.error_message(connection); }
static inline void ink_pq_finish(void *connection) { ink_postgres.finish(connection); }
/// Runs `command` with `count` parameters in text form (NULL for SQL NULL) of the given type OIDs; rows come as text.
static inline void *ink_pq_exec(void *connection, const char *command, int count, const unsigned int *types,
                                const char *const *values) {
  return ink_postgres.exec_params(connection, command, count, types, values, 0, 0, 0);
}
/// True when `result` answers its statement (with or without rows), false when it reports an error.
static inline int ink_pq_succeeded(const void *result) {
  int status = ink_postgres.result_status(result);
  return status == INK_PG_COMMAND_OK || status == INK_PG_TUPLES_OK;
}
static inline const char *ink_pq_sqlstate(const void *result) { return ink_postgres.result_error_field(result, INK_PG_DIAG_SQLSTATE); }
static inline const char *ink_pq_primary_message(const void *result) {
  return ink_postgres.result_error_field(result, INK_PG_DIAG_MESSAGE_PRIMARY);
}
static inline const char *ink_pq_result_message(const void *result) { return ink_postgres.result_error_message(result); }
static inline void ink_pq_clear(void *result) { ink_postgres.clear(result); }
static inline int ink_pq_rows(const void *result) { return ink_postgres.ntuples(result); }
static inline int ink_pq_columns(const void *result) { return ink_postgres.nfields(result); }
/// The value at `row`, `column` as text, or NULL for SQL NULL.
static inline const char *ink_pq_value(const void *result, int row, int column) {
  return ink_postgres.getisnull(result, row, column) ? 0 : ink_postgres.getvalue(result, row, column);
}

#endif
