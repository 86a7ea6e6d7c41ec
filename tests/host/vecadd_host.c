/* A host program written against the upstream driver header only
 * (include/ventus.h), driving a launch the way the upstream OpenCL runtime
 * does (runtime.md §2.2–2.4): buffers from vt_buf_alloc, an argument block,
 * the 72-byte kernel metadata block, a private-memory region, the 12-field
 * launch record, vt_start + vt_ready_wait, and the results read back and
 * checked against C computed on the host.
 *   usage: vecadd_host KERNEL.elf ENTRY_ADDRESS   (exit 0 = all correct) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ventus.h"

#define N 1000u
#define LOCAL 32u /* work-items per group: 4 warps of 8 threads */
#define WF 8u

static int check(int rc, const char *what, vt_device_h d) {
  if (rc) fprintf(stderr, "vecadd_host: %s failed: %s\n", what, d ? vt_last_error(d) : "?");
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: vecadd_host KERNEL.elf ENTRY_ADDRESS\n");
    return 2;
  }
  uint32_t entry = (uint32_t)strtoul(argv[2], NULL, 0);
  vt_device_h d = NULL;
  if (check(vt_dev_open(&d), "vt_dev_open", NULL)) return 1;
  if (check(vt_upload_kernel_file(d, argv[1], 0), "vt_upload_kernel_file", d)) return 1;

  static float a[N], b[N], c[N];
  for (uint32_t i = 0; i < N; i++) {
    a[i] = (float)i * 0.25f;
    b[i] = 1000.0f / (float)(i + 1);
  }
  uint64_t da, db, dc, dargs, dknl, dpds;
  uint32_t groups = (N + LOCAL - 1) / LOCAL;
  uint64_t pds_size = 0x1000, pds_bytes = pds_size * LOCAL * groups;
  if (check(vt_buf_alloc(d, N * 4, &da, 0, 0, 0), "alloc A", d) ||
      check(vt_buf_alloc(d, N * 4, &db, 0, 0, 0), "alloc B", d) ||
      check(vt_buf_alloc(d, N * 4, &dc, 0, 0, 0), "alloc C", d) ||
      check(vt_buf_alloc(d, 16, &dargs, 0, 0, 0), "alloc args", d) ||
      check(vt_buf_alloc(d, 72, &dknl, 0, 0, 0), "alloc metadata", d) ||
      check(vt_buf_alloc(d, pds_bytes, &dpds, 0, 0, 0), "alloc private", d))
    return 1;
  uint32_t args[4] = {(uint32_t)da, (uint32_t)db, (uint32_t)dc, N};
  uint32_t knl[18] = {0};
  knl[0] = entry;          /* KNL_ENTRY */
  knl[1] = (uint32_t)dargs; /* KNL_ARG_BASE */
  knl[2] = 1;              /* work_dim */
  knl[3] = groups * LOCAL; /* global size x (padded) */
  knl[4] = knl[5] = 1;
  knl[6] = LOCAL;          /* local size x */
  knl[7] = knl[8] = 1;
  if (check(vt_copy_to_dev(d, da, a, N * 4, 0, 0), "copy A", d) ||
      check(vt_copy_to_dev(d, db, b, N * 4, 0, 0), "copy B", d) ||
      check(vt_copy_to_dev(d, dargs, args, sizeof args, 0, 0), "copy args", d) ||
      check(vt_copy_to_dev(d, dknl, knl, sizeof knl, 0, 0), "copy metadata", d))
    return 1;
  /* kernel_id, kernel_size[3], wf_size, wg_size, metaDataBaseAddr, ldsSize,
   * pdsSize, sgprUsage, vgprUsage, pdsBaseAddr */
  uint64_t meta[12] = {0, groups, 1, 1, WF, LOCAL / WF, dknl, 0x1000, pds_size, 64, 64, dpds};
  if (check(vt_start(d, meta, 0), "vt_start", d) || check(vt_ready_wait(d, 1000), "vt_ready_wait", d) ||
      check(vt_copy_from_dev(d, dc, c, N * 4, 0, 0), "copy C back", d))
    return 1;
  uint32_t bad = 0;
  for (uint32_t i = 0; i < N; i++) {
    float want = a[i] + b[i];
    if (memcmp(&want, &c[i], 4)) {
      if (bad++ < 5) fprintf(stderr, "vecadd_host: C[%u] = %a, want %a\n", i, (double)c[i], (double)want);
    }
  }
  /* a bad call fails with a message and leaves the device usable */
  if (vt_copy_from_dev(d, 0xf0000000u, c, 4, 0, 0) == 0 || !vt_last_error(d)[0]) {
    fprintf(stderr, "vecadd_host: an out-of-range copy did not fail\n");
    bad++;
  }
  if (check(vt_copy_from_dev(d, dc, c, 4, 0, 0), "copy after a failed call", d)) bad++;
  if (vt_one_buf_free(d, 0, &dpds, 0, 0) || vt_dev_close(d)) bad++;
  printf("vecadd_host: %u of %u results equal A + B\n", N - (bad > N ? N : bad), N);
  return bad ? 1 : 0;
}
