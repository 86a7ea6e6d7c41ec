/* Configuration reader: the input is a config file ("key = value" lines).
 * A file that loads and passes the check is printed (text and JSON) and
 * must give a device, or a clean out-of-memory error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_write("fuzz.ini", data, size);
  char path[512];
  fz_path(path, sizeof path, "fuzz.ini");
  vt_config c;
  vt_config_defaults(&c);
  vt_error e = {0};
  if (vt_config_load(&c, path, &e) || vt_config_check(&c, &e)) return 0;
  FILE *null = fopen("/dev/null", "w");
  if (!null) abort();
  vt_config_print(&c, null);
  vt_config_print_json(&c, null);
  fclose(null);
  vt_device *d = vt_device_create(&c, &e);
  if (d) vt_device_destroy(d);
  else if (e.kind != VT_ERR_NOMEM && e.kind != VT_ERR_CONFIG) abort();
  return 0;
}
