/* Reference computations of the example kernels (see ref_kernels.h). */
#include "ref_kernels.h"

void ref_vecadd(const float *a, const float *b, float *c, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

void ref_matmul(const int32_t *a, const int32_t *b, int32_t *c, uint32_t m, uint32_t k,
                uint32_t n) {
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      uint32_t acc = 0; /* unsigned: wraps like the device, no UB */
      for (uint32_t p = 0; p < k; p++)
        acc += (uint32_t)a[(uint64_t)i * k + p] * (uint32_t)b[(uint64_t)p * n + j];
      c[(uint64_t)i * n + j] = (int32_t)acc;
    }
}

void ref_reduce(const int32_t *in, int32_t *out, uint32_t n, uint32_t local_size,
                uint32_t num_groups) {
  for (uint32_t g = 0; g < num_groups; g++) {
    uint32_t acc = 0;
    for (uint32_t l = 0; l < local_size; l++) {
      uint64_t i = (uint64_t)g * local_size + l;
      if (i < n) acc += (uint32_t)in[i];
    }
    out[g] = (int32_t)acc;
  }
}

uint32_t ref_collatz_steps(uint32_t x) {
  uint32_t steps = 0;
  while (x > 1) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    steps++;
  }
  return steps;
}

void ref_diverge(const uint32_t *in, uint32_t *out, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t steps = ref_collatz_steps(in[i]);
    uint32_t cls = steps < 8 ? ((i & 1) ? 1 : 2) : (steps >= 32 ? 3 : 0);
    out[i] = steps * 4 + cls;
  }
}
