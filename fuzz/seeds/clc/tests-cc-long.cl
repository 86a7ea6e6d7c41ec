/* 64-bit integers (long, ulong) as register pairs: every operation, per
 * work-item (vector registers) and uniform (scalar registers). */
#define NOPS 26
static inline void long_ops(long a, long b, global long *o) {
  ulong ua = (ulong)a, ub = (ulong)b;
  int s = (int)(b & 63);
  o[0] = (long)(ua + ub);
  o[1] = (long)(ua - ub);
  o[2] = (long)(ua * ub);
  o[3] = b ? a / b : 0;
  o[4] = b ? a % b : 0;
  o[5] = ub ? (long)(ua / ub) : 0;
  o[6] = ub ? (long)(ua % ub) : 0;
  o[7] = (long)(ua << s);
  o[8] = (long)(ua >> s);
  o[9] = a >> s;
  o[10] = (a & b) ^ (a | ~b);
  o[11] = (long)((ua << 1) + (ua << 31) + (ua << 32) + (ua << 33) + (ua << 63));
  o[12] = (long)((ua >> 1) + (ua >> 31) + (ua >> 32) + (ua >> 33) + (ua >> 63));
  o[13] = (a >> 1) + (a >> 31) + (a >> 32) + (a >> 33) + (a >> 63);
  o[14] = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 |
          (ua < ub) << 6 | (ua <= ub) << 7 | (ua > ub) << 8 | (ua >= ub) << 9;
  o[15] = a < b ? a : b;
  o[16] = a > b ? a : b;
  o[17] = ua < ub ? (long)ua : (long)ub;
  o[18] = ua > ub ? (long)ua : (long)ub;
  o[19] = (long)(a < 0 ? -ua : ua);
  o[20] = (long)(int)a + (long)(uint)b;
  o[21] = (long)(short)a * (long)(uchar)b;
  o[22] = (int)(a >> 17);
  o[23] = (long)-ua;
  o[24] = (long)(ua * 1000000007UL + 0x123456789abcdefUL);
  o[25] = a / 10 + (long)(ua % 1000);
}

kernel void long_lanes(global const long *a, global const long *b, global long *out) {
  int i = get_global_id(0);
  long_ops(a[i], b[i], out + i * NOPS);
}

kernel void long_uniform(global long *out, long a, long b) { long_ops(a, b, out); }

/* a long carried around a loop whose trip count differs per work-item */
kernel void long_lcg(global const uint *n, global ulong *out, ulong seed) {
  int i = get_global_id(0);
  ulong x = seed + (ulong)i;
  for (uint k = 0; k < n[i]; k++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  out[i] = x;
}

/* bitcasts that change the shape: as_type between scalars and vectors */
kernel void reshape(global const uint *in, global uint *out) {
  int i = get_global_id(0);
  uint x = in[2 * i], y = in[2 * i + 1];
  ushort2 h = as_ushort2(x);
  uchar4 b = as_uchar4(x);
  long l = as_long((uint2)(x, y));
  uint2 u = as_uint2(l * 3);
  ushort4 q = as_ushort4(l);
  out[5 * i] = as_uint((ushort2)(h.y, h.x));
  out[5 * i + 1] = as_uint(b.wzyx);
  out[5 * i + 2] = (uint)(l >> 16);
  out[5 * i + 3] = u.x ^ u.y;
  out[5 * i + 4] = q.x + q.y * 3u + q.z * 5u + q.w * 7u + as_uint(as_float(x) * 0.0f == 0.0f ? 1.0f : 2.0f);
}
