/* check_exp: vfexp.v's whole-register path (fp32_lanes_exp) against
 * fp32_exp, the reference's (float)exp((double)x), on every binary32 input
 * (or a range of bit patterns): results lane by lane in registers of 32
 * consecutive inputs, the flags of each register, and the flags of each
 * input alone. Also counts the inputs inside the approximation's domain
 * whose approximation lies near a rounding midpoint (the lanes handed to
 * libm), and with --error measures its worst relative error against
 * expl. Run by hand (all inputs: a few minutes on one core); the unit
 * test test_fp32_lanes_exp samples the same comparisons. Exit status 0 if
 * everything matched, 1 on a mismatch, 2 for a bad option. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp32.h"
#include "fp32_lanes.h"

static void usage(FILE *f) {
  fprintf(f, "usage: check_exp [--from HEX] [--to HEX] [--error]\n"
             "  --from HEX  first input bit pattern (default 0)\n"
             "  --to HEX    last input bit pattern (default ffffffff)\n"
             "  --error     also measure the approximation's relative error against expl\n"
             "              (slower)\n"
             "exit status: 0 every input matched fp32_exp, 1 a mismatch, 2 usage, 4 the host\n"
             "does not round to nearest\n");
}

static int parse_hex(const char *s, uint32_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 16);
  if (!*s || *end || v > 0xFFFFFFFFull) return -1;
  *out = (uint32_t)v;
  return 0;
}

typedef struct {
  uint64_t inputs, bad_result, bad_flags, domain, near;
  double worst;
  uint32_t worst_at;
} tally;

/* one register of n inputs starting at a[0] */
static void check(const uint32_t *a, unsigned n, int error, tally *t) {
  uint32_t r[32], fb = 0, fs = 0;
  fp32_lanes_exp(r, a, n, &fb);
  for (unsigned i = 0; i < n; i++) {
    uint32_t f = 0, want = fp32_exp(a[i], &f), one, f1 = 0;
    fs |= f;
    fp32_lanes_exp(&one, a + i, 1, &f1);
    if (r[i] != want || one != want) {
      if (t->bad_result++ < 10)
        fprintf(stderr, "check_exp: %08" PRIx32 ": %08" PRIx32 ", fp32_exp %08" PRIx32 "\n", a[i],
                r[i], want);
    }
    if (f1 != f && t->bad_flags++ < 10)
      fprintf(stderr, "check_exp: %08" PRIx32 ": flags %" PRIx32 ", fp32_exp %" PRIx32 "\n", a[i],
              f1, f);
    if ((a[i] & 0x7FFFFFFFu) >= 0x42AE0000u) continue; /* outside the domain */
    t->domain++;
    float x;
    memcpy(&x, &a[i], sizeof x);
    double y = fp32_exp_approx(x);
    uint64_t b;
    memcpy(&b, &y, sizeof b);
    int32_t dist = (int32_t)(b & 0x1FFFFFFFu) - (1 << 28);
    t->near += dist >= -(1 << 17) && dist <= (1 << 17);
    if (error) {
      long double want_l = expl((long double)x);
      double e = (double)fabsl(((long double)y - want_l) / want_l);
      if (e > t->worst) {
        t->worst = e;
        t->worst_at = a[i];
      }
    }
  }
  if (fb != fs && t->bad_flags++ < 10)
    fprintf(stderr,
            "check_exp: register at %08" PRIx32 ": flags %" PRIx32 ", fp32_exp %" PRIx32 "\n", a[0],
            fb, fs);
  t->inputs += n;
}

int main(int argc, char **argv) {
  uint32_t from = 0, to = 0xFFFFFFFFu;
  int error = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--error")) {
      error = 1;
    } else if ((!strcmp(argv[i], "--from") || !strcmp(argv[i], "--to")) && i + 1 < argc) {
      if (parse_hex(argv[i + 1], argv[i][2] == 'f' ? &from : &to)) {
        fprintf(stderr, "check_exp: %s: not a 32-bit hexadecimal number: %s\n", argv[i],
                argv[i + 1]);
        return 2;
      }
      i++;
    } else {
      fprintf(stderr, "check_exp: unknown option or missing value: %s\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (from > to) {
    fprintf(stderr, "check_exp: --from %08" PRIx32 " is above --to %08" PRIx32 "\n", from, to);
    return 2;
  }
  if (!fp32_host_rne()) {
    fprintf(stderr, "check_exp: the host does not round to nearest\n");
    return 4;
  }
  tally t = {0};
  for (uint64_t base = from; base <= to; base += 32) {
    uint32_t a[32];
    unsigned n = 0;
    while (n < 32 && base + n <= to) {
      a[n] = (uint32_t)(base + n);
      n++;
    }
    check(a, n, error, &t);
  }
  printf("inputs %08" PRIx32 "..%08" PRIx32 ": %" PRIu64 ", results differing %" PRIu64
         ", flags differing %" PRIu64 "\n",
         from, to, t.inputs, t.bad_result, t.bad_flags);
  printf("in the approximation's domain (|x| < 87): %" PRIu64
         ", near a midpoint (to libm): %" PRIu64 "\n",
         t.domain, t.near);
  if (error)
    printf("worst relative error of the approximation: %.4g at %08" PRIx32 " (bound 1.3838e-11)\n",
           t.worst, t.worst_at);
  return t.bad_result || t.bad_flags ? 1 : 0;
}
