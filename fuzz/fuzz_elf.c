/* ELF reader and the runtime kernel loader: the input is an ELF file,
 * read from memory (every section, segment and symbol is walked), then
 * from a file by the driver's loader into a small device, and the kernel
 * symbol looked up. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "elf_load.h"
#include "fuzz_util.h"
#include "vt_elf.h"

static unsigned sum_bytes(const uint8_t *p, uint32_t n) {
  unsigned s = 0;
  for (uint32_t i = 0; p && i < n; i++) s += p[i]; /* ASan checks every byte is inside */
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vt_elf_file f;
  vt_error e = {0};
  volatile unsigned sink = 0;
  if (vt_elf_read_mem(data, size, &f, &e) == 0) {
    for (size_t i = 0; i < f.nsecs; i++) {
      sink += sum_bytes(f.secs[i].data, f.secs[i].data ? f.secs[i].size : 0);
      if (f.secs[i].name) (void)vt_elf_find_section(&f, f.secs[i].name);
    }
    for (size_t i = 0; i < f.nsegs; i++) sink += sum_bytes(f.segs[i].bytes, f.segs[i].filesz);
    for (size_t i = 0; i < f.nsyms; i++)
      if (f.syms[i].name) (void)vt_elf_find_symbol(&f, f.syms[i].name);
    vt_elf_free(&f);
  }
  char path[512];
  fz_path(path, sizeof path, "k.elf");
  fz_write("k.elf", data, size);
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1;
  c.warps_per_sm = 2;
  c.wg_slots_per_sm = 1;
  vt_device *d = vt_device_create(&c, &e);
  if (!d) abort();
  vt_kernel_image img;
  (void)vt_kernel_load(d, path, &img, &e);
  uint32_t addr;
  (void)vt_kernel_symbol(path, "main", &addr, &e);
  vt_device_destroy(d);
  (void)sink;
  return 0;
}
