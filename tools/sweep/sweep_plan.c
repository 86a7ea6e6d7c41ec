/* Expanding a sweep description into runs with stable ids. */
#include "sweep_plan.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device.h"
#include "vt_file.h"

uint64_t sw_fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static int hash_file(uint64_t *h, const char *path, vt_error *e) {
  size_t len;
  char *b = vt_read_file(path, &len, e);
  if (!b) return -1;
  *h = sw_fnv(*h, b, len);
  free(b);
  return 0;
}

/* The identity of what a kernel runs: the bytes of its ELF, of a case's
 * .metadata and .data, or of every file of a case directory. */
static int hash_target(uint64_t *h, const char *path, vt_error *e) {
  struct stat st;
  if (stat(path, &st)) return vt_fail(e, VT_ERR_IO, "%s: cannot be read", path);
  if (!S_ISDIR(st.st_mode)) {
    if (hash_file(h, path, e)) return -1;
    size_t n = strlen(path);
    if (n > 9 && !strcmp(path + n - 9, ".metadata")) {
      char *data = malloc(n);
      if (!data) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
      snprintf(data, n, "%.*s.data", (int)(n - 9), path);
      int rc = stat(data, &st) == 0 ? hash_file(h, data, e) : 0;
      free(data);
      return rc;
    }
    return 0;
  }
  struct dirent **ents;
  int n = scandir(path, &ents, NULL, alphasort);
  if (n < 0) return vt_fail(e, VT_ERR_IO, "%s: cannot be listed", path);
  int rc = 0;
  for (int i = 0; i < n; i++) {
    char *f = rc ? NULL : sw_path_join(path, ents[i]->d_name);
    if (!rc && !f) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    if (!rc && stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
      *h = sw_fnv(*h, ents[i]->d_name, strlen(ents[i]->d_name) + 1);
      rc = hash_file(h, f, e);
    }
    free(f);
    free(ents[i]);
  }
  free(ents);
  return rc;
}

static int has_key(const sw_settings *st, const char *key) {
  for (size_t i = 0; i < st->keys.n; i++)
    if (!strcmp(st->keys.v[i], key)) return 1;
  return 0;
}

static int set_push(sw_settings *st, const char *k, const char *v) {
  return sw_strs_push(&st->keys, k) || sw_strs_push(&st->values, v) ? -1 : 0;
}

static int set_append(sw_settings *dst, const sw_settings *src) {
  for (size_t i = 0; i < src->keys.n; i++)
    if (set_push(dst, src->keys.v[i], src->values.v[i])) return -1;
  return 0;
}

/* The overrides every run starts with: one host thread per run (the runs
 * themselves fill the CPUs) unless the description says otherwise, the
 * timing model, then [config]. */
static int base_settings(const sw_spec *s, int user_threads, sw_settings *st) {
  if (!user_threads && set_push(st, "host_threads", "1")) return -1;
  if (s->timing && set_push(st, "timing", "1")) return -1;
  return set_append(st, &s->config_set);
}

static int add_combo(sw_plan *pl, sw_settings *c) {
  sw_settings *n = realloc(pl->combos, (pl->ncombos + 1) * sizeof *n);
  if (!n) return -1;
  pl->combos = n;
  n[pl->ncombos++] = *c;
  memset(c, 0, sizeof *c);
  return 0;
}

static int make_combos(const sw_spec *s, sw_plan *pl) {
  int threads = has_key(&s->config_set, "host_threads");
  for (size_t i = 0; i < s->naxes; i++) threads |= !strcmp(s->axes[i].key, "host_threads");
  for (size_t i = 0; i < s->npoints; i++) threads |= has_key(&s->points[i], "host_threads");
  size_t *at = calloc(s->naxes + 1, sizeof *at);
  if (!at) return -1;
  int rc = 0;
  /* the cross product, the last axis varying fastest; one empty
   * configuration when there are neither axes nor points */
  if (s->naxes || s->npoints == 0)
    for (int more = 1; more && !rc;) {
      sw_settings c = {0};
      rc = base_settings(s, threads, &c);
      for (size_t i = 0; !rc && i < s->naxes; i++) rc = set_push(&c, s->axes[i].key, s->axes[i].values.v[at[i]]);
      if (!rc) rc = add_combo(pl, &c);
      sw_strs_free(&c.keys);
      sw_strs_free(&c.values);
      more = 0;
      for (size_t i = s->naxes; i-- > 0;) {
        if (++at[i] < s->axes[i].values.n) {
          more = 1;
          break;
        }
        at[i] = 0;
      }
    }
  pl->nproduct = s->naxes ? pl->ncombos : 0;
  for (size_t p = 0; !rc && p < s->npoints; p++) {
    sw_settings c = {0};
    rc = base_settings(s, threads, &c) || set_append(&c, &s->points[p]) || add_combo(pl, &c);
    sw_strs_free(&c.keys);
    sw_strs_free(&c.values);
  }
  free(at);
  return rc;
}

static int add_column(sw_strs *cols, const char *key) {
  for (size_t i = 0; i < cols->n; i++)
    if (!strcmp(cols->v[i], key)) return 0;
  return sw_strs_push(cols, key);
}

static int effective(const sw_plan *pl, const sw_settings *c, vt_config *cfg, vt_error *e) {
  *cfg = pl->base;
  for (size_t i = 0; i < c->keys.n; i++)
    if (vt_config_set(cfg, c->keys.v[i], c->values.v[i], e)) return -1;
  return vt_config_check(cfg, e);
}

static char *config_text(const vt_config *cfg, int json) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  if (json)
    vt_config_print_json(cfg, f);
  else
    vt_config_print(cfg, f);
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}

int sw_plan_effective(const sw_plan *pl, size_t c, char **json, sw_strs *values, vt_error *e) {
  vt_config cfg;
  *json = NULL;
  if (effective(pl, &pl->combos[c], &cfg, e)) return -1;
  char *text = config_text(&cfg, 0);
  if (!text || !(*json = config_text(&cfg, 1))) {
    free(text);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  /* the "key = value" lines give each column's effective value */
  for (size_t i = 0; i < pl->columns.n; i++) {
    const char *k = pl->columns.v[i], *v = "";
    size_t kl = strlen(k), vl = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
      if (!strncmp(l, k, kl) && !strncmp(l + kl, " = ", 3)) {
        v = l + kl + 3;
        vl = strcspn(v, "\n");
        break;
      }
    char *val = strndup(v, vl);
    if (!val || sw_strs_push(values, val)) {
      free(val);
      free(text);
      return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    }
    free(val);
  }
  free(text);
  return 0;
}

/* The hash of an effective configuration: its "key = value" lines that
 * differ from the built-in defaults. A simulator that gains a key (with a
 * default that changes nothing) keeps every id; a setting that differs
 * from the defaults, in the base file or the sweep, is part of it. */
static uint64_t hash_changed(const char *text, const char *defaults) {
  uint64_t h = SW_FNV_INIT;
  size_t dl = strlen(defaults);
  const char *at = defaults; /* the same printer: the same line is usually at the same place */
  for (const char *l = text; *l;) {
    size_t n = strcspn(l, "\n"), an = strcspn(at, "\n");
    int same = an == n && !memcmp(at, l, n);
    at += an + (at[an] == '\n');
    for (const char *d = defaults; !same && d < defaults + dl;) {
      size_t m = strcspn(d, "\n");
      same = m == n && !memcmp(d, l, n);
      d += m + (d[m] == '\n');
    }
    if (!same) h = sw_fnv(sw_fnv(h, l, n), "\n", 1);
    l += n + (l[n] == '\n');
  }
  return h;
}

/* open addressing over the ids seen, to drop a run given twice */
typedef struct {
  uint64_t *slot;
  size_t cap;
} idset;

static int idset_add(idset *s, uint64_t id) { /* 1 = new */
  id |= 1; /* 0 marks an empty slot */
  for (size_t i = id % s->cap;; i = (i + 1) % s->cap) {
    if (s->slot[i] == id) return 0;
    if (!s->slot[i]) {
      s->slot[i] = id;
      return 1;
    }
  }
}

int sw_plan_make(const sw_spec *s, char *const *target, sw_plan *pl, vt_error *e) {
  memset(pl, 0, sizeof *pl);
  vt_config_defaults(&pl->base);
  if (s->config && vt_config_load(&pl->base, s->config, e)) return -1; /* names its file and line */
  int rc = 0;
  if (make_combos(s, pl)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t i = 0; !rc && i < s->naxes; i++)
    if (add_column(&pl->columns, s->axes[i].key)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t p = 0; !rc && p < s->npoints; p++)
    for (size_t i = 0; !rc && i < s->points[p].keys.n; i++)
      if (add_column(&pl->columns, s->points[p].keys.v[i])) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (!rc && !(pl->target = calloc(s->nkernels, sizeof *pl->target))) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (!rc) pl->ntargets = s->nkernels;
  uint64_t *khash = rc ? NULL : calloc(s->nkernels, sizeof *khash);
  if (!rc && !khash) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t k = 0; !rc && k < s->nkernels; k++) {
    if (!(pl->target[k] = strdup(target[k]))) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    khash[k] = sw_fnv(SW_FNV_INIT, s->kernels[k].name, strlen(s->kernels[k].name) + 1);
    if (!rc) rc = hash_target(&khash[k], target[k], e);
    for (size_t i = 0; !rc && i < s->kernels[k].run.n; i++)
      khash[k] = sw_fnv(khash[k], s->kernels[k].run.v[i], strlen(s->kernels[k].run.v[i]) + 1);
  }
  /* per configuration: the hash of its effective values, or why it is refused */
  vt_config dcfg;
  vt_config_defaults(&dcfg);
  char *defaults = rc ? NULL : config_text(&dcfg, 0);
  uint64_t *chash = rc ? NULL : calloc(pl->ncombos, sizeof *chash);
  char **invalid = rc ? NULL : calloc(pl->ncombos, sizeof *invalid);
  if (!rc && (!chash || !invalid)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t c = 0; !rc && c < pl->ncombos; c++) {
    vt_config cfg;
    vt_error ce;
    const sw_settings *st = &pl->combos[c];
    if (effective(pl, st, &cfg, &ce)) {
      /* refused: the id hashes the overrides, and the run records why */
      char msg[420];
      vt_err_format(&ce, msg, sizeof msg);
      if (!(invalid[c] = strdup(msg))) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
      chash[c] = sw_fnv(SW_FNV_INIT, "refused", 8);
      for (size_t i = 0; i < st->keys.n; i++) {
        chash[c] = sw_fnv(chash[c], st->keys.v[i], strlen(st->keys.v[i]) + 1);
        chash[c] = sw_fnv(chash[c], st->values.v[i], strlen(st->values.v[i]) + 1);
      }
      continue;
    }
    char *text = config_text(&cfg, 0);
    if (!text || !defaults) {
      free(text);
      rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
      break;
    }
    chash[c] = hash_changed(text, defaults);
    free(text);
  }
  size_t total = rc ? 0 : s->nkernels * pl->ncombos;
  idset seen = {NULL, total * 2 + 1};
  if (!rc && (!(pl->runs = calloc(total ? total : 1, sizeof *pl->runs)) || !(seen.slot = calloc(seen.cap, 8))))
    rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t k = 0; !rc && k < s->nkernels; k++)
    for (size_t c = 0; !rc && c < pl->ncombos; c++) {
      uint64_t id = sw_fnv(khash[k], &chash[c], sizeof chash[c]);
      if (!idset_add(&seen, id)) continue; /* the same run twice (a point inside the product) */
      sw_run *r = &pl->runs[pl->nruns++];
      r->kernel = k;
      r->combo = c;
      snprintf(r->id, sizeof r->id, "%016llx", (unsigned long long)id);
      if (invalid[c] && !(r->invalid = strdup(invalid[c]))) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    }
  free(seen.slot);
  free(defaults);
  for (size_t c = 0; invalid && c < pl->ncombos; c++) free(invalid[c]);
  free(invalid);
  free(chash);
  free(khash);
  if (rc) sw_plan_free(pl);
  return rc;
}

void sw_plan_free(sw_plan *pl) {
  for (size_t c = 0; c < pl->ncombos; c++) {
    sw_strs_free(&pl->combos[c].keys);
    sw_strs_free(&pl->combos[c].values);
  }
  free(pl->combos);
  sw_strs_free(&pl->columns);
  for (size_t r = 0; r < pl->nruns; r++) free(pl->runs[r].invalid);
  free(pl->runs);
  for (size_t k = 0; pl->target && k < pl->ntargets; k++) free(pl->target[k]);
  free(pl->target);
  memset(pl, 0, sizeof *pl);
}

void sw_argv_free(char **argv) {
  for (size_t i = 0; argv && argv[i]; i++) free(argv[i]);
  free(argv);
}

char **sw_plan_argv(const sw_spec *s, const sw_plan *pl, size_t r, const char *exe) {
  const sw_run *run = &pl->runs[r];
  const sw_kernel *k = &s->kernels[run->kernel];
  const sw_settings *c = &pl->combos[run->combo];
  size_t n = 9 + 2 * c->keys.n + k->run.n, i = 0;
  char **v = calloc(n, sizeof *v);
  if (!v) return NULL;
  int bad = !(v[i++] = strdup(exe)) || !(v[i++] = strdup("run")) || !(v[i++] = strdup(pl->target[run->kernel]));
  if (!bad && s->config) bad = !(v[i++] = strdup("--config")) || !(v[i++] = strdup(s->config));
  for (size_t j = 0; !bad && j < c->keys.n; j++) {
    size_t len = strlen(c->keys.v[j]) + strlen(c->values.v[j]) + 2;
    bad = !(v[i++] = strdup("-c")) || !(v[i] = malloc(len));
    if (!bad) snprintf(v[i++], len, "%s=%s", c->keys.v[j], c->values.v[j]);
  }
  for (size_t j = 0; !bad && j < k->run.n; j++) bad = !(v[i++] = strdup(k->run.v[j]));
  /* --timing, not only timing=1: it also lowers the default step limit */
  if (!bad && s->timing) bad = !(v[i++] = strdup("--timing"));
  if (!bad) bad = !(v[i++] = strdup("--json")) || !(v[i++] = strdup("--quiet"));
  if (bad) {
    sw_argv_free(v);
    return NULL;
  }
  return v;
}
