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
  vt_error e;
  vt_device *d = corpus_device(cc);
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

int main(void) { return corpus_run_group("corpus_results", run_case); }
