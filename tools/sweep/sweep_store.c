/* The SQLite result store. */
#include "sweep_store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt_json.h"

struct sw_store {
  sqlite3 *db;
  char *path;
  sw_strs cols;      /* the table's columns */
  char *insert_sql;  /* the last INSERT and its statement: the runs of a */
  sqlite3_stmt *ins; /* sweep mostly have the same columns */
};

static const char *fixed_cols[] = {"id",     "sweep",    "kernel",      "status",      "error", "exit_code",
                                   "wall_s", "recorded", "config_json", "result_json", "output"};
#define NFIXED (sizeof fixed_cols / sizeof fixed_cols[0])

static int db_fail(sw_store *st, vt_error *e, const char *what) {
  return vt_fail(e, VT_ERR_IO, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

static int load_columns(sw_store *st, vt_error *e) {
  sqlite3_stmt *q;
  sw_strs_free(&st->cols);
  if (sqlite3_prepare_v2(st->db, "PRAGMA table_info(runs)", -1, &q, NULL)) return db_fail(st, e, "reading the table");
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW)
    if (sw_strs_push(&st->cols, (const char *)sqlite3_column_text(q, 1))) {
      sqlite3_finalize(q);
      return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    }
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : db_fail(st, e, "reading the table");
}

static int ensure_column(sw_store *st, const char *name, vt_error *e);

sw_store *sw_store_open(const char *path, vt_error *e) {
  sw_store *st = calloc(1, sizeof *st);
  if (!st || !(st->path = strdup(path))) {
    free(st);
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc == SQLITE_OK) sqlite3_busy_timeout(st->db, 30000);
  /* a write-ahead log, synced at checkpoints only: a run's row costs no
   * fsync of its own (a crash loses at most the last rows, which a resumed
   * sweep runs again) */
  if (rc == SQLITE_OK)
    sqlite3_exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
  /* a file that is not a database fails here, on its first read */
  if (rc != SQLITE_OK ||
      sqlite3_exec(st->db,
                   "CREATE TABLE IF NOT EXISTS runs(id TEXT PRIMARY KEY, sweep TEXT, kernel TEXT, status TEXT,"
                   " error TEXT, exit_code INTEGER, wall_s REAL, recorded TEXT, config_json TEXT, result_json TEXT,"
                   " output TEXT)",
                   NULL, NULL, NULL) != SQLITE_OK) {
    db_fail(st, e, "cannot open the store");
    sw_store_close(st);
    return NULL;
  }
  /* a store written by an older ventus may lack a fixed column */
  int rc2 = load_columns(st, e);
  for (size_t i = 0; !rc2 && i < NFIXED; i++) rc2 = ensure_column(st, fixed_cols[i], e);
  if (rc2) {
    sw_store_close(st);
    return NULL;
  }
  return st;
}

void sw_store_close(sw_store *st) {
  if (!st) return;
  sqlite3_finalize(st->ins);
  free(st->insert_sql);
  sqlite3_close(st->db);
  sw_strs_free(&st->cols);
  free(st->path);
  free(st);
}

char *sw_store_status(sw_store *st, const char *id, vt_error *e) {
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(st->db, "SELECT status FROM runs WHERE id = ?", -1, &q, NULL)) {
    db_fail(st, e, "reading a run");
    return NULL;
  }
  sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
  char *s = NULL;
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(q, 0);
    if (!(s = strdup(t ? t : ""))) vt_fail(e, VT_ERR_NOMEM, "out of memory");
  } else if (rc != SQLITE_DONE) {
    db_fail(st, e, "reading a run");
  } else {
    e->kind = VT_OK;
  }
  sqlite3_finalize(q);
  return s;
}

static int has(const sw_strs *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], s)) return 1;
  return 0;
}

/* identifiers are configuration keys and metric names; quoted anyway */
static int append(char **sql, size_t *len, const char *t) {
  size_t n = strlen(t);
  char *s = realloc(*sql, *len + n + 1);
  if (!s) return -1;
  memcpy(s + *len, t, n + 1);
  *sql = s;
  *len += n;
  return 0;
}

static int append_ident(char **sql, size_t *len, const char *name) {
  if (append(sql, len, "\"")) return -1;
  if (!strchr(name, '"')) {
    if (append(sql, len, name)) return -1;
  } else {
    for (const char *c = name; *c; c++) {
      char b[3] = {*c, *c == '"' ? '"' : 0, 0};
      if (append(sql, len, b)) return -1;
    }
  }
  return append(sql, len, "\"");
}

static int ensure_column(sw_store *st, const char *name, vt_error *e) {
  if (has(&st->cols, name)) return 0;
  char *sql = NULL;
  size_t len = 0;
  if (append(&sql, &len, "ALTER TABLE runs ADD COLUMN ") || append_ident(&sql, &len, name)) {
    free(sql);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
  free(sql);
  if (rc != SQLITE_OK) { /* another writer may have added it meanwhile */
    if (load_columns(st, e)) return -1;
    if (!has(&st->cols, name)) return db_fail(st, e, "adding a column");
    return 0;
  }
  return sw_strs_push(&st->cols, name) ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
}

/* A metric whose name is already a fixed or configuration column gets a
 * prefix, so nothing is overwritten. */
static void metric_col(const sw_row *r, const char *name, char *buf, size_t len) {
  int clash = has(r->columns, name);
  for (size_t i = 0; i < NFIXED; i++) clash |= !strcmp(fixed_cols[i], name);
  snprintf(buf, len, "%s%s", clash ? "stat_" : "", name);
}

static void bind_value(sqlite3_stmt *q, int i, const char *v) {
  char *end;
  long long n = strtoll(v, &end, 0);
  if (*v && !*end)
    sqlite3_bind_int64(q, i, n);
  else
    sqlite3_bind_text(q, i, v, -1, SQLITE_STATIC);
}

static int put(sw_store *st, const sw_row *r, vt_error *e);

/* one transaction for the new columns and the row */
int sw_store_put(sw_store *st, const sw_row *r, vt_error *e) {
  if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return db_fail(st, e, "recording a run");
  if (put(st, r, e)) {
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    vt_error le; /* the columns added are gone again; e keeps why */
    load_columns(st, &le);
    return -1;
  }
  if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return db_fail(st, e, "recording a run");
  return 0;
}

static int put(sw_store *st, const sw_row *r, vt_error *e) {
  size_t nm = r->metrics ? r->metrics->n : 0;
  char *sql = NULL;
  size_t len = 0;
  int bad = append(&sql, &len, "INSERT OR REPLACE INTO runs(");
  size_t ncol = 0;
  for (size_t i = 0; i < NFIXED; i++, ncol++) bad |= (ncol && append(&sql, &len, ",")) || append_ident(&sql, &len, fixed_cols[i]);
  for (size_t i = 0; i < r->columns->n; i++, ncol++) bad |= append(&sql, &len, ",") || append_ident(&sql, &len, r->columns->v[i]);
  for (size_t i = 0; i < nm; i++, ncol++) {
    char c[80];
    metric_col(r, r->metrics->v[i].name, c, sizeof c);
    bad |= append(&sql, &len, ",") || append_ident(&sql, &len, c);
  }
  bad |= append(&sql, &len, ") VALUES(");
  for (size_t i = 0; i < ncol; i++) bad |= append(&sql, &len, i ? ",?" : "?");
  bad |= append(&sql, &len, ")");
  if (bad) {
    free(sql);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  int rc = 0;
  if (!st->insert_sql || strcmp(st->insert_sql, sql)) { /* new columns, perhaps */
    for (size_t i = 0; i < r->columns->n; i++)
      if (ensure_column(st, r->columns->v[i], e)) {
        free(sql);
        return -1;
      }
    for (size_t i = 0; i < nm; i++) {
      char c[80];
      metric_col(r, r->metrics->v[i].name, c, sizeof c);
      if (ensure_column(st, c, e)) {
        free(sql);
        return -1;
      }
    }
    sqlite3_finalize(st->ins);
    st->ins = NULL;
    free(st->insert_sql);
    st->insert_sql = sql;
    rc = sqlite3_prepare_v2(st->db, sql, -1, &st->ins, NULL);
  } else {
    free(sql);
    sqlite3_reset(st->ins);
    sqlite3_clear_bindings(st->ins);
  }
  sqlite3_stmt *q = st->ins;
  if (rc) return db_fail(st, e, "recording a run");
  char when[32];
  time_t now = time(NULL);
  struct tm tm;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  int i = 1;
  sqlite3_bind_text(q, i++, r->id, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->sweep, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->kernel, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->status, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->error, -1, SQLITE_STATIC); /* NULL binds NULL */
  if (r->exit_code >= 0)
    sqlite3_bind_int(q, i++, r->exit_code);
  else
    sqlite3_bind_null(q, i++);
  sqlite3_bind_double(q, i++, r->wall);
  sqlite3_bind_text(q, i++, when, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(q, i++, r->config_json, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->result_json, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, i++, r->output, -1, SQLITE_STATIC);
  for (size_t k = 0; k < r->columns->n; k++) {
    if (r->values && k < r->values->n)
      bind_value(q, i++, r->values->v[k]);
    else
      sqlite3_bind_null(q, i++);
  }
  for (size_t k = 0; k < nm; k++) {
    double v = r->metrics->v[k].value;
    if (v == floor(v) && fabs(v) < 9e15)
      sqlite3_bind_int64(q, i++, (sqlite3_int64)v);
    else
      sqlite3_bind_double(q, i++, v);
  }
  rc = sqlite3_step(q);
  sqlite3_reset(q); /* no statement left active: the transaction can end */
  return rc == SQLITE_DONE ? 0 : db_fail(st, e, "recording a run");
}

static void csv_field(FILE *f, const char *t) {
  if (!t[strcspn(t, ",\"\r\n")] && t[0] != ' ') {
    fputs(t, f);
    return;
  }
  fputc('"', f);
  for (; *t; t++) {
    if (*t == '"') fputc('"', f);
    fputc(*t, f);
  }
  fputc('"', f);
}

static int is_json_col(const char *name) { return !strcmp(name, "config_json") || !strcmp(name, "result_json"); }

int sw_store_export(sw_store *st, char *const *ids, size_t n, int json, FILE *f, vt_error *e) {
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(st->db, "SELECT * FROM runs WHERE id = ?", -1, &q, NULL))
    return db_fail(st, e, "reading the runs");
  int ncol = sqlite3_column_count(q), rows = 0, rc = SQLITE_DONE;
  if (json) fputs("[", f);
  for (size_t r = 0; r < n; r++) {
    sqlite3_reset(q);
    sqlite3_bind_text(q, 1, ids[r], -1, SQLITE_STATIC);
    if ((rc = sqlite3_step(q)) == SQLITE_DONE) continue;
    if (rc != SQLITE_ROW) break;
    if (!json && rows == 0) { /* the header */
      for (int c = 0, k = 0; c < ncol; c++)
        if (!is_json_col(sqlite3_column_name(q, c))) {
          if (k++) fputc(',', f);
          csv_field(f, sqlite3_column_name(q, c));
        }
      fputc('\n', f);
    }
    fputs(json ? (rows ? ",\n {" : "\n {") : "", f);
    for (int c = 0, k = 0; c < ncol; c++) {
      const char *name = sqlite3_column_name(q, c);
      int type = sqlite3_column_type(q, c);
      const char *text = (const char *)sqlite3_column_text(q, c);
      if (!json && is_json_col(name)) continue;
      if (k++) fputs(json ? ", " : ",", f);
      if (json) {
        vt_json_str(f, is_json_col(name) ? (name[0] == 'c' ? "config" : "result") : name);
        fputs(": ", f);
      }
      if (type == SQLITE_NULL)
        fputs(json ? "null" : "", f);
      else if (type == SQLITE_INTEGER)
        fprintf(f, "%lld", (long long)sqlite3_column_int64(q, c));
      else if (type == SQLITE_FLOAT)
        fprintf(f, "%.10g", sqlite3_column_double(q, c));
      else if (json && is_json_col(name))
        fputs(text, f); /* JSON already */
      else if (json)
        vt_json_str(f, text);
      else
        csv_field(f, text);
    }
    fputs(json ? "}" : "\n", f);
    rows++;
    rc = SQLITE_DONE;
  }
  if (json) fputs(rows ? "\n]\n" : "]\n", f);
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : db_fail(st, e, "reading the runs");
}

struct sw_query {
  sqlite3_stmt *q;
};

sw_query *sw_store_metric_query(sw_store *st, const char *metric, vt_error *e) {
  if (!has(&st->cols, metric)) {
    vt_fail(e, VT_ERR_USAGE, "%s: no metric '%s' in the store", st->path, metric);
    return NULL;
  }
  char *sql = NULL;
  size_t len = 0;
  sw_query *q = calloc(1, sizeof *q);
  if (!q || append(&sql, &len, "SELECT ") || append_ident(&sql, &len, metric) ||
      append(&sql, &len, " FROM runs WHERE id = ? AND status = 'ok'")) {
    free(q);
    free(sql);
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  int rc = sqlite3_prepare_v2(st->db, sql, -1, &q->q, NULL);
  free(sql);
  if (rc) {
    db_fail(st, e, "reading a metric");
    free(q);
    return NULL;
  }
  return q;
}

int sw_query_get(sw_query *q, const char *id, double *v) {
  sqlite3_reset(q->q);
  sqlite3_bind_text(q->q, 1, id, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(q->q) != SQLITE_ROW || sqlite3_column_type(q->q, 0) == SQLITE_NULL) return 0;
  *v = sqlite3_column_double(q->q, 0);
  return 1;
}

void sw_query_free(sw_query *q) {
  if (!q) return;
  sqlite3_finalize(q->q);
  free(q);
}
