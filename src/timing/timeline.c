/* The warp-activity timeline: Chrome/Perfetto trace-event JSON (the
 * "traceEvents" array of complete "X" events; one process per SM, one
 * thread per warp slot, 1 cycle = 1 microsecond of the viewer's time
 * axis). Written as the launches run, so memory use does not grow with
 * them; only called when a timeline is set. */
#include <stdarg.h>

#include "timing_int.h"

int vt_timing_set_timeline(vt_timing *t, FILE *f) {
  t->tl = f;
  if (!f) return 0;
  fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time_unit\": \"1 us = 1 cycle\"}, \"traceEvents\": [\n", f);
  for (uint32_t s = 0; s <= t->cfg.num_sm; s++) {
    if (s == t->cfg.num_sm)
      fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"args\": {\"name\": \"launches\"}},\n", s);
    else
      fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"args\": {\"name\": \"SM %u\"}},\n", s, s);
    for (uint32_t w = 0; s < t->cfg.num_sm && w < t->cfg.warps_per_sm; w++)
      fprintf(f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"args\": {\"name\": \"slot %u\"}},\n",
              s, w, w);
  }
  /* one event closes the list so every later event can start with a comma-free line */
  fputs("{\"name\": \"timeline start\", \"ph\": \"i\", \"s\": \"g\", \"ts\": 0, \"pid\": 0, \"tid\": 0}", f);
  return ferror(f) ? -1 : 0;
}

int vt_timing_set_issue_log(vt_timing *t, FILE *f) {
  t->ilog = f;
  return f && ferror(f) ? -1 : 0;
}

int vt_timing_end_timeline(vt_timing *t) {
  FILE *f = t->tl;
  if (!f) return 0;
  fputs("\n]}\n", f);
  t->tl = NULL;
  return ferror(f) ? -1 : 0;
}

void tl_span(vt_timing *t, uint32_t pid, uint32_t tid, const char *cat, uint64_t from, uint64_t to, const char *args,
             const char *fmt, ...) {
  char name[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  fprintf(t->tl, ",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %llu, \"dur\": %llu, \"pid\": %u, \"tid\": %u%s%s%s}",
          name, cat, (unsigned long long)(t->tl_base + from), (unsigned long long)(to - from), pid, tid,
          args ? ", \"args\": {" : "", args ? args : "", args ? "}" : "");
}
