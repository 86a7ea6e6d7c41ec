/* Plain-C reference computations of the example kernels in kernels/examples.
 * Each function computes exactly what the kernel writes, so a test can run
 * the kernel on the simulator and compare word for word. */
#ifndef VT_REF_KERNELS_H
#define VT_REF_KERNELS_H

#include <stdint.h>

/* vecadd.S: c[i] = a[i] + b[i] for i < n (fp32, round to nearest). */
void ref_vecadd(const float *a, const float *b, float *c, uint32_t n);

/* matmul.S: c (m x n) = a (m x k) * b (k x n), row-major int32, wrapping. */
void ref_matmul(const int32_t *a, const int32_t *b, int32_t *c, uint32_t m, uint32_t k,
                uint32_t n);

/* reduce.S: out[g] = sum of in[i], i in [g*local_size, (g+1)*local_size) and
 * i < n, for g < num_groups (int32, wrapping). */
void ref_reduce(const int32_t *in, int32_t *out, uint32_t n, uint32_t local_size,
                uint32_t num_groups);

/* Steps of the Collatz iteration from x until x <= 1 (uint32, wrapping). */
uint32_t ref_collatz_steps(uint32_t x);

/* diverge.S: out[i] = steps*4 + cls for i < n, with steps =
 * ref_collatz_steps(in[i]) and cls = steps < 8 ? (i odd ? 1 : 2)
 *                                             : (steps >= 32 ? 3 : 0). */
void ref_diverge(const uint32_t *in, uint32_t *out, uint32_t n);

#endif
