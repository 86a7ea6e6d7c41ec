/* Upstream test-vector readers: the input is up to four files split at
 * NUL bytes -- k.metadata, k.data, kernels.txt and an expected-words file
 * (`<address> <word>` lines). With a kernels.txt the case is the scratch
 * directory (its launches may name k again, or anything else), otherwise
 * k.metadata alone. Each launch is loaded, installed and run on a small
 * device under a step limit; then the expected words are read and
 * compared with device memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "fuzz_util.h"
#include "testvec.h"

#define MAX_LAUNCHES 4
#define MAX_STEPS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_part part[4];
  size_t np = fz_split(data, size, part, 4);
  fz_write("k.metadata", part[0].p, part[0].n);
  if (np > 1) fz_write("k.data", part[1].p, part[1].n);
  else fz_remove("k.data");
  char path[512];
  if (np > 2) {
    fz_write("kernels.txt", part[2].p, part[2].n);
    fz_path(path, sizeof path, "");
  } else {
    fz_remove("kernels.txt");
    fz_path(path, sizeof path, "k.metadata");
  }
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1;
  c.warps_per_sm = 4;
  c.wg_slots_per_sm = 2;
  c.max_steps = MAX_STEPS;
  vt_error e = {0};
  vt_device *d = vt_device_create(&c, &e);
  if (!d) abort();
  vt_case cs;
  if (vt_case_open(path, &cs, &e) == 0) {
    for (size_t i = 0; i < cs.n && i < MAX_LAUNCHES; i++)
      if (vt_case_run(&cs, d, i, NULL, NULL, NULL, &e)) break;
    vt_case_free(&cs);
  }
  if (np > 3) {
    fz_write("expected.txt", part[3].p, part[3].n);
    fz_path(path, sizeof path, "expected.txt");
    vt_memwords m;
    if (vt_memwords_read(path, &m, &e) == 0) {
      (void)vt_memwords_compare(d, &m, "expected", &e);
      vt_memwords_free(&m);
    }
  }
  vt_device_destroy(d);
  return 0;
}
