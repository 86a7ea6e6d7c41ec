/* Execution of random instruction streams: the input's first byte picks
 * the launch shape (bit 6: ISA revision 2025), the rest is the code at 0x80000000 (a 64 KiB RWX
 * region) on a one-SM device with a data region, a print buffer and a
 * step limit. Whatever the guest does, the host must only touch the
 * simulated memory (ASan and UBSan watch every access) and the launch
 * must end: done, a device fault, a deadlock or the step limit. With bit 7
 * of the first byte the commit log is written and trace-diff must find it
 * equal to itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "fuzz_util.h"
#include "trace_diff.h"
#include "trace_fmt.h"

#define CODE_BASE 0x80000000u
#define CODE_SIZE 0x10000u
#define DATA_BASE 0x90000000u
#define DATA_SIZE 0x100000u
#define MAX_STEPS 4096

static void on_print(void *user, const char *text, size_t len) {
  volatile char *sink = user;
  for (size_t i = 0; i < len; i++) *sink ^= text[i]; /* every byte is readable */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t shape = data[0];
  size_t ncode = size - 1 > CODE_SIZE ? CODE_SIZE : size - 1;
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1;
  c.warps_per_sm = 4;
  c.wg_slots_per_sm = 2;
  c.simt_stack_depth = 8;
  c.max_steps = MAX_STEPS;
  c.barrier_counts_ended = (shape >> 4) & 1;
  c.isa = (shape >> 6) & 1 ? 2025 : 0; /* the ISA 2025 extensions too */
  vt_error e = {0};
  vt_device *d = vt_device_create(&c, &e);
  if (!d || vt_mem_map(d, CODE_BASE, CODE_SIZE, VT_PERM_RWX, &e) ||
      vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &e) ||
      (ncode && vt_mem_write(d, CODE_BASE, data + 1, (uint32_t)ncode, &e))) {
    fprintf(stderr, "fuzz_exec set-up: %s\n", e.msg);
    abort();
  }
  static const uint32_t threads[4] = {1, 4, 8, 32};
  vt_launch l = {
      .start_pc = CODE_BASE,
      .grid = {1 + (shape & 1), 1, 1},
      .num_threads = threads[(shape >> 1) & 3],
      .num_warps = 1 + ((shape >> 3) & 1),
      .knl = DATA_BASE + 0xff000,
      .lds_size = 0x1000,
      .pds_size = 0x100,
      .pds_base = DATA_BASE + 0x80000,
      .print_addr = (shape >> 5) & 1 ? DATA_BASE + 0x1000 : 0,
  };
  char sink = 0;
  vt_device_set_print(d, on_print, &sink);
  int traced = (shape >> 7) & 1;
  char log[512];
  fz_path(log, sizeof log, "exec.log");
  FILE *f = traced ? fopen(log, "w") : NULL;
  vt_trace_writer *w = f ? vt_trace_writer_new(f) : NULL;
  if (traced && !w) abort();
  if (w) vt_trace_writer_begin(w, d, &l);
  (void)vt_device_launch(d, &l, &e);
  /* a log that could not be written (full scratch disk) only loses the
   * check, and so does an empty one (a fault before the first commit):
   * trace-diff rightly calls a file without commit lines no log */
  if (w && vt_trace_writer_end(w, d) == 0 && fflush(f) == 0 && ftell(f) > 0) {
    vt_error we = {0};
    vt_tdiff_opts o = {.quiet = 1};
    vt_tdiff_result r = {0};
    if (vt_trace_diff_files(log, log, &o, NULL, &r, &we)) {
      fprintf(stderr, "trace-diff cannot read our own commit log: %s\n", we.msg);
      abort();
    }
    if (r.differing) {
      fprintf(stderr, "our own commit log differs from itself in %zu warps\n", r.differing);
      abort();
    }
  }
  vt_trace_writer_free(w);
  if (f) fclose(f);
  vt_device_destroy(d);
  return 0;
}
