/* The host side of the compiler's printf (src/driver/print_records.c) on
 * hand-made drains and a hand-made program image: conversions give C's
 * text, inactive slots are skipped, and malformed drains (bad record size,
 * a format address outside the image, too few words, a format that does
 * not end) give a notice line or stop at the record's end, never a read
 * outside the buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "print_records.h"

#define BASE 0x80001000u

/* the image: one segment holding the strings at BASE + their offset */
static uint8_t image[256];
static vt_elf_segment seg = {BASE, sizeof image, sizeof image, 4, image};
static vt_elf_file elf = {.segs = &seg, .nsegs = 1};

static char text[2048];
static size_t ntext;

static void collect(void *user, const char *s, size_t len) {
  (void)user;
  if (ntext + len < sizeof text) memcpy(text + ntext, s, len);
  ntext += len;
  text[ntext < sizeof text ? ntext : sizeof text - 1] = 0;
}

static uint32_t str_at(uint32_t off, const char *s) {
  memcpy(image + off, s, strlen(s) + 1);
  return BASE + off;
}

static void put(uint8_t *b, size_t word, uint32_t v) { memcpy(b + 4 * word, &v, 4); }

static uint32_t fbits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}

static const char *run(const uint8_t *buf, size_t len) {
  ntext = 0;
  text[0] = 0;
  vt_print_records(&elf, buf, len, collect, NULL);
  return text;
}

static void conversions(void **state) {
  (void)state;
  uint32_t fmt = str_at(0, "a=%d u=%u x=%#06x c=%c s=[%-5s] f=%.3f e=%e v=%v3hhd %% h=%hd end\n");
  uint32_t s = str_at(100, "hi");
  uint8_t b[4 + 3 * 52] = {0};
  put(b, 0, 52); /* record size: 13 words */
  /* slot 0: inactive; slot 1: a record; slot 2: inactive */
  size_t w = 1 + 13;
  put(b, w++, fmt);
  put(b, w++, (uint32_t)-42);
  put(b, w++, 4000000000u);
  put(b, w++, 0xbeef);
  put(b, w++, 'Z');
  put(b, w++, s);
  put(b, w++, fbits(3.14159f));
  put(b, w++, fbits(-0.5f));
  put(b, w++, 0xff);
  put(b, w++, 0x7f);
  put(b, w++, 0x180);
  put(b, w++, 0xffff8000u);
  char want[256];
  snprintf(want, sizeof want, "a=%d u=%u x=%#06x c=%c s=[%-5s] f=%.3f e=%e v=%hhd,%hhd,%hhd %% h=%hd end\n", -42,
           4000000000u, 0xbeef, 'Z', "hi", (double)3.14159f, -0.5, (signed char)-1, (signed char)127,
           (signed char)0x80, (short)-32768);
  assert_string_equal(run(b, sizeof b), want);
}

/* l conversions take two words, low first: longs and doubles, also in vectors */
static void wide_words(void **state) {
  (void)state;
  uint32_t fmt = str_at(0, "l=%ld u=%lu x=%lx g=%.17lg v=%v2lf e=%.2le end\n"); /* as the compiler writes it */
  uint8_t b[4 + 14 * 4] = {0};
  put(b, 0, 14 * 4);
  size_t w = 1;
  double d = 1.0 / 3, v0 = -2.5, v1 = 1e30, e = 6.02214076e23;
  uint64_t u[4];
  memcpy(&u[0], &d, 8);
  memcpy(&u[1], &v0, 8);
  memcpy(&u[2], &v1, 8);
  memcpy(&u[3], &e, 8);
  put(b, w++, fmt);
  put(b, w++, 0x00000001u); /* -0xffffffff as a long */
  put(b, w++, 0xffffffffu);
  put(b, w++, 0xffffffffu); /* 2^64 - 1 */
  put(b, w++, 0xffffffffu);
  put(b, w++, 0x89abcdefu);
  put(b, w++, 0x01234567u);
  put(b, w++, (uint32_t)u[0]);
  put(b, w++, (uint32_t)(u[0] >> 32));
  put(b, w++, (uint32_t)u[1]);
  put(b, w++, (uint32_t)(u[1] >> 32));
  put(b, w++, (uint32_t)u[2]);
  put(b, w++, (uint32_t)(u[2] >> 32));
  put(b, w++, (uint32_t)u[3]);
  char want[512];
  snprintf(want, sizeof want, "l=%lld u=%llu x=%llx g=%.17g v=%f,%f e=(missing argument) end\n", -0xffffffffLL,
           18446744073709551615ULL, 0x0123456789abcdefULL, d, v0, v1);
  assert_string_equal(run(b, sizeof b), want);
}

static void malformed(void **state) {
  (void)state;
  uint8_t b[64] = {0};
  put(b, 0, 6); /* not a multiple of 4 */
  assert_string_equal(run(b, sizeof b), "(printf: a drain of 64 bytes with record size 6, not a record)\n");
  assert_string_equal(run(b, 3), "(printf: a drain of 3 bytes with record size 0, not a record)\n");
  put(b, 0, 8);
  put(b, 1, 0x12345678); /* no such address in the image */
  assert_string_equal(run(b, 12), "(printf: no format string at 0x12345678)\n");
  /* three conversions, one word: the rest is missing */
  put(b, 1, str_at(120, "%d %d %v4d\n"));
  put(b, 2, 7);
  assert_string_equal(run(b, 12), "7 (missing argument) (missing argument)\n");
  /* a drain that ends inside a slot: the partial slot is not read */
  assert_string_equal(run(b, 10), "");
  /* a format running to the end of the image without a NUL: cut there */
  memset(image + 200, 'x', 56);
  put(b, 1, BASE + 200);
  assert_int_equal(strlen(run(b, 12)), 56);
  /* not conversions: printed as they are */
  put(b, 1, str_at(140, "%v5d %q %"));
  assert_string_equal(run(b, 12), "%v5d %q %");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(conversions), cmocka_unit_test(wide_words), cmocka_unit_test(malformed)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
