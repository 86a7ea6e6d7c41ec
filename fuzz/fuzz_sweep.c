/* Sweep description reader (tools/sweep, docs/sweeps.md): the input is a
 * description file in the scratch directory, so its relative paths reach
 * only the scratch files (the description itself, fuzz.ini, is a readable
 * "kernel"). A description that loads is walked whole; one that does not
 * must say why with its file and line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "sweep_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_write("fuzz.ini", data, size);
  char path[512];
  fz_path(path, sizeof path, "fuzz.ini");
  sw_spec s;
  vt_error e = {0};
  if (sw_spec_load(&s, path, &e)) {
    /* a format error names the file; others are I/O or memory */
    if (e.kind == VT_ERR_FORMAT && strncmp(e.msg, path, strlen(path))) abort();
    if (!e.msg[0]) abort();
    return 0;
  }
  size_t values = 0;
  for (size_t i = 0; i < s.naxes; i++) {
    if (s.axes[i].values.n == 0) abort(); /* an axis has values */
    values += s.axes[i].values.n;
  }
  for (size_t k = 0; k < s.nkernels; k++)
    if (!s.kernels[k].files.n) abort();
  if (!s.store || !s.name || !s.dir || (values && !s.naxes)) abort();
  sw_spec_free(&s);
  return 0;
}
