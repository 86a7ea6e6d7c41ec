#include "run_view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argshow.h"

static int bad(int show, const char *spec) {
  fprintf(stderr,
          show ? "ventus run: --show %s: expected ARG[:COUNT[:TYPE]], TYPE u8|u16|u32|i32|f32"
               : "ventus run: --expect-arg %s: expected ARG[:TYPE]=FILE, TYPE u8|u16|u32|i32|f32",
          spec);
  fprintf(stderr, " (see 'ventus run --help')\n");
  return -1;
}

int run_view_parse(run_views *vs, int show, const char *spec) {
  if (vs->n == RUN_MAX_VIEWS) {
    fprintf(stderr, "ventus run: at most %d --show/--expect-arg options\n", RUN_MAX_VIEWS);
    return -1;
  }
  run_view w = {.show = show, .count = 16};
  const char *p = spec;
  char *end;
  errno = 0;
  unsigned long arg = strtoul(p, &end, 10);
  if (end == p || errno || arg > 0xffff) return bad(show, spec);
  w.arg = (uint32_t)arg;
  p = end;
  if (show && p[0] == ':' && p[1] != ':') {
    unsigned long cnt = strtoul(p + 1, &end, 10);
    if (end == p + 1 || cnt > 0xffffffffUL) return bad(show, spec);
    w.count = (uint32_t)cnt;
    p = end;
  }
  if (*p == ':') {
    size_t tl = strcspn(p + 1, "=");
    if (tl == 0 || tl >= sizeof w.type) return bad(show, spec);
    memcpy(w.type, p + 1, tl);
    if (!vt_type_size(w.type)) return bad(show, spec);
    p += 1 + tl;
  }
  if (show ? *p != 0 : (*p != '=' || !p[1])) return bad(show, spec);
  if (!show) w.path = p + 1;
  vs->v[vs->n++] = w;
  return 0;
}

int run_views_check(const run_views *vs, const vt_karg *args, size_t nargs, vt_error *e) {
  for (int k = 0; k < vs->n; k++) {
    const run_view *w = &vs->v[k];
    if (w->arg >= nargs)
      return vt_fail(e, VT_ERR_USAGE, "%s %u: there is no argument %u (%zu --arg given, numbered from 0)",
                     w->show ? "--show" : "--expect-arg", w->arg, w->arg, nargs);
    if (!w->show && args[w->arg].kind != VT_KARG_BUF)
      return vt_fail(e, VT_ERR_USAGE, "--expect-arg %u: argument %u is a scalar, not a buffer", w->arg, w->arg);
  }
  return 0;
}

int run_views_apply(const run_views *vs, vt_device *d, const vt_karg *args, char *summary, size_t len,
                    vt_error *e) {
  for (int k = 0; k < vs->n; k++) {
    const run_view *w = &vs->v[k];
    const vt_karg *a = &args[w->arg];
    const char *type = vt_karg_view_type(a, w->type[0] ? w->type : NULL);
    if (w->show) {
      if (vt_karg_show(d, a, w->arg, w->count, type, stdout, e)) return -1;
      continue;
    }
    size_t n = 0;
    if (vt_karg_expect(d, a, w->arg, type, w->path, &n, e)) return -1;
    size_t l = strlen(summary);
    snprintf(summary + l, len - l, ", arg%u: %zu %s values match", w->arg, n, type);
  }
  return 0;
}
