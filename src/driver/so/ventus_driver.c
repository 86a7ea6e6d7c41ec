/* libventus_driver.so: everything of src/driver (whole archive) behind the
 * public headers include/ventus.h (the upstream vt_* API) and
 * include/chengying.h (the native API). This file only names the library's
 * version for programs that dlopen it. */
#include "chengying.h"

const char *cy_version(void) { return "chengying 0.1"; }
