/* Every corpus case runs and its result memory equals the reference
 * (verilog-tc: expected_spike.txt after the kernels.txt sequence;
 * rtlsim-multiwg: <case>.expected.txt) bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "corpus_cases.h"
#include "device.h"
#include "testvec.h"

static void run_case(void **state) {
  const corpus_case *cc = *state;
  vt_config cfg;
  vt_config_defaults(&cfg);
  cfg.max_steps = 100000000u;
  cfg.warps_per_sm = 32; /* the ISS has no warp-slot limit: vecadd_64b32w32t has 32-warp groups */
  vt_error e;
  vt_device *d = vt_device_create(&cfg, &e);
  if (!d) fail_msg("%s: device: %s", cc->name, e.msg);
  vt_case c;
  if (vt_case_open(cc->path, &c, &e)) fail_msg("%s: %s", cc->name, e.msg);
  vt_memwords exp;
  if (vt_memwords_read(cc->expect, &exp, &e)) fail_msg("%s: %s", cc->name, e.msg);
  char msg[700];
  int bad = 0;
  for (size_t i = 0; i < c.n && !bad; i++)
    if (vt_case_run(&c, d, i, NULL, NULL, NULL, &e)) {
      vt_err_format(&e, msg, sizeof msg);
      bad = 1;
      print_message("%s: launch %s: %s\n", cc->name, c.names[i], msg);
    }
  if (!bad && vt_memwords_compare(d, &exp, cc->expect, &e)) {
    bad = 1;
    print_message("%s: %s\n", cc->name, e.msg);
  }
  vt_memwords_free(&exp);
  vt_case_free(&c);
  vt_device_destroy(d);
  if (bad) fail_msg("%s: result memory differs from the reference (see above)", cc->name);
}

static void no_corpus(void **state) {
  (void)state;
  printf("SKIP: ../shared/corpora not found\n");
  skip();
}

int main(void) {
  if (!corpus_present()) {
    const struct CMUnitTest t[] = {cmocka_unit_test(no_corpus)};
    return cmocka_run_group_tests_name("corpus_results", t, NULL, NULL);
  }
  corpus_case *cases;
  size_t n = corpus_cases(&cases);
  struct CMUnitTest *t = calloc(n, sizeof *t);
  for (size_t i = 0; i < n; i++) {
    t[i].name = cases[i].name;
    t[i].test_func = run_case;
    t[i].initial_state = &cases[i];
  }
  int r = _cmocka_run_group_tests("corpus_results", t, n, NULL, NULL);
  free(t);
  free(cases);
  return r;
}
