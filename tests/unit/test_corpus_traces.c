/* For every corpus launch that has a reference spike log, our commit trace
 * (trace_fmt) compared with it by trace-diff shows no difference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <unistd.h>

#include "corpus_cases.h"
#include "device.h"
#include "testvec.h"
#include "trace_diff.h"
#include "trace_fmt.h"

typedef struct {
  vt_trace_writer *tw;
  vt_device *d;
  FILE *f;
  char path[64];
} tctx;

static int begin(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i;
  tctx *t = user;
  if (!(t->f = fopen(t->path, "w"))) return vt_fail(e, VT_ERR_IO, "%s: cannot create", t->path);
  if (!(t->tw = vt_trace_writer_new(t->f))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  vt_trace_writer_begin(t->tw, t->d, l);
  return 0;
}

static int finish(tctx *t, vt_error *e) {
  int r = 0;
  if (t->tw) {
    r = vt_trace_writer_end(t->tw, t->d);
    vt_trace_writer_free(t->tw);
    t->tw = NULL;
  }
  if (t->f) {
    fclose(t->f);
    t->f = NULL;
  }
  return r ? vt_fail(e, VT_ERR_IO, "writing %s failed", t->path) : 0;
}

static int end(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i, (void)l;
  return finish(user, e);
}

static void trace_case(void **state) {
  const corpus_case *cc = *state;
  vt_error e;
  tctx t = {0};
  strcpy(t.path, "/tmp/vt_trace_XXXXXX");
  int fd = mkstemp(t.path);
  assert_true(fd >= 0);
  close(fd);
  t.d = corpus_device(cc);
  vt_case c;
  if (vt_case_open(cc->path, &c, &e)) fail_msg("%s: %s", cc->name, e.msg);
  size_t logs = 0, bad = 0;
  for (size_t i = 0; i < c.n; i++) {
    char msg[700];
    if (vt_case_run(&c, t.d, i, begin, end, &t, &e)) {
      finish(&t, &e);
      vt_err_format(&e, msg, sizeof msg);
      print_message("%s: launch %s: %s\n", cc->name, c.names[i], msg);
      bad++;
      break;
    }
    char ref[600];
    snprintf(ref, sizeof ref, "%s.log", c.stems[i]);
    if (access(ref, R_OK)) continue;
    logs++;
    vt_tdiff_opts o = {.max_report = 2};
    vt_tdiff_result r;
    if (vt_trace_diff_files(ref, t.path, &o, stdout, &r, &e)) {
      vt_err_format(&e, msg, sizeof msg);
      print_message("%s: launch %s: %s\n", cc->name, c.names[i], msg);
      bad++;
    } else if (r.differing) {
      print_message("%s: launch %s: %zu warps differ from %s\n", cc->name, c.names[i], r.differing, ref);
      bad++;
    }
  }
  unlink(t.path);
  vt_case_free(&c);
  vt_device_destroy(t.d);
  if (bad) fail_msg("%s: %zu launches differ from the reference trace", cc->name, bad);
  if (!logs) print_message("%s: no reference log\n", cc->name);
}

int main(void) { return corpus_run_group("corpus_traces", trace_case); }
