/* Assemble one source string at 0x80000000 and compare its words. */
#ifndef VT_TEST_ASM_WORDS_H
#define VT_TEST_ASM_WORDS_H

#include <stdint.h>

/* Fails the current test unless src assembles to exactly want[0..n). */
void expect_words(const char *src, const uint32_t *want, int n);

#define EXPECT(src, ...)                                             \
  do {                                                               \
    static const uint32_t w_[] = {__VA_ARGS__};                      \
    expect_words(src, w_, (int)(sizeof w_ / sizeof w_[0]));          \
  } while (0)

#endif
