// Arithmetic kernels of the compiler's test suite (tests/cc/test_cc_kernels.c
// holds the plain-C references).

__kernel void vecadd(__global const float *a, __global const float *b, __global float *c, uint n) {
  uint i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void saxpy(__global const float *x, __global float *y, float a, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

// b is never 0, and never -1 where a is INT_MIN (the host picks the inputs)
__kernel void int_ops(__global const int *a, __global const int *b, __global int *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  int x = a[i], y = b[i];
  __global int *o = out + 10 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = x % y;
  o[5] = x >> (y & 31);
  o[6] = (int)((uint)x >> (y & 31));
  o[7] = (x << (y & 7)) ^ (x | y) & ~y;
  o[8] = (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * ((uint)x < (uint)y) + 16 * ((uint)x >= (uint)y);
  o[9] = x > y ? x - 3 : y + 5;
}

__kernel void uint_ops(__global const uint *a, __global const uint *b, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint x = a[i], y = b[i];
  __global uint *o = out + 6 * i;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = min(x, y);
  o[3] = max(x, y) - min(x, 100u);
  o[4] = (x > 1000u) ? x * 7u : y * 3u;
  o[5] = abs((int)x - (int)y);
}

__kernel void float_ops(__global const float *a, __global const float *b, __global float *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float x = a[i], y = b[i];
  __global float *o = out + 10 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = sqrt(fabs(x));
  o[5] = fmin(x, y) + 2.0f * fmax(x, y);
  o[6] = (float)(int)x + (float)(uint)fabs(y);
  o[7] = (x < y ? 1.0f : 0.0f) + (x >= y ? 2.0f : 0.0f) + (x == y ? 4.0f : 0.0f);
  o[8] = -x * 0.5f + 3.0f;
  o[9] = (float)(i * 3u) / 7.0f;
}

// OpenCL vector types: loads, stores, swizzles, element-wise arithmetic
__kernel void vec4(__global const float4 *a, __global const float4 *b, __global float4 *c, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float4 x = a[i], y = b[i];
  float4 z = x * y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  c[i] = z.wzyx + x.xxyy;
}

__kernel void int2_ops(__global const int2 *a, __global int *c, __global uchar4 *d, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  int2 v = a[i];
  c[i] = v.x * v.y - (v.x > v.y ? v.x : v.y);
  d[i] = (uchar4)((uchar)v.x, (uchar)v.y, (uchar)(v.x + v.y), 7);
}
