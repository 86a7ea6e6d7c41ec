#include "test_asm_words.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "asm.h"

void expect_words(const char *src, const uint32_t *want, int n) {
  uint32_t got[64];
  vt_error e = {0};
  int k = asm_words(src, 0x80000000u, got, 64, &e);
  if (k < 0) fail_msg("'%s': %s", src, e.msg);
  if (k != n) fail_msg("'%s': %d words, expected %d", src, k, n);
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("'%s' word %d: 0x%08x, expected 0x%08x", src, i, got[i], want[i]);
}
