/* The common rules of the clGet*Info functions. */
#include <string.h>

#include "cl_api.h"

cl_int cy_info(size_t want, void *dst, size_t *ret, const void *src, size_t size) {
  if (dst && want < size) return CL_INVALID_VALUE;
  if (dst && size) memcpy(dst, src, size);
  if (ret) *ret = size;
  return CL_SUCCESS;
}

cl_int cy_info_str(size_t want, void *dst, size_t *ret, const char *s) {
  return cy_info(want, dst, ret, s, strlen(s) + 1);
}
