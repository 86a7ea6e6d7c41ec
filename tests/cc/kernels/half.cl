/* half arithmetic (cl_khr_fp16) computed in float and rounded once to half
 * (cc_lower_f16.c), checked against exact references on the host in
 * tests/cc/test_cc_half.c */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void harith(__global const half *a, __global const half *b, __global const half *c, __global half *o,
                     __global uint *rel, __global float *f, __global int *iv) {
  int i = get_global_id(0);
  half x = a[i], y = b[i], z = c[i];
  __global half *p = o + 14 * i;
  p[0] = x + y;
  p[1] = x - y;
  p[2] = x * y;
  p[3] = x / y;
  p[4] = fma(x, y, z);
  p[5] = sqrt(x);
  p[6] = -x;
  p[7] = fabs(x);
  p[8] = floor(x);
  p[9] = fmin(x, y);
  p[10] = (half)iv[i];
  p[11] = sin(x);
  p[12] = x > y ? z : x;
  p[13] = rint(x * (half)0.5f);
  f[i] = x;
  iv[i] = (int)x;
  rel[i] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 | isnan(x) << 6 |
           isinf(x) << 7 | signbit(x) << 8;
}

/* half vectors: loads, stores, element-wise arithmetic and a builtin */
__kernel void hvec(__global const half4 *a, __global half4 *o) {
  int i = get_global_id(0);
  half4 v = a[i], w = a[i + 1];
  o[i] = v * w + fmax(v, w.wzyx);
}

/* convert_half in every rounding mode from float, int and double, and
 * convert_* of half (from the widened float, exact) */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void hconv(__global const float *f, __global const int *n, __global const double *d, __global const half *h,
                    __global half *o, __global int *oi, __global float4 *of) {
  int i = get_global_id(0);
  __global half *p = o + 12 * i;
  p[0] = convert_half(f[i]);
  p[1] = convert_half_rtz(f[i]);
  p[2] = convert_half_rtp(f[i]);
  p[3] = convert_half_rtn(f[i]);
  p[4] = convert_half_rtz(n[i]);
  p[5] = convert_half_rtp(n[i]);
  p[6] = convert_half_rte(d[i]);
  p[7] = convert_half_rtn(d[i]);
  half4 v = convert_half4_rtp(vload4(i, f));
  p[8] = v.x;
  p[9] = v.y;
  p[10] = v.z;
  p[11] = v.w;
  oi[2 * i] = convert_int_sat_rte(h[i] * (half)1000.0f);
  oi[2 * i + 1] = convert_uchar_sat(h[i]);
  of[i] = convert_float4(vload4(i, h));
}

/* builtins of half through the float ones: math, relational (scalar 1/0,
 * vector lanes -1/0), geometric-free element-wise ones */
__kernel void hbuiltin(__global const half *a, __global const half4 *v, __global half *o, __global int *rel,
                       __global short4 *vrel) {
  int i = get_global_id(0);
  half x = a[i];
  __global half *p = o + 6 * i;
  p[0] = exp(x);
  p[1] = log(fabs(x));
  p[2] = pow(fabs(x), (half)1.5f);
  p[3] = mad(x, x, (half)-1.0f);
  p[4] = clamp(x, (half)-2.0f, (half)3.0f);
  p[5] = ceil(x);
  rel[i] = isnan(x) | isinf(x) << 1 | isnormal(x) << 2 | isgreater(x, (half)1.0f) << 3;
  vrel[i] = isless(v[i], v[i].wzyx);
}

/* shuffle and shuffle2 of half vectors with per-item masks (those of ushort) */
__kernel void hshuffle(__global const half4 *a, __global const ushort4 *m, __global half4 *o, __global half8 *o8) {
  int i = get_global_id(0);
  o[i] = shuffle2(a[i], a[i + 1], m[i]);
  o8[i] = shuffle(a[i], as_ushort8((uint4)(m[i].x, m[i].y, m[i].z, m[i].w)));
}

/* the mixed vector forms: fmin(half4, half), step(half, half4), clamp(half4, half, half) */
__kernel void hmixed(__global const half4 *v, __global const half *s, __global half4 *o) {
  int i = get_global_id(0);
  o[3 * i] = fmin(v[i], s[i]);
  o[3 * i + 1] = step(s[i], v[i]);
  o[3 * i + 2] = clamp(v[i], (half)-1.0f, s[i]);
}

/* more half builtins through float: geometric ones on whole vectors,
 * select (as ushort), nan, and those with pointer or int parameters */
__kernel void hmore(__global const half4 *v, __global const half *x, __global const ushort *u, __global half *o,
                    __global int *oi, __global half *om) {
  int i = get_global_id(0);
  half4 a = v[i], b = v[i + 1];
  __global half *p = o + 12 * i;
  p[0] = dot(a, b);
  p[1] = length(a);
  half4 nv = normalize(a);
  p[2] = nv.x;
  p[3] = nv.w;
  half4 s = select(a, b, isless(a, b));
  p[4] = s.y;
  p[5] = nan(u[i]);
  int e, q;
  p[6] = frexp(x[i], &e);
  oi[2 * i] = e;
  p[7] = modf(x[i], om + i);
  p[8] = remquo(x[i], (half)1.75f, &q);
  oi[2 * i + 1] = q;
  p[9] = ldexp(x[i], -3);
  half c;
  p[10] = sincos(x[i], &c);
  p[11] = c;
}

/* bitselect of half works on the bits (never on values widened to float);
 * select of halfN with a ushortN mask is libclc's ushortN one (its mangled
 * name substitutes the repeated vector type) */
__kernel void hbits(__global const half2 *a, __global const half2 *b, __global const half2 *c,
                    __global const ushort2 *m, __global half2 *o, __global half *os) {
  int i = get_global_id(0);
  o[2 * i] = bitselect(a[i], b[i], c[i]);
  o[2 * i + 1] = select(a[i], b[i], m[i]);
  os[i] = bitselect(a[i].x, b[i].y, c[i].x);
}
