// Builtin functions of the compiler's test suite (references in
// tests/cc/test_cc_kernels.c).

// rounding builtins, scalar (uniform argument) and per work-item
__kernel void rounding(__global const float *in, __global float *out, float u, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float x = in[i];
  __global float *o = out + 10 * i;
  o[0] = floor(x);
  o[1] = ceil(x);
  o[2] = trunc(x);
  o[3] = rint(x);
  o[4] = round(x);
  o[5] = floor(u);
  o[6] = ceil(u);
  o[7] = trunc(u);
  o[8] = rint(u);
  o[9] = round(u);
}

// one-instruction math builtins and integer helpers
__kernel void math1(__global const float *a, __global const int *b, __global float *out, __global int *iout,
                    uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float x = a[i];
  int k = b[i];
  __global float *o = out + 8 * i;
  o[0] = sqrt(fabs(x));
  o[1] = fma(x, 3.0f, -1.0f);
  o[2] = fmin(x, 0.25f);
  o[3] = fmax(x, -0.25f);
  o[4] = copysign(2.0f, x);
  o[5] = native_recip(x);
  o[6] = native_divide(1.0f, x);
  o[7] = rsqrt(fabs(x) + 1.0f);
  __global int *p = iout + 4 * i;
  p[0] = min(k, 17);
  p[1] = max(k, -3);
  p[2] = abs(k);
  p[3] = (int)max((uint)k, 1000u);
}

// clamp on int, uint and float, per work-item and uniform
__kernel void clamps(__global const int *a, __global const float *f, __global int *out, __global float *fout,
                     int lo, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  out[3 * i] = clamp(a[i], lo, 50);
  out[3 * i + 1] = (int)clamp((uint)a[i], 10u, 3000u);
  out[3 * i + 2] = clamp(lo * 3, -20, 20);
  fout[2 * i] = clamp(f[i], -1.5f, 2.25f);
  fout[2 * i + 1] = clamp((float)lo, 0.0f, 1.0f);
}
