/* Vector forms of the builtins the back end maps itself (split into scalar
 * calls), the relational builtins, select, any/all, shuffle/shuffle2 and the
 * half loads and stores in every rounding mode (checked against plain C by
 * tests/cc/test_cc_vecbuiltins.c) */

/* out[28 i ..]: integer lanes; a: 4 words per work-item (the first four
 * also as uniform values) */
kernel void int_vec(global const uint *a, global uint *out) {
  int i = get_global_id(0);
  uint4 x = vload4(i, a);
  uint4 y = x.yzwx;
  global uint *o = out + 28 * i;
  uint4 u = vload4(0, a);
  vstore4(popcount(u) ^ rotate(u, (uint4)(3)) ^ as_uint4(clz(as_uchar16(u))), 0, o + 24); /* 24..27 */
  uchar4 c = as_uchar4(x.x);
  short2 s = as_short2(x.y);
  int3 v = as_int3(x.xyz);
  vstore4(as_uint4(convert_int4(clz(c))), 0, o);       /* 0..3 */
  vstore2(as_uint2(convert_int2(popcount(s))), 0, o + 4); /* 4..5 */
  vstore4(rotate(x, y), 0, o + 6);                     /* 6..9 */
  vstore3(as_uint3(min(v, 1000)) + as_uint3(max(v, as_int3(y.xyz))), 0, o + 10); /* 10..12 */
  vstore4(clamp(x, 100u, 1u << 30) ^ popcount(y), 0, o + 13); /* 13..16 */
  o[17] = as_uint(rotate(c, (uchar4)(1, 2, 3, 9)));
  vstore4(as_uint4(abs(as_int4(x))), 0, o + 18);       /* 18..21 */
  o[22] = as_uint(bitselect(x.zw, y.xy, x.wz).x);
  o[23] = as_uint(clz(as_ushort2(x.w)));
}

/* out[36 i ..]: float lanes; a: 4 floats per work-item (the first four
 * also as uniform values) */
kernel void float_vec(global const float *a, global float *out) {
  int i = get_global_id(0);
  float4 x = vload4(i, a), y = x.wzyx;
  float3 t = x.xyz;
  global float *o = out + 36 * i;
  float4 u = vload4(0, a);
  vstore4(floor(u) + fma(u, u.yxwz, fabs(u)) + fmax(u, u.zwxy), 0, o + 32); /* 32..35 */
  vstore4(fabs(x) + floor(x), 0, o);   /* 0..3 */
  vstore4(ceil(x), 0, o + 4);          /* 4..7 */
  vstore3(trunc(t) - round(t), 0, o + 8); /* 8..10 */
  vstore4(rint(x), 0, o + 11);         /* 11..14 */
  vstore4(fma(x, y, 0.5f), 0, o + 15); /* 15..18 */
  vstore2(fmin(x.xy, y.xy) + fmax(x.zw, 1.0f), 0, o + 19); /* 19..20 */
  vstore4(sqrt(fabs(x)), 0, o + 21);   /* 21..24 */
  vstore4(copysign(x, y), 0, o + 25);  /* 25..28 */
  vstore2(clamp(x.xy, -2.0f, 3.0f), 0, o + 29); /* 29..30 */
  o[31] = mad(x, y, x).z;
}

/* out[20 i ..]: relational results of a[2 i], a[2 i + 1] as scalars (1/0)
 * and in float2 lanes (-1/0), any/all, select */
kernel void relational(global const float *a, global int *out) {
  int i = get_global_id(0);
  float x = a[2 * i], y = a[2 * i + 1];
  float2 v = (float2)(x, y), w = (float2)(y, x);
  global int *o = out + 20 * i;
  o[0] = isequal(x, y) | isnotequal(x, y) << 1 | isgreater(x, y) << 2 | isgreaterequal(x, y) << 3 | isless(x, y) << 4 |
         islessequal(x, y) << 5 | islessgreater(x, y) << 6 | isordered(x, y) << 7 | isunordered(x, y) << 8;
  o[1] = isfinite(x) | isinf(x) << 1 | isnan(x) << 2 | isnormal(x) << 3 | signbit(x) << 4;
  int2 r[9] = {isequal(v, w), isnotequal(v, w), isgreater(v, w), isgreaterequal(v, w), isless(v, w),
               islessequal(v, w), islessgreater(v, w), isordered(v, w), isunordered(v, w)};
  for (int k = 0; k < 9; k++) o[2 + k] = r[k].x;
  int4 c4 = (int4)(isnan(v), isnormal(v));
  vstore4(c4, 0, o + 11); /* 11..14 */
  o[15] = signbit(v).y;
  o[16] = any(isgreater(v, 1.0f)) | all(isless(v, 1.0f)) << 1;
  int4 m = (int4)(as_int(x), as_int(y), as_int(-x), 0);
  o[17] = any(m) | all(m) << 1 | any(m.xy) << 2;
  o[18] = as_int(select(x, y, isless(x, y)));
  o[19] = select((int2)(1, 2), (int2)(3, 4), isgreater(v, w)).x * 10 + select((int2)(1, 2), (int2)(3, 4), isgreater(v, w)).y;
}

/* out[16 i ..]: shuffle/shuffle2 with a constant and a per-work-item mask */
kernel void shuffles(global const uint *a, global const uint *masks, global uint *out) {
  int i = get_global_id(0);
  uint4 x = vload4(i, a), y = x * 3u + 1u;
  uint8 z = (uint8)(x, y);
  global uint *o = out + 16 * i;
  vstore4(shuffle(x, (uint4)(3, 0, 2, 1)), 0, o);
  vstore4(shuffle2(x, y, (uint4)(7, 0, 5, 2)), 0, o + 4);
  uint4 m = vload4(i, masks);
  vstore4(shuffle(x, m), 0, o + 8);
  vstore2(shuffle2(x, y, m.xy), 0, o + 12);
  vstore2(shuffle(z, m.zw), 0, o + 14);
}

/* half loads and stores: h[i] -> f[i] (vload_half, vload_half4 and
 * vloada_half2 agree), f[i] -> five stores (default, rte, rtz, rtp, rtn) */
kernel void halves(global const ushort *h, global float *f, global const float *x, global ushort *out) {
  int i = get_global_id(0);
  global const half *hp = (global const half *)h;
  float a = vload_half(4 * i + 1, hp);
  float4 b = vload_half4(i, hp);
  float2 c = vloada_half2(2 * i + 1, hp);
  f[4 * i] = b.x;
  f[4 * i + 1] = as_uint(a) == as_uint(b.y) ? b.y : -12345.0f;
  f[4 * i + 2] = c.x;
  f[4 * i + 3] = c.y;
  global half *o = (global half *)out;
  float v = x[i];
  vstore_half(v, 5 * i, o);
  vstore_half_rte(v, 5 * i + 1, o);
  vstore_half_rtz(v, 5 * i + 2, o);
  vstore_half_rtp(v, 5 * i + 3, o);
  vstore_half_rtn(v, 5 * i + 4, o);
}

/* the same stores from four lanes at once and through private memory */
kernel void halves4(global const float *x, global ushort *out) {
  int i = get_global_id(0);
  float4 v = vload4(i, x);
  global half *o = (global half *)out + 20 * i;
  ushort q[4];
  private half *p = (private half *)q;
  vstore_half4_rtz(v, 0, p);
  vstorea_half4_rtp(v, 1, o);
  vstore_half4_rtn(v, 2, o);
  vstore_half4(vload_half4(0, p), 3, o);
  vstore_half4_rte(v, 4, o);
  vstore_half4(v, 0, o);
}

/* out[8 i ..]: <= and >= of per-lane signed and unsigned values (the .vv
 * compare forms; libclc's remainder depends on them) and remainder itself */
kernel void compares(global const int *a, global const float *x, global int *out, global float *rem) {
  int i = get_global_id(0);
  int p = a[2 * i], q = a[2 * i + 1];
  global int *o = out + 8 * i;
  o[0] = p <= q;
  o[1] = p >= q;
  o[2] = (uint)p <= (uint)q;
  o[3] = (uint)p >= (uint)q;
  o[4] = p < q;
  o[5] = p > q;
  o[6] = (uint)p < (uint)q;
  o[7] = (uint)p > (uint)q;
  rem[i] = remainder(x[2 * i], x[2 * i + 1]);
}
