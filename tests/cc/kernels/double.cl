/* double (cl_khr_fp64) in software (docs/compiler.md, "double"): every
 * operation against the host's double in tests/cc/test_cc_double.c */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* per lane: the arithmetic, sign operations, rounding, min/max and the
 * relations of a and b, 20 results and a word of compare bits each */
__kernel void darith(__global const double *a, __global const double *b, __global const double *c,
                     __global double *out, __global uint *rel) {
  int i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  __global double *o = out + 20 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, z);
  o[5] = sqrt(x);
  o[6] = -x;
  o[7] = fabs(x);
  o[8] = floor(x);
  o[9] = ceil(x);
  o[10] = trunc(x);
  o[11] = rint(x);
  o[12] = round(x);
  o[13] = fmin(x, y);
  o[14] = fmax(x, y);
  o[15] = copysign(x, y);
  o[16] = mad(x, y, z);
  o[17] = x * y;
  o[17] = o[17] + z; /* two roundings: not contracted across statements */
  o[18] = x > y ? x : y;
  o[19] = x == y ? 1.0 : 0.25;
  rel[i] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
           isnan(x) << 6 | isinf(x) << 7 | isfinite(x) << 8 | isnormal(x) << 9 | signbit(x) << 10 |
           isunordered(x, y) << 11 | islessgreater(x, y) << 12;
}

/* conversions to and from float and the integer types (in range) */
__kernel void dconv(__global const double *a, __global const float *f, __global const long *l,
                    __global double *od, __global float *of, __global long *ol) {
  int i = get_global_id(0);
  double x = a[i];
  long v = l[i];
  of[i] = (float)x;
  od[6 * i + 0] = (double)f[i];
  od[6 * i + 1] = (double)v;
  od[6 * i + 2] = (double)(ulong)v;
  od[6 * i + 3] = (double)(int)v;
  od[6 * i + 4] = (double)(uint)v;
  od[6 * i + 5] = (double)(short)v;
  /* toward zero; the host check keeps to values each type holds */
  ol[5 * i + 0] = (long)x;
  ol[5 * i + 1] = (long)(ulong)fabs(x);
  ol[5 * i + 2] = (int)(x * 0x1p-32);
  ol[5 * i + 3] = (uint)fabs(x * 0x1p-32);
  ol[5 * i + 4] = (char)(x * 0x1p-60);
}

/* a uniform double argument, a constant table, vectors, a divergent branch
 * and a loop carrying a double */
__constant double tab[4] = {0.1, -2.5, 0x1p-1074, 1e300};

__kernel void dmix(__global const double2 *v, double s, __global double4 *o, __global double *acc) {
  int i = get_global_id(0);
  double2 p = v[i];
  double4 r;
  r.xy = p * s + tab[i & 3];
  r.zw = p.yx / (double2)(3.0, 7.0);
  o[i] = r;
  double t = 0.0;
  if (p.x > 0.0)
    t = sqrt(p.x);
  else
    t = -p.y;
  for (int k = 0; k < (i & 7); k++) t = t * 1.5 + (double)k;
  acc[i] = t;
}

/* the fp64 guard of portable kernels takes the double path: unsuffixed
 * constants and M_PI are double, the result rounded once to float */
#ifdef cl_khr_fp64
typedef double real;
#else
typedef float real;
#endif
__kernel void guard(__global float *out, __global const float *in) {
  uint i = get_global_id(0);
  real x = in[i];
  out[4 * i + 0] = M_PI * x;
  out[4 * i + 1] = 1.e18 * x + 0.1;
  out[4 * i + 2] = sizeof(x) + sizeof(M_PI) + sizeof(0.5);
  out[4 * i + 3] = x / 3.0;
}

/* libclc's double math builtins over the software double: 24 functions
 * checked against the OpenCL 1.2 ULP bounds for double */
#define NM 24
__kernel void dmath(__global const double *xs, __global const double *ys, __global double *out) {
  int i = get_global_id(0);
  double x = xs[i], y = ys[i];
  __global double *o = out + NM * i;
  o[0] = sin(x * 100.0);
  o[1] = cos(x * 100.0);
  o[2] = tan(x * 1.5);
  o[3] = exp(x * 700.0);
  o[4] = exp2(x * 1000.0);
  o[5] = exp10(x * 300.0);
  o[6] = log(y * 1000.0);
  o[7] = log2(y * 1e-300);
  o[8] = log10(y);
  o[9] = pow(y * 10.0, x * 50.0);
  o[10] = atan(x * 50.0);
  o[11] = asin(x);
  o[12] = acos(x);
  o[13] = atan2(x, y - 0.5);
  o[14] = sinh(x * 10.0);
  o[15] = cosh(x * 10.0);
  o[16] = tanh(x * 5.0);
  o[17] = cbrt(x * 1e10);
  o[18] = hypot(x * 1e200, y * 1e200);
  o[19] = fmod(x * 1e5, y + 0.5);
  o[20] = expm1(x);
  o[21] = log1p(y * 10.0);
  o[22] = erf(x * 3.0);
  o[23] = erfc(x * 5.0);
}

/* convert_* with double in every rounding mode and with saturation (from
 * libclc, over the software double), and double vectors with vloadN/vstoreN */
__kernel void dconvm(__global const double *a, __global const long *l, __global float *of, __global int *oi,
                     __global long *ol, __global double *od) {
  int i = get_global_id(0);
  double x = a[i];
  long v = l[i];
  of[4 * i + 0] = convert_float_rte(x);
  of[4 * i + 1] = convert_float_rtz(x);
  of[4 * i + 2] = convert_float_rtp(x);
  of[4 * i + 3] = convert_float_rtn(x);
  oi[6 * i + 0] = convert_int_sat_rte(x);
  oi[6 * i + 1] = convert_int_sat_rtz(x);
  oi[6 * i + 2] = convert_int_sat_rtp(x);
  oi[6 * i + 3] = convert_int_sat_rtn(x);
  oi[6 * i + 4] = (int)convert_uint_sat(x);
  oi[6 * i + 5] = convert_char_sat_rte(x);
  ol[2 * i + 0] = convert_long_sat(x);
  ol[2 * i + 1] = (long)convert_ulong_sat_rtp(x);
  od[5 * i + 0] = convert_double_rte(v);
  od[5 * i + 1] = convert_double_rtz(v);
  od[5 * i + 2] = convert_double_rtp(v);
  od[5 * i + 3] = convert_double_rtn(v);
  od[5 * i + 4] = convert_double_rtz((ulong)v);
}

__kernel void dvload(__global double *p, __global double *q) {
  int i = get_global_id(0);
  double4 v = vload4(i, p);
  double2 w = vload2(2 * i + 1, p);
  double3 t = vload3(i, p + 1);
  vstore4(v.wzyx + (double4)(w, t.xz), i, q);
  vstore3(t * 0.5, i, q + 4 * get_global_size(0));
}

/* vstore_half of double in its five modes, vstore_half4 and vstorea_half2 of
 * double vectors: one rounding from double */
__kernel void dhalf(__global const double *a, __global half *h) {
  int i = get_global_id(0);
  double x = a[i];
  vstore_half(x, 5 * i + 0, h);
  vstore_half_rte(x, 5 * i + 1, h);
  vstore_half_rtz(x, 5 * i + 2, h);
  vstore_half_rtp(x, 5 * i + 3, h);
  vstore_half_rtn(x, 5 * i + 4, h);
  size_t n = get_global_size(0);
  if ((i & 3) == 0) vstore_half4_rtz(vload4(i / 4, a), i / 4, h + 5 * n);
  if ((i & 1) == 0) vstorea_half2_rtp(vload2(i / 2, a), i / 2, h + 6 * n);
}

/* double arguments by value around an int, a private array of double
 * indexed at run time, a __local tree reduction, a noinline function of
 * doubles */
__attribute__((noinline)) double dfn(double x, double y) { return x * y + 1.0; }

__kernel void dmisc(__global double *o, double sa, int sb, double sc, __global const double *in) {
  int i = get_global_id(0), l = get_local_id(0);
  __local double sh[64];
  double pa[8];
  for (int k = 0; k < 8; k++) pa[k] = in[i] * k;
  sh[l] = pa[i & 7] + sa * sb - sc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int st = 32; st > 0; st >>= 1) {
    if (l < st) sh[l] += sh[l + st];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  o[i] = dfn(sh[0], in[i]);
}

/* the mixed vector forms fmin(double4, double) and fmax(double4, double) */
__kernel void dmixed(__global const double4 *v, __global const double *s, __global double4 *o) {
  int i = get_global_id(0);
  o[i] = fmax(v[i], s[i]) - fmin(v[i], 0.5);
}

/* bitselect on the bits of doubles, scalar and double2 (NaN payloads and
 * subnormals pass untouched: no arithmetic); nan(code) a quiet NaN with
 * the code in its low bits, scalar and double2 */
__kernel void dbits(__global const double2 *a, __global const double2 *b, __global const double2 *c, __global double2 *o) {
  int i = get_global_id(0);
  ulong2 code = as_ulong2(a[i]) & 0x7ffffffffffffUL;
  o[3 * i] = bitselect(a[i], b[i], c[i]);
  o[3 * i + 1] = (double2)(bitselect(a[i].x, b[i].y, c[i].y), nan(code.x));
  o[3 * i + 2] = nan(code.yx);
}
