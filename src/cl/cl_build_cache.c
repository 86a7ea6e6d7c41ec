/* The build cache of a context: clBuildProgram on the same source with the
 * same options gives the same image, so the second build takes it from
 * here instead of running clang and the back end again (applications and
 * test suites build one program per test, often the same one). Keyed by
 * the exact source and options; the compiler is one module loaded once
 * for the life of the process, so its version is fixed within a context.
 * Only successful builds are kept, at most CY_CACHE_MAX, the oldest
 * dropped first. Called with the context's lock held. */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

#define CY_CACHE_MAX 32

struct cy_build_cache {
  struct cy_cache_entry {
    char *source, *options, *log;
    uint8_t *image;
    size_t size;
  } e[CY_CACHE_MAX];
  int n;
};

static void entry_free(struct cy_cache_entry *x) {
  free(x->source);
  free(x->options);
  free(x->log);
  free(x->image);
}

void cy_build_cache_free(cy_build_cache *c) {
  if (!c) return;
  for (int i = 0; i < c->n; i++) entry_free(&c->e[i]);
  free(c);
}

static char *dup_bytes(const void *p, size_t n) {
  char *d = malloc(n ? n : 1);
  if (d && n) memcpy(d, p, n);
  return d;
}

int cy_build_cache_get(cl_context ctx, const char *source, const char *options, uint8_t **image, size_t *size,
                       char **log) {
  cy_build_cache *c = ctx->cache;
  for (int i = 0; c && i < c->n; i++) {
    struct cy_cache_entry *x = &c->e[i];
    if (strcmp(x->source, source) || strcmp(x->options, options)) continue;
    *image = (uint8_t *)dup_bytes(x->image, x->size);
    *log = dup_bytes(x->log, strlen(x->log) + 1);
    if (!*image || !*log) {
      free(*image);
      free(*log);
      return 0; /* out of memory: build it again */
    }
    *size = x->size;
    return 1;
  }
  return 0;
}

void cy_build_cache_put(cl_context ctx, const char *source, const char *options, const uint8_t *image, size_t size,
                        const char *log) {
  if (!ctx->cache && !(ctx->cache = calloc(1, sizeof *ctx->cache))) return; /* no cache: only slower */
  cy_build_cache *c = ctx->cache;
  struct cy_cache_entry x = {dup_bytes(source, strlen(source) + 1), dup_bytes(options, strlen(options) + 1),
                             dup_bytes(log, strlen(log) + 1), (uint8_t *)dup_bytes(image, size), size};
  if (!x.source || !x.options || !x.log || !x.image) {
    entry_free(&x);
    return;
  }
  if (c->n == CY_CACHE_MAX) {
    entry_free(&c->e[0]);
    memmove(c->e, c->e + 1, (CY_CACHE_MAX - 1) * sizeof *c->e);
    c->n--;
  }
  c->e[c->n++] = x;
}
