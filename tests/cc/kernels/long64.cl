/* 64-bit integers beyond scalars: vectors of long, 64-bit atomics (lock
 * table, cc_isel_atomic64.c) and conversions between long and float or
 * narrower integers (cc_isel_convert64.c), per work-item and uniform. */

/* ---- vectors of long ---------------------------------------------------------- */

kernel void longvec(global const long4 *a, global const ulong2 *b, global long *out, long4 k) {
  int i = get_global_id(0);
  long4 x = a[i];
  ulong2 y = b[i];
  long4 s = x + k;                      /* per element, with carries */
  long4 m = x * (long4)(3, -5, 7, 0x100000001L);
  long4 w = x.wzyx;                     /* a swizzle: register moves */
  long2 c = as_long2(y) ^ x.lo;
  ulong2 sh = y >> (ulong2)(1, 33);
  long4 sel = x < k ? x : k;            /* compares and selects per element */
  global long *o = out + 24 * i;
  vstore4(s, 0, o);
  vstore4(m, 1, o);
  vstore4(w, 2, o);
  vstore2(c, 6, o);
  vstore2(as_long2(sh), 7, o);
  vstore4(sel, 4, o);
  int4 halves = as_int4(x.hi);         /* reinterpretation: the words of two longs */
  o[20] = halves.x + halves.y + halves.z + halves.w;
  long8 big = vload8(0, (global const long *)(a + i));
  o[21] = big.s0 + big.s7;              /* s4..s7 come from the next element */
  o[22] = (long)convert_int(y.x);
  o[23] = 0;
}

/* ---- 64-bit atomics ----------------------------------------------------------- */

/* each work-item adds to the counter its value picks; the adds straddle
 * the 2^32 boundary of the low word so the carry must be atomic too */
kernel void hist64(global const uint *in, global long *h, uint nb) {
  int i = get_global_id(0);
  atom_add(&h[in[i] % nb], 0xffffffffL + (long)(in[i] & 7));
}

/* every work-item of every group on the same few words: inc, dec, sub,
 * xchg, and/or/xor, min/max signed and unsigned; results returned */
kernel void atom64_all(global long *s, global ulong *u, global long *ret, global const long *v) {
  int i = get_global_id(0);
  long x = v[i];
  global long *r = ret + 8 * i;
  r[0] = atom_inc(&s[0]);
  r[1] = atom_dec(&s[1]);
  r[2] = atom_sub(&s[2], x);
  atom_min(&s[3], x);
  atom_max(&s[4], x);
  atom_min(&u[0], (ulong)x);
  atom_max(&u[1], (ulong)x);
  atom_and(&u[2], ~((ulong)1 << (i % 64)));
  atom_or(&u[3], (ulong)1 << (i % 64));
  atom_xor(&u[4], (ulong)x);
  r[3] = atom_xchg(&s[5], x);
  r[4] = 0;
}

/* cmpxchg: the work-item that finds the expected value wins the slot */
kernel void cmpxchg64(global long *slot, global long *won) {
  int i = get_global_id(0);
  long want = (long)(i % 4) << 40;
  long mine = ((long)i << 40) | 0xabcdef;
  long old = atom_cmpxchg(&slot[i % 4], want, mine);
  won[i] = old == want;
}

/* local memory: a histogram per group, then copied out */
kernel void hist64_local(global const uint *in, global long *h) {
  local long lh[8];
  int l = get_local_id(0), g = get_group_id(0);
  if (l < 8) lh[l] = (long)0x7ffffffff0L * l;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong inc = 0x100000000UL | in[get_global_id(0)] % 13;
  atom_add((local ulong *)&lh[in[get_global_id(0)] % 8], inc);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8) h[8 * g + l] = lh[l];
}

/* ---- conversions ---------------------------------------------------------------- */

#define NCL 18 /* longs per input */
#define NCF 12 /* floats per input */
#define NCI 8  /* ints per input */
static inline void conv_all(float x, long l, ulong u, int n, global long *ol, global float *of, global int *oi) {
  ol[0] = convert_long(x);
  ol[1] = convert_long_rte(x);
  ol[2] = convert_long_rtz(x);
  ol[3] = convert_long_rtn(x);
  ol[4] = convert_long_rtp(x);
  ol[5] = convert_long_sat(x);
  ol[6] = convert_long_sat_rte(x);
  ol[7] = convert_long_sat_rtn(x);
  ol[8] = convert_long_sat_rtp(x);
  ol[9] = (long)convert_ulong(x);
  ol[10] = (long)convert_ulong_rtp(x);
  ol[11] = (long)convert_ulong_sat(x);
  ol[12] = (long)convert_ulong_sat_rtn(x);
  ol[13] = (long)x;
  ol[14] = convert_long_sat(u);
  ol[15] = (long)convert_ulong_sat(l);
  ol[16] = (long)convert_ulong_sat(n);
  ol[17] = convert_long(n) + (long)convert_ulong((uint)n);
  of[0] = convert_float(l);
  of[1] = convert_float_rte(l);
  of[2] = convert_float_rtz(l);
  of[3] = convert_float_rtn(l);
  of[4] = convert_float_rtp(l);
  of[5] = convert_float(u);
  of[6] = convert_float_rtz(u);
  of[7] = convert_float_rtn(u);
  of[8] = convert_float_rtp(u);
  of[9] = (float)l;
  of[10] = (float)u;
  of[11] = 0;
  oi[0] = convert_int_sat(l);
  oi[1] = (int)convert_uint_sat(l);
  oi[2] = convert_int_sat(u);
  oi[3] = (int)convert_uint_sat(u);
  oi[4] = convert_char_sat(l);
  oi[5] = convert_ushort_sat(l);
  oi[6] = convert_int(l);
  oi[7] = 0;
}

kernel void conv_lanes(global const float *x, global const long *l, global long *ol, global float *of, global int *oi) {
  int i = get_global_id(0);
  conv_all(x[i], l[i], (ulong)l[i], (int)(l[i] >> 7), ol + NCL * i, of + NCF * i, oi + NCI * i);
}

/* the same with uniform values (scalar registers, fcvt with a static rounding mode) */
kernel void conv_uniform(global const float *x, global const long *l, global long *ol, global float *of, global int *oi, int n) {
  for (int i = 0; i < n; i++)
    conv_all(x[i], l[i], (ulong)l[i], (int)(l[i] >> 7), ol + NCL * i, of + NCF * i, oi + NCI * i);
}

/* vector conversions: element by element over the 2-word layout */
kernel void conv_vec(global const float4 *x, global const long4 *l, global long4 *ol, global float4 *of) {
  int i = get_global_id(0);
  ol[i] = convert_long4_sat_rte(x[i]);
  of[i] = convert_float4_rtz(l[i]);
}

/* a long8 in a called function is 64-byte aligned at its absolute private
 * address, whatever the caller's own frame holds */
__attribute__((noinline)) int misalign64(long x) {
  volatile long8 v = (long8)(x);
  volatile uintptr_t at = (uintptr_t)&v; /* through memory: LLVM knows the alignment it asked for */
  return (int)(at & 63) + (int)(v.s7 != x);
}

kernel void frame_align(global int *out) {
  volatile int own = get_global_id(0);
  out[get_global_id(0)] = misalign64(own) + (own != get_global_id(0));
}

/* llvm.{s,u}mul.with.overflow.i64 (from 32-bit halves, cc_lower_int.c) */
kernel void mulo64(global const long *a, global const long *b, global long *out) {
  int i = get_global_id(0);
  long r;
  ulong u;
  int so = __builtin_mul_overflow(a[i], b[i], &r);
  int uo = __builtin_mul_overflow((ulong)a[i], (ulong)b[i], &u);
  out[3 * i] = r;
  out[3 * i + 1] = (long)u;
  out[3 * i + 2] = so | uo << 1;
}

/* the bit builtins on vectors of longs: split into per-element calls of
 * the scalar forms the back end maps (cc_scalarize.c, cc_i64_bits_known) */
kernel void bits64v(global const long2 *a, global const ulong2 *b, global long *out) {
  int i = get_global_id(0);
  long2 x = a[i];
  ulong2 y = b[i];
  long2 c = clz(x), p = popcount(x), r = rotate(x, (long2)(i, 64 - i));
  ulong2 cu = clz(y), pu = popcount(y), ru = rotate(y, (ulong2)(3 * i, i + 1));
  global long *o = out + 12 * i;
  o[0] = c.x, o[1] = c.y, o[2] = p.x, o[3] = p.y, o[4] = r.x, o[5] = r.y;
  o[6] = (long)cu.x, o[7] = (long)cu.y, o[8] = (long)pu.x, o[9] = (long)pu.y, o[10] = (long)ru.x, o[11] = (long)ru.y;
}
